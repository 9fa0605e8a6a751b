package providertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

func init() {
	handlers[OpenAIResponses] = serveResponses
	modelLists[OpenAIResponses] = serveOpenAIModels
}

// responsesRequest is the part of a Responses API request the server reads.
type responsesRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
}

// respEvent is one Responses stream event before numbering: its type and
// the fields after "type" and "sequence_number", in OpenAI's order.
type respEvent struct {
	typ    string
	fields []kv
}

type kv struct {
	k string
	v any
}

// marshal writes the event's JSON with its sequence number, top-level
// fields in OpenAI's order.
func (e respEvent) marshal(seq int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"type":%q,"sequence_number":%d`, e.typ, seq)
	for _, f := range e.fields {
		v, err := json.Marshal(f.v)
		if err != nil {
			panic(fmt.Sprintf("providertest: marshal event: %v", err))
		}
		fmt.Fprintf(&b, `,%q:%s`, f.k, v)
	}
	b.WriteByte('}')
	return []byte(b.String())
}

var responsesSeq atomic.Int64

// serveResponses answers a Responses API request with the turn. Streaming
// requests get the event sequence OpenAI sends, each as "event: <type>"
// plus "data: {…}": response.created and .in_progress; a reasoning item
// with reasoning_summary_text deltas (Thinking); a message item with
// output_text deltas (Text); one function_call item per tool call with
// its arguments in function_call_arguments deltas; each item framed by
// output_item.added/.done; then response.completed with every item and
// the usage (null when the turn has none), or response.incomplete when
// the turn sets StopReason. There is no "[DONE]", as with OpenAI.
// Non-streaming requests get the final response object.
func serveResponses(w http.ResponseWriter, r *http.Request, t Turn) {
	var req responsesRequest
	_ = json.NewDecoder(r.Body).Decode(&req)
	id := fmt.Sprintf("resp_%d", responsesSeq.Add(1))
	if !req.Stream {
		body, _ := json.Marshal(responseObject(id, req.Model, t, responsesOutput(t), true))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
		return
	}
	events := responsesEvents(id, req.Model, t)
	ew := newEventWriter(w, r, t, "text/event-stream; charset=utf-8")
	// Hang after the first delta, so a hung reply has shown something.
	for i, e := range events {
		if strings.HasSuffix(e.typ, ".delta") {
			ew.hangAfter = i + 1
			break
		}
	}
	for i, e := range events {
		if !ew.sse(e.typ, e.marshal(i)) {
			return
		}
	}
}

// responsesEvents returns the Responses stream events of a turn, in order.
func responsesEvents(id, model string, t Turn) []respEvent {
	created := responseObject(id, model, t, []any{}, false)
	out := []respEvent{
		{"response.created", []kv{{"response", created}}},
		{"response.in_progress", []kv{{"response", created}}},
	}
	items := responsesOutput(t)
	for i, item := range items {
		out = append(out, itemEvents(i, item.(map[string]any), t)...)
	}
	final := responseObject(id, model, t, items, true)
	typ := "response.completed"
	if t.StopReason != "" {
		typ = "response.incomplete"
	}
	return append(out, respEvent{typ, []kv{{"response", final}}})
}

// itemEvents frames one finished output item: added (empty), its deltas,
// the done events of its parts, and output_item.done.
func itemEvents(index int, item map[string]any, t Turn) []respEvent {
	itemID := item["id"].(string)
	added := map[string]any{}
	for k, v := range item {
		added[k] = v
	}
	at := func(typ string, fields ...kv) respEvent {
		return respEvent{typ, append([]kv{{"item_id", itemID}, {"output_index", index}}, fields...)}
	}
	var out []respEvent
	switch item["type"] {
	case "reasoning":
		added["summary"] = []any{}
		out = append(out, respEvent{"response.output_item.added", []kv{{"output_index", index}, {"item", added}}})
		for _, s := range t.Thinking {
			out = append(out, at("response.reasoning_summary_text.delta", kv{"summary_index", 0}, kv{"delta", s}))
		}
		out = append(out, at("response.reasoning_summary_text.done", kv{"summary_index", 0}, kv{"text", strings.Join(t.Thinking, "")}))
	case "message":
		added["status"], added["content"] = "in_progress", []any{}
		text := strings.Join(t.Text, "")
		out = append(out, respEvent{"response.output_item.added", []kv{{"output_index", index}, {"item", added}}},
			at("response.content_part.added", kv{"content_index", 0}, kv{"part", outputText("")}))
		for _, s := range t.Text {
			out = append(out, at("response.output_text.delta", kv{"content_index", 0}, kv{"delta", s}, kv{"logprobs", []any{}}))
		}
		out = append(out, at("response.output_text.done", kv{"content_index", 0}, kv{"text", text}, kv{"logprobs", []any{}}),
			at("response.content_part.done", kv{"content_index", 0}, kv{"part", outputText(text)}))
	case "function_call":
		added["status"], added["arguments"] = "in_progress", ""
		args := item["arguments"].(string)
		out = append(out, respEvent{"response.output_item.added", []kv{{"output_index", index}, {"item", added}}})
		for _, frag := range splitFragments(args, 3) {
			out = append(out, at("response.function_call_arguments.delta", kv{"delta", frag}))
		}
		out = append(out, at("response.function_call_arguments.done", kv{"arguments", args}))
	}
	return append(out, respEvent{"response.output_item.done", []kv{{"output_index", index}, {"item", item}}})
}

// responsesOutput returns a turn's finished output items: reasoning (if
// the turn thinks), the message (if it has text), then its function calls.
func responsesOutput(t Turn) []any {
	var out []any
	if len(t.Thinking) > 0 {
		out = append(out, map[string]any{"id": "rs_1", "type": "reasoning",
			"summary": []any{map[string]any{"type": "summary_text", "text": strings.Join(t.Thinking, "")}}})
	}
	if len(t.Text) > 0 {
		out = append(out, map[string]any{"id": "msg_1", "type": "message", "status": "completed",
			"content": []any{outputText(strings.Join(t.Text, ""))}, "role": "assistant"})
	}
	for i, tc := range t.ToolCalls {
		out = append(out, map[string]any{"id": fmt.Sprintf("fc_%d", i+1), "type": "function_call", "status": "completed",
			"arguments": tc.Arguments, "call_id": tc.ID, "name": tc.Name})
	}
	return out
}

func outputText(text string) map[string]any {
	return map[string]any{"type": "output_text", "annotations": []any{}, "logprobs": []any{}, "text": text}
}

// responseObject is the response envelope; final carries the status and
// usage of the finished response.
func responseObject(id, model string, t Turn, output []any, final bool) map[string]any {
	r := map[string]any{"id": id, "object": "response", "created_at": openAICreated, "status": "in_progress",
		"model": model, "output": output, "usage": nil}
	if !final {
		return r
	}
	r["status"] = "completed"
	if t.StopReason != "" {
		r["status"] = "incomplete"
		r["incomplete_details"] = map[string]any{"reason": t.StopReason}
	}
	if u := t.Usage; u != nil {
		r["usage"] = map[string]any{
			"input_tokens": u.Input, "input_tokens_details": map[string]any{"cached_tokens": u.CacheRead},
			"output_tokens": u.Output, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
			"total_tokens": u.Input + u.Output,
		}
	}
	return r
}
