package acp

import (
	"log/slog"
	"path/filepath"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/provider/registry"
	"github.com/goose-acp/goose-acp/core/setup"
)

// Settings are the core stores the _goose/unstable settings methods call:
// config.yaml and the secret store, provider set-up and custom providers.
// Prompt templates live under Config's config directory.
type Settings struct {
	Config *config.Config
	// Setup defaults to setup.New over Config (no environment).
	Setup *setup.Setup
	// CustomProviders defaults to <config>/custom_providers with Config's
	// secret store, as goose keeps them.
	CustomProviders *registry.CustomStore
}

// errNoSettings answers the settings methods of a server built without a
// config (tests, embedders): a clear error rather than a nil dereference.
var errNoSettings = errkind.New(errkind.Unavailable, "goose configuration is not available in this goose-acp server")

// withDefaults fills Setup and CustomProviders from Config, once per
// server (the custom store's lock must be shared by its callers).
func (st Settings) withDefaults(log *slog.Logger) Settings {
	if st.Config == nil {
		return st
	}
	if st.Setup == nil {
		st.Setup = setup.New(setup.Options{Config: st.Config, Logger: log})
	}
	if st.CustomProviders == nil {
		st.CustomProviders = registry.NewCustomStore(filepath.Join(st.Config.Paths().Config, "custom_providers"), st.Config.Secrets())
	}
	return st
}

// configDir is where goose keeps prompts/, custom_providers/, recipes/.
func (st Settings) configDir() string { return st.Config.Paths().Config }
