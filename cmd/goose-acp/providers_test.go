package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/model"
)

// TestProviderSetReadsInjectedEnvironment: the registry sees the getenv it
// is given, not the process environment (a test's or a schedule's private
// environment must not leak into provider selection).
func TestProviderSetReadsInjectedEnvironment(t *testing.T) {
	root := t.TempDir()
	paths := config.Paths{Config: filepath.Join(root, "config"), Data: filepath.Join(root, "data"), State: filepath.Join(root, "state")}
	cfg, err := config.Open(config.Options{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	// The process has a provider the injected environment does not.
	t.Setenv("GOOSE_PROVIDER", "openai")
	t.Setenv("OPENAI_API_KEY", "sk-process")
	empty := func(string) string { return "" }
	if p, err := newProviderSet(cfg, empty, paths, slog.New(slog.DiscardHandler)).create(context.Background(), "", model.Config{}); err == nil {
		t.Fatalf("with an empty injected environment, created %q from the process environment", p.Metadata().Name)
	}
	env := map[string]string{"GOOSE_PROVIDER": "openai", "GOOSE_MODEL": "gpt-4o", "OPENAI_API_KEY": "sk-injected"}
	p, err := newProviderSet(cfg, func(k string) string { return env[k] }, paths, slog.New(slog.DiscardHandler)).create(context.Background(), "", model.Config{})
	if err != nil {
		t.Fatalf("with the provider in the injected environment: %v", err)
	}
	if got := p.Metadata().Name; got != "openai" {
		t.Fatalf("provider %q, want openai", got)
	}
}
