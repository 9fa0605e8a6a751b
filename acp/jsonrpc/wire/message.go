package wire

import (
	"bytes"
	"encoding/json"
)

// The JSON-RPC 2.0 error codes of a message that cannot be read
// (jsonrpc2's CodeParseError and CodeInvalidRequest).
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
)

// MessageError is a message the connection answers with an error and
// skips; the stream goes on. ID is the id to answer with (nil: null).
type MessageError struct {
	ID     json.RawMessage
	Code   int64
	Reason string
}

func (e *MessageError) Error() string { return e.Reason }

func parseError() error {
	return &MessageError{Code: CodeParseError, Reason: "parse error"}
}

// Invalid is the error answering a message that is JSON but not a valid
// JSON-RPC message, echoing id (nil: null).
func Invalid(id json.RawMessage, reason string) error {
	return &MessageError{ID: id, Code: CodeInvalidRequest, Reason: reason}
}

// Decode reads the members of one message frame, which the caller has
// validated as JSON (json.Unmarshal does before a decoder's
// UnmarshalJSON; json.Valid otherwise). echo is the id an error about the
// message answers with: a request's string or number id, never a broken
// response's (the client would take the error for the answer to its own
// request with that id). The error is a *MessageError: not an object, a
// batch, or "jsonrpc" other than "2.0".
func Decode(b []byte) (env Envelope, echo json.RawMessage, err error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return env, nil, parseError()
	}
	switch b[0] {
	case '[':
		return env, nil, Invalid(nil, "batch requests are not supported")
	case '{':
	default:
		return env, nil, parseError()
	}
	if !env.scan(b) {
		return Envelope{}, nil, parseError()
	}
	if env.Result == nil && env.Err == nil {
		echo = ValidID(env.ID)
	}
	var version string
	if json.Unmarshal(env.JSONRPC, &version) != nil || version != "2.0" {
		return env, echo, Invalid(echo, `"jsonrpc" must be "2.0"`)
	}
	return env, echo, nil
}

// Request is a request's (or notification's) id and method, by the rules
// the connection applies: a non-empty string method; a string, number or
// null id. id is nil for a notification and a copy of the frame's bytes
// otherwise (it is kept while the request runs; the frame is not).
func (e *Envelope) Request(echo json.RawMessage) (id json.RawMessage, method string, err error) {
	if err := json.Unmarshal(e.Method, &method); err != nil {
		return nil, "", Invalid(echo, "invalid JSON-RPC message: method must be a string")
	}
	if method == "" {
		return nil, "", Invalid(echo, "method must not be empty")
	}
	if e.ID != nil && string(e.ID) != "null" {
		if echo == nil {
			return nil, "", Invalid(nil, "invalid JSON-RPC message: id must be a string, a number or null")
		}
		id = bytes.Clone(e.ID)
	}
	return id, method, nil
}

// ResponseFrame is the response to request id with result (nil: {}),
// as the connection writes it (jsonrpc2's layout); cmd/goose-acp's
// first-frame answer uses it too.
func ResponseFrame(id json.RawMessage, result any) ([]byte, error) {
	if result == nil {
		result = struct{}{}
	}
	r, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(r)+len(id)+32)
	b = append(append(append(b, `{"id":`...), OrNull(id)...), `,"result":`...)
	return append(append(b, r...), `,"jsonrpc":"2.0"}`...), nil
}

// OrNull is id, or null for none.
func OrNull(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}
