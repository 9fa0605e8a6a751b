package providertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"unicode/utf8"
)

func init() {
	handlers[OpenAI] = serveOpenAI
	modelLists[OpenAI] = serveOpenAIModels
}

// openAIRequest is the part of a Chat Completions request the server reads.
type openAIRequest struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// Chat Completions chunk, field order as OpenAI sends it.
type oaiChunk struct {
	ID                string      `json:"id"`
	Object            string      `json:"object"`
	Created           int64       `json:"created"`
	Model             string      `json:"model"`
	SystemFingerprint string      `json:"system_fingerprint"`
	Choices           []oaiChoice `json:"choices"`
	Usage             *oaiUsage   `json:"usage,omitempty"`
	// withUsageNull marks chunks that carry "usage":null, as OpenAI sends
	// on every chunk but the last when include_usage is on.
	withUsageNull bool
}

type oaiChoice struct {
	Index        int      `json:"index"`
	Delta        oaiDelta `json:"delta"`
	Logprobs     any      `json:"logprobs"`
	FinishReason *string  `json:"finish_reason"`
}

type oaiDelta struct {
	Role             string        `json:"role,omitempty"`
	Content          *string       `json:"content,omitempty"`
	ReasoningContent *string       `json:"reasoning_content,omitempty"`
	ToolCalls        []oaiToolCall `json:"tool_calls,omitempty"`
	Refusal          *string       `json:"refusal,omitempty"`
}

type oaiToolCall struct {
	Index    *int        `json:"index,omitempty"`
	ID       string      `json:"id,omitempty"`
	Type     string      `json:"type,omitempty"`
	Function oaiFunction `json:"function"`
}

type oaiFunction struct {
	Name      string  `json:"name,omitempty"`
	Arguments *string `json:"arguments,omitempty"`
}

type oaiUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

func (c oaiChunk) MarshalJSON() ([]byte, error) {
	type plain oaiChunk
	if c.Usage != nil || !c.withUsageNull {
		return json.Marshal(plain(c))
	}
	return json.Marshal(struct {
		plain
		Usage *oaiUsage `json:"usage"`
	}{plain: plain(c)})
}

var openAIChunkSeq atomic.Int64

// openAICreated is the fixed "created" stamp of every chunk, so recorded
// streams are byte-stable.
const openAICreated = 1_700_000_000

// serveOpenAI answers a Chat Completions request with the turn, streamed
// exactly as OpenAI streams: role chunk, reasoning_content deltas, content
// deltas, tool_calls (id+name first, then argument fragments), a
// finish_reason chunk, a usage-only chunk with "choices":[] when
// stream_options.include_usage is set, and "data: [DONE]".
func serveOpenAI(w http.ResponseWriter, r *http.Request, t Turn) {
	var req openAIRequest
	_ = json.NewDecoder(r.Body).Decode(&req)
	id := fmt.Sprintf("chatcmpl-%d", openAIChunkSeq.Add(1))
	if !req.Stream {
		writeOpenAICompletion(w, id, req.Model, t)
		return
	}
	includeUsage := req.StreamOptions != nil && req.StreamOptions.IncludeUsage
	ew := newEventWriter(w, r, t, "text/event-stream")
	// Hang after the first content-bearing chunk, not the role preamble,
	// so a hung reply has shown the client something.
	ew.hangAfter = 2
	for _, c := range OpenAIChunks(id, req.Model, t, includeUsage) {
		if !ew.json(c) {
			return
		}
	}
	ew.sse("", []byte("[DONE]"))
}

// OpenAIChunks returns the Chat Completions chunks of a turn, in order (the
// "[DONE]" line excluded). Exported for recording benchmark streams.
func OpenAIChunks(id, model string, t Turn, includeUsage bool) []any {
	base := oaiChunk{ID: id, Object: "chat.completion.chunk", Created: openAICreated, Model: model,
		SystemFingerprint: "fp_providertest", withUsageNull: includeUsage}
	var out []any
	add := func(d oaiDelta, finish *string) {
		c := base
		c.Choices = []oaiChoice{{Delta: d, FinishReason: finish}}
		out = append(out, c)
	}
	add(oaiDelta{Role: "assistant", Content: oaiString(""), Refusal: nil}, nil)
	for _, s := range t.Thinking {
		add(oaiDelta{ReasoningContent: oaiString(s)}, nil)
	}
	for _, s := range t.Text {
		add(oaiDelta{Content: oaiString(s)}, nil)
	}
	for i, tc := range t.ToolCalls {
		for _, d := range toolCallDeltas(i, tc, t.OmitToolCallIndex) {
			add(oaiDelta{ToolCalls: []oaiToolCall{d}}, nil)
		}
	}
	add(oaiDelta{}, oaiString(openAIFinishReason(t)))
	if includeUsage {
		c := base
		c.Choices = []oaiChoice{}
		c.Usage = openAIUsage(t.Usage)
		out = append(out, c)
	}
	return out
}

func toolCallDeltas(i int, tc ToolCall, omitIndex bool) []oaiToolCall {
	idx := &i
	if omitIndex {
		idx = nil
	}
	out := []oaiToolCall{{Index: idx, ID: tc.ID, Type: "function", Function: oaiFunction{Name: tc.Name, Arguments: oaiString("")}}}
	for _, frag := range splitFragments(tc.Arguments, 3) {
		out = append(out, oaiToolCall{Index: idx, Function: oaiFunction{Arguments: oaiString(frag)}})
	}
	return out
}

func openAIFinishReason(t Turn) string {
	switch {
	case t.StopReason != "":
		return t.StopReason
	case len(t.ToolCalls) > 0:
		return "tool_calls"
	}
	return "stop"
}

func openAIUsage(u *Usage) *oaiUsage {
	out := &oaiUsage{}
	if u != nil {
		out.PromptTokens = u.Input
		out.CompletionTokens = u.Output
		out.TotalTokens = u.Input + u.Output
		out.PromptTokensDetails.CachedTokens = u.CacheRead
	}
	return out
}

// writeOpenAICompletion answers a non-streaming request with one
// chat.completion object.
func writeOpenAICompletion(w http.ResponseWriter, id, model string, t Turn) {
	type call struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	msg := map[string]any{"role": "assistant", "content": nil}
	text := ""
	for _, s := range t.Text {
		text += s
	}
	if len(t.Text) > 0 {
		msg["content"] = text
	}
	if len(t.Thinking) > 0 {
		r := ""
		for _, s := range t.Thinking {
			r += s
		}
		msg["reasoning_content"] = r
	}
	var calls []call
	for _, tc := range t.ToolCalls {
		c := call{ID: tc.ID, Type: "function"}
		c.Function.Name, c.Function.Arguments = tc.Name, tc.Arguments
		calls = append(calls, c)
	}
	if len(calls) > 0 {
		msg["tool_calls"] = calls
	}
	body, _ := json.Marshal(map[string]any{
		"id": id, "object": "chat.completion", "created": openAICreated, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": openAIFinishReason(t)}},
		"usage":   openAIUsage(t.Usage),
	})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// serveOpenAIModels answers GET /models as OpenAI's list object.
func serveOpenAIModels(w http.ResponseWriter, _ *http.Request, models []string) {
	data := make([]map[string]any, 0, len(models))
	for _, m := range models {
		data = append(data, map[string]any{"id": m, "object": "model", "created": openAICreated, "owned_by": "providertest"})
	}
	body, _ := json.Marshal(map[string]any{"object": "list", "data": data})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// splitFragments cuts s into at most n pieces of similar size, on rune
// boundaries, so tool arguments arrive split as real servers send them.
func splitFragments(s string, n int) []string {
	if s == "" {
		return nil
	}
	size := (len(s) + n - 1) / n
	var out []string
	for len(s) > 0 {
		cut := min(size, len(s))
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

func oaiString(s string) *string { return &s }
