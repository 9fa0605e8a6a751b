package registry

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/anthropic"
	"github.com/goose-acp/goose-acp/core/provider/google"
	"github.com/goose-acp/goose-acp/core/provider/ollama"
	"github.com/goose-acp/goose-acp/core/provider/openai"
)

// entry is one creatable provider.
type entry struct {
	metadata provider.Metadata
	build    func(r *Registry, cfg model.Config) (provider.Provider, error)
}

// builtin are the built-in entries, the same for every registry and
// every call: built once per process, when first asked for (a fresh
// process's first session/new asked six times, ~40% of the provider
// check's CPU). Their metadata is shared: read it, never write to it.
var builtin struct {
	once    sync.Once
	entries []entry
	names   map[string]bool
}

func builtinEntries() ([]entry, map[string]bool) {
	builtin.once.Do(func() {
		var out []entry
		for _, p := range openai.Presets() {
			out = append(out, presetEntry(p))
		}
		out = append(out,
			entry{metadata: anthropic.Metadata(), build: buildAnthropic},
			entry{metadata: google.Metadata(), build: buildGoogle},
			entry{metadata: ollama.Metadata(), build: buildOllama})
		names := make(map[string]bool, len(out))
		for _, e := range out {
			names[e.metadata.Name] = true
		}
		builtin.entries, builtin.names = out, names
	})
	return builtin.entries, builtin.names
}

// entries lists built-in providers, then custom ones (a custom provider
// cannot shadow a built-in name).
func (r *Registry) entries() []entry {
	all, names := builtinEntries()
	customs := r.customProviders()
	out := append(make([]entry, 0, len(all)+len(customs)), all...)
	taken := map[string]bool{}
	for _, cp := range customs {
		if names[cp.Name] || taken[cp.Name] {
			r.log.Warn("custom provider ignored: name is built in", "name", cp.Name)
			continue
		}
		taken[cp.Name] = true
		out = append(out, customEntry(cp))
	}
	return out
}

func presetEntry(p openai.Preset) entry {
	return entry{metadata: p.Metadata, build: func(r *Registry, cfg model.Config) (provider.Provider, error) {
		get := r.settings(p.Metadata)
		for _, k := range p.Metadata.ConfigKeys {
			if _, ok := get(k.Name); k.Required && k.Default == nil && !ok {
				return nil, missing(p.Metadata.Name, k.Name)
			}
		}
		o, err := p.Options(get)
		if err != nil {
			return nil, err
		}
		return r.newOpenAI(o, cfg)
	}}
}

func (r *Registry) newOpenAI(o openai.Options, cfg model.Config) (provider.Provider, error) {
	o.Model, o.HTTPClient, o.Logger = cfg, r.opts.HTTPClient, r.log
	return openai.New(o)
}

func buildAnthropic(r *Registry, cfg model.Config) (provider.Provider, error) {
	get := r.settings(anthropic.Metadata())
	key, ok := get("ANTHROPIC_API_KEY")
	if !ok {
		return nil, missing(anthropic.Name, "ANTHROPIC_API_KEY")
	}
	host, _ := get("ANTHROPIC_HOST")
	return anthropic.New(anthropic.Options{BaseURL: host, APIKey: key, Model: cfg,
		HTTPClient: r.opts.HTTPClient, Logger: r.log, Param: r.Value})
}

func buildGoogle(r *Registry, cfg model.Config) (provider.Provider, error) {
	get := r.settings(google.Metadata())
	key, ok := get("GOOGLE_API_KEY")
	if !ok {
		return nil, missing(google.Name, "GOOGLE_API_KEY")
	}
	host, _ := get("GOOGLE_HOST")
	return google.New(google.Options{BaseURL: host, APIKey: key, Model: cfg, HTTPClient: r.opts.HTTPClient, Logger: r.log})
}

func buildOllama(r *Registry, cfg model.Config) (provider.Provider, error) {
	host, _ := r.Value("OLLAMA_HOST")
	base, err := ollama.HostURL(host)
	if err != nil {
		return nil, err
	}
	timeout, err := seconds(r, "OLLAMA_TIMEOUT")
	if err != nil {
		return nil, err
	}
	return ollama.New(ollama.Options{BaseURL: base, Model: cfg, HTTPClient: r.opts.HTTPClient, Timeout: timeout,
		Logger: r.log, Param: r.Value})
}

// seconds reads a timeout setting in whole seconds; unset is 0 (the
// backend's default).
func seconds(r *Registry, key string) (time.Duration, error) {
	v, ok := r.Value(key)
	if !ok || strings.TrimSpace(v) == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s must be a positive number of seconds, got %q", key, v)
	}
	return time.Duration(n) * time.Second, nil
}

// errNoEngine reports a custom provider whose engine this build lacks.
var errNoEngine = errors.New("unsupported engine")

func customEntry(cp CustomProvider) entry {
	return entry{metadata: cp.Metadata(), build: func(r *Registry, cfg model.Config) (provider.Provider, error) {
		key := ""
		if cp.needsAuth() {
			k, ok := r.secret(cp.APIKeyEnv)
			if !ok {
				return nil, missing(cp.Name, cp.APIKeyEnv)
			}
			key = k
		}
		switch cp.Engine {
		case EngineOpenAI:
			o, err := cp.openAIOptions()
			if err != nil {
				return nil, err
			}
			o.APIKey = key
			return r.newOpenAI(o, cfg)
		case EngineAnthropic:
			return anthropic.New(anthropic.Options{BaseURL: strings.TrimRight(cp.BaseURL, "/"), APIKey: key, Model: cfg,
				HTTPClient: r.opts.HTTPClient, Logger: r.log, Param: r.Value, Name: cp.Name, Headers: cp.Headers})
		case EngineOllama:
			base, err := ollama.HostURL(cp.BaseURL)
			if err != nil {
				return nil, err
			}
			var timeout time.Duration
			if cp.TimeoutSeconds != nil && *cp.TimeoutSeconds > 0 {
				timeout = time.Duration(*cp.TimeoutSeconds) * time.Second
			}
			return ollama.New(ollama.Options{BaseURL: base, Model: cfg, HTTPClient: r.opts.HTTPClient, Timeout: timeout,
				Logger: r.log, Param: r.Value, Name: cp.Name, Headers: cp.Headers})
		}
		return nil, fmt.Errorf("%s: %w %q", cp.Name, errNoEngine, cp.Engine)
	}}
}
