package setup

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestProviderModelsChecksThenFetches: what both faces answer for a
// stored provider's model list — unknown, not configured, the live list
// with the stored key, an empty list, and a refused fetch that keeps the
// provider's words and kind.
func TestProviderModelsChecksThenFetches(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	s := f.setup(t)
	if _, err := s.ProviderModels(ctx, "nope"); !errors.Is(err, ErrUnknownProvider) {
		t.Fatalf("unknown provider: %v", err)
	}
	_, err := s.ProviderModels(ctx, "openai")
	if !errors.Is(err, ErrNotConfigured) || errkind.Detail(err) != "openai is not configured" {
		t.Fatalf("unconfigured provider: %v", err)
	}

	llm := providertest.Start(providertest.OpenAI, nil)
	defer llm.Close()
	f.write(t, "config.yaml", "OPENAI_HOST: "+llm.URL+"\n")
	f.write(t, "secrets.yaml", "OPENAI_API_KEY: sk-stored\n")
	s = f.setup(t)
	if _, err := s.ProviderModels(ctx, "openai"); err != ErrNoModelList || IsListFailure(err) {
		t.Fatalf("empty list: %v", err)
	}
	llm.Script.SetModels("o3", "gpt-4o")
	models, err := s.ProviderModels(ctx, "openai")
	if err != nil || strings.Join(models, ",") != "gpt-4o,o3" {
		t.Fatalf("models %v err %v", models, err)
	}
	if r := llm.Requests(); r[len(r)-1].Header.Get("Authorization") != "Bearer sk-stored" {
		t.Fatalf("model list sent without the stored key: %+v", r)
	}

	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}`))
	}))
	defer refusing.Close()
	f.write(t, "config.yaml", "OPENAI_HOST: "+refusing.URL+"\n")
	_, err = f.setup(t).ProviderModels(ctx, "openai")
	if !IsListFailure(err) || provider.KindOf(err) != provider.KindRateLimit ||
		errkind.Detail(err) != "openai: rate limit exceeded (status 429): Rate limit reached" ||
		err.Error() != "the provider did not list its models: openai: rate limit exceeded (status 429): Rate limit reached" {
		t.Fatalf("refused fetch: %v (kind %v, detail %q)", err, provider.KindOf(err), errkind.Detail(err))
	}
}

// TestSelectDefaultWritesOnlyWhatBuilds: goosed's set_provider — a
// provider that cannot be built from the stored settings leaves
// config.yaml as it was; one that can becomes the default with its model,
// keeping the user's other keys.
func TestSelectDefaultWritesOnlyWhatBuilds(t *testing.T) {
	f := newFixture(t)
	f.write(t, "config.yaml", "# mine\nGOOSE_MODE: approve\n")
	s := f.setup(t)
	if err := s.SelectDefault("nope", "m"); !errors.Is(err, ErrUnknownProvider) {
		t.Fatalf("unknown: %v", err)
	}
	err := s.SelectDefault("anthropic", "claude-sonnet-4")
	if !errors.Is(err, ErrCannotBuild) || errkind.Detail(err) != "anthropic: missing required config key ANTHROPIC_API_KEY" {
		t.Fatalf("without its key: %v", err)
	}
	if got := f.read(t, "config.yaml"); got != "# mine\nGOOSE_MODE: approve\n" {
		t.Fatalf("a refused provider was written:\n%s", got)
	}
	f.write(t, "secrets.yaml", "ANTHROPIC_API_KEY: sk-ant\n")
	if err := f.setup(t).SelectDefault("anthropic", "claude-sonnet-4"); err != nil {
		t.Fatal(err)
	}
	if got := f.read(t, "config.yaml"); got != "# mine\nGOOSE_MODE: approve\nGOOSE_PROVIDER: anthropic\nGOOSE_MODEL: claude-sonnet-4\n" {
		t.Fatalf("config.yaml:\n%s", got)
	}
}
