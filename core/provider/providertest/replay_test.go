package providertest

import (
	"io"
	"strings"
	"testing"
)

func TestRecordAndReplay(t *testing.T) {
	body := Record(t, Ollama, Turn{Text: []string{"a", "b"}}, "/api/chat", `{"model":"qwen3"}`)
	if n := strings.Count(string(body), "\n"); n != 3 || !strings.Contains(string(body), `"done":true`) {
		t.Fatalf("recorded %d lines: %s", n, body)
	}
	client := ReplayClient("application/x-ndjson", body)
	for range 2 { // every request gets the whole body again
		resp, err := client.Get("http://recorded/api/chat")
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" || string(got) != string(body) {
			t.Fatalf("replayed %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), got)
		}
	}
}

func TestRecordFailsOnAnErrorReply(t *testing.T) {
	f := failures(t, func(tb testing.TB) {
		Record(tb, Ollama, Turn{Status: 500, ErrorBody: `{"error":"x"}`}, "/api/chat", `{}`)
	})
	if len(f) != 1 || f[0] != "recording /api/chat: status 500 Internal Server Error" {
		t.Errorf("failures = %q", f)
	}
}
