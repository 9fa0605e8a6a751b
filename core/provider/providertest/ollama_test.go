package providertest

import (
	"strings"
	"testing"
)

func TestOllamaStreamExactWire(t *testing.T) {
	s := Start(Ollama, NewScript(Turn{
		Thinking: []string{"hm"}, Text: []string{"Hi"},
		ToolCalls: []ToolCall{{ID: "call_1", Name: "shell", Arguments: `{"command":"ls"}`}, {Name: "bad", Arguments: `{"x":`}},
		Usage:     &Usage{Input: 10, Output: 5},
	}))
	defer s.Close()
	status, ct, body := postPath(t, s.URL, "/api/chat", `{"model":"qwen3","stream":true}`)
	if status != 200 || ct != "application/x-ndjson" {
		t.Fatalf("status %d content type %q", status, ct)
	}
	pre := `{"model":"qwen3","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":`
	want := strings.Join([]string{
		pre + `"","thinking":"hm"},"done":false}`,
		pre + `"Hi"},"done":false}`,
		pre + `"","tool_calls":[{"id":"call_1","function":{"index":0,"name":"shell","arguments":{"command":"ls"}}},{"function":{"index":1,"name":"bad","arguments":"{\"x\":"}}]},"done":false}`,
		pre + `""},"done":true,"done_reason":"stop","total_duration":1000000,"load_duration":1000,"prompt_eval_count":10,"prompt_eval_duration":1000,"eval_count":5,"eval_duration":1000}`,
	}, "\n") + "\n"
	if body != want {
		t.Fatalf("wire mismatch\n got: %s\nwant: %s", body, want)
	}
}

func TestOllamaErrorLineAndModels(t *testing.T) {
	script := NewScript(Turn{Text: []string{"x"}, ErrorBody: "runner died"})
	script.SetModels("qwen3:latest")
	s := Start(Ollama, script)
	defer s.Close()
	_, _, body := postPath(t, s.URL, "/api/chat", `{"model":"qwen3"}`)
	if !strings.HasSuffix(body, `{"error":"runner died"}`+"\n") || strings.Contains(body, `"done":true`) {
		t.Errorf("want content then an error line instead of done, got %q", body)
	}
	if got := getPath(t, s.URL, "/api/tags"); got != `{"models":[{"details":{"format":"gguf"},"digest":"","model":"qwen3:latest","modified_at":"2025-01-01T00:00:00Z","name":"qwen3:latest","size":0}]}` {
		t.Errorf("tags = %s", got)
	}
}
