package setup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/provider/registry"
)

// fixture is a private goose config dir (keyring disabled, so secrets go
// to secrets.yaml) and an environment.
type fixture struct {
	paths config.Paths
	env   map[string]string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	return &fixture{
		paths: config.Paths{Config: filepath.Join(dir, "config"), Data: filepath.Join(dir, "data"), State: filepath.Join(dir, "state")},
		env:   map[string]string{"GOOSE_DISABLE_KEYRING": "1"},
	}
}

func (f *fixture) setup(t testing.TB) *Setup {
	t.Helper()
	getenv := func(k string) string { return f.env[k] }
	cfg, err := config.Open(config.Options{Paths: f.paths, Getenv: getenv, SystemFile: filepath.Join(f.paths.Config, "none.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	return New(Options{Config: cfg, Env: func(k string) (string, bool) { v, ok := f.env[k]; return v, ok }})
}

func (f *fixture) write(t testing.TB, name, content string) {
	t.Helper()
	if err := os.MkdirAll(f.paths.Config, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.paths.Config, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.paths.Config, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestConfigureTestsThenWritesConfigAndSecretsKeepingOtherKeys(t *testing.T) {
	srv := providertest.Start(providertest.OpenAI, providertest.NewScript(providertest.Turn{Text: []string{"ok"}}))
	defer srv.Close()
	f := newFixture(t)
	f.write(t, "config.yaml", "# mine\nGOOSE_MODE: approve\nGOOSE_MODEL: old-model\nextensions: {}\n")
	f.write(t, "secrets.yaml", "ZED_TOKEN: z\n")
	s := f.setup(t)
	saved, err := s.Configure(context.Background(), Choice{Provider: "openai", Model: "gpt-4o-mini",
		Values: map[string]string{"OPENAI_API_KEY": "sk-new", "OPENAI_HOST": srv.URL}}, false)
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "Bearer sk-new" || !strings.Contains(string(reqs[0].Body), CheckPrompt) {
		t.Fatalf("test completion: %+v", reqs)
	}
	if got, want := f.read(t, "config.yaml"), "# mine\nGOOSE_MODE: approve\nGOOSE_MODEL: gpt-4o-mini\nextensions: {}\nGOOSE_PROVIDER: openai\nOPENAI_HOST: "+srv.URL+"\n"; got != want {
		t.Fatalf("config.yaml:\n%s\nwant:\n%s", got, want)
	}
	if got := f.read(t, "secrets.yaml"); got != "ZED_TOKEN: z\nOPENAI_API_KEY: sk-new\n" {
		t.Fatalf("secrets.yaml:\n%s", got)
	}
	if saved.SecretStore != filepath.Join(f.paths.Config, "secrets.yaml") || len(saved.SecretKeys) != 1 {
		t.Fatalf("saved: %+v", saved)
	}
	if st := f.setup(t).Status(); !st.Usable() || st.Provider != "openai" || st.Model != "gpt-4o-mini" {
		t.Fatalf("status after configure: %+v", st)
	}
}

func TestConfigureRejectedKeySavesNothing(t *testing.T) {
	srv := providertest.Start(providertest.Anthropic, providertest.NewScript(providertest.Turn{Status: 401,
		ErrorBody: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}))
	defer srv.Close()
	f := newFixture(t)
	f.write(t, "config.yaml", "GOOSE_MODE: auto\n")
	_, err := f.setup(t).Configure(context.Background(), Choice{Provider: "anthropic", Model: "claude-sonnet-4-5",
		Values: map[string]string{"ANTHROPIC_API_KEY": "bad", "ANTHROPIC_HOST": srv.URL}}, false)
	if err == nil || !IsAuth(err) || !strings.Contains(err.Error(), "nothing was saved") {
		t.Fatalf("err = %v", err)
	}
	if got := f.read(t, "config.yaml"); got != "GOOSE_MODE: auto\n" {
		t.Fatalf("config.yaml changed:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(f.paths.Config, "secrets.yaml")); !os.IsNotExist(err) {
		t.Fatalf("secrets.yaml written: %v", err)
	}
	if got := AuthReason(err); got != "anthropic rejected the API key (status 401): run `goose-acp configure` in a terminal to enter a new one" {
		t.Fatalf("AuthReason = %q", got)
	}
}

func TestOllamaNeedsOnlyItsHost(t *testing.T) {
	srv := providertest.Start(providertest.Ollama, providertest.NewScript(providertest.Turn{Text: []string{"ok"}}))
	defer srv.Close()
	srv.Script.SetModels("qwen3", "llama3.2")
	f := newFixture(t)
	s := f.setup(t)
	fields, err := s.Fields("ollama")
	if err != nil {
		t.Fatal(err)
	}
	var ask []string
	for _, fl := range fields {
		if fl.Ask() {
			ask = append(ask, fl.Name)
		}
	}
	if len(ask) != 0 || fields[0].Name != "OLLAMA_HOST" || fields[0].Source != SourceDefault {
		t.Fatalf("ollama fields %+v ask %v", fields, ask)
	}
	c := Choice{Provider: "ollama", Values: map[string]string{"OLLAMA_HOST": srv.URL}}
	models, err := s.Models(context.Background(), c)
	if err != nil || strings.Join(models, ",") != "llama3.2,qwen3" {
		t.Fatalf("models %v err %v", models, err)
	}
	c.Model = "qwen3"
	if _, err := s.Configure(context.Background(), c, false); err != nil {
		t.Fatal(err)
	}
	if got := f.read(t, "config.yaml"); got != "GOOSE_PROVIDER: ollama\nGOOSE_MODEL: qwen3\nOLLAMA_HOST: "+srv.URL+"\n" {
		t.Fatalf("config.yaml:\n%s", got)
	}
}

func TestValidateRejectsBadChoices(t *testing.T) {
	s := newFixture(t).setup(t)
	for _, tc := range []struct {
		c    Choice
		want string
	}{
		{Choice{Provider: "nope", Model: "m"}, `unknown provider: "nope" (known: `},
		{Choice{Provider: "openai"}, "no model given for openai (its default is gpt-4o)"},
		{Choice{Provider: "openai", Model: "m"}, "OpenAI needs OPENAI_API_KEY: give it a value"},
		{Choice{Provider: "openai", Model: "m", Values: map[string]string{"ANTHROPIC_API_KEY": "x"}}, "ANTHROPIC_API_KEY is not a setting of openai"},
	} {
		err := s.Validate(tc.c)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want prefix %q", tc.c, err, tc.want)
		}
	}
}

func TestStatusReasons(t *testing.T) {
	f := newFixture(t)
	st := f.setup(t).Status()
	if st.Usable() || !errors.Is(st.Err, ErrNotConfigured) || !IsAuth(st.Err) ||
		st.Err.Error() != "no AI provider is configured: run `goose-acp configure` in a terminal, or set OPENAI_API_KEY, ANTHROPIC_API_KEY or GOOGLE_API_KEY in the agent's environment" {
		t.Fatalf("unconfigured: %+v", st)
	}
	f.write(t, "config.yaml", "GOOSE_PROVIDER: anthropic\n")
	if st := f.setup(t).Status(); st.Err == nil || st.Err.Error() != "Anthropic needs ANTHROPIC_API_KEY: run `goose-acp configure` in a terminal, or set ANTHROPIC_API_KEY in the agent's environment" {
		t.Fatalf("missing key: %+v", st)
	}
	f.write(t, "config.yaml", "GOOSE_PROVIDER: mystery\n")
	if st := f.setup(t).Status(); st.Err == nil || st.Err.Error() != `GOOSE_PROVIDER is "mystery", which is not a known provider: run `+"`goose-acp configure`"+` in a terminal to pick one` {
		t.Fatalf("unknown: %+v", st)
	}
	// A key in the environment selects its provider with its default model.
	f.write(t, "config.yaml", "")
	f.env["ANTHROPIC_API_KEY"] = "sk-ant"
	if st := f.setup(t).Status(); !st.Usable() || !st.FromEnv || st.Provider != "anthropic" || st.Model == "" {
		t.Fatalf("env key: %+v", st)
	}
	// Secrets written later are seen without reopening anything.
	delete(f.env, "ANTHROPIC_API_KEY")
	s := f.setup(t)
	f.write(t, "config.yaml", "GOOSE_PROVIDER: google\n")
	if s.Status().Usable() {
		t.Fatal("google usable without a key")
	}
	f.write(t, "secrets.yaml", "GOOGLE_API_KEY: g\n")
	if st := s.Status(); !st.Usable() {
		t.Fatalf("after storing the key: %+v", st)
	}
}

// A custom provider with requires_auth false needs nothing.
func TestCustomProviderWithoutAuth(t *testing.T) {
	f := newFixture(t)
	dir := filepath.Join(f.paths.Config, "custom_providers")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lan.json"),
		[]byte(`{"name":"lan","engine":"openai","display_name":"LAN","requires_auth":false,"base_url":"http://127.0.0.1:9/v1","models":[{"name":"m","context_limit":8000}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f.write(t, "config.yaml", "GOOSE_PROVIDER: lan\n")
	s := f.setup(t)
	if st := s.Status(); !st.Usable() || st.Model != "m" {
		t.Fatalf("status %+v", st)
	}
	if fields, _ := s.Fields("lan"); len(fields) != 0 {
		t.Fatalf("fields %+v", fields)
	}
}

func TestCustomProvidersAreOffered(t *testing.T) {
	f := newFixture(t)
	if err := os.MkdirAll(filepath.Join(f.paths.Config, "custom_providers"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.paths.Config, "custom_providers", "custom_local.json"),
		[]byte(`{"name":"custom_local","engine":"openai","display_name":"Local LLM","api_key_env":"LOCAL_KEY","base_url":"http://127.0.0.1:9/v1","models":[{"name":"m1","context_limit":8000}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := f.setup(t)
	var found bool
	for _, md := range s.Providers() {
		found = found || md.Name == "custom_local"
	}
	if !found {
		t.Fatalf("custom provider missing from %v", s.names())
	}
	if err := s.Validate(Choice{Provider: "custom_local", Model: "m1", Values: map[string]string{"LOCAL_KEY": "k"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(Choice{Provider: "custom_local", Model: "m1"}); err == nil || !strings.HasPrefix(err.Error(), "Local LLM needs LOCAL_KEY") {
		t.Fatalf("without its key: %v", err)
	}
	// Only its key is asked: its host comes from its JSON file.
	fields, err := s.Fields("custom_local")
	if err != nil || len(fields) != 1 || fields[0].Name != "LOCAL_KEY" || !fields[0].Ask() {
		t.Fatalf("fields %+v err %v", fields, err)
	}
}

func TestAuthReasonForAMissingKey(t *testing.T) {
	err := fmt.Errorf("no provider configured: %w", fmt.Errorf("anthropic: %w ANTHROPIC_API_KEY", registry.ErrMissingConfig))
	if got := AuthReason(err); got != "anthropic needs ANTHROPIC_API_KEY: run `goose-acp configure` in a terminal, or set ANTHROPIC_API_KEY in the environment" {
		t.Fatalf("AuthReason = %q", got)
	}
}
