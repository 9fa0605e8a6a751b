package providertest

import (
	"encoding/json"
	"net/http"
)

func init() {
	handlers[Ollama] = serveOllama
	modelLists[Ollama] = serveOllamaModels
}

// ollamaCreatedAt is the fixed created_at of every line, so recorded
// streams are byte-stable.
const ollamaCreatedAt = "2025-01-01T00:00:00Z"

type ollamaLine struct {
	Model     string        `json:"model"`
	CreatedAt string        `json:"created_at"`
	Message   ollamaMessage `json:"message"`
	Done      bool          `json:"done"`
	*ollamaDone
}

type ollamaMessage struct {
	Role      string           `json:"role"`
	Content   string           `json:"content"`
	Thinking  string           `json:"thinking,omitempty"`
	ToolCalls []ollamaToolCall `json:"tool_calls,omitempty"`
}

type ollamaToolCall struct {
	ID       string `json:"id,omitempty"`
	Function struct {
		Index     int             `json:"index"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// ollamaDone holds the statistics of the final line.
type ollamaDone struct {
	DoneReason         string `json:"done_reason"`
	TotalDuration      int64  `json:"total_duration"`
	LoadDuration       int64  `json:"load_duration"`
	PromptEvalCount    int    `json:"prompt_eval_count"`
	PromptEvalDuration int64  `json:"prompt_eval_duration"`
	EvalCount          int    `json:"eval_count"`
	EvalDuration       int64  `json:"eval_duration"`
}

// serveOllama answers POST /api/chat with the turn as Ollama's NDJSON: a
// line per thinking chunk ("thinking"), a line per text chunk ("content"),
// one line carrying every tool call whole (arguments as a JSON object, or,
// when the scripted arguments are not an object, as a JSON string the way
// some compatible servers send them), then the "done" line with
// done_reason, prompt_eval_count and eval_count. A turn with ErrorBody but
// no Status streams its content and then an {"error":…} line instead of
// "done", as Ollama reports failures after the stream began.
func serveOllama(w http.ResponseWriter, r *http.Request, t Turn) {
	var req struct {
		Model string `json:"model"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	ew := newEventWriter(w, r, t, "application/x-ndjson")
	for _, l := range ollamaLines(req.Model, t) {
		b, _ := json.Marshal(l)
		if !ew.line(b) {
			return
		}
	}
	if t.ErrorBody == "" {
		return
	}
	body := []byte(t.ErrorBody)
	if !json.Valid(body) {
		body, _ = json.Marshal(map[string]string{"error": t.ErrorBody})
	}
	ew.line(body)
}

func ollamaLines(model string, t Turn) []ollamaLine {
	msg := func(m ollamaMessage) ollamaLine {
		m.Role = "assistant"
		return ollamaLine{Model: model, CreatedAt: ollamaCreatedAt, Message: m}
	}
	var out []ollamaLine
	for _, s := range t.Thinking {
		out = append(out, msg(ollamaMessage{Thinking: s}))
	}
	for _, s := range t.Text {
		out = append(out, msg(ollamaMessage{Content: s}))
	}
	if len(t.ToolCalls) > 0 {
		out = append(out, msg(ollamaMessage{ToolCalls: ollamaToolCalls(t.ToolCalls)}))
	}
	if t.ErrorBody != "" {
		return out
	}
	u := t.Usage
	if u == nil {
		u = &Usage{}
	}
	done := msg(ollamaMessage{})
	done.Done = true
	done.ollamaDone = &ollamaDone{DoneReason: ollamaDoneReason(t), TotalDuration: 1_000_000, LoadDuration: 1000,
		PromptEvalCount: u.Input, PromptEvalDuration: 1000, EvalCount: u.Output, EvalDuration: 1000}
	return append(out, done)
}

func ollamaToolCalls(calls []ToolCall) []ollamaToolCall {
	out := make([]ollamaToolCall, len(calls))
	for i, tc := range calls {
		out[i].ID = tc.ID
		out[i].Function.Index = i
		out[i].Function.Name = tc.Name
		out[i].Function.Arguments = objectOrString(tc.Arguments)
	}
	return out
}

// objectOrString returns args itself when it is a JSON object ({} when
// empty), else args as a JSON string.
func objectOrString(args string) json.RawMessage {
	if args == "" {
		return json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) == nil {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args)
	return b
}

func ollamaDoneReason(t Turn) string {
	if t.StopReason != "" {
		return t.StopReason
	}
	return "stop"
}

// serveOllamaModels answers GET /api/tags.
func serveOllamaModels(w http.ResponseWriter, _ *http.Request, models []string) {
	list := make([]map[string]any, 0, len(models))
	for _, m := range models {
		list = append(list, map[string]any{"name": m, "model": m, "modified_at": ollamaCreatedAt, "size": 0,
			"digest": "", "details": map[string]any{"format": "gguf"}})
	}
	body, _ := json.Marshal(map[string]any{"models": list})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
