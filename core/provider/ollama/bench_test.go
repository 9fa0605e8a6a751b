package ollama

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// recordedStream is an /api/chat NDJSON body replayed from memory.
type recordedStream []byte

func (r recordedStream) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/x-ndjson"}},
		Body: io.NopCloser(bytes.NewReader(r)), Request: req}, nil
}

// BenchmarkStreamParse parses a recorded 2,000-line stream (text lines, a
// tool-call line and the done line) into chunks, from bytes in memory.
func BenchmarkStreamParse(b *testing.B) {
	const lines = 2000
	turn := providertest.Turn{Text: make([]string, lines-2), Usage: &providertest.Usage{Input: 100, Output: 2000},
		ToolCalls: []providertest.ToolCall{{ID: "call_1", Name: "developer__shell", Arguments: `{"command":"go test ./..."}`}}}
	for i := range turn.Text {
		turn.Text[i] = "word "
	}
	srv := providertest.Start(providertest.Ollama, providertest.NewScript(turn))
	resp, err := http.Post(srv.URL+"/api/chat", "application/json", strings.NewReader(`{"model":"qwen3"}`))
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	srv.Close()
	if n := bytes.Count(body, []byte("\n")); n != lines {
		b.Fatalf("recorded %d lines", n)
	}
	p, err := New(Options{BaseURL: "http://recorded", HTTPClient: &http.Client{Transport: recordedStream(body)}})
	if err != nil {
		b.Fatal(err)
	}
	req := userRequest("go")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, err := range p.Stream(context.Background(), req) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/line")
}
