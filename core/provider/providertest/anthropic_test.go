package providertest

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// postPath posts body to url+path and returns the status, content type and
// the whole response body.
func postPath(t *testing.T, url, path, body string) (int, string, string) {
	t.Helper()
	resp, err := http.Post(url+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

func getPath(t *testing.T, url, path string) string {
	t.Helper()
	resp, err := http.Get(url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestAnthropicStreamExactWire(t *testing.T) {
	s := Start(Anthropic, NewScript(Turn{
		Thinking: []string{"hm"}, ThinkingSignature: "sig", RedactedThinking: "RED",
		Text:      []string{"Hi"},
		ToolCalls: []ToolCall{{ID: "toolu_1", Name: "shell", Arguments: `{"command":"ls"}`}},
		Usage:     &Usage{Input: 10, Output: 5, CacheRead: 2, CacheWrite: 3},
	}))
	defer s.Close()
	status, ct, body := postPath(t, s.URL, "/v1/messages", `{"model":"claude-sonnet-4-5","stream":true}`)
	if status != 200 || ct != "text/event-stream" {
		t.Fatalf("status %d content type %q", status, ct)
	}
	id := body[strings.Index(body, `"id":"`)+6:]
	id = id[:strings.Index(id, `"`)]
	ev := func(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }
	want := ev("message_start", `{"message":{"content":[],"id":"`+id+`","model":"claude-sonnet-4-5","role":"assistant","stop_reason":null,"stop_sequence":null,"type":"message","usage":{"cache_creation_input_tokens":3,"cache_read_input_tokens":2,"input_tokens":10,"output_tokens":1}},"type":"message_start"}`) +
		ev("ping", `{"type":"ping"}`) +
		ev("content_block_start", `{"content_block":{"signature":"","thinking":"","type":"thinking"},"index":0,"type":"content_block_start"}`) +
		ev("content_block_delta", `{"delta":{"thinking":"hm","type":"thinking_delta"},"index":0,"type":"content_block_delta"}`) +
		ev("content_block_delta", `{"delta":{"signature":"sig","type":"signature_delta"},"index":0,"type":"content_block_delta"}`) +
		ev("content_block_stop", `{"index":0,"type":"content_block_stop"}`) +
		ev("content_block_start", `{"content_block":{"data":"RED","type":"redacted_thinking"},"index":1,"type":"content_block_start"}`) +
		ev("content_block_stop", `{"index":1,"type":"content_block_stop"}`) +
		ev("content_block_start", `{"content_block":{"text":"","type":"text"},"index":2,"type":"content_block_start"}`) +
		ev("content_block_delta", `{"delta":{"text":"Hi","type":"text_delta"},"index":2,"type":"content_block_delta"}`) +
		ev("content_block_stop", `{"index":2,"type":"content_block_stop"}`) +
		ev("content_block_start", `{"content_block":{"id":"toolu_1","input":{},"name":"shell","type":"tool_use"},"index":3,"type":"content_block_start"}`) +
		ev("content_block_delta", `{"delta":{"partial_json":"","type":"input_json_delta"},"index":3,"type":"content_block_delta"}`) +
		ev("content_block_delta", `{"delta":{"partial_json":"{\"comm","type":"input_json_delta"},"index":3,"type":"content_block_delta"}`) +
		ev("content_block_delta", `{"delta":{"partial_json":"and\":\"","type":"input_json_delta"},"index":3,"type":"content_block_delta"}`) +
		ev("content_block_delta", `{"delta":{"partial_json":"ls\"}","type":"input_json_delta"},"index":3,"type":"content_block_delta"}`) +
		ev("content_block_stop", `{"index":3,"type":"content_block_stop"}`) +
		ev("message_delta", `{"delta":{"stop_reason":"tool_use","stop_sequence":null},"type":"message_delta","usage":{"output_tokens":5}}`) +
		ev("message_stop", `{"type":"message_stop"}`)
	if body != want {
		t.Fatalf("wire mismatch\n got: %q\nwant: %q", body, want)
	}
}

func TestAnthropicErrorEventAndStopReason(t *testing.T) {
	s := Start(Anthropic, NewScript(
		Turn{Text: []string{"x"}, ErrorBody: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
		Turn{Text: []string{"y"}, StopReason: "max_tokens"},
	))
	defer s.Close()
	_, _, body := postPath(t, s.URL, "/v1/messages", `{"model":"m"}`)
	if !strings.HasSuffix(body, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n") ||
		strings.Contains(body, "message_stop") {
		t.Errorf("want content then an error event instead of message_stop, got %q", body)
	}
	_, _, body = postPath(t, s.URL, "/v1/messages", `{"model":"m"}`)
	if !strings.Contains(body, `"stop_reason":"max_tokens"`) {
		t.Errorf("want the scripted stop reason, got %q", body)
	}
}

func TestAnthropicModels(t *testing.T) {
	script := NewScript()
	script.SetModels("a", "b")
	s := Start(Anthropic, script)
	defer s.Close()
	got := getPath(t, s.URL, "/v1/models")
	want := `{"data":[{"created_at":"2025-01-01T00:00:00Z","display_name":"a","id":"a","type":"model"},{"created_at":"2025-01-01T00:00:00Z","display_name":"b","id":"b","type":"model"}],"first_id":"a","has_more":false,"last_id":"b"}`
	if got != want {
		t.Errorf("models\n got %s\nwant %s", got, want)
	}
}
