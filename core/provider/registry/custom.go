package registry

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/anthropic"
	"github.com/goose-acp/goose-acp/core/provider/ollama"
	"github.com/goose-acp/goose-acp/core/provider/openai"
)

// Engines a declarative provider can run on.
const (
	EngineOpenAI    = "openai"
	EngineAnthropic = "anthropic"
	EngineOllama    = "ollama"
)

// CustomProvider is goose's DeclarativeProviderConfig, one JSON file in
// <config>/custom_providers.
type CustomProvider struct {
	Name              string               `json:"name"`
	Engine            string               `json:"engine"`
	DisplayName       string               `json:"display_name"`
	Description       *string              `json:"description,omitempty"`
	APIKeyEnv         string               `json:"api_key_env"`
	BaseURL           string               `json:"base_url"`
	Models            []provider.ModelInfo `json:"models"`
	Headers           map[string]string    `json:"headers,omitempty"`
	TimeoutSeconds    *int                 `json:"timeout_seconds,omitempty"`
	SupportsStreaming *bool                `json:"supports_streaming,omitempty"`
	RequiresAuth      *bool                `json:"requires_auth,omitempty"`
	BasePath          *string              `json:"base_path,omitempty"`
}

func (cp CustomProvider) needsAuth() bool {
	return (cp.RequiresAuth == nil || *cp.RequiresAuth) && cp.APIKeyEnv != ""
}

// Metadata is goose's metadata for a custom provider: the engine's config
// keys with its secret key renamed to api_key_env (optional for custom
// providers) or dropped when no auth is required, the first model as the
// default, and the engine's doc link.
func (cp CustomProvider) Metadata() provider.Metadata {
	var base provider.Metadata
	switch cp.Engine {
	case EngineAnthropic:
		base = anthropic.Metadata()
	case EngineOllama:
		base = ollama.Metadata()
	default:
		base = openai.Metadata()
	}
	desc := "Custom " + cp.DisplayName + " provider"
	if cp.Description != nil {
		desc = *cp.Description
	}
	md := provider.Metadata{Name: cp.Name, DisplayName: cp.DisplayName, Description: desc,
		KnownModels: append([]provider.ModelInfo{}, cp.Models...), ModelDocLink: base.ModelDocLink}
	if len(cp.Models) > 0 {
		md.DefaultModel = cp.Models[0].Name
	}
	keys := append([]provider.ConfigKey{}, base.ConfigKeys...)
	for i, k := range keys {
		if !k.Secret {
			continue
		}
		if cp.RequiresAuth != nil && !*cp.RequiresAuth {
			keys = append(keys[:i], keys[i+1:]...)
		} else if cp.APIKeyEnv != "" {
			keys[i] = provider.ConfigKey{Name: cp.APIKeyEnv, Secret: true, OAuth: k.OAuth}
		}
		break
	}
	md.ConfigKeys = keys
	return md
}

// openAIOptions derives host and path from base_url as goose's
// from_custom_config does: an explicit base_path wins; a URL path of "",
// "v1" or "v1/" means v1/chat/completions; any other path is used as is.
func (cp CustomProvider) openAIOptions() (openai.Options, error) {
	u, err := url.Parse(cp.BaseURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return openai.Options{}, fmt.Errorf("%s: invalid base URL %q", cp.Name, cp.BaseURL)
	}
	host := u.Scheme + "://" + u.Host
	path := strings.TrimLeft(u.Path, "/")
	switch {
	case cp.BasePath != nil:
		path = strings.TrimLeft(*cp.BasePath, "/")
	case path == "" || path == "v1" || path == "v1/":
		path = openai.DefaultBasePath
	}
	o := openai.Options{Metadata: cp.Metadata(), Host: host, BasePath: path, Headers: cp.Headers}
	if cp.TimeoutSeconds != nil && *cp.TimeoutSeconds > 0 {
		o.Timeout = time.Duration(*cp.TimeoutSeconds) * time.Second
	}
	if cp.SupportsStreaming != nil && !*cp.SupportsStreaming {
		o.NoStreaming = true
	}
	return o, nil
}

// LoadCustomProviders reads every *.json in dir as goose does: a missing
// dir is empty, generic_http files are skipped, and files that do not
// parse are reported and skipped (one bad file loses nothing else).
func LoadCustomProviders(dir string) ([]CustomProvider, []error) {
	if dir == "" {
		return nil, nil
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, []error{err}
	}
	sort.Strings(names)
	var out []CustomProvider
	var errs []error
	for _, name := range names {
		cp, skip, err := readCustomProvider(name)
		switch {
		case err != nil:
			errs = append(errs, err)
		case !skip:
			out = append(out, cp)
		}
	}
	return out, errs
}

func readCustomProvider(path string) (cp CustomProvider, skip bool, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return cp, false, fmt.Errorf("custom provider %s: %w", path, err)
	}
	if err := json.Unmarshal(b, &cp); err != nil {
		return cp, false, fmt.Errorf("custom provider %s: %w", path, err)
	}
	switch cp.Engine {
	case "generic_http":
		return cp, true, nil
	case EngineOpenAI, EngineAnthropic, EngineOllama:
	default:
		return cp, false, fmt.Errorf("custom provider %s: unknown engine %q (want openai, anthropic or ollama)", path, cp.Engine)
	}
	if cp.Name == "" {
		return cp, false, fmt.Errorf("custom provider %s: missing name", path)
	}
	return cp, false, nil
}

func (r *Registry) customProviders() []CustomProvider {
	cps, errs := LoadCustomProviders(r.opts.CustomDir)
	for _, err := range errs {
		r.log.Warn("skipping custom provider", "err", err)
	}
	return cps
}
