package registry

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/catalog"
)

// Sentinel errors callers branch on.
var (
	// ErrUnknownProvider: the name is neither built in nor a custom provider.
	ErrUnknownProvider = errkind.New(errkind.NotFound, "unknown provider")
	// ErrNoProvider: GOOSE_PROVIDER is not configured.
	ErrNoProvider = errkind.New(errkind.AuthRequired, "no provider configured: set GOOSE_PROVIDER (and GOOSE_MODEL), e.g. with `goose configure`")
	// ErrMissingConfig: a required setting or secret is absent.
	ErrMissingConfig = errkind.New(errkind.AuthRequired, "missing required config key")
)

// Options configures a Registry.
type Options struct {
	// Get reads a value from the config store (config.yaml).
	Get func(key string) (any, bool)
	// Secret reads a secret from the secret store (keyring or secrets
	// file); an error means "not available".
	Secret func(key string) (string, error)
	// Env reads an environment variable; nil means os.LookupEnv. goose
	// reads every setting and secret from the environment first.
	Env        func(key string) (string, bool)
	HTTPClient *http.Client
	// CustomDir is <config>/custom_providers; empty disables custom providers.
	CustomDir string
	Logger    *slog.Logger
	// Retry overrides retry timing (tests); zero values take goose's.
	Retry provider.RetryOptions
}

// Registry creates providers by name.
type Registry struct {
	opts Options
	log  *slog.Logger
}

// New returns a registry. It reads nothing until asked.
func New(opts Options) *Registry {
	if opts.Env == nil {
		opts.Env = os.LookupEnv
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Retry.Logger == nil {
		opts.Retry.Logger = opts.Logger
	}
	return &Registry{opts: opts, log: opts.Logger}
}

// Value reads a setting env-first, then from the config store. Non-string
// config values are formatted (YAML numbers and booleans).
func (r *Registry) Value(key string) (string, bool) {
	if v, ok := r.opts.Env(key); ok {
		return v, true
	}
	if r.opts.Get == nil {
		return "", false
	}
	v, ok := r.opts.Get(key)
	if !ok || v == nil {
		return "", false
	}
	if s, ok := v.(string); ok {
		return s, true
	}
	return fmt.Sprint(v), true
}

// secret reads a secret env-first, then from the secret store.
func (r *Registry) secret(key string) (string, bool) {
	if v, ok := r.opts.Env(key); ok && v != "" {
		return v, true
	}
	if r.opts.Secret == nil {
		return "", false
	}
	v, err := r.opts.Secret(key)
	if err != nil || v == "" {
		if err != nil {
			r.log.Debug("secret not available", "key", key, "err", err)
		}
		return "", false
	}
	return v, true
}

// settings returns the lookup a backend reads its keys through: secret
// keys (per the metadata) from the secret path, others as values.
func (r *Registry) settings(md provider.Metadata) func(string) (string, bool) {
	return func(key string) (string, bool) {
		for _, k := range md.ConfigKeys {
			if k.Name == key && k.Secret {
				return r.secret(key)
			}
		}
		return r.Value(key)
	}
}

func (r *Registry) intValue(key string, def int) int {
	if v, ok := r.Value(key); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 {
			return n
		}
		r.log.Warn("ignoring invalid setting", "key", key, "value", v)
	}
	return def
}

// Providers returns the metadata of every available provider (built-in
// and custom), sorted by name: what goosed serves at /config/providers.
func (r *Registry) Providers() []provider.Metadata {
	var out []provider.Metadata
	for _, e := range r.entries() {
		out = append(out, e.metadata)
	}
	slices.SortFunc(out, func(a, b provider.Metadata) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Create builds the named provider for cfg (an empty model name means the
// provider's default; a missing context limit is resolved by goose's
// precedence). When GOOSE_LEAD_MODEL is set the result is goose's
// lead/worker provider, as goose's factory does.
func (r *Registry) Create(name string, cfg model.Config) (provider.Provider, error) {
	e, err := r.entry(name)
	if err != nil {
		return nil, err
	}
	if lead, ok := r.Value("GOOSE_LEAD_MODEL"); ok && lead != "" {
		return r.leadWorker(e, cfg, lead)
	}
	return r.build(e, cfg)
}

// FromConfig builds the configured provider: GOOSE_PROVIDER with
// GOOSE_MODEL (default: the provider's default model) and the
// GOOSE_TEMPERATURE / GOOSE_MAX_TOKENS / GOOSE_CONTEXT_LIMIT / toolshim
// settings.
func (r *Registry) FromConfig() (provider.Provider, error) {
	name, ok := r.Value("GOOSE_PROVIDER")
	if !ok || strings.TrimSpace(name) == "" {
		return nil, ErrNoProvider
	}
	e, err := r.entry(strings.TrimSpace(name))
	if err != nil {
		return nil, err
	}
	modelName, ok := r.Value("GOOSE_MODEL")
	if !ok || modelName == "" {
		modelName = e.metadata.DefaultModel
	}
	return r.Create(e.metadata.Name, model.FromSettings(modelName, r.limitOptions(e.metadata, "")))
}

// ModelConfig resolves a model config for a provider as Create would, so
// callers can show or store it (session model_config_json).
func (r *Registry) ModelConfig(name string, cfg model.Config) (model.Config, error) {
	e, err := r.entry(name)
	if err != nil {
		return model.Config{}, err
	}
	return r.completeModel(e.metadata, cfg, ""), nil
}

func (r *Registry) limitOptions(md provider.Metadata, envVar string) model.LimitOptions {
	per := make(map[string]int, len(md.KnownModels))
	for _, m := range md.KnownModels {
		per[m.Name] = m.ContextLimit
	}
	return model.LimitOptions{EnvVar: envVar, PerModel: per, Lookup: r.Value}
}

func (r *Registry) completeModel(md provider.Metadata, cfg model.Config, envVar string) model.Config {
	if cfg.ModelName == "" {
		cfg.ModelName = md.DefaultModel
	}
	if cfg.ContextLimit == nil || *cfg.ContextLimit <= 0 {
		o := r.limitOptions(md, envVar)
		limit := model.ContextLimit(cfg.ModelName, o)
		cfg.ContextLimit = &limit
	}
	if cfg.MaxTokens == nil {
		cfg.MaxTokens = canonicalMaxTokens(md.Name, cfg.ModelName)
	}
	return cfg
}

// canonicalMaxTokens is the model's own output limit when it is known and
// below its context window, as goose 1.54's with_canonical_limits sets
// max_tokens; nil leaves the backend's 4096 default. Without it a large
// write from a model that can say 16k or 64k tokens would be cut off at
// 4096.
func canonicalMaxTokens(providerName, modelName string) *int {
	info, ok := catalog.Lookup(providerName, modelName)
	if !ok || info.Known.MaxOutput <= 0 || info.Known.MaxOutput >= info.Known.ContextLimit {
		return nil
	}
	n := info.Known.MaxOutput
	return &n
}

// build constructs one backend and wraps it with the idle watchdog and
// retry.
func (r *Registry) build(e entry, cfg model.Config) (provider.Provider, error) {
	cfg = r.completeModel(e.metadata, cfg, "")
	p, err := e.build(r, cfg)
	if err != nil {
		return nil, err
	}
	return r.wrap(p), nil
}

func (r *Registry) wrap(p provider.Provider) provider.Provider {
	idle := time.Duration(r.intValue("GOOSE_STREAM_TIMEOUT", int(provider.DefaultStreamIdleTimeout/time.Second))) * time.Second
	return provider.WithRetry(provider.IdleTimeout(p, idle), r.opts.Retry)
}

func (r *Registry) entry(name string) (entry, error) {
	for _, e := range r.entries() {
		if e.metadata.Name == name {
			return e, nil
		}
	}
	return entry{}, errkind.Wrapf(ErrUnknownProvider, "Unknown provider: %s", name)
}

// missing is the error for an absent required key: it names the key,
// never a value.
func missing(providerName, key string) error {
	return fmt.Errorf("%s: %w %s", providerName, ErrMissingConfig, key)
}
