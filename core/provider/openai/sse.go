package openai

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// sseData is an io.Reader over the payloads of an SSE stream's "data:"
// lines, each followed by a newline, so a json.Decoder can read the chunks
// straight out of the stream. It ends (io.EOF) at "data: [DONE]"; other
// lines (event:, id:, ":" comments, blanks) are skipped. Payload slices
// alias the bufio buffer and are handed out before the next read.
type sseData struct {
	br      *bufio.Reader
	pending []byte
	newline bool // a newline is owed after the current payload
	inData  bool // the current line is a data line continued past the buffer
	cont    bool // the current line did not fit the buffer
	done    bool // saw [DONE]
	err     error
	// touch, if set, is told about every line received (the idle
	// watchdog's liveness signal).
	touch func()
}

func newSSEData(r io.Reader) *sseData {
	return &sseData{br: bufio.NewReaderSize(r, 64<<10)}
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
		s.nextLine()
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

// nextLine reads one line (or the next buffer-full of a long line) and
// sets pending to its data payload, if any.
func (s *sseData) nextLine() {
	line, err := s.br.ReadSlice('\n')
	if len(line) > 0 && s.touch != nil {
		s.touch()
	}
	switch {
	case err == bufio.ErrBufferFull:
	case err != nil:
		s.err = err
		if len(line) == 0 {
			return
		}
	}
	complete := err == nil || (err != nil && err != bufio.ErrBufferFull)
	if !s.cont {
		s.inData = false
		if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			s.inData = true
			line = bytes.TrimPrefix(rest, []byte(" "))
		}
	}
	s.cont = !complete
	if !s.inData {
		return
	}
	if complete {
		line = bytes.TrimRight(line, "\r\n")
		if bytes.Equal(bytes.TrimSpace(line), doneMarker) {
			s.done = true
			return
		}
		// A line cut by EOF gets no newline, so a truncated chunk reads as
		// unexpected EOF rather than a syntax error.
		s.newline = err == nil
	}
	s.pending = line
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
