package httpapi

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// Event type names (goosed's MessageEvent variants, PascalCase).
const (
	evMessage            = "Message"
	evError              = "Error"
	evFinish             = "Finish"
	evNotification       = "Notification"
	evUpdateConversation = "UpdateConversation"
	evActiveRequests     = "ActiveRequests"
	evPing               = "Ping"
)

// FinishReason is the only reason goosed 1.33 sends.
const FinishReason = "stop"

// TooFarBehindText is goosed's replay error when Last-Event-ID was evicted.
const TooFarBehindText = "Client too far behind — reload conversation"

// TokenState is goosed's TokenState (camelCase, int32).
type TokenState struct {
	InputTokens             int32 `json:"inputTokens"`
	OutputTokens            int32 `json:"outputTokens"`
	TotalTokens             int32 `json:"totalTokens"`
	AccumulatedInputTokens  int32 `json:"accumulatedInputTokens"`
	AccumulatedOutputTokens int32 `json:"accumulatedOutputTokens"`
	AccumulatedTotalTokens  int32 `json:"accumulatedTotalTokens"`
}

// tokenStateOf reads the session's counters (missing ones are 0).
func tokenStateOf(s session.Session) TokenState {
	v := func(p *int) int32 {
		if p == nil {
			return 0
		}
		return int32(max(math.MinInt32, min(math.MaxInt32, *p)))
	}
	return TokenState{InputTokens: v(s.InputTokens), OutputTokens: v(s.OutputTokens), TotalTokens: v(s.TotalTokens),
		AccumulatedInputTokens: v(s.AccumulatedInputTokens), AccumulatedOutputTokens: v(s.AccumulatedOutputTokens),
		AccumulatedTotalTokens: v(s.AccumulatedTotalTokens)}
}

// field is one key of an event object with its encoded value.
type field struct {
	key string
	val []byte
}

// wireEvent is one MessageEvent as its JSON fields; "type" is first, the
// rest in goosed's declaration order.
type wireEvent struct {
	typ    string
	fields []field
	// ownRequestID: the event carries its own request_id (Notification).
	ownRequestID bool
}

func mustJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return b
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func messageEvent(m conversation.Message, ts TokenState) wireEvent {
	return wireEvent{typ: evMessage, fields: []field{{"message", mustJSON(m)}, {"token_state", ts.json()}}}
}

// json writes the token state without reflection (it is on every event).
func (ts TokenState) json() []byte {
	b := make([]byte, 0, 192)
	for i, kv := range [...]struct {
		k string
		v int32
	}{{"inputTokens", ts.InputTokens}, {"outputTokens", ts.OutputTokens}, {"totalTokens", ts.TotalTokens},
		{"accumulatedInputTokens", ts.AccumulatedInputTokens}, {"accumulatedOutputTokens", ts.AccumulatedOutputTokens},
		{"accumulatedTotalTokens", ts.AccumulatedTotalTokens}} {
		if i == 0 {
			b = append(b, '{')
		} else {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, kv.k...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(kv.v), 10)
	}
	return append(b, '}')
}

func errorEvent(text string) wireEvent {
	return wireEvent{typ: evError, fields: []field{{"error", mustJSON(text)}}}
}

func finishEvent(ts TokenState) wireEvent {
	return wireEvent{typ: evFinish, fields: []field{{"reason", mustJSON(FinishReason)}, {"token_state", ts.json()}}}
}

// notificationEvent carries an MCP notification as rmcp's
// ServerNotification {"method", "params"}; request_id is the tool call id.
func notificationEvent(n agent.NotificationEvent) wireEvent {
	params := n.Params
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	msg := mustJSON(struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}{n.Method, params})
	return wireEvent{typ: evNotification, ownRequestID: true, fields: []field{{"request_id", mustJSON(n.RequestID)}, {"message", msg}}}
}

func updateConversationEvent(conv []conversation.Message) wireEvent {
	if conv == nil {
		conv = []conversation.Message{}
	}
	return wireEvent{typ: evUpdateConversation, fields: []field{{"conversation", mustJSON(conv)}}}
}

func activeRequestsEvent(ids []string) wireEvent {
	if ids == nil {
		ids = []string{}
	}
	return wireEvent{typ: evActiveRequests, fields: []field{{"request_ids", mustJSON(ids)}}}
}

func pingEvent() wireEvent { return wireEvent{typ: evPing} }

// json is the event as serde writes it: {"type": …, fields…}.
func (e wireEvent) json() []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	b.Write(mustJSON(e.typ))
	for _, f := range e.fields {
		writeField(&b, f)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// busJSON is the event as goosed's session bus writes it: re-serialised
// through serde_json::Value (keys sorted) with chat_request_id added and
// request_id added unless the event has its own.
func (e wireEvent) busJSON(requestID string) []byte {
	fs := make([]field, 0, len(e.fields)+3)
	fs = append(fs, e.fields...)
	fs = append(fs, field{"type", mustJSON(e.typ)})
	if requestID != "" {
		rid := mustJSON(requestID)
		fs = append(fs, field{"chat_request_id", rid})
		if !e.ownRequestID {
			fs = append(fs, field{"request_id", rid})
		}
	}
	// Insertion sort: a handful of keys, no allocation.
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].key < fs[j-1].key; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
	var b bytes.Buffer
	b.Grow(64 + len(fs)*16 + fieldsLen(fs))
	b.WriteByte('{')
	for i, f := range fs {
		if i == 0 {
			b.WriteByte('"')
			b.WriteString(f.key)
			b.WriteString(`":`)
			b.Write(f.val)
			continue
		}
		writeField(&b, f)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func fieldsLen(fs []field) int {
	n := 0
	for _, f := range fs {
		n += len(f.key) + len(f.val)
	}
	return n
}

func writeField(b *bytes.Buffer, f field) {
	b.WriteString(`,"`)
	b.WriteString(f.key)
	b.WriteString(`":`)
	b.Write(f.val)
}

// sseData frames a JSON payload as an SSE data event (no id).
func sseData(payload []byte) []byte {
	out := make([]byte, 0, len(payload)+8)
	out = append(out, "data: "...)
	out = append(out, payload...)
	return append(out, "\n\n"...)
}
