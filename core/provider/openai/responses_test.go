package openai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func startResponses(t *testing.T, turns ...providertest.Turn) *providertest.Server {
	return providertest.Serve(t, providertest.OpenAIResponses, turns...)
}

func codex(o *Options) { o.Model = model.Config{ModelName: "gpt-5-codex"} }

func contentJSON(t *testing.T, m conversation.Message) string {
	t.Helper()
	return providertest.MustJSON(t, m.Content)
}

func TestResponsesTextReply(t *testing.T) {
	s := startResponses(t, providertest.Turn{Text: []string{"Hel", "lo ", "world"}, Usage: &providertest.Usage{Input: 12, Output: 3}})
	p := newTestProvider(t, s, codex)
	conv, chunks, err := run(p, userHi)
	if err != nil {
		t.Fatal(err)
	}
	if len(conv) != 1 || contentJSON(t, conv[0]) != `[{"type":"text","text":"Hello world"}]` || conv[0].Role != conversation.RoleAssistant {
		t.Fatalf("conversation %+v", conv)
	}
	var texts []string
	for _, c := range chunks {
		if c.Message != nil {
			texts = append(texts, c.Message.AsText())
			if *c.Message.ID != *conv[0].ID || c.Message.Created != 1_700_000_123 {
				t.Fatalf("chunk id %s created %d", *c.Message.ID, c.Message.Created)
			}
		}
	}
	if strings.Join(texts, "|") != "Hel|lo |world" || !strings.HasPrefix(*conv[0].ID, "resp_") {
		t.Fatalf("text chunks %q id %s", texts, *conv[0].ID)
	}
	last := chunks[len(chunks)-1].Usage
	if last == nil || last.Model != "gpt-5-codex" || *last.Usage.InputTokens != 12 || *last.Usage.OutputTokens != 3 || *last.Usage.TotalTokens != 15 {
		t.Fatalf("usage %+v", last)
	}
	req := s.Requests()[0]
	if req.Path != "/v1/responses" || req.Header.Get("Authorization") != "Bearer "+testKey || req.Header.Get("Accept") != "text/event-stream" {
		t.Fatalf("path %s headers %v", req.Path, req.Header)
	}
	want := `{"model":"gpt-5-codex","input":[{"role":"system","content":[{"type":"input_text","text":"You are goose."}]},` +
		`{"role":"user","content":[{"type":"input_text","text":"hi"}]}],"store":false,"max_output_tokens":4096,"stream":true}`
	if string(req.Body) != want {
		t.Fatalf("request body\n got %s\nwant %s", req.Body, want)
	}
}

func TestResponsesToolCalls(t *testing.T) {
	two := []providertest.ToolCall{
		{ID: "call_a", Name: "developer__text_editor", Arguments: `{"command":"view","path":"a.go"}`},
		{ID: "call_b", Name: "developer__shell", Arguments: `{"command":"ls -la"}`},
	}
	for _, tc := range []struct {
		name string
		turn providertest.Turn
		want string
	}{
		{"one call after text", providertest.Turn{Text: []string{"Let me ", "look."}, ToolCalls: two[:1]},
			`[{"type":"text","text":"Let me look."},` +
				`{"type":"toolRequest","id":"call_a","toolCall":{"status":"success","value":{"name":"developer__text_editor","arguments":{"command":"view","path":"a.go"}}}}]`},
		{"two calls", providertest.Turn{ToolCalls: two},
			`[{"type":"toolRequest","id":"call_a","toolCall":{"status":"success","value":{"name":"developer__text_editor","arguments":{"command":"view","path":"a.go"}}}},` +
				`{"type":"toolRequest","id":"call_b","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"ls -la"}}}}]`},
		{"invalid arguments", providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_x", Name: "developer__shell", Arguments: `{"command": "ls`}}},
			`[{"type":"toolRequest","id":"call_x","toolCall":{"status":"error","error":"Could not interpret tool use parameters for id call_x: unexpected end of JSON input"}}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestProvider(t, startResponses(t, tc.turn), codex)
			conv, _, err := run(p, userHi)
			if err != nil {
				t.Fatal(err)
			}
			if len(conv) != 1 || contentJSON(t, conv[0]) != tc.want {
				t.Fatalf("got  %s\nwant %s", contentJSON(t, conv[0]), tc.want)
			}
		})
	}
}

func TestResponsesReasoningSummary(t *testing.T) {
	p := newTestProvider(t, startResponses(t, providertest.Turn{Thinking: []string{"Let me ", "think."}, Text: []string{"Paris."}}),
		func(o *Options) { o.Model = model.Config{ModelName: "gpt-5-codex-high"} })
	conv, _, err := run(p, userHi)
	if err != nil {
		t.Fatal(err)
	}
	// goose streams the text and adds the summary from the finished items.
	want := `[{"type":"text","text":"Paris."},{"type":"thinking","thinking":"Let me think.","signature":""}]`
	if got := contentJSON(t, conv[0]); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestResponsesUsageEstimatedWhenServerSendsNone(t *testing.T) {
	s := startResponses(t, providertest.Turn{Text: []string{"hello there"}})
	_, chunks, err := run(newTestProvider(t, s, codex), userHi)
	if err != nil {
		t.Fatal(err)
	}
	u := chunks[len(chunks)-1].Usage
	wantIn := provider.CountChatTokens(userHi.System, userHi.Messages, nil)
	wantOut := provider.CountChatTokens("", []conversation.Message{conversation.AssistantText(0, "hello there")}, nil)
	if u == nil || *u.Usage.InputTokens != wantIn || *u.Usage.OutputTokens != wantOut || *u.Usage.TotalTokens != wantIn+wantOut {
		t.Fatalf("usage %+v want in %d out %d", u, wantIn, wantOut)
	}
}

func TestResponsesIncompleteKeepsWhatArrived(t *testing.T) {
	s := startResponses(t, providertest.Turn{Text: []string{"partial"}, StopReason: "max_output_tokens", Usage: &providertest.Usage{Input: 5, Output: 9}})
	conv, chunks, err := run(newTestProvider(t, s, codex), userHi)
	if err != nil || conv[0].AsText() != "partial" || *chunks[len(chunks)-1].Usage.Usage.OutputTokens != 9 {
		t.Fatalf("conv %v err %v", conv, err)
	}
}

func TestResponsesErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		turn providertest.Turn
		kind provider.Kind
		msg  string
	}{
		{"auth", providertest.Turn{Status: 401, ErrorBody: `{"error":{"message":"Incorrect API key provided: ` + testKey + `","type":"invalid_request_error"}}`},
			provider.KindAuth, "openai: authentication error (status 401): Authentication failed. Status: 401 Unauthorized. Response: Incorrect API key provided: [REDACTED]"},
		{"context length", providertest.Turn{Status: 400, ErrorBody: `{"error":{"message":"Your input exceeds the context window of this model.","code":"context_length_exceeded"}}`},
			provider.KindContextLength, "openai: context length exceeded (status 400): Your input exceeds the context window of this model."},
		{"server", providertest.Turn{Status: 500, ErrorBody: `{"error":{"message":"The server had an error"}}`},
			provider.KindServer, "openai: server error (status 500): Server error (500 Internal Server Error): The server had an error"},
		{"cut mid-way", providertest.Turn{Text: []string{"a", "b", "c", "d"}, CutAfter: 8},
			provider.KindNetwork, "openai: network error: stream ended before the response was complete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := run(newTestProvider(t, startResponses(t, tc.turn), codex), userHi)
			if provider.KindOf(err) != tc.kind || err.Error() != tc.msg {
				t.Fatalf("got %v (%v)\nwant %s", err, provider.KindOf(err), tc.msg)
			}
		})
	}
}

func TestResponsesIdleWatchdogSeesArgumentFragments(t *testing.T) {
	// Events arrive every 30ms and no message is yielded until the call is
	// done, yet the 100ms watchdog must not fire. The stream is paced in
	// synctest's virtual time, so machine load cannot change the answer.
	call := providertest.ToolCall{ID: "c1", Name: "shell", Arguments: `{"command":"ls -la /tmp"}`}
	const sse = "text/event-stream; charset=utf-8"
	body := providertest.Record(t, providertest.OpenAIResponses, providertest.Turn{ToolCalls: []providertest.ToolCall{call}},
		"/v1/responses", `{"model":"gpt-5-codex","stream":true}`)
	const gap, watchdog = 30 * time.Millisecond, 100 * time.Millisecond
	if n := providertest.Units(sse, body); time.Duration(n)*gap < 2*watchdog {
		t.Fatalf("the recorded stream has %d events: too short to outlast the watchdog", n)
	}
	synctest.Test(t, func(t *testing.T) {
		p, err := New(Options{Host: "http://recorded", APIKey: testKey, Model: model.Config{ModelName: "gpt-5-codex"},
			Now: fixedNow, HTTPClient: providertest.PacedClient(sse, body, gap)})
		if err != nil {
			t.Fatal(err)
		}
		conv, _, err := run(provider.IdleTimeout(p, watchdog), userHi)
		if err != nil || len(conv) != 1 || len(toolRequests(conv[0])) != 1 {
			t.Fatalf("conv %v err %v", conv, err)
		}
	})
	// A hung stream: the watchdog fires however long the machine takes.
	hung := startResponses(t, providertest.Turn{Text: []string{"a", "b"}, Hang: true})
	_, _, err := run(provider.IdleTimeout(newTestProvider(t, hung, codex), watchdog), userHi)
	if provider.KindOf(err) != provider.KindNetwork || !strings.Contains(err.Error(), "Stream stalled") {
		t.Fatalf("hung stream: %v", err)
	}
}

func TestResponsesCancel(t *testing.T) {
	s := startResponses(t, providertest.Turn{Text: []string{"a", "b"}, Hang: true})
	err := providertest.CancelAfterFirstMessage(newTestProvider(t, s, codex), userHi)
	if err != context.Canceled {
		t.Fatalf("got %v", err)
	}
}

func TestResponsesNonStreaming(t *testing.T) {
	s := startResponses(t, providertest.Turn{Thinking: []string{"hm"}, Text: []string{"he", "llo"},
		ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "shell", Arguments: `{"command":"ls"}`}},
		Usage:     &providertest.Usage{Input: 4, Output: 6}})
	p := newTestProvider(t, s, codex, func(o *Options) { o.NoStreaming = true })
	conv, chunks, err := run(p, userHi)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"thinking","thinking":"hm","signature":""},{"type":"text","text":"hello"},` +
		`{"type":"toolRequest","id":"c1","toolCall":{"status":"success","value":{"name":"shell","arguments":{"command":"ls"}}}}]`
	if got := contentJSON(t, conv[0]); got != want || !strings.HasPrefix(*conv[0].ID, "resp_") {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if u := chunks[len(chunks)-1].Usage; u == nil || *u.Usage.TotalTokens != 10 || u.Model != "gpt-5-codex" {
		t.Fatalf("usage %+v", u)
	}
	r := s.Requests()[0]
	if !strings.HasSuffix(string(r.Body), `"stream":false}`) || r.Header.Get("Accept") != "application/json" {
		t.Fatalf("request %s %v", r.Body, r.Header)
	}
}

func TestResponsesRouting(t *testing.T) {
	for _, tc := range []struct {
		name     string
		format   providertest.Format
		opts     func(*Options)
		wantPath string
	}{
		{"gpt-5-codex goes to responses", providertest.OpenAIResponses, codex, "/v1/responses"},
		{"responses base path", providertest.OpenAIResponses, func(o *Options) { o.BasePath = "v1/responses" }, "/v1/responses"},
		{"host prefix and custom responses path", providertest.OpenAIResponses,
			func(o *Options) { o.Host += "/proxy"; o.BasePath = "/custom/v1/responses/" }, "/proxy/custom/v1/responses"},
		{"unnamed custom path falls back to v1/responses", providertest.OpenAIResponses,
			func(o *Options) { codex(o); o.BasePath = "custom/path" }, "/v1/responses"},
		{"gpt-4o stays on chat completions", providertest.OpenAI, nil, "/v1/chat/completions"},
		{"explicit chat path keeps codex on chat", providertest.OpenAI,
			func(o *Options) { codex(o); o.BasePath = "openai/v1/chat/completions" }, "/openai/v1/chat/completions"},
		{"services with their own provider never route", providertest.OpenAI,
			func(o *Options) { codex(o); o.NoResponses = true }, "/v1/chat/completions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := providertest.Serve(t, tc.format, providertest.Turn{Text: []string{"ok"}})
			var mut []func(*Options)
			if tc.opts != nil {
				mut = append(mut, tc.opts)
			}
			conv, _, err := run(newTestProvider(t, s, mut...), userHi)
			if err != nil || conv[0].AsText() != "ok" {
				t.Fatalf("conv %v err %v", conv, err)
			}
			if got := s.Requests()[0].Path; got != tc.wantPath {
				t.Fatalf("path %s want %s", got, tc.wantPath)
			}
		})
	}
	// A per-request model override routes too.
	s := startResponses(t, providertest.Turn{Text: []string{"ok"}})
	req := userHi
	req.Model = &model.Config{ModelName: "gpt-5.4"}
	if _, _, err := run(newTestProvider(t, s), req); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(s.Requests()[0].Body, &body)
	if body.Model != "gpt-5.4" || s.Requests()[0].Path != "/v1/responses" {
		t.Fatalf("override %s %s", body.Model, s.Requests()[0].Path)
	}
}

func TestResponsesBasePathModels(t *testing.T) {
	s := startResponses(t)
	s.Script.SetModels("gpt-5-codex", "gpt-4o")
	p := newTestProvider(t, s, func(o *Options) { o.BasePath = "openai/v1/responses" })
	names, err := p.FetchModels(context.Background())
	if err != nil || strings.Join(names, ",") != "gpt-4o,gpt-5-codex" || s.Requests()[0].Path != "/openai/v1/models" {
		t.Fatalf("models %v err %v path %s", names, err, s.Requests()[0].Path)
	}
}

func TestPresetsRouteLikeGoose(t *testing.T) {
	// goose's openai provider (and the declarative services built on it)
	// routes to the Responses API; services with their own provider never do.
	get := providertest.Lookup(map[string]string{"AZURE_OPENAI_ENDPOINT": "https://x.openai.azure.com",
		"AZURE_OPENAI_DEPLOYMENT_NAME": "d", "AZURE_OPENAI_API_KEY": "k", "DEEPSEEK_API_KEY": "k", "GROQ_API_KEY": "k",
		"MISTRAL_API_KEY": "k", "OPENROUTER_API_KEY": "k", "XAI_API_KEY": "k"})
	want := map[string]bool{"openai": false, "deepseek": false, "groq": false, "mistral": false,
		"azure_openai": true, "openrouter": true, "xai": true, "litellm": true}
	for _, p := range Presets() {
		o, err := p.Options(get)
		if err != nil {
			t.Fatal(err)
		}
		if w, ok := want[p.Metadata.Name]; !ok || o.NoResponses != w {
			t.Errorf("%s: NoResponses = %v", p.Metadata.Name, o.NoResponses)
		}
	}
}
