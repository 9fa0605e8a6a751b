package anthropic

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestRequestHeaders(t *testing.T) {
	tests := []struct {
		name      string
		cfg       model.Config
		params    map[string]string
		wantBetas []string
	}{
		{"claude-3-7 with thinking", model.Config{ModelName: "claude-3-7-sonnet-20250219"}, map[string]string{"CLAUDE_THINKING_BUDGET": "2000"},
			[]string{"output-128k-2025-02-19", "token-efficient-tools-2025-02-19"}},
		{"claude-3-7 without thinking", model.Config{ModelName: "claude-3-7-sonnet-latest"}, nil,
			[]string{"token-efficient-tools-2025-02-19"}},
		{"other models send no betas", sonnet, map[string]string{"CLAUDE_THINKING_BUDGET": "2000"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := start(t, providertest.Turn{Text: []string{"ok"}})
			p, err := New(Options{BaseURL: srv.URL, APIKey: testKey, Model: tt.cfg, HTTPClient: srv.Client(),
				Param: providertest.Lookup(tt.params), Headers: map[string]string{"X-Custom": "yes"}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := providertest.Drain(p, providertest.UserRequest("hi")); err != nil {
				t.Fatal(err)
			}
			r := srv.Requests()[0]
			h := r.Header
			if r.Method != http.MethodPost || r.Path != "/v1/messages" || r.Query != "" {
				t.Errorf("request %s %s?%s, want POST /v1/messages", r.Method, r.Path, r.Query)
			}
			for k, want := range map[string]string{"X-Api-Key": testKey, "Anthropic-Version": "2023-06-01", "Content-Type": "application/json",
				"Accept": "text/event-stream", "X-Custom": "yes", "Authorization": ""} {
				if got := h.Get(k); got != want {
					t.Errorf("header %s = %q, want %q", k, got, want)
				}
			}
			if got := h.Values("Anthropic-Beta"); !slices.Equal(got, tt.wantBetas) {
				t.Errorf("anthropic-beta lines = %q, want %q", got, tt.wantBetas)
			}
		})
	}
}

func TestBasePathPrefixIsKept(t *testing.T) {
	for _, suffix := range []string{"/anthropic", "/anthropic/"} {
		srv := start(t, providertest.Turn{Text: []string{"ok"}})
		srv.Script.SetModels("claude-haiku-4-5")
		p, err := New(Options{BaseURL: srv.URL + suffix, APIKey: testKey, Model: sonnet, HTTPClient: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := providertest.Drain(p, providertest.UserRequest("hi")); err != nil {
			t.Fatal(err)
		}
		if _, err := p.FetchModels(context.Background()); err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 || reqs[0].Path != "/anthropic/v1/messages" || reqs[1].Path != "/anthropic/v1/models" {
			t.Fatalf("base %q: requests = %+v", suffix, reqs)
		}
		m := reqs[1]
		if m.Method != http.MethodGet || m.Query != "limit=1000" || m.Header.Get("Content-Type") != "" ||
			m.Header.Get("Accept") != "application/json" || m.Header.Get("X-Api-Key") != testKey || m.Header.Get("Anthropic-Version") != apiVersion {
			t.Errorf("models request = %s ?%s headers %v", m.Method, m.Query, m.Header)
		}
	}
}

func TestEndpoint(t *testing.T) {
	tests := []struct{ base, want string }{
		{"https://api.anthropic.com", "https://api.anthropic.com/v1/messages"},
		{"https://api.anthropic.com/", "https://api.anthropic.com/v1/messages"},
		{"https://proxy.example/a/b", "https://proxy.example/a/b/v1/messages"},
		{"https://proxy.example/a/b/", "https://proxy.example/a/b/v1/messages"},
		{"http://127.0.0.1:8080/p?x=1", "http://127.0.0.1:8080/p/v1/messages"},
	}
	for _, tt := range tests {
		base, err := apiBase(tt.base)
		if err != nil {
			t.Fatal(err)
		}
		if got := endpoint(base, "v1/messages", ""); got != tt.want {
			t.Errorf("endpoint(%q) = %q, want %q", tt.base, got, tt.want)
		}
	}
	if _, err := New(Options{APIKey: "k", BaseURL: "http://[::1"}); err == nil || !strings.Contains(err.Error(), "invalid ANTHROPIC_HOST") {
		t.Errorf("New with a bad host: err = %v", err)
	}
}

// roundTripFunc answers requests without a network.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// answering returns a provider whose every request gets status, body and
// header.
func answering(t *testing.T, status int, body string, header http.Header) *Provider {
	t.Helper()
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: status, Status: http.StatusText(status), Header: header,
			Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	})}
	p, err := New(Options{APIKey: testKey, Model: sonnet, HTTPClient: client})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNonJSONErrorBody(t *testing.T) {
	p := answering(t, http.StatusBadGateway, "<html>bad gateway</html>\n", http.Header{"Content-Type": {"text/html"}})
	_, err := providertest.Drain(p, providertest.UserRequest("hi"))
	providertest.CheckError(t, err, providertest.WantError{Provider: "anthropic", Kind: provider.KindServer, Status: 502,
		Text: "Server error (502 Bad Gateway): <html>bad gateway</html>", Secret: testKey})
}

func TestFetchModelsErrors(t *testing.T) {
	body := `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key ` + testKey + `"}}`
	_, err := answering(t, http.StatusUnauthorized, body, nil).FetchModels(context.Background())
	providertest.CheckError(t, err, providertest.WantError{Provider: "anthropic", Kind: provider.KindAuth, Status: 401,
		Text: "invalid x-api-key [REDACTED]", Secret: testKey})

	_, err = answering(t, http.StatusOK, "<html>", nil).FetchModels(context.Background())
	providertest.CheckError(t, err, providertest.WantError{Provider: "anthropic", Kind: provider.KindNetwork, Text: "decoding the model list"})
}

func TestTransportErrorRedactsKey(t *testing.T) {
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return nil, errors.New("proxy refused key " + r.Header.Get("X-Api-Key"))
	})}
	p, err := New(Options{APIKey: testKey, Model: sonnet, HTTPClient: client})
	if err != nil {
		t.Fatal(err)
	}
	_, err = providertest.Drain(p, providertest.UserRequest("hi"))
	providertest.CheckError(t, err, providertest.WantError{Provider: "anthropic", Kind: provider.KindNetwork,
		Text: "proxy refused key [REDACTED]", Secret: testKey})
	var ue *url.Error
	if !errors.As(err, &ue) {
		t.Errorf("err = %v, want the *url.Error kept in the chain", err)
	}
}

func TestStreamEndingMidEvent(t *testing.T) {
	const stream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"m\",\"usage\":{\"input_tokens\":1}}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n"
	p := answering(t, http.StatusOK, stream, http.Header{"Content-Type": {"text/event-stream"}})
	chunks, err := providertest.Drain(p, providertest.UserRequest("hi"))
	providertest.CheckError(t, err, providertest.WantError{Provider: "anthropic", Kind: provider.KindNetwork, Text: "stream ended before message_stop"})
	if len(chunks) != 2 || chunks[0].Message.AsText() != "hi" || chunks[1].Usage == nil {
		t.Errorf("chunks = %s, want the text and the usage before the error", providertest.MustJSON(t, chunks))
	}
}
