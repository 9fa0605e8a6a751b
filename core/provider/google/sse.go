package google

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// maxSSELine bounds one line of the event stream (genai's limit too).
const maxSSELine = 256 << 20

// sseDecoder reads a Server-Sent Events stream as Gemini sends it
// (?alt=sse): lines end in LF, CRLF or CR; "data:" lines (one space after
// the colon dropped) are joined with "\n"; a blank line ends an event.
// Comments (":…") and the event, id and retry fields carry nothing for
// Gemini and are skipped. Any other line means the body is not an event
// stream (an error page, a bare JSON error) and is reported as a
// *badLineError. At the end of the body, an event still missing its blank
// line is returned rather than dropped.
type sseDecoder struct {
	sc   *bufio.Scanner
	data []byte
	has  bool
	// touch, if set, hears of every line (provider.Toucher), so keep-alive
	// comments keep an idle watchdog quiet.
	touch func()
}

// newSSEDecoder reads r, failing on a line longer than maxLine bytes.
func newSSEDecoder(r io.Reader, maxLine int) *sseDecoder {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(maxLine, 64<<10)), maxLine)
	sc.Split(scanSSELines)
	return &sseDecoder{sc: sc}
}

// badLineError is a line that is not part of an event stream.
type badLineError struct{ line []byte }

func (e *badLineError) Error() string {
	line := e.line
	if len(line) > 200 {
		line = line[:200]
	}
	return fmt.Sprintf("unexpected line %q in the event stream", line)
}

// next returns the data of the next event that has any, or io.EOF at the
// end of the stream, or the read error that ended it.
func (d *sseDecoder) next() ([]byte, error) {
	for d.sc.Scan() {
		if d.touch != nil {
			d.touch()
		}
		line := d.sc.Bytes()
		if len(line) == 0 {
			if d.has {
				return d.take(), nil
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, found := bytes.Cut(line, []byte(":"))
		if found {
			value = bytes.TrimPrefix(value, []byte(" "))
		}
		switch string(field) {
		case "data":
			if d.has {
				d.data = append(d.data, '\n')
			}
			d.data = append(d.data, value...)
			d.has = true
		case "event", "id", "retry":
		default:
			return nil, &badLineError{line: bytes.Clone(line)}
		}
	}
	if err := d.sc.Err(); err != nil {
		return nil, err
	}
	if d.has {
		return d.take(), nil
	}
	return nil, io.EOF
}

func (d *sseDecoder) take() []byte {
	data := d.data
	d.data, d.has = nil, false
	return data
}

// scanSSELines splits at LF, CRLF or a lone CR, without the terminator.
func scanSSELines(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\n' {
			return i + 1, data[:i], nil
		}
		if i+1 < len(data) {
			if data[i+1] == '\n' {
				return i + 2, data[:i], nil
			}
			return i + 1, data[:i], nil
		}
		if atEOF {
			return i + 1, data[:i], nil
		}
		return 0, nil, nil // a CR at the end: wait to see whether LF follows
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}
