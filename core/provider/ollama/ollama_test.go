package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

var qwen = model.Config{ModelName: "qwen3"}

func TestStreamTextAndUsage(t *testing.T) {
	srv := start(t, providertest.Turn{Text: []string{"Hello", " there"}, Usage: &providertest.Usage{Input: 26, Output: 7}})
	chunks, err := providertest.Drain(newProvider(t, srv, qwen, nil), providertest.UserRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 3 {
		t.Fatalf("got %s, want 2 text chunks and usage", providertest.MustJSON(t, chunks))
	}
	for i, want := range []string{"Hello", " there"} {
		m := chunks[i].Message
		if m == nil || m.IDOrEmpty() != "id-1" || m.AsText() != want || m.Created != 1_700_000_000 {
			t.Errorf("chunk %d = %s, want text %q with id-1", i, providertest.MustJSON(t, chunks[i]), want)
		}
	}
	if got := providertest.MustJSON(t, chunks[2].Usage); got != `{"model":"qwen3","usage":{"input_tokens":26,"output_tokens":7,"total_tokens":33}}` {
		t.Errorf("usage = %s", got)
	}
	r := srv.Requests()[0]
	if r.Path != "/api/chat" || r.Method != "POST" {
		t.Errorf("request %s %s, want POST /api/chat", r.Method, r.Path)
	}
}

func TestStreamToolCalls(t *testing.T) {
	tests := []struct {
		name  string
		calls []providertest.ToolCall
		want  []conversation.Content
	}{
		{"one call", []providertest.ToolCall{{ID: "call_1", Name: "developer__shell", Arguments: `{"command":"ls"}`}},
			[]conversation.Content{conversation.ToolRequestContent("call_1", "developer__shell", map[string]any{"command": "ls"})}},
		{"two parallel calls", []providertest.ToolCall{
			{ID: "call_a", Name: "read", Arguments: `{"path":"a.go"}`},
			{ID: "call_b", Name: "read", Arguments: `{"path":"b.go"}`}},
			[]conversation.Content{
				conversation.ToolRequestContent("call_a", "read", map[string]any{"path": "a.go"}),
				conversation.ToolRequestContent("call_b", "read", map[string]any{"path": "b.go"})}},
		{"missing id gets a generated one", []providertest.ToolCall{{Name: "todo__list"}},
			[]conversation.Content{conversation.ToolRequestContent("id-2", "todo__list", map[string]any{})}},
		{"invalid JSON arguments", []providertest.ToolCall{{ID: "call_bad", Name: "developer__shell", Arguments: `{"command": "ls`}},
			[]conversation.Content{conversation.ToolRequestError("call_bad", "Could not interpret tool use parameters for id call_bad: unexpected end of JSON input")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, providertest.Turn{ToolCalls: tt.calls})
			chunks, err := providertest.Drain(newProvider(t, srv, qwen, nil), providertest.UserRequest("go"))
			if err != nil {
				t.Fatal(err)
			}
			providertest.CheckContent(t, chunks, tt.want)
		})
	}
}

func TestStreamThinking(t *testing.T) {
	srv := start(t, providertest.Turn{Thinking: []string{"let me ", "think"}, Text: []string{"42"}})
	msg, _, err := newProvider(t, srv, qwen, nil).Complete(context.Background(), providertest.UserRequest("?"))
	if err != nil {
		t.Fatal(err)
	}
	want := []conversation.Content{conversation.Thinking("let me think", ""), conversation.Text("42")}
	if providertest.MustJSON(t, msg.Content) != providertest.MustJSON(t, want) || msg.IDOrEmpty() != "id-1" {
		t.Errorf("message = %s, want %s", providertest.MustJSON(t, msg), providertest.MustJSON(t, want))
	}
}

func TestStreamErrors(t *testing.T) {
	tests := []struct {
		name   string
		turn   providertest.Turn
		kind   provider.Kind
		status int
		text   string
	}{
		{"model not found", providertest.Turn{Status: 404, ErrorBody: `{"error":"model \"nope\" not found, try pulling it first"}`},
			provider.KindRequest, 404, `Resource not found (404): model "nope" not found, try pulling it first`},
		{"server error", providertest.Turn{Status: 500, ErrorBody: `{"error":"llama runner process has terminated"}`},
			provider.KindServer, 500, "llama runner process has terminated"},
		{"context overflow", providertest.Turn{Status: 400, ErrorBody: `{"error":"input length exceeds the context length"}`},
			provider.KindContextLength, 400, "exceeds"},
		{"error line mid-stream", providertest.Turn{Text: []string{"par"}, ErrorBody: "unexpected EOF from runner"},
			provider.KindServer, 0, "unexpected EOF from runner"},
		{"cut mid-stream", providertest.Turn{Text: []string{"a", "b", "c"}, CutAfter: 2},
			provider.KindNetwork, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, tt.turn)
			_, err := providertest.Drain(newProvider(t, srv, qwen, nil), providertest.UserRequest("hi"))
			providertest.CheckError(t, err, providertest.WantError{Provider: "ollama", Kind: tt.kind, Status: tt.status, Text: tt.text})
		})
	}
}

func TestRateLimitThenSuccessThroughRetry(t *testing.T) {
	srv := start(t,
		providertest.Turn{Status: 429, RetryAfter: "3", ErrorBody: `{"error":"too many requests"}`},
		providertest.Turn{Text: []string{"ok"}},
	)
	var slept providertest.Sleeps
	p := provider.WithRetry(newProvider(t, srv, qwen, nil), provider.RetryOptions{Sleep: slept.Sleep})
	chunks, err := providertest.Drain(p, providertest.UserRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if got := providertest.Contents(chunks); len(got) != 1 || got[0].Text.Text != "ok" || len(slept) != 1 || slept[0] != 3*time.Second {
		t.Errorf("content %s, slept %v; want the retried reply after the server's 3s", providertest.MustJSON(t, got), slept)
	}
}

func TestTimeout(t *testing.T) {
	srv := start(t, providertest.Turn{Text: []string{"a", "b"}, Hang: true})
	p := newProvider(t, srv, qwen, nil)
	p.opts.Timeout = 200 * time.Millisecond
	_, err := providertest.Drain(p, providertest.UserRequest("hi"))
	if provider.KindOf(err) != provider.KindNetwork || !strings.Contains(err.Error(), "OLLAMA_TIMEOUT") {
		t.Fatalf("err = %v, want a KindNetwork timeout naming OLLAMA_TIMEOUT", err)
	}
}

func TestCallerCancel(t *testing.T) {
	srv := start(t, providertest.Turn{Text: []string{"a", "b"}, Hang: true})
	if err := providertest.CancelAfterFirstMessage(newProvider(t, srv, qwen, nil), providertest.UserRequest("hi")); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestNumCtx(t *testing.T) {
	tests := []struct {
		name   string
		limit  *int
		params map[string]string
		want   any
	}{
		{"GOOSE_INPUT_LIMIT wins", new(16_000), map[string]string{"GOOSE_INPUT_LIMIT": "8192"}, float64(8192)},
		{"falls back to the context limit", new(12_000), nil, float64(12_000)},
		{"omitted without a limit", nil, nil, nil},
		{"invalid GOOSE_INPUT_LIMIT ignored", new(12_000), map[string]string{"GOOSE_INPUT_LIMIT": "lots"}, float64(12_000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, providertest.Turn{Text: []string{"ok"}})
			cfg := model.Config{ModelName: "qwen3", ContextLimit: tt.limit}
			if _, err := providertest.Drain(newProvider(t, srv, cfg, tt.params), providertest.UserRequest("hi")); err != nil {
				t.Fatal(err)
			}
			var body struct {
				Options map[string]any `json:"options"`
			}
			if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			if got := body.Options["num_ctx"]; got != tt.want {
				t.Errorf("num_ctx = %v, want %v (options %v)", got, tt.want, body.Options)
			}
		})
	}
}

func TestFetchModels(t *testing.T) {
	srv := start(t)
	srv.Script.SetModels("qwen3:latest", "llama3.2:3b")
	got, err := newProvider(t, srv, qwen, nil).FetchModels(context.Background())
	if err != nil || strings.Join(got, ",") != "llama3.2:3b,qwen3:latest" {
		t.Fatalf("models = %v, %v", got, err)
	}
	if r := srv.Requests(); r[0].Path != "/api/tags" || r[0].Method != "GET" {
		t.Errorf("request = %s %s", r[0].Method, r[0].Path)
	}
}

func TestHostURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "http://localhost:11434"},
		{"localhost", "http://localhost:11434"},
		{"127.0.0.1", "http://127.0.0.1:11434"},
		{"localhost:9999", "http://localhost:9999"},
		{"gpu-box", "http://gpu-box"},
		{"http://localhost", "http://localhost"},
		{"https://ollama.example.com/", "https://ollama.example.com"},
	}
	for _, tt := range tests {
		if got, err := HostURL(tt.in); err != nil || got != tt.want {
			t.Errorf("HostURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := HostURL("http://"); err == nil {
		t.Error("HostURL(http://) succeeded, want an error")
	}
}
