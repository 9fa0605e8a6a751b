package main

import (
	"errors"
	"log/slog"
	"os"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/registry"
	"github.com/goose-acp/goose-acp/core/setup"
)

// newSetup is core/setup over this process's config and environment.
func newSetup(cfg *config.Config, getenv func(string) string, log *slog.Logger) *setup.Setup {
	return setup.New(setup.Options{Config: cfg, Logger: log, Env: func(k string) (string, bool) {
		v := getenv(k)
		return v, v != ""
	}})
}

// authOptions wire ACP authentication to core/setup: the provider check
// and this binary's path for the terminal auth method.
func (p *providerSet) authOptions() acp.AuthOptions {
	exe, err := os.Executable()
	if err != nil {
		exe = "goose-acp"
	}
	return acp.AuthOptions{Status: p.setup.Status, Command: exe}
}

// withEnvFallback is create's answer when GOOSE_PROVIDER is unset: the
// provider an API key in the environment selects (setup.EnvKeys), or
// setup's one-line reason.
func (p *providerSet) withEnvFallback(prov provider.Provider, err error, mc model.Config) (provider.Provider, error) {
	if !errors.Is(err, registry.ErrNoProvider) {
		return prov, err
	}
	name, modelName, ok := p.setup.ProviderFor()
	if !ok {
		return nil, p.setup.Status().Err
	}
	if mc.ModelName == "" {
		mc.ModelName = modelName
	}
	return p.reg.Create(name, mc)
}
