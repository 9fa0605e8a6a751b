package providertest

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateResponses = flag.Bool("update-responses", false, "rewrite testdata/responses_*.sse")

func postResponses(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Post(url+"/v1/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func checkWire(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateResponses {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update-responses)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s mismatch:\n got: %s\nwant: %s", name, got, want)
	}
}

func TestResponsesStreamExactWire(t *testing.T) {
	s := Start(OpenAIResponses, NewScript(Turn{
		Thinking:  []string{"hm"},
		Text:      []string{"Hi"},
		ToolCalls: []ToolCall{{ID: "call_1", Name: "shell", Arguments: `{"command":"ls"}`}},
		Usage:     &Usage{Input: 10, Output: 5, CacheRead: 2},
	}))
	defer s.Close()
	const req = `{"model":"gpt-5-codex","stream":true}`
	resp, body := postResponses(t, s.URL, req)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	id := between(string(body), `"id":"`, `"`)
	checkWire(t, "responses_stream.sse", bytes.ReplaceAll(body, []byte(id), []byte("resp_N")))
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/responses" || string(reqs[0].Body) != req {
		t.Fatalf("recorded %+v", reqs)
	}
}

func TestResponsesIncompleteAndNoUsage(t *testing.T) {
	s := Start(OpenAIResponses, NewScript(Turn{Text: []string{"partial"}, StopReason: "max_output_tokens"}))
	defer s.Close()
	_, body := postResponses(t, s.URL, `{"model":"m","stream":true}`)
	events := strings.Split(strings.TrimSpace(string(body)), "\n\n")
	last := events[len(events)-1]
	if !strings.HasPrefix(last, "event: response.incomplete\n") ||
		!strings.Contains(last, `"incomplete_details":{"reason":"max_output_tokens"}`) || !strings.Contains(last, `"usage":null`) {
		t.Fatalf("last event %s", last)
	}
	if strings.Contains(string(body), "[DONE]") {
		t.Fatal("the Responses stream has no [DONE]")
	}
}

func TestResponsesNonStreaming(t *testing.T) {
	s := Start(OpenAIResponses, NewScript(Turn{Text: []string{"he", "llo"}, ToolCalls: []ToolCall{{ID: "c1", Name: "shell", Arguments: "{}"}},
		Usage: &Usage{Input: 4, Output: 6}}))
	defer s.Close()
	resp, body := postResponses(t, s.URL, `{"model":"gpt-5-codex","stream":false}`)
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%s: %v", body, err)
	}
	out, _ := json.Marshal(got["output"])
	want := `[{"content":[{"annotations":[],"logprobs":[],"text":"hello","type":"output_text"}],"id":"msg_1","role":"assistant","status":"completed","type":"message"},` +
		`{"arguments":"{}","call_id":"c1","id":"fc_1","name":"shell","status":"completed","type":"function_call"}]`
	if string(out) != want || got["status"] != "completed" || got["object"] != "response" {
		t.Fatalf("got %s", body)
	}
}

func TestResponsesCutAndModels(t *testing.T) {
	s := Start(OpenAIResponses, NewScript(Turn{Text: []string{"a", "b", "c"}, CutAfter: 3}))
	defer s.Close()
	s.Script.SetModels("gpt-5-codex")
	resp, err := http.Post(s.URL+"/v1/responses", "application/json", strings.NewReader(`{"model":"m","stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil || strings.Count(string(b), "event: ") != 3 {
		t.Fatalf("want a cut after 3 events, got err %v and\n%s", err, b)
	}
	r, err := http.Get(s.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	list, _ := io.ReadAll(r.Body)
	if !strings.Contains(string(list), `"id":"gpt-5-codex"`) {
		t.Fatalf("models %s", list)
	}
	if OpenAIResponses.String() != "openai-responses" {
		t.Fatal(OpenAIResponses.String())
	}
}
