package setup

import (
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/registry"
)

// Options configure a Setup.
type Options struct {
	// Config is goose's config.yaml (and, through it, the secret store).
	Config *config.Config
	// Env looks a variable up in the process environment; nil means none.
	// As in goose, a setting or key there wins over the files.
	Env func(key string) (string, bool)
	// HTTPClient talks to providers (model lists, the test completion).
	HTTPClient *http.Client
	Logger     *slog.Logger
}

// Setup configures and checks providers over one config.
type Setup struct {
	opts Options
	inv  inventories // model lists fetched by RefreshInventory
}

// New returns a Setup. It reads nothing until asked.
func New(opts Options) *Setup {
	if opts.Env == nil {
		opts.Env = func(string) (string, bool) { return "", false }
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Setup{opts: opts}
}

// CustomDir is <config>/custom_providers, where goose keeps declarative
// providers.
func (s *Setup) CustomDir() string {
	return filepath.Join(s.opts.Config.Paths().Config, "custom_providers")
}

// registry reads overlay first (values the user is entering and that are
// not written yet), then the environment, config.yaml and the secret store.
func (s *Setup) registry(overlay map[string]string) *registry.Registry {
	cfg := s.opts.Config
	return registry.New(registry.Options{
		Get: func(key string) (any, bool) {
			v, ok := cfg.Lookup(key)
			return v, ok && v != nil
		},
		Secret: func(key string) (string, error) {
			v, err := cfg.Secrets().Get(key)
			if err != nil {
				return "", err
			}
			if str, ok := v.(string); ok {
				return str, nil
			}
			return fmt.Sprint(v), nil
		},
		Env: func(key string) (string, bool) {
			if v, ok := overlay[key]; ok {
				return v, true
			}
			return s.opts.Env(key)
		},
		HTTPClient: s.opts.HTTPClient,
		CustomDir:  s.CustomDir(),
		Logger:     s.opts.Logger,
	})
}

// Providers lists every provider configure offers: the built-in ones and
// the custom providers in CustomDir, sorted by display name.
func (s *Setup) Providers() []provider.Metadata {
	out := s.registry(nil).Providers()
	sortByDisplayName(out)
	return out
}

// Lookup returns the named provider's metadata.
func (s *Setup) Lookup(name string) (provider.Metadata, error) {
	for _, md := range s.registry(nil).Providers() {
		if md.Name == name {
			return md, nil
		}
	}
	return provider.Metadata{}, fmt.Errorf("%w: %q (known: %s)", ErrUnknownProvider, name, strings.Join(s.names(), ", "))
}

func (s *Setup) names() []string {
	var out []string
	for _, md := range s.registry(nil).Providers() {
		out = append(out, md.Name)
	}
	return out
}

// Source says where a setting's current value comes from.
type Source string

const (
	SourceNone    Source = ""
	SourceEnv     Source = "environment"
	SourceConfig  Source = "config.yaml"
	SourceSecrets Source = "secret store"
	SourceDefault Source = "default"
)

// Field is one config key of a provider with where it is set now. Value is
// the current value for non-secret keys (never for secrets).
type Field struct {
	provider.ConfigKey
	Source Source
	Value  string
}

// Ask reports whether configure must ask for the key: it is required (or
// a provider's API key) and set nowhere, not even by a default.
func (f Field) Ask() bool {
	return f.Source == SourceNone && (f.Required || f.Secret)
}

// Fields lists the provider's config keys and where each is set.
func (s *Setup) Fields(name string) ([]Field, error) {
	md, err := s.Lookup(name)
	if err != nil {
		return nil, err
	}
	cp, custom := s.custom(name)
	out := make([]Field, 0, len(md.ConfigKeys))
	for _, k := range md.ConfigKeys {
		if custom && (k.Name != cp.APIKeyEnv || (cp.RequiresAuth != nil && !*cp.RequiresAuth)) {
			// A custom provider's host, path and headers come from its
			// JSON file; the engine's other settings (OPENAI_HOST, …)
			// would only change the built-in provider. It needs just its
			// api_key_env, unless requires_auth is false.
			continue
		}
		f := Field{ConfigKey: k}
		switch {
		case s.envSet(k.Name):
			f.Source = SourceEnv
		case k.Secret && s.secretSet(k.Name):
			f.Source = SourceSecrets
		case !k.Secret && s.configSet(k.Name):
			f.Source = SourceConfig
		case k.Default != nil:
			f.Source = SourceDefault
		}
		if !k.Secret {
			f.Value = s.value(k)
		}
		out = append(out, f)
	}
	return out, nil
}

// custom returns the declarative provider named name from CustomDir.
func (s *Setup) custom(name string) (registry.CustomProvider, bool) {
	cps, _ := registry.LoadCustomProviders(s.CustomDir())
	for _, cp := range cps {
		if cp.Name == name {
			return cp, true
		}
	}
	return registry.CustomProvider{}, false
}

func (s *Setup) envSet(key string) bool {
	v, ok := s.opts.Env(key)
	return ok && v != ""
}

func (s *Setup) secretSet(key string) bool {
	v, err := s.opts.Config.Secrets().Get(key)
	return err == nil && v != nil && fmt.Sprint(v) != ""
}

func (s *Setup) configSet(key string) bool {
	v, err := s.opts.Config.Get(key)
	return err == nil && v != nil && fmt.Sprint(v) != ""
}

func (s *Setup) value(k provider.ConfigKey) string {
	if v, ok := s.opts.Env(k.Name); ok && v != "" {
		return v
	}
	if v, err := s.opts.Config.Get(k.Name); err == nil && v != nil {
		return fmt.Sprint(v)
	}
	if k.Default != nil {
		return *k.Default
	}
	return ""
}
