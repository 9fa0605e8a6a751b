package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func parseString(t *testing.T, body string) (conversation.Conversation, *provider.ProviderUsage, error) {
	t.Helper()
	var conv conversation.Conversation
	var usage *provider.ProviderUsage
	p := newStreamParser(strings.NewReader(body), "openai", "m", userHi, fixedNow)
	for c, err := range p.chunks(context.Background()) {
		if err != nil {
			return conv, usage, err
		}
		if c.Message != nil {
			conv.Push(*c.Message)
		}
		if c.Usage != nil {
			usage = c.Usage
		}
	}
	return conv, usage, nil
}

func TestSSEFraming(t *testing.T) {
	long := strings.Repeat("x", 200_000) // longer than the 64 KiB read buffer
	body := ": keep-alive comment\r\n" +
		"event: message\r\n" +
		`data:{"id":"a","choices":[{"delta":{"content":"one "}}]}` + "\r\n\r\n" +
		`data: {"id":"a","choices":[{"delta":{"content":"` + long + `"}}]}` + "\n\n" +
		`data: {"id":"a","choices":[{"delta":{"content":" \u00e9\ud83d\ude00\n"}}]}` + "\n\n" +
		`data: {"id":"a","choices":[{"delta":{},"finish_reason":"stop"}]}` + "\n\n" +
		"data: [DONE]\n\n" +
		`data: {"id":"after-done","choices":[{"delta":{"content":"ignored"}}]}` + "\n\n"
	conv, _, err := parseString(t, body)
	if err != nil {
		t.Fatal(err)
	}
	if want := "one " + long + " é😀\n"; conv[0].AsText() != want || *conv[0].ID != "a" {
		t.Fatalf("text %d bytes, id %s", len(conv[0].AsText()), *conv[0].ID)
	}
}

func TestStreamEndings(t *testing.T) {
	text := `data: {"id":"a","choices":[{"delta":{"content":"hi"}}]}` + "\n\n"
	stop := `data: {"id":"a","choices":[{"delta":{},"finish_reason":"stop"}]}` + "\n\n"
	for _, tc := range []struct {
		name string
		body string
		kind provider.Kind
	}{
		{"finish without DONE is complete", text + stop, provider.KindUnknown},
		{"EOF without finish is a cut", text, provider.KindNetwork},
		{"truncated JSON is a cut", text + `data: {"id":"a","choi`, provider.KindNetwork},
		{"garbage is a server error", text + "data: not json\n\n", provider.KindServer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := parseString(t, tc.body)
			if provider.KindOf(err) != tc.kind || (tc.kind == provider.KindUnknown) != (err == nil) {
				t.Fatalf("got %v", err)
			}
		})
	}
}

func TestToolCallsWithoutFinishReasonFlushAtEnd(t *testing.T) {
	body := `data: {"id":"a","choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":"}}]}}]}` + "\n\n" +
		`data: {"id":"a","choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]}` + "\n\n" +
		"data: [DONE]\n\n"
	conv, _, err := parseString(t, body)
	if err != nil {
		t.Fatal(err)
	}
	reqs := toolRequests(conv[0])
	if len(reqs) != 1 || reqs[0].ToolCall.Value.Arguments["a"] != float64(1) {
		t.Fatalf("%+v", conv)
	}
}

func TestAccumulatorIndexQuirks(t *testing.T) {
	// Index reused for a second call (some servers send index 0 for every
	// call) and a server that sends neither index nor repeated ids.
	body := `data: {"id":"a","choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{}"}}]}}]}` + "\n\n" +
		`data: {"id":"a","choices":[{"delta":{"tool_calls":[{"index":0,"id":"c2","function":{"name":"g","arguments":""}}]}}]}` + "\n\n" +
		`data: {"id":"a","choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"x\":true}"}}]}}]}` + "\n\n" +
		`data: {"id":"a","choices":[{"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	conv, _, err := parseString(t, body)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(conv[0].Content)
	want := `[{"type":"toolRequest","id":"c1","toolCall":{"status":"success","value":{"name":"f","arguments":{}}}},` +
		`{"type":"toolRequest","id":"c2","toolCall":{"status":"success","value":{"name":"g","arguments":{"x":true}}}}]`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

func TestUsageOnlyFromChunksWithCompletionTokens(t *testing.T) {
	body := `data: {"id":"a","model":"gpt-4o-2024","choices":[{"delta":{"content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3}}` + "\n\n" +
		`data: {"id":"a","model":"gpt-4o-2024","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1}}` + "\n\ndata: [DONE]\n\n"
	_, u, err := parseString(t, body)
	if err != nil {
		t.Fatal(err)
	}
	if u.Model != "gpt-4o-2024" || *u.Usage.InputTokens != 3 || *u.Usage.OutputTokens != 1 || *u.Usage.TotalTokens != 4 {
		t.Fatalf("%+v", u)
	}
}

func TestCancelStopsStreamPromptly(t *testing.T) {
	// The server sends the role chunk and "a", then hangs until the client leaves.
	s := start(t, providertest.Turn{Text: []string{"a"}, Hang: true})
	p := newTestProvider(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	var got error
	begin := time.Now()
	for _, err := range p.Stream(ctx, userHi) {
		got = err
	}
	if !errors.Is(got, context.Canceled) || time.Since(begin) > 5*time.Second {
		t.Fatalf("err %v after %v", got, time.Since(begin))
	}
}

func TestUnquote(t *testing.T) {
	for in, want := range map[string]string{
		`plain`: "plain", `a\"b\\c\/d`: `a"b\c/d`, `\n\t\r\b\f`: "\n\t\r\b\f",
		`\u00e9`: "é", `\ud83d\ude00`: "😀", `\ud83d`: "\ufffd",
	} {
		if got := string(appendUnquoted(nil, []byte(in))); got != want {
			t.Errorf("%s: got %q want %q", in, got, want)
		}
	}
	var s rawString
	if err := s.UnmarshalJSON([]byte("42")); err == nil {
		t.Fatal("non-string accepted")
	}
	_ = io.EOF
}

func TestToolCallExtraContentRoundTrip(t *testing.T) {
	body := `data: {"id":"a","choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":"{}"},` +
		`"extra_content":{"google":{"thought_signature":"sig=="}}}]}}]}` + "\n\n" +
		`data: {"id":"a","choices":[{"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"
	conv, _, err := parseString(t, body)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(conv[0])
	var stored conversation.Message // as a session store would hand it back
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	got := body2(t, stored)
	want := `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"},` +
		`"extra_content":{"google":{"thought_signature":"sig=="}}}]}`
	if !strings.Contains(got, want) {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
}

func body2(t *testing.T, m conversation.Message) string {
	t.Helper()
	b, err := json.Marshal(formatMessages([]conversation.Message{m}))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
