package anthropic

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// recordedStream is a Messages API stream body replayed from memory.
type recordedStream []byte

func (r recordedStream) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(bytes.NewReader(r)), Request: req}, nil
}

// record captures the wire bytes the mock server sends for turn.
func record(b *testing.B, turn providertest.Turn) []byte {
	b.Helper()
	srv := providertest.Start(providertest.Anthropic, providertest.NewScript(turn))
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(`{"model":"claude-sonnet-4-5"}`))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// BenchmarkStreamParse parses a recorded 2,000-delta stream (text deltas
// plus a tool call) into chunks, from bytes in memory.
func BenchmarkStreamParse(b *testing.B) {
	const deltas = 2000
	turn := providertest.Turn{Text: make([]string, deltas-5), Usage: &providertest.Usage{Input: 100, Output: 2000},
		ToolCalls: []providertest.ToolCall{{ID: "toolu_1", Name: "developer__shell", Arguments: `{"command":"go test ./..."}`}}}
	for i := range turn.Text {
		turn.Text[i] = "word "
	}
	body := record(b, turn)
	events := bytes.Count(body, []byte("\nevent: ")) + 1
	p, err := New(Options{APIKey: "k", BaseURL: "http://recorded", HTTPClient: &http.Client{Transport: recordedStream(body)},
		Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		b.Fatal(err)
	}
	req := userRequest("go")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		n := 0
		for c, err := range p.Stream(context.Background(), req) {
			if err != nil {
				b.Fatal(err)
			}
			if c.Message != nil {
				n++
			}
		}
		if n != deltas-4 {
			b.Fatalf("got %d message chunks", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
}
