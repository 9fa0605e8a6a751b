package openai

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/provider"
)

// Settings reads one configuration value or secret by key; ok is false
// when it is unset. The registry backs it with the config file, the
// environment and the secret store.
type Settings func(key string) (value string, ok bool)

// Preset is an OpenAI-compatible service: goose's metadata for it and how
// its settings become Options.
type Preset struct {
	Metadata provider.Metadata
	build    func(get Settings) (Options, error)
}

// Options turns settings into endpoint options (model and transport left
// to the caller). A missing required key is reported by name.
func (p Preset) Options(get Settings) (Options, error) {
	o, err := p.build(get)
	if err != nil {
		return Options{}, err
	}
	o.Metadata = p.Metadata
	return o, nil
}

func str(s string) *string { return &s }

func key(name string, required, secret bool, def string) provider.ConfigKey {
	k := provider.ConfigKey{Name: name, Required: required, Secret: secret}
	if def != "" {
		k.Default = str(def)
	}
	return k
}

func models(limit int, names ...string) []provider.ModelInfo {
	out := make([]provider.ModelInfo, len(names))
	for i, n := range names {
		out[i] = provider.ModelInfo{Name: n, ContextLimit: limit}
	}
	return out
}

// Metadata is goose's openai provider metadata.
func Metadata() provider.Metadata {
	return provider.Metadata{
		Name: "openai", DisplayName: "OpenAI",
		Description:  "GPT-4 and other OpenAI models, including OpenAI compatible ones",
		DefaultModel: DefaultModel,
		KnownModels: []provider.ModelInfo{
			{Name: "gpt-4o", ContextLimit: 128_000}, {Name: "gpt-4o-mini", ContextLimit: 128_000},
			{Name: "gpt-4.1", ContextLimit: 128_000}, {Name: "gpt-4.1-mini", ContextLimit: 128_000},
			{Name: "o1", ContextLimit: 200_000}, {Name: "o3", ContextLimit: 200_000},
			{Name: "gpt-3.5-turbo", ContextLimit: 16_385}, {Name: "gpt-4-turbo", ContextLimit: 128_000},
			{Name: "o4-mini", ContextLimit: 128_000}, {Name: "gpt-5-nano", ContextLimit: 400_000},
			{Name: "gpt-5.1-codex", ContextLimit: 400_000}, {Name: "gpt-5-codex", ContextLimit: 400_000},
		},
		ModelDocLink: "https://platform.openai.com/docs/models",
		ConfigKeys: []provider.ConfigKey{
			key("OPENAI_API_KEY", false, true, ""),
			key("OPENAI_HOST", true, false, DefaultHost),
			key("OPENAI_BASE_PATH", true, false, DefaultBasePath),
			key("OPENAI_ORGANIZATION", false, false, ""),
			key("OPENAI_PROJECT", false, false, ""),
			key("OPENAI_CUSTOM_HEADERS", false, true, ""),
			key("OPENAI_TIMEOUT", false, false, "600"),
		},
	}
}

// Presets returns openai and the OpenAI-compatible services, in the order
// goosed lists them.
func Presets() []Preset {
	return []Preset{openAIPreset(), azurePreset(), deepseekPreset(), groqPreset(), litellmPreset(),
		mistralPreset(), openrouterPreset(), xaiPreset()}
}

// LookupPreset returns the preset named name.
func LookupPreset(name string) (Preset, bool) {
	for _, p := range Presets() {
		if p.Metadata.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

func openAIPreset() Preset {
	return Preset{Metadata: Metadata(), build: func(get Settings) (Options, error) {
		o := Options{
			Host:     orDefault(get, "OPENAI_HOST", DefaultHost),
			BasePath: strings.TrimLeft(orDefault(get, "OPENAI_BASE_PATH", DefaultBasePath), "/"),
		}
		o.APIKey, _ = get("OPENAI_API_KEY")
		o.Organization, _ = get("OPENAI_ORGANIZATION")
		o.Project, _ = get("OPENAI_PROJECT")
		if h, ok := get("OPENAI_CUSTOM_HEADERS"); ok {
			o.Headers = ParseCommaHeaders(h)
		}
		t, err := timeout(get, "OPENAI_TIMEOUT")
		o.Timeout = t
		return o, err
	}}
}

func azurePreset() Preset {
	md := provider.Metadata{
		Name: "azure_openai", DisplayName: "Azure OpenAI",
		Description:  "Models through Azure OpenAI Service",
		DefaultModel: "gpt-4o",
		KnownModels:  models(128_000, "gpt-4o", "gpt-4o-mini", "o1", "o1-mini"),
		ModelDocLink: "https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/models",
		ConfigKeys: []provider.ConfigKey{
			key("AZURE_OPENAI_ENDPOINT", true, false, ""),
			key("AZURE_OPENAI_DEPLOYMENT_NAME", true, false, ""),
			key("AZURE_OPENAI_API_VERSION", true, false, AzureDefaultAPIVersion),
			key("AZURE_OPENAI_API_KEY", true, true, ""),
		},
	}
	return Preset{Metadata: md, build: func(get Settings) (Options, error) {
		endpoint, err := require(get, "azure_openai", "AZURE_OPENAI_ENDPOINT")
		if err != nil {
			return Options{}, err
		}
		deployment, err := require(get, "azure_openai", "AZURE_OPENAI_DEPLOYMENT_NAME")
		if err != nil {
			return Options{}, err
		}
		apiKey, ok := get("AZURE_OPENAI_API_KEY")
		if !ok || apiKey == "" {
			return Options{}, fmt.Errorf("azure_openai: AZURE_OPENAI_API_KEY is not set; " +
				"Azure credential-chain sign-in is not supported, set an API key for the resource")
		}
		return Options{
			Host:         strings.TrimRight(endpoint, "/"),
			BasePath:     "openai/deployments/" + deployment + "/chat/completions",
			APIKey:       apiKey,
			APIKeyHeader: "api-key",
			NoResponses:  true,
			Query:        map[string]string{"api-version": orDefault(get, "AZURE_OPENAI_API_VERSION", AzureDefaultAPIVersion)},
		}, nil
	}}
}

// AzureDefaultAPIVersion is the api-version sent when none is configured.
const AzureDefaultAPIVersion = "2024-10-21"

// simplePreset is a service with one API key and a fixed endpoint.
func simplePreset(md provider.Metadata, keyName, hostKey, host, basePath string, tweak func(*Options)) Preset {
	md.ConfigKeys = []provider.ConfigKey{key(keyName, true, true, "")}
	if hostKey != "" {
		md.ConfigKeys = append(md.ConfigKeys, key(hostKey, false, false, host))
	}
	return Preset{Metadata: md, build: func(get Settings) (Options, error) {
		apiKey, err := require(get, md.Name, keyName)
		if err != nil {
			return Options{}, err
		}
		h := host
		if hostKey != "" {
			h = orDefault(get, hostKey, host)
		}
		o := Options{Host: h, BasePath: basePath, APIKey: apiKey}
		if tweak != nil {
			tweak(&o)
		}
		return o, nil
	}}
}

func deepseekPreset() Preset {
	return simplePreset(provider.Metadata{
		Name: "deepseek", DisplayName: "DeepSeek", Description: "DeepSeek models",
		DefaultModel: "deepseek-chat",
		KnownModels:  models(128_000, "deepseek-chat", "deepseek-reasoner"),
		ModelDocLink: "https://api-docs.deepseek.com/quick_start/pricing",
	}, "DEEPSEEK_API_KEY", "", "https://api.deepseek.com", "v1/chat/completions",
		func(o *Options) { o.MaxTokensOnly = true })
}

func groqPreset() Preset {
	return simplePreset(provider.Metadata{
		Name: "groq", DisplayName: "Groq", Description: "Fast inference with Groq hardware",
		DefaultModel: "llama-3.3-70b-versatile",
		KnownModels: models(131_072, "openai/gpt-oss-120b", "llama-3.1-8b-instant", "llama-3.3-70b-versatile",
			"meta-llama/llama-guard-4-12b", "openai/gpt-oss-20b"),
		ModelDocLink: "https://console.groq.com/docs/models",
	}, "GROQ_API_KEY", "GROQ_HOST", "https://api.groq.com", "openai/v1/chat/completions",
		func(o *Options) { o.MaxTokensOnly = true })
}

func mistralPreset() Preset {
	return simplePreset(provider.Metadata{
		Name: "mistral", DisplayName: "Mistral AI", Description: "Frontier models from Mistral AI",
		DefaultModel: "mistral-medium-latest",
		KnownModels: append(models(128_000, "mistral-medium-latest", "mistral-small-2506", "mistral-medium-2508",
			"magistral-medium-2509"), models(256_000, "codestral-2508")...),
		ModelDocLink: "https://docs.mistral.ai/getting-started/models/",
	}, "MISTRAL_API_KEY", "", "https://api.mistral.ai", "v1/chat/completions",
		func(o *Options) { o.MaxTokensOnly, o.NoStreamOptions = true, true })
}

func openrouterPreset() Preset {
	return simplePreset(provider.Metadata{
		Name: "openrouter", DisplayName: "OpenRouter",
		Description:  "Router for many model providers",
		DefaultModel: "anthropic/claude-sonnet-4",
		KnownModels: models(128_000, "anthropic/claude-sonnet-4.5", "anthropic/claude-sonnet-4", "anthropic/claude-opus-4.1",
			"google/gemini-2.5-pro", "google/gemini-2.5-flash", "deepseek/deepseek-r1-0528", "qwen/qwen3-coder",
			"moonshotai/kimi-k2", "x-ai/grok-code-fast-1"),
		ModelDocLink: "https://openrouter.ai/models",
	}, "OPENROUTER_API_KEY", "OPENROUTER_HOST", "https://openrouter.ai", "api/v1/chat/completions",
		func(o *Options) {
			// OpenRouter attribution headers, as goose sends them.
			o.Headers = map[string]string{"HTTP-Referer": "https://block.github.io/goose", "X-Title": "goose"}
			o.NoResponses = true
		})
}

func xaiPreset() Preset {
	return simplePreset(provider.Metadata{
		Name: "xai", DisplayName: "xAI",
		Description:  "Grok models from xAI, including reasoning and multimodal capabilities",
		DefaultModel: "grok-code-fast-1",
		KnownModels:  models(131_072, "grok-code-fast-1", "grok-4", "grok-3", "grok-3-mini"),
		ModelDocLink: "https://docs.x.ai/docs/overview",
	}, "XAI_API_KEY", "XAI_HOST", "https://api.x.ai/v1", "chat/completions", func(o *Options) { o.NoResponses = true })
}

func litellmPreset() Preset {
	md := provider.Metadata{
		Name: "litellm", DisplayName: "LiteLLM",
		Description:  "LiteLLM proxy supporting multiple models with automatic prompt caching",
		DefaultModel: "gpt-4o-mini",
		KnownModels:  models(128_000, "gpt-4o-mini", "gpt-4o", "claude-3-5-sonnet-latest"),
		ModelDocLink: "https://docs.litellm.ai/docs/",
		ConfigKeys: []provider.ConfigKey{
			key("LITELLM_HOST", true, false, "https://api.litellm.ai"),
			key("LITELLM_BASE_PATH", true, false, DefaultBasePath),
			key("LITELLM_API_KEY", false, true, ""),
			key("LITELLM_CUSTOM_HEADERS", false, true, ""),
			key("LITELLM_TIMEOUT", false, false, "600"),
		},
	}
	return Preset{Metadata: md, build: func(get Settings) (Options, error) {
		o := Options{
			Host:        orDefault(get, "LITELLM_HOST", "https://api.litellm.ai"),
			BasePath:    strings.TrimLeft(orDefault(get, "LITELLM_BASE_PATH", DefaultBasePath), "/"),
			NoResponses: true,
		}
		o.APIKey, _ = get("LITELLM_API_KEY")
		if h, ok := get("LITELLM_CUSTOM_HEADERS"); ok {
			o.Headers = ParseLineHeaders(h)
		}
		t, err := timeout(get, "LITELLM_TIMEOUT")
		o.Timeout = t
		return o, err
	}}
}

func orDefault(get Settings, k, def string) string {
	if v, ok := get(k); ok && v != "" {
		return v
	}
	return def
}

func require(get Settings, name, k string) (string, error) {
	if v, ok := get(k); ok && v != "" {
		return v, nil
	}
	return "", fmt.Errorf("%s: missing required config key %s", name, k)
}

func timeout(get Settings, k string) (time.Duration, error) {
	v, ok := get(k)
	if !ok || v == "" {
		return DefaultTimeout, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s must be a positive number of seconds, got %q", k, v)
	}
	return time.Duration(n) * time.Second, nil
}

// ParseCommaHeaders reads goose's OPENAI_CUSTOM_HEADERS form
// "Name=Value,Other=Value".
func ParseCommaHeaders(s string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(part, "="); ok && strings.TrimSpace(k) != "" {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// ParseLineHeaders reads goose's LITELLM_CUSTOM_HEADERS form, one
// "Name: Value" per line.
func ParseLineHeaders(s string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) != "" {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}
