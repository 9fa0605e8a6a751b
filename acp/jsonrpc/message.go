package jsonrpc

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/sourcegraph/jsonrpc2"
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

// MessageError is a message the connection answers with an error and
// skips; the stream goes on. ID is the id to answer with (nil: null).
type MessageError struct {
	ID     json.RawMessage
	Code   int64
	Reason string
}

func (e *MessageError) Error() string { return e.Reason }

func parseError() error {
	return &MessageError{Code: jsonrpc2.CodeParseError, Reason: "parse error"}
}

func invalid(id json.RawMessage, reason string) error {
	return &MessageError{ID: id, Code: jsonrpc2.CodeInvalidRequest, Reason: reason}
}

// UnmarshalJSON reads one message. Codecs call json.Unmarshal(frame, m),
// which validates the JSON first (a *json.SyntaxError is answered -32700);
// what is JSON but not a JSON-RPC message is a *MessageError.
func (m *Message) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return parseError()
	}
	switch b[0] {
	case '[':
		return invalid(nil, "batch requests are not supported")
	case '{':
	default:
		return parseError()
	}
	var env envelope
	if !env.scan(b) {
		return parseError()
	}
	// A broken response's id is never echoed: the client would take the
	// error for the answer to its own request with that id.
	var echo json.RawMessage
	if env.result == nil && env.err == nil {
		echo = validID(env.id)
	}
	var version string
	if json.Unmarshal(env.jsonrpc, &version) != nil || version != "2.0" {
		return invalid(echo, `"jsonrpc" must be "2.0"`)
	}
	if env.method != nil {
		return m.request(&env, echo)
	}
	if env.id != nil && (env.result != nil || env.err != nil) {
		return m.response(&env)
	}
	return invalid(echo, "message is neither a request nor a response")
}

func (m *Message) request(env *envelope, echo json.RawMessage) error {
	var method string
	if err := json.Unmarshal(env.method, &method); err != nil {
		return invalid(echo, "invalid JSON-RPC message: method must be a string")
	}
	if method == "" {
		return invalid(echo, "method must not be empty")
	}
	if env.id != nil && string(env.id) != "null" {
		if echo == nil {
			return invalid(nil, "invalid JSON-RPC message: id must be a string, a number or null")
		}
		m.ID = bytes.Clone(env.id)
	}
	m.Method, m.Params = method, env.params
	return nil
}

func (m *Message) response(env *envelope) error {
	m.ID = bytes.Clone(env.id)
	if env.err != nil && string(env.err) != "null" {
		var e jsonrpc2.Error
		if err := json.Unmarshal(env.err, &e); err != nil {
			return invalid(nil, "invalid JSON-RPC message: error must be an object")
		}
		m.Error = &e
		return nil
	}
	m.Result = env.result
	if m.Result == nil {
		m.Result = json.RawMessage("null")
	}
	return nil
}

// validID keeps a string or number id to echo back; anything else is nil
// (null on the wire).
func validID(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return bytes.Clone(raw)
	}
	return nil
}

// envelope holds the top-level members of a message as sub-slices of the
// frame.
type envelope struct {
	jsonrpc, method, id, params, result, err []byte
}

// scan fills the envelope from a JSON object (validated by the caller's
// json.Unmarshal); false when b is not one. Keys are matched as written;
// when a key repeats the last wins, as with encoding/json.
func (e *envelope) scan(b []byte) bool {
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		ks, ke := i, skipString(b, i)
		i = skipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		vs := skipSpace(b, i+1)
		ve := skipValue(b, vs)
		if ve <= vs || ve > len(b) {
			return false
		}
		e.set(string(b[ks+1:ke-1]), b[vs:ve:ve])
		i = skipSpace(b, ve)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return true
		}
		if b[i] != ',' {
			return false
		}
		i = skipSpace(b, i+1)
	}
	return false
}

func (e *envelope) set(key string, v []byte) {
	switch key {
	case "jsonrpc":
		e.jsonrpc = v
	case "method":
		e.method = v
	case "id":
		e.id = v
	case "params":
		e.params = v
	case "result":
		e.result = v
	case "error":
		e.err = v
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexAny(b[j:], `"\`)
		if k < 0 {
			return len(b) + 1
		}
		j += k
		if b[j] == '\\' {
			j += 2
			continue
		}
		return j + 1
	}
	return len(b) + 1
}

// skipValue returns the index after the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); {
			k := bytes.IndexAny(b[j:], `"{}[]`)
			if k < 0 {
				return len(b) + 1
			}
			j += k
			switch b[j] {
			case '"':
				j = skipString(b, j)
				continue
			case '{', '[':
				depth++
			default:
				depth--
			}
			j++
			if depth == 0 {
				return j
			}
		}
		return len(b) + 1
	}
	j := i
	for j < len(b) && !endsLiteral(b[j]) {
		j++
	}
	return j
}

func endsLiteral(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', '}', ']':
		return true
	}
	return false
}

// Frames the connection writes. Their layout is jsonrpc2's (a response
// ends with "jsonrpc", a request's members are sorted), so clients see the
// bytes they always saw.

// ResponseFrame is the response to request id with result (nil: {}),
// as the connection writes it; cmd/goose-acp's first-frame answer uses
// it too.
func ResponseFrame(id json.RawMessage, result any) ([]byte, error) {
	if result == nil {
		result = struct{}{}
	}
	r, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(r)+len(id)+32)
	b = append(append(append(b, `{"id":`...), orNull(id)...), `,"result":`...)
	return append(append(b, r...), `,"jsonrpc":"2.0"}`...), nil
}

func errorFrame(id json.RawMessage, e *jsonrpc2.Error) []byte {
	eb, err := json.Marshal(e)
	if err != nil {
		eb = []byte(`{"code":-32603,"message":"Internal error"}`)
	}
	b := make([]byte, 0, len(eb)+len(id)+32)
	b = append(append(append(b, `{"id":`...), orNull(id)...), `,"error":`...)
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
	b := append([]byte(`{"jsonrpc":"2.0","id":`), orNull(e.ID)...)
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

func orNull(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}
