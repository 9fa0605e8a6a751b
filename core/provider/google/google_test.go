package google

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

var flash = model.Config{ModelName: "gemini-2.5-flash"}

func TestStreamTextAndUsage(t *testing.T) {
	srv := start(t, providertest.Turn{Text: []string{"Hello", " world"}, Usage: &providertest.Usage{Input: 10, Output: 4}})
	chunks, err := providertest.Drain(newProvider(t, srv, flash), providertest.UserRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 3 {
		t.Fatalf("chunks = %s, want 2 texts and usage", providertest.MustJSON(t, chunks))
	}
	for i, want := range []string{"Hello", " world"} {
		m := chunks[i].Message
		if m == nil || m.IDOrEmpty() != "id-1" || m.AsText() != want || m.Role != conversation.RoleAssistant {
			t.Errorf("chunk %d = %s, want assistant text %q with id-1", i, providertest.MustJSON(t, chunks[i]), want)
		}
	}
	if got := providertest.MustJSON(t, chunks[2].Usage); got != `{"model":"gemini-2.5-flash","usage":{"input_tokens":10,"output_tokens":4,"total_tokens":14}}` {
		t.Errorf("usage = %s", got)
	}
	r := srv.Requests()[0]
	if r.Path != "/v1beta/models/gemini-2.5-flash:streamGenerateContent" || r.Query != "alt=sse" || r.Header.Get("X-Goog-Api-Key") != testKey {
		t.Errorf("request %s?%s key=%q", r.Path, r.Query, r.Header.Get("X-Goog-Api-Key"))
	}
}

func TestStreamFunctionCalls(t *testing.T) {
	tests := []struct {
		name  string
		calls []providertest.ToolCall
		want  []conversation.Content
	}{
		{"one call", []providertest.ToolCall{{Name: "developer__shell", Arguments: `{"command":"ls"}`}},
			[]conversation.Content{conversation.ToolRequestContent("id-2", "developer__shell", map[string]any{"command": "ls"})}},
		{"two parallel calls get distinct ids", []providertest.ToolCall{
			{Name: "read", Arguments: `{"path":"a.go"}`}, {Name: "read", Arguments: `{"path":"b.go"}`}},
			[]conversation.Content{
				conversation.ToolRequestContent("id-2", "read", map[string]any{"path": "a.go"}),
				conversation.ToolRequestContent("id-3", "read", map[string]any{"path": "b.go"})}},
		{"no arguments", []providertest.ToolCall{{Name: "todo__list"}},
			[]conversation.Content{conversation.ToolRequestContent("id-2", "todo__list", map[string]any{})}},
		{"invalid function name", []providertest.ToolCall{{Name: "bad name!", Arguments: `{}`}},
			[]conversation.Content{conversation.ToolRequestError("id-2", "The provided function name 'bad name!' had invalid characters, it must match this regex [a-zA-Z0-9_-]+")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, providertest.Turn{ToolCalls: tt.calls})
			chunks, err := providertest.Drain(newProvider(t, srv, flash), providertest.UserRequest("go"))
			if err != nil {
				t.Fatal(err)
			}
			providertest.CheckContent(t, chunks, tt.want)
		})
	}
}

// Gemini sends arguments as a JSON object; arguments that do not decode
// (here: invalid JSON from a broken proxy) reach the model as an error on
// the call.
func TestInvalidArgumentsBecomeModelVisibleError(t *testing.T) {
	srv := start(t, providertest.Turn{Text: []string{"Calling."},
		ToolCalls: []providertest.ToolCall{{Name: "developer__shell", Arguments: `{"command": "ls`}},
		Usage:     &providertest.Usage{Input: 3, Output: 2}})
	chunks, err := providertest.Drain(newProvider(t, srv, flash), providertest.UserRequest("go"))
	if err != nil {
		t.Fatal(err)
	}
	got := providertest.Contents(chunks)
	if len(got) != 2 || got[1].ToolRequest == nil || got[1].ToolRequest.ToolCall.IsOK() ||
		got[1].ToolRequest.ID != "id-2" || !strings.HasPrefix(got[1].ToolRequest.ToolCall.Error, "Could not interpret tool use parameters for id id-2: ") {
		t.Fatalf("content = %s, want the text then a tool request error", providertest.MustJSON(t, got))
	}
	if last := chunks[len(chunks)-1]; last.Usage == nil || *last.Usage.Usage.InputTokens != 3 {
		t.Errorf("want the usage seen so far last, got %s", providertest.MustJSON(t, last))
	}
}

func TestThoughtsAndSignatures(t *testing.T) {
	t.Run("thought parts become thinking", func(t *testing.T) {
		srv := start(t, providertest.Turn{Thinking: []string{"hmm ", "ok"}, ThinkingSignature: "c2lnLTE=", Text: []string{"Answer"}})
		msg, _, err := newProvider(t, srv, flash).Complete(context.Background(), providertest.UserRequest("?"))
		if err != nil {
			t.Fatal(err)
		}
		want := []conversation.Content{conversation.Thinking("hmm ok", "c2lnLTE="), conversation.Text("Answer")}
		if providertest.MustJSON(t, msg.Content) != providertest.MustJSON(t, want) {
			t.Errorf("message = %s, want %s", providertest.MustJSON(t, msg.Content), providertest.MustJSON(t, want))
		}
	})
	t.Run("function call keeps its signature for the next turn", func(t *testing.T) {
		srv := start(t, providertest.Turn{Thinking: []string{"plan"}, ThinkingSignature: "c2lnLTI=",
			ToolCalls: []providertest.ToolCall{{Name: "a", Arguments: `{}`}, {Name: "b", Arguments: `{}`}}})
		chunks, err := providertest.Drain(newProvider(t, srv, flash), providertest.UserRequest("?"))
		if err != nil {
			t.Fatal(err)
		}
		got := providertest.Contents(chunks)
		if len(got) != 3 || got[1].ToolRequest.Metadata[thoughtSignatureKey] != "c2lnLTI=" || got[2].ToolRequest.Metadata[thoughtSignatureKey] != "c2lnLTI=" {
			t.Errorf("content = %s, want both calls carrying the signature", providertest.MustJSON(t, got))
		}
	})
}

func TestStreamErrors(t *testing.T) {
	tests := []struct {
		name   string
		turn   providertest.Turn
		kind   provider.Kind
		status int
		text   string
	}{
		{"context length", providertest.Turn{Status: 400, ErrorBody: `{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`},
			provider.KindContextLength, 400, "exceeds the maximum"},
		{"auth", providertest.Turn{Status: 403, ErrorBody: `{"error":{"code":403,"message":"API key ` + testKey + ` not valid","status":"PERMISSION_DENIED"}}`},
			provider.KindAuth, 403, "API key [REDACTED] not valid"},
		{"server", providertest.Turn{Status: 503, ErrorBody: `{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}`},
			provider.KindServer, 503, "The model is overloaded."},
		{"error chunk mid-stream", providertest.Turn{Text: []string{"par"}, ErrorBody: "internal failure"},
			provider.KindServer, 500, "internal failure"},
		{"cut mid-stream", providertest.Turn{Text: []string{"a", "b", "c"}, CutAfter: 2},
			provider.KindNetwork, 0, ""},
		{"undecodable chunk", providertest.Turn{Text: []string{"a"}, ErrorBody: `{"candidates":"oops"}`},
			provider.KindServer, 0, "invalid stream chunk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, tt.turn)
			_, err := providertest.Drain(newProvider(t, srv, flash), providertest.UserRequest("hi"))
			providertest.CheckError(t, err, providertest.WantError{Provider: "google", Kind: tt.kind, Status: tt.status, Text: tt.text, Secret: testKey})
		})
	}
}

func TestRateLimitThenSuccessThroughRetry(t *testing.T) {
	tests := []struct {
		name string
		turn providertest.Turn
		want time.Duration
	}{
		{"Retry-After header", providertest.Turn{Status: 429, RetryAfter: "2",
			ErrorBody: `{"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}`}, 2 * time.Second},
		{"RetryInfo detail", providertest.Turn{Status: 429,
			ErrorBody: `{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"7s"}]}}`}, 7 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, tt.turn, providertest.Turn{Text: []string{"ok"}})
			var slept providertest.Sleeps
			p := provider.WithRetry(newProvider(t, srv, flash), provider.RetryOptions{Sleep: slept.Sleep})
			chunks, err := providertest.Drain(p, providertest.UserRequest("hi"))
			if err != nil {
				t.Fatal(err)
			}
			if got := providertest.Contents(chunks); len(got) != 1 || got[0].Text.Text != "ok" || len(slept) != 1 || slept[0] != tt.want {
				t.Errorf("content %s slept %v, want the retried reply after %v", providertest.MustJSON(t, got), slept, tt.want)
			}
		})
	}
}

func TestCallerCancel(t *testing.T) {
	srv := start(t, providertest.Turn{Text: []string{"a", "b"}, Hang: true})
	if err := providertest.CancelAfterFirstMessage(newProvider(t, srv, flash), providertest.UserRequest("hi")); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestFetchModels(t *testing.T) {
	srv := start(t)
	srv.Script.SetModels("gemini-2.5-pro", "gemini-2.5-flash")
	got, err := newProvider(t, srv, flash).FetchModels(context.Background())
	if err != nil || strings.Join(got, ",") != "gemini-2.5-flash,gemini-2.5-pro" {
		t.Fatalf("models = %v, %v", got, err)
	}
}

func TestNewRequiresKey(t *testing.T) {
	if _, err := New(Options{}); !errors.Is(err, ErrMissingAPIKey) {
		t.Fatalf("err = %v, want ErrMissingAPIKey", err)
	}
}

func TestConsumerPanicIsNotSwallowed(t *testing.T) {
	srv := start(t, providertest.Turn{Text: []string{"a"}})
	defer func() {
		if r := recover(); r != "consumer bug" {
			t.Fatalf("recovered %v, want the consumer's own panic", r)
		}
	}()
	for range newProvider(t, srv, flash).Stream(context.Background(), providertest.UserRequest("hi")) {
		panic("consumer bug")
	}
}
