package providertest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider"
)

// Parse benchmarks replay a stream recorded from a Server out of memory, so
// they time the backend's parsing rather than the loopback network.

// Record returns the body a Server in format sends for turn when path is
// POSTed with the JSON body.
func Record(tb testing.TB, format Format, turn Turn, path, body string) []byte {
	tb.Helper()
	srv := Start(format, NewScript(turn))
	defer srv.Close()
	resp, err := srv.Client().Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("recording %s: status %s", path, resp.Status)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// ReplayClient is an HTTP client that answers every request with 200 OK,
// contentType and body, from memory.
func ReplayClient(contentType string, body []byte) *http.Client {
	return &http.Client{Transport: replay{contentType: contentType, body: body}}
}

type replay struct {
	contentType string
	body        []byte
}

func (r replay) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {r.contentType}},
		Body: io.NopCloser(bytes.NewReader(r.body)), Request: req}, nil
}

// StreamBench times a provider parsing one replayed stream.
type StreamBench struct {
	// Messages is how many message chunks each stream must yield.
	Messages int
	// Units is how many wire units (events, chunks, lines) each stream
	// holds, and Unit their name: the benchmark reports "ns/"+Unit.
	Units int
	Unit  string
}

// Run streams req from p b.N times.
func (s StreamBench) Run(b *testing.B, p provider.Provider, req provider.Request) {
	b.Helper()
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
		if n != s.Messages {
			b.Fatalf("got %d message chunks, want %d", n, s.Messages)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*s.Units), "ns/"+s.Unit)
}
