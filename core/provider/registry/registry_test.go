package registry

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestMain checks for leaked goroutines; opencensus (pulled in by genai)
// starts a worker at init that lives for the process.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("go.opencensus.io/stats/view.(*worker).start"))
}

const secretKey = "sk-registry-secret-0123456789"

type fixture struct {
	env     map[string]string
	config  map[string]any
	secrets map[string]string
	dir     string
	slept   providertest.Sleeps
}

func newFixture(t *testing.T) *fixture {
	return &fixture{env: map[string]string{}, config: map[string]any{}, secrets: map[string]string{}, dir: t.TempDir()}
}

func (f *fixture) registry() *Registry {
	return New(Options{
		Env: providertest.Lookup(f.env),
		Get: providertest.Lookup(f.config),
		Secret: func(k string) (string, error) {
			v, ok := f.secrets[k]
			if !ok {
				return "", errors.New("not found")
			}
			return v, nil
		},
		CustomDir: f.dir,
		Retry:     provider.RetryOptions{Sleep: f.slept.Sleep},
	})
}

func serve(t *testing.T, turns ...providertest.Turn) *providertest.Server {
	return providertest.Serve(t, providertest.OpenAI, turns...)
}

var hi = provider.Request{System: "sys", Messages: []conversation.Message{conversation.UserText(0, "hi")}}

func reply(t *testing.T, p provider.Provider) (string, error) {
	t.Helper()
	m, _, err := p.Complete(context.Background(), hi)
	return m.AsText(), err
}

func requestModel(t *testing.T, r providertest.Request) string {
	var v struct {
		Model string `json:"model"`
	}
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatal(err)
	}
	return v.Model
}

func TestProvidersListsBuiltinsAndCustom(t *testing.T) {
	f := newFixture(t)
	writeFile(t, f.dir, "custom_acme.json", `{"name":"custom_acme","engine":"openai","display_name":"Acme",
		"api_key_env":"CUSTOM_ACME_API_KEY","base_url":"https://acme.example/v1","models":[{"name":"acme-1","context_limit":32000}]}`)
	var names []string
	var acme provider.Metadata
	for _, md := range f.registry().Providers() {
		names = append(names, md.Name)
		if md.Name == "custom_acme" {
			acme = md
		}
	}
	want := "anthropic,azure_openai,custom_acme,deepseek,google,groq,litellm,mistral,ollama,openai,openrouter,xai"
	if strings.Join(names, ",") != want {
		t.Fatalf("got %s", strings.Join(names, ","))
	}
	b, _ := json.Marshal(acme)
	wantMD := `{"name":"custom_acme","display_name":"Acme","description":"Custom Acme provider","default_model":"acme-1",` +
		`"known_models":[{"name":"acme-1","context_limit":32000}],"model_doc_link":"https://platform.openai.com/docs/models",` +
		`"config_keys":[{"name":"CUSTOM_ACME_API_KEY","required":false,"secret":true},` +
		`{"name":"OPENAI_HOST","required":true,"secret":false,"default":"https://api.openai.com"},` +
		`{"name":"OPENAI_BASE_PATH","required":true,"secret":false,"default":"v1/chat/completions"},` +
		`{"name":"OPENAI_ORGANIZATION","required":false,"secret":false},{"name":"OPENAI_PROJECT","required":false,"secret":false},` +
		`{"name":"OPENAI_CUSTOM_HEADERS","required":false,"secret":true},{"name":"OPENAI_TIMEOUT","required":false,"secret":false,"default":"600"}]}`
	if string(b) != wantMD {
		t.Fatalf("custom metadata\n got %s\nwant %s", b, wantMD)
	}
}

func writeFile(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestCreateOpenAIWithRetryAndSecrets(t *testing.T) {
	s := serve(t, providertest.Turn{Status: 429, ErrorBody: `{"error":{"message":"slow"}}`}, providertest.Turn{Text: []string{"ok"}})
	f := newFixture(t)
	f.config["OPENAI_HOST"] = s.URL
	f.secrets["OPENAI_API_KEY"] = secretKey
	p, err := f.registry().Create("openai", model.Config{ModelName: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	if text, err := reply(t, p); err != nil || text != "ok" {
		t.Fatalf("%q %v", text, err)
	}
	if len(f.slept) != 1 || s.Requests()[1].Header.Get("Authorization") != "Bearer "+secretKey {
		t.Fatalf("slept %v", f.slept)
	}
	if lim := p.ModelConfig().ContextLimit; lim == nil || *lim != 128_000 {
		t.Fatalf("context limit %v", lim)
	}
}

func TestEnvBeatsConfigAndSecretStore(t *testing.T) {
	s := serve(t, providertest.Turn{Text: []string{"ok"}})
	f := newFixture(t)
	f.config["OPENAI_HOST"] = "http://127.0.0.1:1" // would fail
	f.env["OPENAI_HOST"] = s.URL
	f.secrets["OPENAI_API_KEY"] = "store-key-xxxx"
	f.env["OPENAI_API_KEY"] = "env-key-xxxx"
	p, err := f.registry().Create("openai", model.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reply(t, p); err != nil {
		t.Fatal(err)
	}
	r := s.Requests()[0]
	if r.Header.Get("Authorization") != "Bearer env-key-xxxx" || requestModel(t, r) != "gpt-4o" {
		t.Fatalf("auth %q model %s", r.Header.Get("Authorization"), requestModel(t, r))
	}
}

func TestErrorsNameKeysNeverSecrets(t *testing.T) {
	f := newFixture(t)
	reg := f.registry()
	_, err := reg.Create("groq", model.Config{})
	if !errors.Is(err, ErrMissingConfig) || err.Error() != "groq: missing required config key GROQ_API_KEY" {
		t.Fatalf("got %v", err)
	}
	_, err = reg.Create("nope", model.Config{})
	if !errors.Is(err, ErrUnknownProvider) || !strings.Contains(err.Error(), "Unknown provider: nope") {
		t.Fatalf("got %v", err)
	}
	s := serve(t, providertest.Turn{Status: 401, ErrorBody: `{"error":{"message":"Incorrect API key provided: ` + secretKey + `"}}`})
	f.env["GROQ_HOST"] = s.URL
	f.secrets["GROQ_API_KEY"] = secretKey
	p, err := reg.Create("groq", model.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = reply(t, p)
	if provider.KindOf(err) != provider.KindAuth || strings.Contains(err.Error(), secretKey) {
		t.Fatalf("got %v", err)
	}
}

func TestFromConfig(t *testing.T) {
	f := newFixture(t)
	if _, err := f.registry().FromConfig(); !errors.Is(err, ErrNoProvider) {
		t.Fatalf("got %v", err)
	}
	s := serve(t, providertest.Turn{Text: []string{"ok"}})
	f.config["GOOSE_PROVIDER"] = "openai"
	f.config["GOOSE_MODEL"] = "gpt-4.1"
	f.config["GOOSE_TEMPERATURE"] = 0.3
	f.env["OPENAI_HOST"] = s.URL
	p, err := f.registry().FromConfig()
	if err != nil {
		t.Fatal(err)
	}
	cfg := p.ModelConfig()
	if cfg.ModelName != "gpt-4.1" || *cfg.ContextLimit != 128_000 || *cfg.Temperature != 0.3 {
		t.Fatalf("%+v", cfg) // gpt-4.1 is 128k in openai's known models, which beat the pattern table
	}
	if _, err := reply(t, p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(s.Requests()[0].Body), `"temperature":0.3`) {
		t.Fatalf("%s", s.Requests()[0].Body)
	}
}

// goose 1.54 asks for a known model's own output limit (its
// with_canonical_limits), not 4096: a large write is not cut off. An
// unknown model keeps the backend's 4096; GOOSE_MAX_TOKENS still wins.
func TestMaxTokensFromTheModel(t *testing.T) {
	for _, c := range []struct {
		model, env string
		want       string
	}{
		{"gpt-4o", "", `_tokens":16384,`},
		{"gpt-4.1", "", `_tokens":32768,`},
		{"my-own-model", "", `"max_tokens":4096,`},
		{"gpt-4o", "1000", `_tokens":1000,`},
	} {
		f := newFixture(t)
		s := serve(t, providertest.Turn{Text: []string{"ok"}})
		f.config["GOOSE_PROVIDER"] = "openai"
		f.config["GOOSE_MODEL"] = c.model
		f.env["OPENAI_HOST"] = s.URL
		if c.env != "" {
			f.env["GOOSE_MAX_TOKENS"] = c.env
		}
		p, err := f.registry().FromConfig()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := reply(t, p); err != nil {
			t.Fatal(err)
		}
		if body := string(s.Requests()[0].Body); !strings.Contains(body, c.want) {
			t.Errorf("%s (GOOSE_MAX_TOKENS %q): %s", c.model, c.env, body)
		}
	}
}

func TestCustomProviderEndToEnd(t *testing.T) {
	s := serve(t, providertest.Turn{Text: []string{"custom ok"}})
	f := newFixture(t)
	writeFile(t, f.dir, "custom_local.json", `{"name":"custom_local","engine":"openai","display_name":"Local",
		"api_key_env":"CUSTOM_LOCAL_API_KEY","base_url":"`+s.URL+`/v1","models":[{"name":"local-1","context_limit":32000}],
		"headers":{"X-Org":"team"},"supports_streaming":true}`)
	writeFile(t, f.dir, "broken.json", `{"name":`)
	writeFile(t, f.dir, "http.json", `{"name":"h","engine":"generic_http"}`)
	writeFile(t, f.dir, "notes.txt", `ignored`)
	f.secrets["CUSTOM_LOCAL_API_KEY"] = secretKey
	cps, errs := LoadCustomProviders(f.dir)
	if len(cps) != 1 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "broken.json") {
		t.Fatalf("custom %v errs %v", cps, errs)
	}
	p, err := f.registry().Create("custom_local", model.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if text, err := reply(t, p); err != nil || text != "custom ok" {
		t.Fatalf("%q %v", text, err)
	}
	r := s.Requests()[0]
	if r.Path != "/v1/chat/completions" || r.Header.Get("X-Org") != "team" || requestModel(t, r) != "local-1" ||
		r.Header.Get("Authorization") != "Bearer "+secretKey || *p.ModelConfig().ContextLimit != 32_000 {
		t.Fatalf("path %s headers %v", r.Path, r.Header)
	}
	delete(f.secrets, "CUSTOM_LOCAL_API_KEY")
	if _, err := f.registry().Create("custom_local", model.Config{}); err == nil ||
		err.Error() != "custom_local: missing required config key CUSTOM_LOCAL_API_KEY" {
		t.Fatalf("got %v", err)
	}
}

func TestCustomProviderPaths(t *testing.T) {
	bp := "/api/chat"
	for _, tc := range []struct {
		base string
		bp   *string
		host string
		path string
	}{
		{"https://h.example", nil, "https://h.example", "v1/chat/completions"},
		{"https://h.example:8443/v1/", nil, "https://h.example:8443", "v1/chat/completions"},
		{"https://api.mistral.ai/v1/chat/completions", nil, "https://api.mistral.ai", "v1/chat/completions"},
		{"https://h.example/openai/v1/chat/completions", nil, "https://h.example", "openai/v1/chat/completions"},
		{"https://h.example/v1", &bp, "https://h.example", "api/chat"},
	} {
		o, err := CustomProvider{Name: "c", Engine: EngineOpenAI, BaseURL: tc.base, BasePath: tc.bp}.openAIOptions()
		if err != nil || o.Host != tc.host || o.BasePath != tc.path {
			t.Errorf("%s: %s %s %v", tc.base, o.Host, o.BasePath, err)
		}
	}
	if _, err := (CustomProvider{Name: "c", BaseURL: "not a url"}).openAIOptions(); err == nil {
		t.Fatal("bad URL accepted")
	}
}

func mustModel(name string) model.Config { return model.Config{ModelName: name} }

func TestSecretsNeverLogged(t *testing.T) {
	s := serve(t,
		providertest.Turn{Status: 429, ErrorBody: `{"error":{"message":"slow for key ` + secretKey + `"}}`},
		providertest.Turn{Status: 401, ErrorBody: `{"error":{"message":"Incorrect API key provided: ` + secretKey + `"}}`})
	f := newFixture(t)
	var logs strings.Builder
	reg := New(Options{
		Env:    providertest.Lookup(f.env),
		Get:    func(k string) (any, bool) { return nil, false },
		Secret: func(k string) (string, error) { return secretKey, nil },
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Retry:  provider.RetryOptions{Sleep: func(context.Context, time.Duration) error { return nil }},
	})
	f.env["OPENAI_HOST"] = s.URL
	p, err := reg.Create("openai", model.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = reply(t, p)
	if provider.KindOf(err) != provider.KindAuth || strings.Contains(err.Error(), secretKey) {
		t.Fatalf("err %v", err)
	}
	if logs.Len() == 0 || strings.Contains(logs.String(), secretKey) {
		t.Fatalf("logs leak or are empty:\n%s", logs.String())
	}
}
