package providertest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, url, body string) (*http.Response, string, error) {
	t.Helper()
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

const streamReq = `{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true}}`

func TestOpenAIStreamExactWire(t *testing.T) {
	s := Start(OpenAI, NewScript(Turn{
		Thinking:  []string{"hm"},
		Text:      []string{"Hi"},
		ToolCalls: []ToolCall{{ID: "call_1", Name: "shell", Arguments: `{"command":"ls"}`}},
		Usage:     &Usage{Input: 10, Output: 5, CacheRead: 2},
	}))
	defer s.Close()
	resp, body, err := post(t, s.URL, streamReq)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	id := between(body, `"id":"`, `"`)
	pre := `data: {"id":"` + id + `","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","system_fingerprint":"fp_providertest","choices":`
	want := strings.Join([]string{
		pre + `[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}`,
		pre + `[{"index":0,"delta":{"reasoning_content":"hm"},"logprobs":null,"finish_reason":null}],"usage":null}`,
		pre + `[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}],"usage":null}`,
		pre + `[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"shell","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
		pre + `[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"comm"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
		pre + `[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"and\":\""}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
		pre + `[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ls\"}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
		pre + `[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}`,
		pre + `[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":2},"completion_tokens_details":{"reasoning_tokens":0}}}`,
		`data: [DONE]`,
	}, "\n\n") + "\n\n"
	if body != want {
		t.Fatalf("wire mismatch\n got: %q\nwant: %q", body, want)
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/chat/completions" || string(reqs[0].Body) != streamReq {
		t.Fatalf("recorded %+v", reqs)
	}
}

func TestOpenAIOmitIndexAndNoUsage(t *testing.T) {
	s := Start(OpenAI, NewScript(Turn{OmitToolCallIndex: true, ToolCalls: []ToolCall{{ID: "a", Name: "x", Arguments: "{}"}}}))
	defer s.Close()
	_, body, _ := post(t, s.URL, `{"model":"m","stream":true}`)
	if strings.Contains(body, `"index":0,"id"`) || strings.Contains(body, `"usage"`) {
		t.Fatalf("index or usage present:\n%s", body)
	}
	if !strings.Contains(body, `"tool_calls":[{"id":"a","type":"function"`) {
		t.Fatalf("tool call missing:\n%s", body)
	}
}

func TestServerErrorsAndExhaustion(t *testing.T) {
	s := Start(OpenAI, NewScript(Turn{Status: 429, RetryAfter: "2", ErrorBody: `{"error":{"message":"slow down"}}`}))
	defer s.Close()
	resp, body, _ := post(t, s.URL, streamReq)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" || body != `{"error":{"message":"slow down"}}` {
		t.Fatalf("got %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	resp, body, _ = post(t, s.URL, streamReq)
	if resp.StatusCode != 500 || !strings.Contains(body, "script exhausted: request 2") {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
}

func TestServerCutAfter(t *testing.T) {
	s := Start(OpenAI, NewScript(Turn{Text: []string{"a", "b", "c"}, CutAfter: 2}))
	defer s.Close()
	_, body, err := post(t, s.URL, streamReq)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("want unexpected EOF, got %v", err)
	}
	if strings.Count(body, "data: ") != 2 {
		t.Fatalf("want 2 events before cut:\n%s", body)
	}
}

func TestServerHangUntilCancel(t *testing.T) {
	s := Start(OpenAI, NewScript(Turn{Text: []string{"a"}, Hang: true}))
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", s.URL+"/v1/chat/completions", strings.NewReader(streamReq))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if !errors.Is(err, context.DeadlineExceeded) || strings.Count(string(b), "data: ") != 2 || !strings.Contains(string(b), `"content":"a"`) {
		t.Fatalf("err %v body %s", err, b)
	}
}

func TestOpenAIModelsAndNonStreaming(t *testing.T) {
	sc := NewScript(Turn{Text: []string{"he", "llo"}, Usage: &Usage{Input: 1, Output: 2}})
	sc.SetModels("gpt-4o", "o3")
	s := Start(OpenAI, sc)
	defer s.Close()
	resp, err := http.Get(s.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `{"created":1700000000,"id":"gpt-4o","object":"model","owned_by":"providertest"}`) {
		t.Fatalf("models: %s", b)
	}
	_, body, _ := post(t, s.URL, `{"model":"m"}`)
	if !strings.Contains(body, `"message":{"content":"hello","role":"assistant"}`) || !strings.Contains(body, `"total_tokens":3`) {
		t.Fatalf("completion: %s", body)
	}
}

func TestSplitFragments(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"ab", []string{"a", "b"}},
		{"abcdefg", []string{"abc", "def", "g"}},
		{"ééé", []string{"é", "é", "é"}},
	} {
		got := splitFragments(tc.in, 3)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("split(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func between(s, a, b string) string {
	i := strings.Index(s, a)
	if i < 0 {
		return ""
	}
	s = s[i+len(a):]
	return s[:strings.Index(s, b)]
}
