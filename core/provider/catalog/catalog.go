package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// Formats a catalog provider's API speaks; each is an engine goose-acp's
// custom providers run on.
const (
	FormatOpenAI    = "openai"
	FormatAnthropic = "anthropic"
	FormatOllama    = "ollama"
)

// Formats lists every format, in goose's order.
var Formats = []string{FormatOpenAI, FormatAnthropic, FormatOllama}

// Currency is the currency of every Cost: goose's "$".
const Currency = "$"

// Sentinel errors.
var (
	ErrUnknownFormat   = errkind.New(errkind.Invalid, "unknown provider format")
	ErrUnknownProvider = errkind.New(errkind.NotFound, "Unknown catalog provider")
)

// Cost is a model's list price in US dollars per million tokens; nil is
// not published.
type Cost struct {
	Input, Output, CacheRead, CacheWrite *float64
}

// Model is what is known about one model.
type Model struct {
	ID   string
	Name string
	// ContextLimit is the context window in tokens.
	ContextLimit int
	// MaxOutput is the most tokens one reply may have; 0 when unknown.
	MaxOutput                                    int
	ToolCall, Reasoning, Attachment, Temperature bool
	Cost                                         Cost
}

// Provider is one catalog entry: a service goose-acp can talk to as a
// custom provider of its Format, and the template Desktop's form is
// filled from.
type Provider struct {
	ID, Name, Format string
	// APIURL is the base URL a custom provider of Format calls.
	APIURL string
	DocURL string
	// EnvVar is the variable (and secret) holding the service's key.
	EnvVar string
	Models []Model
}

// ParseFormat reads a format as goose does: "openai", "anthropic",
// "ollama", optionally with "_compatible", in any case.
func ParseFormat(s string) (string, error) {
	f := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), "_compatible")
	for _, known := range Formats {
		if f == known {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w: %s", ErrUnknownFormat, s)
}

// Providers lists the catalog's providers of format ("" for every
// format) by name, then id. skip leaves out a provider id (goose-acp's
// built-in providers are not offered again as templates).
func Providers(format string, skip func(id string) bool) ([]Provider, error) {
	if format != "" {
		f, err := ParseFormat(format)
		if err != nil {
			return nil, err
		}
		format = f
	}
	var out []Provider
	for _, p := range providers() {
		if (format == "" || p.Format == format) && (skip == nil || !skip(p.ID)) {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Template is the catalog provider id.
func Template(id string) (Provider, error) {
	for _, p := range providers() {
		if p.ID == id {
			return p, nil
		}
	}
	return Provider{}, fmt.Errorf("%w: %s", ErrUnknownProvider, id)
}

// Info is what is known about a provider's model (goose's canonical
// model info).
type Info struct {
	Provider, Model string
	Known           Model
}

// Lookup finds what is known about model as provider serves it: a
// built-in provider's model under its vendor's name (dates and "-latest"
// dropped, claude-sonnet-4-5 read as claude-sonnet-4.5; OpenRouter's
// "vendor/model" under that vendor; LiteLLM's and unknown providers' by
// the model family), or a catalog template's model. false: nobody here
// knows the model.
func Lookup(provider, model string) (Info, bool) {
	model = strings.TrimSpace(model)
	if model == "" {
		return Info{}, false
	}
	if p, err := Template(provider); err == nil {
		for _, m := range p.Models {
			if m.ID == model {
				return Info{Provider: provider, Model: model, Known: m}, true
			}
		}
	}
	vendor, name := vendorModel(provider, model)
	table := vendors()[vendor]
	if table == nil {
		return Info{}, false
	}
	for _, candidate := range []string{normalize(name), name} {
		if alias, ok := aliases[vendor+"/"+candidate]; ok {
			candidate = alias
		}
		if m, ok := table[candidate]; ok {
			return Info{Provider: provider, Model: model, Known: m}, true
		}
	}
	return Info{}, false
}

// providerVendor maps goose-acp's built-in providers to whose figures
// apply to their models ("" infers it from the model name).
var providerVendor = map[string]string{
	"openai": "openai", "azure_openai": "openai", "anthropic": "anthropic", "google": "google",
	"deepseek": "deepseek", "groq": "groq", "mistral": "mistral", "xai": "xai",
	"openrouter": "", "litellm": "",
}

// openRouterVendor maps OpenRouter's model prefixes to vendors.
var openRouterVendor = map[string]string{
	"openai": "openai", "anthropic": "anthropic", "google": "google", "deepseek": "deepseek",
	"x-ai": "xai", "mistralai": "mistral", "qwen": "qwen", "moonshotai": "moonshotai",
}

func vendorModel(provider, model string) (string, string) {
	if v, ok := providerVendor[provider]; ok && v != "" {
		return v, model
	}
	if prefix, rest, ok := strings.Cut(model, "/"); ok {
		if v, ok := openRouterVendor[prefix]; ok {
			return v, rest
		}
		return "", model
	}
	return familyVendor(model), model
}

// familyVendor infers the vendor of a bare model name.
func familyVendor(model string) string {
	m := strings.ToLower(model)
	switch {
	case strings.HasPrefix(m, "gpt-"), strings.HasPrefix(m, "o1"), strings.HasPrefix(m, "o3"), strings.HasPrefix(m, "o4"):
		return "openai"
	case strings.HasPrefix(m, "claude-"):
		return "anthropic"
	case strings.HasPrefix(m, "gemini-"):
		return "google"
	case strings.HasPrefix(m, "grok-"):
		return "xai"
	case strings.HasPrefix(m, "deepseek-"):
		return "deepseek"
	}
	return ""
}

// normalize is a model's family name: "claude-sonnet-4-5-20250929" →
// "claude-sonnet-4.5", "codestral-2508" → "codestral",
// "gemini-2.0-flash-001" → "gemini-2.0-flash". It drops one dated or
// numbered suffix after another (-latest, -YYYYMMDD, @YYYYMMDD,
// -YYYY-MM-DD, -NNNN, -NNN), then writes each "-D-D" version pair
// followed by "-", "@" or the end as "-D.D" — what the regular expressions
// `-latest$`, `-\d{8}$`, `@\d{8}$`, `-\d{4}-\d{2}-\d{2}$`, `-\d{4}$`,
// `-\d{3}$` (each replaced by "") and `-(\d)-(\d)(-|@|$)` (by "-$1.$2$3")
// do, without compiling them: the provider check of a fresh process's
// first session/new paid their compile (TestNormalizeIsTheRegexps).
func normalize(model string) string {
	out := strings.TrimSuffix(model, "-latest")
	out = trimDigits(out, "-", 8)
	out = trimDigits(out, "@", 8)
	if n := len(out); n >= 11 && out[n-3] == '-' && out[n-6] == '-' && digits(out[n-2:]) && digits(out[n-5:n-3]) {
		if t := trimDigits(out[:n-6], "-", 4); len(t) < n-6 {
			out = t
		}
	}
	out = trimDigits(out, "-", 4)
	out = trimDigits(out, "-", 3)
	return versionPairs(out)
}

// trimDigits drops sep followed by exactly n ASCII digits at the end of s.
func trimDigits(s, sep string, n int) string {
	if len(s) < n+len(sep) || !digits(s[len(s)-n:]) || !strings.HasSuffix(s[:len(s)-n], sep) {
		return s
	}
	return s[:len(s)-n-len(sep)]
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// versionPairs writes every "-D-D" followed by "-", "@" or the end as
// "-D.D", left to right, a match's trailing "-" or "@" not starting the
// next one.
func versionPairs(s string) string {
	isDigit := func(i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }
	var b []byte
	for i := 0; i < len(s); {
		if s[i] == '-' && isDigit(i+1) && i+2 < len(s) && s[i+2] == '-' && isDigit(i+3) &&
			(i+4 == len(s) || s[i+4] == '-' || s[i+4] == '@') {
			if b == nil {
				b = append(make([]byte, 0, len(s)), s[:i]...)
			}
			b = append(b, '-', s[i+1], '.', s[i+3])
			if i+4 < len(s) {
				b = append(b, s[i+4])
			}
			i += 5
			continue
		}
		if b != nil {
			b = append(b, s[i])
		}
		i++
	}
	if b == nil {
		return s
	}
	return string(b)
}
