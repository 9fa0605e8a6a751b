package google

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// recordedStream is a streamGenerateContent body replayed from memory.
type recordedStream []byte

func (r recordedStream) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(bytes.NewReader(r)), Request: req}, nil
}

// BenchmarkStreamParse parses a recorded 2,000-chunk Gemini stream (text
// chunks, a function-call chunk and the final chunk), from bytes in memory.
func BenchmarkStreamParse(b *testing.B) {
	const chunks = 2000
	turn := providertest.Turn{Text: make([]string, chunks-2), Usage: &providertest.Usage{Input: 100, Output: 2000},
		ToolCalls: []providertest.ToolCall{{Name: "developer__shell", Arguments: `{"command":"go test ./..."}`}}}
	for i := range turn.Text {
		turn.Text[i] = "word "
	}
	srv := providertest.Start(providertest.Google, providertest.NewScript(turn))
	resp, err := http.Post(srv.URL+"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", "application/json", strings.NewReader(`{}`))
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	srv.Close()
	if n := bytes.Count(body, []byte("data: ")); n != chunks {
		b.Fatalf("recorded %d chunks", n)
	}
	p, err := New(Options{APIKey: "k", BaseURL: "http://recorded", HTTPClient: &http.Client{Transport: recordedStream(body)}})
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
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/chunk")
}
