package anthropic

import (
	"bufio"
	"bytes"
	"io"
)

// maxSSELine bounds one line of the event stream (32 MiB, the limit
// anthropic-sdk-go's decoder had); a longer line fails the stream.
const maxSSELine = 32 << 20

// sseEvent is one server-sent event: its "event:" name and its "data:"
// lines joined by "\n".
type sseEvent struct {
	name string
	data []byte
}

// sseReader splits a text/event-stream body into events. Lines end in
// "\n" or "\r\n"; "event:" sets the name, each "data:" line adds to the
// data, one space after the colon is dropped, and other fields and ":"
// comments are ignored. A blank line ends an event, which is reported if
// it had a name or any data line (so an "error" event is never lost for
// lack of data). An event the stream ends in before its blank line is
// discarded, as the SSE specification says.
type sseReader struct {
	sc   *bufio.Scanner
	data bytes.Buffer
	ev   sseEvent
	err  error
	// touch, if set, hears of every line (provider.Toucher): tool-call
	// arguments arrive as many deltas that yield nothing until the block
	// ends, and must not look like a stalled stream.
	touch func()
}

func newSSEReader(r io.Reader) *sseReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxSSELine)
	return &sseReader{sc: sc}
}

var (
	sseColon = []byte(":")
	sseSpace = []byte(" ")
)

// next reads the next event into ev; false means the stream ended, with
// err set if it failed. ev.data is valid until the following call.
func (r *sseReader) next() bool {
	name, hasData := "", false
	r.data.Reset()
	for r.sc.Scan() {
		if r.touch != nil {
			r.touch()
		}
		line := r.sc.Bytes()
		if len(line) == 0 {
			if name == "" && !hasData {
				continue
			}
			r.ev = sseEvent{name: name, data: r.data.Bytes()}
			return true
		}
		field, value, _ := bytes.Cut(line, sseColon)
		value = bytes.TrimPrefix(value, sseSpace)
		switch string(field) {
		case "event":
			name = string(value)
		case "data":
			if hasData {
				r.data.WriteByte('\n')
			}
			r.data.Write(value)
			hasData = true
		}
	}
	r.err = r.sc.Err()
	return false
}
