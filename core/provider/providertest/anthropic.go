package providertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
)

func init() {
	handlers[Anthropic] = serveAnthropic
	modelLists[Anthropic] = serveAnthropicModels
}

var anthropicMsgSeq atomic.Int64

// anthropicEvent is one Messages API stream event: its SSE name and data.
type anthropicEvent struct {
	name string
	data map[string]any
}

// serveAnthropic answers POST /v1/messages with the turn streamed as the
// Messages API streams: message_start, ping, one content block per
// thinking / redacted thinking / text / tool_use (content_block_start,
// deltas, content_block_stop), message_delta with stop_reason and output
// usage, message_stop. A turn with ErrorBody but no Status streams its
// content and then an "error" event carrying ErrorBody, as Anthropic does
// for errors after the response started (e.g. overloaded_error).
func serveAnthropic(w http.ResponseWriter, r *http.Request, t Turn) {
	var req struct {
		Model string `json:"model"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	id := fmt.Sprintf("msg_providertest_%d", anthropicMsgSeq.Add(1))
	ew := newEventWriter(w, r, t, "text/event-stream")
	for _, ev := range anthropicEvents(id, req.Model, t) {
		b, err := json.Marshal(ev.data)
		if err != nil {
			panic(fmt.Sprintf("providertest: marshal anthropic event: %v", err))
		}
		if !ew.sse(ev.name, b) {
			return
		}
	}
	if t.ErrorBody != "" {
		ew.sse("error", []byte(t.ErrorBody))
	}
}

// AnthropicEvents returns the stream events of a turn in order, without
// the trailing error event.
func anthropicEvents(id, model string, t Turn) []anthropicEvent {
	u := t.Usage
	if u == nil {
		u = &Usage{}
	}
	out := []anthropicEvent{
		{"message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
			"stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": u.Input, "cache_creation_input_tokens": u.CacheWrite,
				"cache_read_input_tokens": u.CacheRead, "output_tokens": 1},
		}}},
		{"ping", map[string]any{"type": "ping"}},
	}
	idx := 0
	if len(t.Thinking) > 0 || t.ThinkingSignature != "" {
		out = append(out, anthropicThinkingBlock(idx, t)...)
		idx++
	}
	if t.RedactedThinking != "" {
		out = append(out, blockStart(idx, map[string]any{"type": "redacted_thinking", "data": t.RedactedThinking}), blockStop(idx))
		idx++
	}
	if len(t.Text) > 0 {
		out = append(out, blockStart(idx, map[string]any{"type": "text", "text": ""}))
		for _, s := range t.Text {
			out = append(out, blockDelta(idx, map[string]any{"type": "text_delta", "text": s}))
		}
		out = append(out, blockStop(idx))
		idx++
	}
	for _, tc := range t.ToolCalls {
		out = append(out, anthropicToolBlock(idx, tc)...)
		idx++
	}
	if t.ErrorBody != "" {
		return out
	}
	return append(out,
		anthropicEvent{"message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": anthropicStopReason(t), "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": u.Output}}},
		anthropicEvent{"message_stop", map[string]any{"type": "message_stop"}},
	)
}

func anthropicThinkingBlock(idx int, t Turn) []anthropicEvent {
	out := []anthropicEvent{blockStart(idx, map[string]any{"type": "thinking", "thinking": "", "signature": ""})}
	for _, s := range t.Thinking {
		out = append(out, blockDelta(idx, map[string]any{"type": "thinking_delta", "thinking": s}))
	}
	if t.ThinkingSignature != "" {
		out = append(out, blockDelta(idx, map[string]any{"type": "signature_delta", "signature": t.ThinkingSignature}))
	}
	return append(out, blockStop(idx))
}

// anthropicToolBlock streams the arguments as input_json_delta fragments,
// starting with the empty fragment Anthropic sends first.
func anthropicToolBlock(idx int, tc ToolCall) []anthropicEvent {
	out := []anthropicEvent{
		blockStart(idx, map[string]any{"type": "tool_use", "id": tc.ID, "name": tc.Name, "input": map[string]any{}}),
		blockDelta(idx, map[string]any{"type": "input_json_delta", "partial_json": ""}),
	}
	for _, frag := range splitFragments(tc.Arguments, 3) {
		out = append(out, blockDelta(idx, map[string]any{"type": "input_json_delta", "partial_json": frag}))
	}
	return append(out, blockStop(idx))
}

func blockStart(idx int, block map[string]any) anthropicEvent {
	return anthropicEvent{"content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": block}}
}

func blockDelta(idx int, delta map[string]any) anthropicEvent {
	return anthropicEvent{"content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": delta}}
}

func blockStop(idx int) anthropicEvent {
	return anthropicEvent{"content_block_stop", map[string]any{"type": "content_block_stop", "index": idx}}
}

func anthropicStopReason(t Turn) string {
	switch {
	case t.StopReason != "":
		return t.StopReason
	case len(t.ToolCalls) > 0:
		return "tool_use"
	}
	return "end_turn"
}

// serveAnthropicModels answers GET /v1/models as Anthropic's list object.
func serveAnthropicModels(w http.ResponseWriter, _ *http.Request, models []string) {
	data := make([]map[string]any, 0, len(models))
	for _, m := range models {
		data = append(data, map[string]any{"type": "model", "id": m, "display_name": m, "created_at": "2025-01-01T00:00:00Z"})
	}
	page := map[string]any{"data": data, "has_more": false, "first_id": nil, "last_id": nil}
	if len(models) > 0 {
		page["first_id"], page["last_id"] = models[0], models[len(models)-1]
	}
	body, _ := json.Marshal(page)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
