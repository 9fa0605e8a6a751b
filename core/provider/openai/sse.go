package openai

import (
	"bytes"
	"errors"
	"io"

	"github.com/goose-acp/goose-acp/core/provider/sse"
)

// sseOptions read a Chat Completions or Responses stream: every "data:"
// line is one JSON chunk, read as soon as it arrives (servers that leave
// out the blank line between events still stream); a line the body ends
// in is kept (and read as cut); one line may hold up to 256 MiB.
var sseOptions = sse.Options{MaxLine: 256 << 20, KeepUnfinished: true, LineEvents: true}

// sseData is an io.Reader over the payloads of an SSE stream's "data:"
// lines, each followed by a newline, so a json.Decoder can read the chunks
// straight out of the stream. It ends (io.EOF) at "data: [DONE]"; other
// lines (event:, id:, ":" comments, blanks) are skipped.
type sseData struct {
	events  *sse.Reader
	pending []byte
	newline bool // a newline is owed after the current payload
	done    bool // saw [DONE]
	err     error
}

func newSSEData(r io.Reader) *sseData {
	return &sseData{events: sse.NewReader(r, sseOptions)}
}

var doneMarker = []byte("[DONE]")

func (s *sseData) Read(p []byte) (int, error) {
	for len(s.pending) == 0 {
		if s.newline {
			s.newline = false
			if len(p) == 0 {
				return 0, nil
			}
			p[0] = '\n'
			return 1, nil
		}
		if s.done {
			return 0, io.EOF
		}
		if s.err != nil {
			return 0, s.err
		}
		ev, err := s.events.Next()
		switch {
		case err != nil:
			s.err = err
		case bytes.Equal(bytes.TrimSpace(ev.Data), doneMarker):
			s.done = true
		default:
			// A line cut by EOF gets no newline, so a truncated chunk
			// reads as unexpected EOF rather than a syntax error.
			s.pending, s.newline = ev.Data, !ev.Cut
		}
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

// sawDone reports whether the stream ended with "data: [DONE]".
func (s *sseData) sawDone() bool { return s.done }

// readErr is the transport error that ended the stream, if any (io.EOF
// for a clean close without [DONE]).
func (s *sseData) readErr() error {
	if s.err == nil || errors.Is(s.err, io.EOF) && s.done {
		return nil
	}
	return s.err
}
