package google

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestRequestURL(t *testing.T) {
	tests := []struct{ base, model, want string }{
		{"", "gemini-2.5-flash", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"},
		{"/", "models/gemini-2.5-pro", "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"},
		{"", "tunedModels/mine", "/v1beta/tunedModels/mine:streamGenerateContent?alt=sse"},
		{"/proxy/gemini", "gemini x", "/proxy/gemini/v1beta/models/gemini%20x:streamGenerateContent?alt=sse"},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			srv, requests := rawServer(t, reply{body: events(finalChunk)})
			p := rawProvider(t, srv, tt.model)
			p.opts.BaseURL = srv.URL + tt.base
			if _, err := providertest.Drain(p, providertest.UserRequest("x")); err != nil {
				t.Fatal(err)
			}
			if r := requests()[0]; r.Method != http.MethodPost || r.URL != tt.want {
				t.Errorf("request %s %s, want POST %s", r.Method, r.URL, tt.want)
			}
		})
	}
}

func TestInvalidModelNamesAreNotSent(t *testing.T) {
	for _, name := range []string{"a?b", "a&b", "models/../files", ""} {
		srv, requests := rawServer(t)
		p := rawProvider(t, srv, "gemini-2.5-flash")
		req := providertest.UserRequest("x")
		cfg := p.opts.Model
		cfg.ModelName = name
		req.Model = &cfg
		_, err := providertest.Drain(p, req)
		providertest.CheckError(t, err, providertest.WantError{Provider: "google", Kind: provider.KindRequest, Text: "model name"})
		if n := len(requests()); n != 0 {
			t.Errorf("%q: %d requests sent", name, n)
		}
	}
}

// The headers genai sent, minus its own telemetry (User-Agent and
// x-goog-api-client naming google-genai-sdk): configured headers, JSON,
// the key, and the call's time budget in x-server-timeout.
func TestRequestHeaders(t *testing.T) {
	srv, requests := rawServer(t, reply{body: events(finalChunk)}, reply{body: events(finalChunk)})
	p := rawProvider(t, srv, "gemini-2.5-flash")
	p.opts.Headers["X-Goog-Api-Key"] = "not-the-key"
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for _, c := range []context.Context{ctx, context.Background()} {
		for _, err := range p.Stream(c, providertest.UserRequest("x")) {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	want := []string{
		"Content-Type: application/json, User-Agent: Go-http-client/1.1, X-Extra: yes, X-Goog-Api-Key: " + testKey + ", X-Server-Timeout: 90",
		"Content-Type: application/json, User-Agent: Go-http-client/1.1, X-Extra: yes, X-Goog-Api-Key: " + testKey,
	}
	for i, r := range requests() {
		var got []string
		for _, k := range []string{"Content-Type", "User-Agent", "X-Extra", "X-Goog-Api-Client", "X-Goog-Api-Key", "X-Server-Timeout"} {
			if v := r.Header.Values(k); len(v) > 0 {
				got = append(got, k+": "+strings.Join(v, " | "))
			}
		}
		if strings.Join(got, ", ") != want[i] {
			t.Errorf("request %d headers %s\n want %s", i, strings.Join(got, ", "), want[i])
		}
	}
}

// A failed answer is classified by its HTTP status with goose's messages;
// Retry-After wins over a RetryInfo detail.
func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		name  string
		reply reply
		want  providertest.WantError
		retry time.Duration
	}{
		{"plain text", reply{status: 400, body: "  plain failure  "},
			providertest.WantError{Kind: provider.KindRequest, Status: 400, Text: "Bad request (400): plain failure"}, 0},
		{"empty body", reply{status: 500},
			providertest.WantError{Kind: provider.KindServer, Status: 500, Text: "Server error (500 Internal Server Error): "}, 0},
		{"JSON without an error object", reply{status: 404, body: `{"message":"nope"}`},
			providertest.WantError{Kind: provider.KindRequest, Status: 404, Text: "Resource not found (404): nope"}, 0},
		{"error object without a code", reply{status: 401, body: `{"error":{"message":"bad key ` + testKey + `"}}`},
			providertest.WantError{Kind: provider.KindAuth, Status: 401, Text: "Response: bad key [REDACTED]"}, 0},
		{"status wins over the body's code", reply{status: 503, body: `{"error":{"code":400,"message":"The input token count exceeds"}}`},
			providertest.WantError{Kind: provider.KindServer, Status: 503, Text: "The input token count exceeds"}, 0},
		{"Retry-After and RetryInfo", reply{status: 429, header: map[string]string{"Retry-After": "4"},
			body: `{"error":{"code":429,"message":"q","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"9s"}]}}`},
			providertest.WantError{Kind: provider.KindRateLimit, Status: 429, Text: "q"}, 4 * time.Second},
		{"retry-after-ms", reply{status: 429, header: map[string]string{"retry-after-ms": "1500"}, body: `{"error":{"code":429,"message":"q"}}`},
			providertest.WantError{Kind: provider.KindRateLimit, Status: 429, Text: "q"}, 1500 * time.Millisecond},
		{"redirect", reply{status: 302, body: "moved"},
			providertest.WantError{Kind: provider.KindRequest, Status: 302, Text: "Request failed with status 302 Found: moved"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := rawServer(t, tt.reply)
			_, err := providertest.Drain(rawProvider(t, srv, "gemini-2.5-flash"), providertest.UserRequest("x"))
			w := tt.want
			w.Provider, w.Secret = "google", testKey
			providertest.CheckError(t, err, w)
			if pe, _ := err.(*provider.Error); pe != nil && pe.RetryAfter != tt.retry {
				t.Errorf("RetryAfter = %v, want %v", pe.RetryAfter, tt.retry)
			}
		})
	}
}
