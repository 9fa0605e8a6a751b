package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp/jsonrpc/wire"
)

// Message is one JSON-RPC 2.0 message read from a stream. Params and
// Result are the frame's own bytes, not copies: a codec gives every
// message a buffer of its own and never reuses it, so a 31 MB prompt is
// decoded once, by its handler. ID is copied (it is kept while the request
// runs; the frame is not).
type Message struct {
	// ID is the raw id; nil for a notification (absent or null id).
	ID     json.RawMessage
	Method string
	// Params is nil when absent.
	Params json.RawMessage
	// Result is the raw result of a response ("null" included).
	Result json.RawMessage
	Error  *jsonrpc2.Error
}

// IsRequest reports whether the message is a request or notification.
func (m *Message) IsRequest() bool { return m.Method != "" }

// UnmarshalJSON reads one message. Codecs call json.Unmarshal(frame, m),
// which validates the JSON first (a *json.SyntaxError is answered -32700);
// what is JSON but not a JSON-RPC message is a *MessageError. The rules
// are wire's (Decode, Envelope.Request), shared with cmd/goose-acp's
// first-frame responder.
func (m *Message) UnmarshalJSON(b []byte) error {
	env, echo, err := wire.Decode(b)
	if err != nil {
		return err
	}
	if env.Method != nil {
		id, method, err := env.Request(echo)
		if err != nil {
			return err
		}
		m.ID, m.Method, m.Params = id, method, env.Params
		return nil
	}
	if env.ID != nil && (env.Result != nil || env.Err != nil) {
		return m.response(&env)
	}
	return wire.Invalid(echo, "message is neither a request nor a response")
}

func (m *Message) response(env *wire.Envelope) error {
	m.ID = bytes.Clone(env.ID)
	if env.Err != nil && string(env.Err) != "null" {
		var e jsonrpc2.Error
		if err := json.Unmarshal(env.Err, &e); err != nil {
			return wire.Invalid(nil, "invalid JSON-RPC message: error must be an object")
		}
		m.Error = &e
		return nil
	}
	m.Result = env.Result
	if m.Result == nil {
		m.Result = json.RawMessage("null")
	}
	return nil
}

// MessageError is a message the connection answers with an error and
// skips; the stream goes on (wire.MessageError).
type MessageError = wire.MessageError

// Frames the connection writes. Their layout is jsonrpc2's (a response
// ends with "jsonrpc", a request's members are sorted), so clients see the
// bytes they always saw.

func errorFrame(id json.RawMessage, e *jsonrpc2.Error) []byte {
	eb, err := json.Marshal(e)
	if err != nil {
		eb = []byte(`{"code":-32603,"message":"Internal error"}`)
	}
	b := make([]byte, 0, len(eb)+len(id)+32)
	b = append(append(append(b, `{"id":`...), wire.OrNull(id)...), `,"error":`...)
	return append(append(b, eb...), `,"jsonrpc":"2.0"}`...)
}

// rejectFrame answers a message that could not be read.
func rejectFrame(e *MessageError) []byte {
	msg := "Invalid Request"
	if e.Code == jsonrpc2.CodeParseError {
		msg = "Parse error"
	}
	data, _ := json.Marshal(e.Reason)
	eb, _ := json.Marshal(struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	}{e.Code, msg, data})
	b := append([]byte(`{"jsonrpc":"2.0","id":`), wire.OrNull(e.ID)...)
	return append(append(append(b, `,"error":`...), eb...), '}')
}

// requestFrame is an outgoing request (id > 0) or notification (id 0).
func requestFrame(id uint64, method string, params any) ([]byte, error) {
	m, err := json.Marshal(method)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, 64)
	if id > 0 {
		b = strconv.AppendUint(append(b, `{"id":`...), id, 10)
		b = append(b, `,"jsonrpc":"2.0","method":`...)
	} else {
		b = append(b, `{"jsonrpc":"2.0","method":`...)
	}
	b = append(b, m...)
	if params != nil {
		p, err := json.Marshal(params)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"params":`...), p...)
	}
	return append(b, '}'), nil
}
