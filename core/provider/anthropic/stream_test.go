package anthropic

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

var sonnet = model.Config{ModelName: "claude-sonnet-4-5"}

func TestStreamTextSharesIDAndCountsCacheTokens(t *testing.T) {
	// goose's test_parse_text_response numbers: 12 input + 12 cache write
	// = 24 input, 15 output, 39 total.
	srv := start(t, providertest.Turn{
		Text:  []string{"Hello! How can I ", "assist you today?"},
		Usage: &providertest.Usage{Input: 12, Output: 15, CacheWrite: 12},
	})
	chunks, err := providertest.Drain(newProvider(t, srv, sonnet, nil), providertest.UserRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 3 {
		t.Fatalf("got %d chunks, want 2 text + 1 usage: %s", len(chunks), providertest.MustJSON(t, chunks))
	}
	for i, want := range []string{"Hello! How can I ", "assist you today?"} {
		m := chunks[i].Message
		if m == nil || m.ID == nil || *m.ID != *chunks[0].Message.ID || !strings.HasPrefix(*m.ID, "msg_providertest_") {
			t.Fatalf("chunk %d: want a message with the stream's id, got %s", i, providertest.MustJSON(t, chunks[i]))
		}
		if m.Role != conversation.RoleAssistant || m.Created != 1_700_000_000 || m.AsText() != want {
			t.Errorf("chunk %d = %s, want assistant text %q", i, providertest.MustJSON(t, m), want)
		}
	}
	u := chunks[2].Usage
	if u == nil || u.Model != "claude-sonnet-4-5" || *u.Usage.InputTokens != 24 || *u.Usage.OutputTokens != 15 || *u.Usage.TotalTokens != 39 {
		t.Errorf("usage = %s, want claude-sonnet-4-5 24/15/39", providertest.MustJSON(t, u))
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/messages" {
		t.Fatalf("requests = %+v", reqs)
	}
	h := reqs[0].Header
	if h.Get("X-Api-Key") != testKey || h.Get("Anthropic-Version") != "2023-06-01" || h.Get("Authorization") != "" {
		t.Errorf("headers: x-api-key=%q anthropic-version=%q authorization=%q", h.Get("X-Api-Key"), h.Get("Anthropic-Version"), h.Get("Authorization"))
	}
}

func TestStreamToolCalls(t *testing.T) {
	tests := []struct {
		name  string
		calls []providertest.ToolCall
		want  []conversation.Content
	}{
		{
			name:  "one call",
			calls: []providertest.ToolCall{{ID: "toolu_1", Name: "developer__shell", Arguments: `{"command":"ls -la"}`}},
			want:  []conversation.Content{conversation.ToolRequestContent("toolu_1", "developer__shell", map[string]any{"command": "ls -la"})},
		},
		{
			name: "two parallel calls",
			calls: []providertest.ToolCall{
				{ID: "toolu_a", Name: "developer__text_editor", Arguments: `{"command":"view","path":"/a.go"}`},
				{ID: "toolu_b", Name: "developer__text_editor", Arguments: `{"command":"view","path":"/b.go"}`},
			},
			want: []conversation.Content{
				conversation.ToolRequestContent("toolu_a", "developer__text_editor", map[string]any{"command": "view", "path": "/a.go"}),
				conversation.ToolRequestContent("toolu_b", "developer__text_editor", map[string]any{"command": "view", "path": "/b.go"}),
			},
		},
		{
			name:  "no arguments",
			calls: []providertest.ToolCall{{ID: "toolu_0", Name: "todo__list"}},
			want:  []conversation.Content{conversation.ToolRequestContent("toolu_0", "todo__list", map[string]any{})},
		},
		{
			name:  "invalid JSON arguments",
			calls: []providertest.ToolCall{{ID: "toolu_bad", Name: "developer__shell", Arguments: `{"command": "ls`}},
			want:  []conversation.Content{conversation.ToolRequestError("toolu_bad", `Could not parse tool arguments: {"command": "ls`)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, providertest.Turn{Text: []string{"Let me look."}, ToolCalls: tt.calls})
			chunks, err := providertest.Drain(newProvider(t, srv, sonnet, nil), providertest.UserRequest("list files"))
			if err != nil {
				t.Fatal(err)
			}
			providertest.CheckContent(t, chunks, append([]conversation.Content{conversation.Text("Let me look.")}, tt.want...))
		})
	}
}

func TestStreamThinkingAndRedactedThinking(t *testing.T) {
	srv := start(t, providertest.Turn{
		Thinking:          []string{"The user wants ", "a greeting."},
		ThinkingSignature: "sig-abc==",
		RedactedThinking:  "EncryptedBlob==",
		Text:              []string{"Hi!"},
	})
	chunks, err := providertest.Drain(newProvider(t, srv, sonnet, nil), providertest.UserRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	want := []conversation.Content{
		conversation.Thinking("The user wants a greeting.", "sig-abc=="),
		conversation.RedactedThinking("EncryptedBlob=="),
		conversation.Text("Hi!"),
	}
	providertest.CheckContent(t, chunks, want)
}

func TestStreamErrors(t *testing.T) {
	tests := []struct {
		name   string
		turn   providertest.Turn
		kind   provider.Kind
		status int
		text   string
	}{
		{"context length", providertest.Turn{Status: 400, ErrorBody: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`},
			provider.KindContextLength, 400, "prompt is too long"},
		{"auth", providertest.Turn{Status: 401, ErrorBody: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key ` + testKey + `"}}`},
			provider.KindAuth, 401, "invalid x-api-key [REDACTED]"},
		{"overloaded", providertest.Turn{Status: 529, ErrorBody: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
			provider.KindServer, 529, "Overloaded"},
		{"bad request", providertest.Turn{Status: 400, ErrorBody: `{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"}}`},
			provider.KindRequest, 400, "Bad request (400): messages: roles must alternate"},
		{"error event mid-stream", providertest.Turn{Text: []string{"partial"}, ErrorBody: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
			provider.KindServer, 0, "Overloaded"},
		{"cut mid-stream", providertest.Turn{Text: []string{"a", "b", "c"}, CutAfter: 4},
			provider.KindNetwork, 0, ""},
		{"refusal", providertest.Turn{Text: []string{"I"}, StopReason: "refusal"},
			provider.KindRefusal, 0, "refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, tt.turn)
			_, err := providertest.Drain(newProvider(t, srv, sonnet, nil), providertest.UserRequest("hi"))
			providertest.CheckError(t, err, providertest.WantError{Provider: "anthropic", Kind: tt.kind, Status: tt.status, Text: tt.text, Secret: testKey})
		})
	}
}

func TestRefusalFlushesUsageFirst(t *testing.T) {
	srv := start(t, providertest.Turn{Text: []string{"I"}, StopReason: "refusal", Usage: &providertest.Usage{Input: 5, Output: 2}})
	chunks, err := providertest.Drain(newProvider(t, srv, sonnet, nil), providertest.UserRequest("hi"))
	if err == nil || len(chunks) != 2 || chunks[1].Usage == nil || *chunks[1].Usage.Usage.TotalTokens != 7 {
		t.Fatalf("chunks %s err %v, want text, usage 5+2, then the refusal error", providertest.MustJSON(t, chunks), err)
	}
}

func TestRateLimitThenSuccessThroughRetry(t *testing.T) {
	srv := start(t,
		providertest.Turn{Status: 429, RetryAfter: "2", ErrorBody: `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`},
		providertest.Turn{Text: []string{"ok"}},
	)
	var slept providertest.Sleeps
	p := provider.WithRetry(newProvider(t, srv, sonnet, nil), provider.RetryOptions{Sleep: slept.Sleep})
	chunks, err := providertest.Drain(p, providertest.UserRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if got := providertest.Contents(chunks); len(got) != 1 || got[0].Text == nil || got[0].Text.Text != "ok" {
		t.Errorf("content = %s, want the retried reply", providertest.MustJSON(t, got))
	}
	if len(slept) != 1 || slept[0] != 2*time.Second {
		t.Errorf("slept %v, want the server's Retry-After of 2s", slept)
	}
}

func TestIdleStreamFailsWithStalledError(t *testing.T) {
	srv := start(t, providertest.Turn{Text: []string{"a", "b"}, Hang: true})
	p := provider.IdleTimeout(newProvider(t, srv, sonnet, nil), 200*time.Millisecond)
	_, err := providertest.Drain(p, providertest.UserRequest("hi"))
	if provider.KindOf(err) != provider.KindNetwork || !strings.Contains(err.Error(), "Stream stalled") {
		t.Fatalf("err = %v, want a KindNetwork stalled error", err)
	}
}

func TestCancelStopsStream(t *testing.T) {
	// The server sends message_start and then hangs until the request ends.
	srv := start(t, providertest.Turn{Text: []string{"a", "b"}, Hang: true})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var err error
	for _, e := range newProvider(t, srv, sonnet, nil).Stream(ctx, providertest.UserRequest("hi")) {
		err = e
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the caller's context error", err)
	}
}

func TestCompleteMergesReply(t *testing.T) {
	srv := start(t, providertest.Turn{
		Thinking: []string{"hm", "m"}, ThinkingSignature: "s",
		Text:      []string{"Session ", "title"},
		ToolCalls: []providertest.ToolCall{{ID: "t1", Name: "x", Arguments: `{"a":1}`}},
		Usage:     &providertest.Usage{Input: 3, Output: 4, CacheRead: 10},
	})
	msg, usage, err := newProvider(t, srv, sonnet, nil).Complete(context.Background(), providertest.UserRequest("title?"))
	if err != nil {
		t.Fatal(err)
	}
	want := []conversation.Content{
		conversation.Thinking("hmm", "s"),
		conversation.Text("Session title"),
		conversation.ToolRequestContent("t1", "x", map[string]any{"a": float64(1)}),
	}
	if providertest.MustJSON(t, msg.Content) != providertest.MustJSON(t, want) || msg.ID == nil {
		t.Errorf("message = %s, want merged %s", providertest.MustJSON(t, msg), providertest.MustJSON(t, want))
	}
	if *usage.Usage.InputTokens != 13 || *usage.Usage.TotalTokens != 17 {
		t.Errorf("usage = %s, want input 3+10 cache read", providertest.MustJSON(t, usage))
	}
}

func TestFetchModels(t *testing.T) {
	srv := start(t)
	srv.Script.SetModels("claude-sonnet-4-5", "claude-haiku-4-5")
	got, err := newProvider(t, srv, sonnet, nil).FetchModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "claude-haiku-4-5,claude-sonnet-4-5" {
		t.Errorf("models = %v, want sorted ids", got)
	}
	if r := srv.Requests(); len(r) != 1 || r[0].Path != "/v1/models" {
		t.Errorf("requests = %+v", r)
	}
}

func TestNewRequiresKey(t *testing.T) {
	if _, err := New(Options{}); !errors.Is(err, ErrMissingAPIKey) {
		t.Fatalf("err = %v, want ErrMissingAPIKey", err)
	}
}
