package jsonrpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// MaxMessageBytes is the largest message accepted, the ACP TypeScript
// SDK's DEFAULT_MAX_MESSAGE_BYTES.
const MaxMessageBytes = 32 << 20

// Stream is the newline-delimited codec (ACP over stdio): one message per
// line. A line that is not a message is not the end of the stream: it
// comes back from ReadObject as a *MessageError or *json.SyntaxError, which
// Conn answers before reading on; a line over the limit is skipped without
// being kept in memory.
type Stream struct {
	r      *bufio.Reader
	w      *bufio.Writer
	closer io.Closer
	maxLen int
	// wmu guards w for callers other than Conn (whose writes are ordered
	// already).
	wmu sync.Mutex
}

var (
	_ jsonrpc2.ObjectStream = (*Stream)(nil)
	_ BufferedStream        = (*Stream)(nil)
)

// NewStream returns a Stream reading r and writing w; closer (may be nil)
// is closed by Close.
func NewStream(r io.Reader, w io.Writer, closer io.Closer) *Stream {
	return &Stream{r: bufio.NewReaderSize(r, 64<<10), w: bufio.NewWriterSize(w, 64<<10), closer: closer, maxLen: MaxMessageBytes}
}

// SetMaxMessageBytes changes the line limit (tests).
func (s *Stream) SetMaxMessageBytes(n int) { s.maxLen = n }

// ReadObject reads the next non-empty line into v (json.Unmarshal). The
// line is v's to keep: it is never reused.
func (s *Stream) ReadObject(v any) error {
	for {
		line, tooLong, err := s.readLine()
		if err != nil {
			return err
		}
		if tooLong {
			return &MessageError{Code: jsonrpc2.CodeInvalidRequest, Reason: fmt.Sprintf("message exceeds %d bytes", s.maxLen)}
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		return json.Unmarshal(line, v)
	}
}

// readLine returns the next line without its newline. Lines longer than
// maxLen are consumed and reported as tooLong without being kept in memory.
// A long line is gathered as chunks and joined once at its exact size
// (appending to one growing slice allocated ~5× a 31 MB line); the chunks
// of a huge one are given back before it is decoded.
func (s *Stream) readLine() (line []byte, tooLong bool, err error) {
	var chunks [][]byte
	size := 0
	for {
		chunk, isPrefix, err := s.r.ReadLine()
		if err != nil {
			if errors.Is(err, io.EOF) && size > 0 {
				return s.joinChunks(chunks, size), tooLong, nil
			}
			return nil, false, err
		}
		if !tooLong {
			if size+len(chunk) > s.maxLen {
				tooLong, chunks, size = true, nil, 0
			} else {
				chunks, size = append(chunks, bytes.Clone(chunk)), size+len(chunk)
			}
		}
		if !isPrefix {
			return s.joinChunks(chunks, size), tooLong, nil
		}
	}
}

// HugeMessage is the size from which a message's transient copies are
// handed back to the OS as soon as they are garbage (a 31 MB prompt line
// gathered in chunks, then joined, then decoded would otherwise keep three
// times its size resident for the rest of the turn).
const HugeMessage = 8 << 20

func (s *Stream) joinChunks(chunks [][]byte, size int) []byte {
	if len(chunks) == 1 {
		return chunks[0]
	}
	out := make([]byte, 0, size)
	for i, c := range chunks {
		out = append(out, c...)
		chunks[i] = nil
	}
	if size >= HugeMessage {
		debug.FreeOSMemory()
	}
	return out
}

// WriteObject writes obj as one line and flushes; a json.RawMessage is
// written as it is.
func (s *Stream) WriteObject(obj any) error {
	b, ok := obj.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(obj); err != nil {
			return err
		}
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := s.writeLine(b); err != nil {
		return err
	}
	return s.w.Flush()
}

// WriteBuffered writes one encoded message as a line without flushing.
func (s *Stream) WriteBuffered(frame []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.writeLine(frame)
}

func (s *Stream) writeLine(b []byte) error {
	_, _ = s.w.Write(b)
	return s.w.WriteByte('\n')
}

// Flush writes out buffered lines.
func (s *Stream) Flush() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.w.Flush()
}

// Close closes the underlying closer, if any.
func (s *Stream) Close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}
