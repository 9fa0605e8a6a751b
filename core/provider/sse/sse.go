package sse

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// Options are what the backends' streams differ in.
type Options struct {
	// MaxLine bounds one line in bytes; a longer line fails the stream
	// with bufio.ErrTooLong.
	MaxLine int
	// Strict: a line that is not blank, a ":" comment or an event, data,
	// id or retry field means the body is not an event stream (an error
	// page, a bare JSON error) and fails it with a *LineError.
	Strict bool
	// KeepUnfinished: an event the body ends in before its blank line is
	// still returned. Without it it is dropped, as the SSE specification
	// says.
	KeepUnfinished bool
	// LineEvents: every data line is an event of its own, returned as soon
	// as it is read (OpenAI's chunks are one line each, and servers that
	// leave out the blank line still stream).
	LineEvents bool
}

// Event is one server-sent event: its "event:" name and its "data:"
// lines joined by "\n". Data is valid until the next call to Next.
type Event struct {
	Name    string
	Data    []byte
	HasData bool
	// Cut: the body ended inside the event's last line (no line end), so
	// its data is likely truncated.
	Cut bool
}

// LineError is a line that is not part of an event stream (Strict).
type LineError struct{ Line []byte }

func (e *LineError) Error() string {
	line := e.Line
	if len(line) > 200 {
		line = line[:200]
	}
	return fmt.Sprintf("unexpected line %q in the event stream", line)
}

// Reader reads events from a text/event-stream body. Lines end in LF,
// CRLF or a lone CR; one space after a field's colon is dropped; a field
// line without a colon has an empty value; a blank line ends an event,
// which is returned when it had a name or any data line (so an "error"
// event is never lost for lack of data).
type Reader struct {
	sc   *bufio.Scanner
	opts Options
	data []byte
	cut  bool // the last line read had no line end
	// Touch, if set, hears of every line: keep-alive comments and deltas
	// that yield nothing yet must not look like a stalled stream.
	Touch func()
}

// NewReader reads r with opts.
func NewReader(r io.Reader, opts Options) *Reader {
	rd := &Reader{opts: opts}
	rd.sc = bufio.NewScanner(r)
	rd.sc.Buffer(make([]byte, 0, min(opts.MaxLine, 64<<10)), opts.MaxLine)
	rd.sc.Split(rd.scanLines)
	return rd
}

// Next returns the next event, io.EOF at the end of the body, or the
// error that ended it (a read error, bufio.ErrTooLong, a *LineError).
func (r *Reader) Next() (Event, error) {
	ev := Event{}
	r.data = r.data[:0]
	for r.sc.Scan() {
		if r.Touch != nil {
			r.Touch()
		}
		line := r.sc.Bytes()
		if len(line) == 0 {
			if ev.Name == "" && !ev.HasData {
				continue
			}
			ev.Data = r.data
			return ev, nil
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			ev.Name = string(value)
		case "data":
			if r.opts.LineEvents {
				return Event{Name: ev.Name, Data: value, HasData: true, Cut: r.cut}, nil
			}
			if ev.HasData {
				r.data = append(r.data, '\n')
			}
			r.data = append(r.data, value...)
			ev.HasData = true
		case "", "id", "retry":
		default:
			if r.opts.Strict {
				return Event{}, &LineError{Line: bytes.Clone(line)}
			}
		}
	}
	if err := r.sc.Err(); err != nil {
		return Event{}, err
	}
	if r.opts.KeepUnfinished && (ev.Name != "" || ev.HasData) {
		ev.Data, ev.Cut = r.data, r.cut
		return ev, nil
	}
	return Event{}, io.EOF
}

// scanLines splits at LF, CRLF or a lone CR, without the terminator, and
// notes whether the body ended inside the line. It looks for LF and then
// for a CR before it with IndexByte (vectorised), since a lone CR is rare.
func (r *Reader) scanLines(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	r.cut = false
	lf := bytes.IndexByte(data, '\n')
	head := data
	if lf >= 0 {
		head = data[:lf]
	}
	if cr := bytes.IndexByte(head, '\r'); cr >= 0 {
		switch {
		case cr+1 < len(data) && data[cr+1] == '\n':
			return cr + 2, data[:cr], nil
		case cr+1 < len(data) || atEOF:
			return cr + 1, data[:cr], nil
		}
		return 0, nil, nil // a CR at the end: wait to see whether LF follows
	}
	if lf >= 0 {
		return lf + 1, data[:lf], nil
	}
	if atEOF {
		r.cut = true
		return len(data), data, nil
	}
	return 0, nil, nil
}
