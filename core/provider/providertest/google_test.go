package providertest

import (
	"strings"
	"testing"
)

func TestGoogleStreamExactWire(t *testing.T) {
	s := Start(Google, NewScript(Turn{
		Thinking: []string{"hm"}, ThinkingSignature: "c2ln", Text: []string{"Hi"},
		ToolCalls: []ToolCall{{Name: "shell", Arguments: `{"command":"ls"}`}, {Name: "todo"}},
		Usage:     &Usage{Input: 10, Output: 5},
	}))
	defer s.Close()
	status, ct, body := postPath(t, s.URL, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", `{}`)
	if status != 200 || ct != "text/event-stream" {
		t.Fatalf("status %d content type %q", status, ct)
	}
	id := body[strings.Index(body, `"responseId":"`)+14:]
	id = id[:strings.Index(id, `"`)]
	chunk := func(parts, finish, usage string) string {
		return `data: {"candidates":[{"content":{"parts":[` + parts + `],"role":"model"}` + finish + `,"index":0}],"usageMetadata":` + usage +
			`,"modelVersion":"gemini-2.5-flash","responseId":"` + id + `"}` + "\n\n"
	}
	partial := `{"promptTokenCount":10,"totalTokenCount":10}`
	want := chunk(`{"text":"hm","thought":true}`, "", partial) +
		chunk(`{"text":"Hi"}`, "", partial) +
		chunk(`{"functionCall":{"name":"shell","args":{"command":"ls"}},"thoughtSignature":"c2ln"},{"functionCall":{"name":"todo","args":{}}}`, "", partial) +
		chunk(`{"text":""}`, `,"finishReason":"STOP"`, `{"promptTokenCount":10,"candidatesTokenCount":5,"totalTokenCount":15,"cachedContentTokenCount":0}`)
	if body != want {
		t.Fatalf("wire mismatch\n got: %q\nwant: %q", body, want)
	}
}

func TestGoogleErrorChunkAndModels(t *testing.T) {
	script := NewScript(Turn{Text: []string{"x"}, ErrorBody: "boom"})
	script.SetModels("gemini-2.5-pro")
	s := Start(Google, script)
	defer s.Close()
	_, _, body := postPath(t, s.URL, "/v1beta/models/m:streamGenerateContent?alt=sse", `{}`)
	if !strings.HasSuffix(body, `data: {"error":{"code":500,"message":"boom","status":"INTERNAL"}}`+"\n\n") || strings.Contains(body, "finishReason") {
		t.Errorf("want content then an error chunk, got %q", body)
	}
	if got := getPath(t, s.URL, "/v1beta/models"); got != `{"models":[{"displayName":"gemini-2.5-pro","name":"models/gemini-2.5-pro","supportedGenerationMethods":["generateContent","countTokens"]}]}` {
		t.Errorf("models = %s", got)
	}
}
