package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/registry"
	"github.com/goose-acp/goose-acp/core/setup"
)

// providerSet builds providers from goose's configuration.
type providerSet struct {
	cfg   *config.Config
	reg   *registry.Registry
	setup *setup.Setup
	// custom is the one custom-provider store of the process (its lock
	// serialises id generation for every face and connection).
	custom *registry.CustomStore
}

func newProviderSet(cfg *config.Config, getenv func(string) string, paths config.Paths, log *slog.Logger) *providerSet {
	reader := configReader{cfg}
	reg := registry.New(registry.Options{
		Get: reader.Get,
		Secret: func(key string) (string, error) {
			if v, ok := reader.Secret(key); ok {
				return v, nil
			}
			return "", fmt.Errorf("%s is not set", key)
		},
		// The registry reads settings and secrets env-first; it gets the
		// injected environment, never the process's, with config's rule
		// that an empty value counts as unset.
		Env: func(key string) (string, bool) {
			v := getenv(key)
			return v, v != ""
		},
		CustomDir: filepath.Join(paths.Config, "custom_providers"),
		Logger:    log,
	})
	return &providerSet{cfg: cfg, reg: reg, setup: newSetup(cfg, getenv, log),
		custom: registry.NewCustomStore(filepath.Join(paths.Config, "custom_providers"), cfg.Secrets())}
}

// create is the agent's ProviderFactory: an empty name means the
// configured default (GOOSE_PROVIDER, with lead/worker when configured).
func (p *providerSet) create(_ context.Context, name string, mc model.Config) (provider.Provider, error) {
	if name == "" && mc.ModelName == "" {
		prov, err := p.reg.FromConfig()
		return p.withEnvFallback(prov, err, mc)
	}
	if name == "" {
		var err error
		if name, err = p.cfg.GetString("GOOSE_PROVIDER"); err != nil || name == "" {
			return p.withEnvFallback(nil, registry.ErrNoProvider, mc)
		}
	}
	return p.reg.Create(name, mc)
}

// list is every known provider's metadata (for config options).
func (p *providerSet) list() []provider.Metadata { return p.reg.Providers() }
