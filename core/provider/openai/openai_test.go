package openai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const testKey = "sk-test-secret-key-0123456789"

var fixedNow = func() time.Time { return time.Unix(1_700_000_123, 0) }

func newTestProvider(t *testing.T, s *providertest.Server, mut ...func(*Options)) *Provider {
	t.Helper()
	o := Options{Host: s.URL, APIKey: testKey, Model: model.Config{ModelName: "gpt-4o"}, Now: fixedNow,
		HTTPClient: s.Client()}
	for _, f := range mut {
		f(&o)
	}
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func start(t *testing.T, turns ...providertest.Turn) *providertest.Server {
	return providertest.Serve(t, providertest.OpenAI, turns...)
}

var userHi = providertest.UserRequest("hi")

// run collects a stream's messages (merged as the agent does), chunks and
// error.
func run(p provider.Provider, req provider.Request) (conversation.Conversation, []provider.Chunk, error) {
	chunks, err := providertest.Drain(p, req)
	return providertest.Merge(chunks), chunks, err
}

func TestStreamTextReply(t *testing.T) {
	s := start(t, providertest.Turn{Text: []string{"Hel", "lo ", "world"}, Usage: &providertest.Usage{Input: 12, Output: 3}})
	p := newTestProvider(t, s)
	conv, chunks, err := run(p, userHi)
	if err != nil {
		t.Fatal(err)
	}
	if len(conv) != 1 || conv[0].AsText() != "Hello world" || conv[0].Role != conversation.RoleAssistant {
		t.Fatalf("conversation %+v", conv)
	}
	ids := map[string]bool{}
	for _, c := range chunks {
		if c.Message != nil {
			ids[*c.Message.ID] = true
			if c.Message.Created != 1_700_000_123 {
				t.Fatalf("created %d", c.Message.Created)
			}
		}
	}
	if len(ids) != 1 || !strings.HasPrefix(*conv[0].ID, "chatcmpl-") {
		t.Fatalf("chunks must share the chunk id: %v", ids)
	}
	last := chunks[len(chunks)-1].Usage
	if last == nil || last.Model != "gpt-4o" || *last.Usage.InputTokens != 12 || *last.Usage.OutputTokens != 3 || *last.Usage.TotalTokens != 15 {
		t.Fatalf("usage %+v", last)
	}
	req := s.Requests()[0]
	if req.Path != "/v1/chat/completions" || req.Header.Get("Authorization") != "Bearer "+testKey {
		t.Fatalf("path %s auth %q", req.Path, req.Header.Get("Authorization"))
	}
	want := `{"model":"gpt-4o","messages":[{"role":"system","content":"You are goose."},{"role":"user","content":"hi"}],` +
		`"max_tokens":4096,"stream":true,"stream_options":{"include_usage":true}}`
	if string(req.Body) != want {
		t.Fatalf("request body\n got %s\nwant %s", req.Body, want)
	}
}

func toolRequests(m conversation.Message) []*conversation.ToolRequest {
	var out []*conversation.ToolRequest
	for _, c := range m.Content {
		if c.ToolRequest != nil {
			out = append(out, c.ToolRequest)
		}
	}
	return out
}

func TestStreamToolCalls(t *testing.T) {
	two := []providertest.ToolCall{
		{ID: "call_a", Name: "developer__text_editor", Arguments: `{"command":"view","path":"a.go"}`},
		{ID: "call_b", Name: "developer__shell", Arguments: `{"command":"ls -la"}`},
	}
	for _, tc := range []struct {
		name string
		turn providertest.Turn
		want []string
	}{
		{"one call", providertest.Turn{Text: []string{"Let me look."}, ToolCalls: two[:1]}, []string{"call_a"}},
		{"two parallel", providertest.Turn{ToolCalls: two}, []string{"call_a", "call_b"}},
		{"two parallel without index", providertest.Turn{ToolCalls: two, OmitToolCallIndex: true}, []string{"call_a", "call_b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestProvider(t, start(t, tc.turn))
			conv, _, err := run(p, userHi)
			if err != nil {
				t.Fatal(err)
			}
			reqs := toolRequests(conv[0])
			if len(reqs) != len(tc.want) {
				t.Fatalf("got %d tool requests: %+v", len(reqs), conv[0].Content)
			}
			for i, r := range reqs {
				call := tc.turn.ToolCalls[i]
				var args map[string]any
				_ = json.Unmarshal([]byte(call.Arguments), &args)
				got, _ := json.Marshal(r.ToolCall.Value.Arguments)
				wantArgs, _ := json.Marshal(args)
				if r.ID != tc.want[i] || r.ToolCall.Value.Name != call.Name || string(got) != string(wantArgs) {
					t.Fatalf("call %d: %s %s %s", i, r.ID, r.ToolCall.Value.Name, got)
				}
			}
		})
	}
}

func TestStreamThinking(t *testing.T) {
	p := newTestProvider(t, start(t, providertest.Turn{Thinking: []string{"Let me ", "think."}, Text: []string{"Done."}}))
	conv, _, err := run(p, userHi)
	if err != nil {
		t.Fatal(err)
	}
	c := conv[0].Content
	if len(c) != 2 || c[0].Thinking == nil || c[0].Thinking.Thinking != "Let me think." || c[0].Thinking.Signature != "" ||
		c[1].Text == nil || c[1].Text.Text != "Done." {
		b, _ := json.Marshal(c)
		t.Fatalf("content %s", b)
	}
}

func TestStreamInvalidToolArguments(t *testing.T) {
	p := newTestProvider(t, start(t, providertest.Turn{ToolCalls: []providertest.ToolCall{
		{ID: "call_x", Name: "developer__shell", Arguments: `{"command": "ls`}}}))
	conv, _, err := run(p, userHi)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(conv[0].Content)
	want := `[{"type":"toolRequest","id":"call_x","toolCall":{"status":"error","error":"Could not interpret tool use parameters for id call_x: unexpected end of JSON input"}}]`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

func TestStreamErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		turn providertest.Turn
		kind provider.Kind
		msg  string
	}{
		{"auth", providertest.Turn{Status: 401, ErrorBody: `{"error":{"message":"Incorrect API key provided: ` + testKey + `","type":"invalid_request_error"}}`},
			provider.KindAuth, "openai: authentication error (status 401): Authentication failed. Status: 401 Unauthorized. Response: Incorrect API key provided: [REDACTED]"},
		{"context length", providertest.Turn{Status: 400, ErrorBody: `{"error":{"message":"This model's maximum context length is 128000 tokens.","code":"context_length_exceeded"}}`},
			provider.KindContextLength, "openai: context length exceeded (status 400): This model's maximum context length is 128000 tokens."},
		{"server", providertest.Turn{Status: 503, ErrorBody: `overloaded`},
			provider.KindServer, "openai: server error (status 503): Server error (503 Service Unavailable): overloaded"},
		{"cut mid-way", providertest.Turn{Text: []string{"a", "b", "c", "d"}, CutAfter: 3},
			provider.KindNetwork, "openai: network error: stream ended before the response was complete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestProvider(t, start(t, tc.turn))
			_, _, err := run(p, userHi)
			if provider.KindOf(err) != tc.kind || err.Error() != tc.msg {
				t.Fatalf("got %v (%v)\nwant %s", err, provider.KindOf(err), tc.msg)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Fatal("secret leaked")
			}
		})
	}
}

func TestStreamErrorObjectInStream(t *testing.T) {
	for _, body := range []string{
		"data: {\"error\":{\"message\":\"overloaded\"}}\n\n",
		"data: {\"object\":\"error\",\"message\":\"overloaded\"}\n\n",
	} {
		parser := newStreamParser(strings.NewReader(body), "openai", "m", userHi, fixedNow)
		var got error
		for _, err := range parser.chunks(context.Background()) {
			got = err
		}
		if provider.KindOf(got) != provider.KindServer || !strings.Contains(got.Error(), "overloaded") {
			t.Fatalf("%q: got %v", body, got)
		}
	}
}

func TestRateLimitThenSuccess(t *testing.T) {
	s := start(t,
		providertest.Turn{Status: 429, RetryAfter: "2", ErrorBody: `{"error":{"message":"Rate limit reached"}}`},
		providertest.Turn{Text: []string{"ok"}})
	var slept providertest.Sleeps
	p := provider.WithRetry(newTestProvider(t, s), provider.RetryOptions{Sleep: slept.Sleep})
	conv, _, err := run(p, userHi)
	if err != nil || conv[0].AsText() != "ok" {
		t.Fatalf("conv %v err %v", conv, err)
	}
	if len(slept) != 1 || slept[0] != 2*time.Second || len(s.Requests()) != 2 {
		t.Fatalf("slept %v requests %d", slept, len(s.Requests()))
	}
}

func TestIdleStreamFails(t *testing.T) {
	s := start(t, providertest.Turn{Text: []string{"a", "b"}, Hang: true})
	p := provider.IdleTimeout(newTestProvider(t, s), 100*time.Millisecond)
	_, _, err := run(p, userHi)
	if provider.KindOf(err) != provider.KindNetwork || !strings.Contains(err.Error(), "Stream stalled") {
		t.Fatalf("got %v", err)
	}
}

func TestCompleteAndFetchModels(t *testing.T) {
	s := start(t, providertest.Turn{Text: []string{"A ", "title"}, Usage: &providertest.Usage{Input: 7, Output: 2}})
	s.Script.SetModels("o3", "gpt-4o")
	p := newTestProvider(t, s)
	m, u, err := p.Complete(context.Background(), userHi)
	if err != nil || m.AsText() != "A title" || *u.Usage.TotalTokens != 9 {
		t.Fatalf("m %v u %+v err %v", m, u, err)
	}
	names, err := p.FetchModels(context.Background())
	if err != nil || strings.Join(names, ",") != "gpt-4o,o3" {
		t.Fatalf("models %v err %v", names, err)
	}
	if got := s.Requests()[1].Path; got != "/v1/models" {
		t.Fatalf("models path %s", got)
	}
}

func TestHostBasePathAndHeaders(t *testing.T) {
	s := start(t, providertest.Turn{Text: []string{"ok"}})
	p := newTestProvider(t, s, func(o *Options) {
		o.Host = s.URL + "/proxy"
		o.BasePath = "/custom/chat/completions"
		o.Organization, o.Project = "org-1", "proj-1"
		o.Headers = map[string]string{"X-Extra": "1"}
	})
	if _, _, err := run(p, userHi); err != nil {
		t.Fatal(err)
	}
	r := s.Requests()[0]
	if r.Path != "/proxy/custom/chat/completions" || r.Header.Get("OpenAI-Organization") != "org-1" ||
		r.Header.Get("OpenAI-Project") != "proj-1" || r.Header.Get("X-Extra") != "1" {
		t.Fatalf("path %s headers %v", r.Path, r.Header)
	}
}

func TestUsageEstimatedWhenServerSendsNone(t *testing.T) {
	s := start(t, providertest.Turn{Text: []string{"hello there"}})
	p := newTestProvider(t, s, func(o *Options) { o.NoStreamOptions = true })
	_, chunks, err := run(p, userHi)
	if err != nil {
		t.Fatal(err)
	}
	u := chunks[len(chunks)-1].Usage
	wantIn := provider.CountChatTokens(userHi.System, userHi.Messages, nil)
	wantOut := provider.CountChatTokens("", []conversation.Message{conversation.AssistantText(0, "hello there")}, nil)
	if u == nil || *u.Usage.InputTokens != wantIn || *u.Usage.OutputTokens != wantOut || *u.Usage.TotalTokens != wantIn+wantOut {
		t.Fatalf("usage %+v want in %d out %d", u, wantIn, wantOut)
	}
	if strings.Contains(string(s.Requests()[0].Body), "stream_options") {
		t.Fatal("stream_options must be omitted")
	}
}

func TestNonStreamingService(t *testing.T) {
	s := start(t, providertest.Turn{Thinking: []string{"hm"}, Text: []string{"he", "llo"},
		ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "shell", Arguments: `{"command":"ls"}`}, {ID: "c2", Name: "bad name", Arguments: "{}"}},
		Usage:     &providertest.Usage{Input: 4, Output: 6}})
	p := newTestProvider(t, s, func(o *Options) { o.NoStreaming = true })
	conv, chunks, err := run(p, userHi)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(conv[0].Content)
	want := `[{"type":"thinking","thinking":"hm","signature":""},{"type":"text","text":"hello"},` +
		`{"type":"toolRequest","id":"c1","toolCall":{"status":"success","value":{"name":"shell","arguments":{"command":"ls"}}}},` +
		`{"type":"toolRequest","id":"c2","toolCall":{"status":"error","error":"The provided function name 'bad name' had invalid characters, it must match this regex [a-zA-Z0-9_-]+"}}]`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	if u := chunks[len(chunks)-1].Usage; u == nil || *u.Usage.TotalTokens != 10 {
		t.Fatalf("usage %+v", u)
	}
	if strings.Contains(string(s.Requests()[0].Body), `"stream"`) {
		t.Fatalf("non-streaming request must not ask to stream: %s", s.Requests()[0].Body)
	}
}

func TestIdleWatchdogSeesToolArgumentFragments(t *testing.T) {
	// Fragments arrive every 40ms; no message is yielded until the call is
	// complete, yet the 100ms watchdog must not fire. The stream is paced
	// in synctest's virtual time, so machine load cannot change the answer.
	call := providertest.ToolCall{ID: "c1", Name: "shell", Arguments: `{"command":"ls -la /tmp"}`}
	body := providertest.Record(t, providertest.OpenAI, providertest.Turn{ToolCalls: []providertest.ToolCall{call}},
		"/v1/chat/completions", `{"model":"gpt-4o","stream":true}`)
	const gap, watchdog = 40 * time.Millisecond, 100 * time.Millisecond
	if n := providertest.Units("text/event-stream", body); time.Duration(n)*gap < 2*watchdog {
		t.Fatalf("the recorded stream has %d events: too short to outlast the watchdog", n)
	}
	synctest.Test(t, func(t *testing.T) {
		p, err := New(Options{Host: "http://recorded", APIKey: testKey, Model: model.Config{ModelName: "gpt-4o"},
			Now: fixedNow, HTTPClient: providertest.PacedClient("text/event-stream", body, gap)})
		if err != nil {
			t.Fatal(err)
		}
		conv, _, err := run(provider.IdleTimeout(p, watchdog), userHi)
		if err != nil || len(conv) != 1 || len(toolRequests(conv[0])) != 1 {
			t.Fatalf("conv %v err %v", conv, err)
		}
	})
}

func TestNewRejectsBadEndpoints(t *testing.T) {
	for _, o := range []Options{
		{Host: "api.openai.com"},
		{Host: "ftp://api.openai.com", BasePath: "v1/responses"},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
