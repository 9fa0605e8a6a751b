package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// MaxMessageBytes is the largest line we accept, the ACP TypeScript SDK's
// DEFAULT_MAX_MESSAGE_BYTES.
const MaxMessageBytes = 32 << 20

// Stream is a newline-delimited JSON-RPC 2.0 ObjectStream that survives bad
// input: a line that is not JSON, a batch, a line that is not a JSON-RPC
// message, or an oversized line is answered with the matching JSON-RPC error
// and reading goes on with the next line. jsonrpc2's own streams close the
// connection on the first bad line.
type Stream struct {
	r      *bufio.Reader
	w      *bufio.Writer
	closer io.Closer
	// wmu serialises our own frames and error replies with the Conn's
	// writes.
	wmu    sync.Mutex
	maxLen int
	// OnReject, if set, is told about every rejected line (for logs).
	OnReject func(code int64, reason string)
	// OnEOF, if set, runs when the input ends, before ReadObject reports
	// it: the connection stays writable meanwhile, so requests already read
	// can still be answered.
	OnEOF func()
}

// NewStream returns a Stream reading r and writing w; closer (may be nil) is
// closed by Close.
func NewStream(r io.Reader, w io.Writer, closer io.Closer) *Stream {
	return &Stream{r: bufio.NewReaderSize(r, 64<<10), w: bufio.NewWriterSize(w, 64<<10), closer: closer, maxLen: MaxMessageBytes}
}

var _ jsonrpc2.ObjectStream = (*Stream)(nil)

// WriteObject writes obj as one line.
func (s *Stream) WriteObject(obj any) error {
	b, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return s.writeLine(b)
}

func (s *Stream) writeLine(b []byte) error { return s.WriteFrame(b, true) }

// WriteFrame writes one already-encoded message as a line. With flush
// false it stays buffered (a burst such as a session/load replay then costs
// one write per 64 KiB instead of one per frame) until the next flushing
// write or Flush.
func (s *Stream) WriteFrame(b []byte, flush bool) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.w.Write(b)
	if err := s.w.WriteByte('\n'); err != nil {
		return err
	}
	if flush {
		return s.w.Flush()
	}
	return nil
}

// Flush writes out buffered frames.
func (s *Stream) Flush() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.w.Flush()
}

// ReadObject reads the next valid JSON-RPC message into v, answering and
// skipping invalid lines. It returns io.EOF when the input ends.
func (s *Stream) ReadObject(v any) error {
	for {
		line, tooLong, err := s.readLine()
		if err != nil {
			if s.OnEOF != nil {
				s.OnEOF()
			}
			return err
		}
		if tooLong {
			s.reject(nil, jsonrpc2.CodeInvalidRequest, fmt.Sprintf("message exceeds %d bytes", s.maxLen))
			continue
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		id, code, reason := classify(line)
		if code != 0 {
			s.reject(id, code, reason)
			continue
		}
		line = stashPromptParams(line)
		if err := json.Unmarshal(line, v); err != nil {
			s.reject(id, jsonrpc2.CodeInvalidRequest, "invalid JSON-RPC message: "+err.Error())
			continue
		}
		return nil
	}
}

// readLine returns the next line without its newline. Lines longer than
// maxLen are consumed and reported as tooLong without being kept in memory.
// A long line is gathered as chunks and joined once at its exact size
// (appending to one growing slice allocated ~5× a 31 MB line).
func (s *Stream) readLine() (line []byte, tooLong bool, err error) {
	var chunks [][]byte
	size := 0
	for {
		chunk, isPrefix, err := s.r.ReadLine()
		if err != nil {
			if errors.Is(err, io.EOF) && size > 0 {
				return joinChunks(chunks, size), tooLong, nil
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
			return joinChunks(chunks, size), tooLong, nil
		}
	}
}

func joinChunks(chunks [][]byte, size int) []byte {
	if len(chunks) == 1 {
		return chunks[0]
	}
	out := make([]byte, 0, size)
	for i, c := range chunks {
		out = append(out, c...)
		chunks[i] = nil
	}
	return out
}

// envelope is the part of a message we validate before jsonrpc2 sees it.
// The members are raw (not pointers) so that a present JSON null ("result":
// null, a valid empty result) is told apart from an absent member.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  *string         `json:"method"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// classify returns a non-zero code when line is not a message we accept, and
// the id to answer with (nil → null).
func classify(line []byte) (*json.RawMessage, int64, string) {
	switch line[0] {
	case '[':
		if !json.Valid(line) {
			return nil, jsonrpc2.CodeParseError, "parse error"
		}
		return nil, jsonrpc2.CodeInvalidRequest, "batch requests are not supported"
	case '{':
	default:
		return nil, jsonrpc2.CodeParseError, "parse error"
	}
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		if !json.Valid(line) {
			return nil, jsonrpc2.CodeParseError, "parse error"
		}
		return nil, jsonrpc2.CodeInvalidRequest, "invalid JSON-RPC message: " + err.Error()
	}
	// A broken response's id is never echoed: the client would take the
	// error for the answer to its own request with that id.
	var id *json.RawMessage
	if len(env.Result) == 0 && len(env.Error) == 0 {
		id = validID(env.ID)
	}
	if env.JSONRPC != "2.0" {
		return id, jsonrpc2.CodeInvalidRequest, `"jsonrpc" must be "2.0"`
	}
	if env.Method != nil {
		if *env.Method == "" {
			return id, jsonrpc2.CodeInvalidRequest, "method must not be empty"
		}
		return nil, 0, ""
	}
	if len(env.ID) > 0 && (len(env.Result) > 0 || len(env.Error) > 0) {
		return nil, 0, ""
	}
	return id, jsonrpc2.CodeInvalidRequest, "message is neither a request nor a response"
}

// validID keeps a string or number id to echo back; anything else is null.
func validID(raw json.RawMessage) *json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return &raw
	}
	return nil
}

func (s *Stream) reject(id *json.RawMessage, code int64, reason string) {
	if s.OnReject != nil {
		s.OnReject(code, reason)
	}
	idJSON := json.RawMessage("null")
	if id != nil {
		idJSON = *id
	}
	msg := map[int64]string{jsonrpc2.CodeParseError: "Parse error", jsonrpc2.CodeInvalidRequest: "Invalid Request"}[code]
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", idJSON, rpcError{Code: code, Message: msg, Data: reason}})
	_ = s.writeLine(b)
}

type rpcError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

// Close closes the underlying closer, if any.
func (s *Stream) Close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}
