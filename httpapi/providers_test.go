package httpapi

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestProviderRoutesAskCoreSetup: goosed's provider routes answer from
// core/setup over the real provider registry (the ACP face's provider
// set-up), here openai against a local server speaking OpenAI's wire: the
// live model list, set_provider's check and write, check_provider, with
// goosed's statuses and words for each refusal.
func TestProviderRoutesAskCoreSetup(t *testing.T) {
	e := newTestEnv(t, "auto")
	llm := providertest.Start(providertest.OpenAI, nil)
	defer llm.Close()
	llm.Script.SetModels("gpt-4o-mini", "gpt-4o")
	configFile := filepath.Join(e.root, "config", "config.yaml")
	before, _ := os.ReadFile(configFile)

	for _, c := range []struct {
		method, path string
		body         any
		want         int
		wantBody     string
	}{
		{"GET", "/config/providers/nope/models", nil, 400, `{"message":"Unknown provider: nope"}`},
		{"GET", "/config/providers/openai/models", nil, 400, `{"message":"Provider openai is not configured"}`},
		{"POST", "/config/set_provider", map[string]any{"provider": "nope", "model": "m"}, 400, `{"message":"Unknown provider: nope"}`},
		{"POST", "/config/check_provider", map[string]any{"provider": "nope"}, 400, `{"message":"Unknown provider: nope"}`},
		{"POST", "/config/set_provider", map[string]any{"provider": "anthropic", "model": "claude-sonnet-4"}, 400,
			`{"message":"Failed to create provider anthropic: anthropic: missing required config key ANTHROPIC_API_KEY"}`},
		{"POST", "/config/check_provider", map[string]any{"provider": "anthropic"}, 400,
			`{"message":"Failed to create provider anthropic: anthropic: missing required config key ANTHROPIC_API_KEY"}`},
	} {
		if code, body := e.call(c.method, c.path, c.body); code != c.want || body != c.wantBody {
			t.Errorf("%s %s %v = %d %s, want %d %s", c.method, c.path, c.body, code, body, c.want, c.wantBody)
		}
	}
	if after, _ := os.ReadFile(configFile); string(after) != string(before) {
		t.Fatalf("a refused set_provider wrote config.yaml:\n%s", after)
	}
	if len(llm.Requests()) != 0 {
		t.Fatalf("the provider was called before it was configured: %+v", llm.Requests())
	}

	// Desktop's settings page stores the key and host, then asks again.
	e.callJSON("POST", "/config/upsert", map[string]any{"key": "OPENAI_API_KEY", "value": "sk-live", "is_secret": true}, 200, nil)
	e.callJSON("POST", "/config/upsert", map[string]any{"key": "OPENAI_HOST", "value": llm.URL, "is_secret": false}, 200, nil)
	if code, body := e.call("GET", "/config/providers/openai/models", nil); code != 200 || body != `["gpt-4o","gpt-4o-mini"]` {
		t.Fatalf("models = %d %s", code, body)
	}
	reqs := llm.Requests()
	if len(reqs) != 1 || reqs[0].Method != "GET" || reqs[0].Path != "/v1/models" || reqs[0].Header.Get("Authorization") != "Bearer sk-live" {
		t.Fatalf("model list request %+v", reqs)
	}
	if code, body := e.call("POST", "/config/check_provider", map[string]any{"provider": "openai"}); code != 200 || body != "" {
		t.Fatalf("check_provider = %d %q", code, body)
	}
	if code, body := e.call("POST", "/config/set_provider", map[string]any{"provider": "openai", "model": "gpt-4o"}); code != 200 || body != "" {
		t.Fatalf("set_provider = %d %q", code, body)
	}
	want := "GOOSE_PROVIDER: openai\nGOOSE_MODEL: gpt-4o\nGOOSE_DISABLE_SESSION_NAMING: true\n"
	if got, _ := os.ReadFile(configFile); len(got) < len(want) || string(got[:len(want)]) != want {
		t.Fatalf("config.yaml after set_provider:\n%s", got)
	}
	if len(llm.Requests()) != 1 {
		t.Fatalf("set_provider and check_provider sent requests: %+v", llm.Requests()[1:])
	}
}

// TestProviderModelsRefusedByTheProvider: a model list the provider
// refuses answers goosed's status for its kind with the provider's words.
func TestProviderModelsRefusedByTheProvider(t *testing.T) {
	e := newTestEnv(t, "auto")
	for _, c := range []struct {
		status   int
		body     string
		want     int
		wantBody string
	}{
		{429, `{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`, 429,
			`{"message":"openai: rate limit exceeded (status 429): Rate limit reached for requests"}`},
		{401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`, 400,
			`{"message":"openai: authentication error (status 401): Authentication failed. Status: 401 Unauthorized. Response: Incorrect API key provided"}`},
		{500, `{"error":{"message":"The server had an error","type":"server_error"}}`, 500,
			`{"message":"openai: server error (status 500): Server error (500 Internal Server Error): The server had an error"}`},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(c.status)
			_, _ = w.Write([]byte(c.body))
		}))
		e.callJSON("POST", "/config/upsert", map[string]any{"key": "OPENAI_API_KEY", "value": "sk-x", "is_secret": true}, 200, nil)
		e.callJSON("POST", "/config/upsert", map[string]any{"key": "OPENAI_HOST", "value": srv.URL, "is_secret": false}, 200, nil)
		code, body := e.call("GET", "/config/providers/openai/models", nil)
		srv.Close()
		if code != c.want || body != c.wantBody {
			t.Errorf("provider answering %d: %d %s, want %d %s", c.status, code, body, c.want, c.wantBody)
		}
	}
}
