package catalog

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestParseFormatAcceptsGooseSpellings(t *testing.T) {
	for in, want := range map[string]string{"openai": "openai", "OpenAI_Compatible": "openai", "anthropic": "anthropic",
		"anthropic_compatible": "anthropic", " ollama ": "ollama"} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseFormat("grpc"); !errors.Is(err, ErrUnknownFormat) || err.Error() != "unknown provider format: grpc" {
		t.Errorf("ParseFormat(grpc) = %v", err)
	}
}

func TestProvidersAreUsableTemplates(t *testing.T) {
	all, err := Providers("", nil)
	if err != nil || len(all) < 8 {
		t.Fatalf("Providers = %d, %v", len(all), err)
	}
	seen := map[string]bool{}
	for i, p := range all {
		if i > 0 && all[i-1].Name > p.Name {
			t.Errorf("not sorted by name: %s before %s", all[i-1].Name, p.Name)
		}
		if seen[p.ID] {
			t.Errorf("duplicate id %s", p.ID)
		}
		seen[p.ID] = true
		if _, err := ParseFormat(p.Format); err != nil {
			t.Errorf("%s: %v", p.ID, err)
		}
		if u, err := url.Parse(p.APIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			t.Errorf("%s: api url %q", p.ID, p.APIURL)
		}
		if p.EnvVar == "" || strings.ToUpper(p.EnvVar) != p.EnvVar || p.DocURL == "" || len(p.Models) == 0 {
			t.Errorf("%s: incomplete %+v", p.ID, p)
		}
		for _, m := range p.Models {
			if m.ID == "" || m.Name == "" || m.ContextLimit <= 0 {
				t.Errorf("%s: model %+v", p.ID, m)
			}
		}
		if got, err := Template(p.ID); err != nil || got.ID != p.ID {
			t.Errorf("Template(%s) = %v", p.ID, err)
		}
	}
	anthropic, _ := Providers("anthropic_compatible", nil)
	for _, p := range anthropic {
		if p.Format != FormatAnthropic {
			t.Errorf("format filter let %s (%s) through", p.ID, p.Format)
		}
	}
	if len(anthropic) == 0 {
		t.Error("no Anthropic-compatible templates")
	}
	skipped, _ := Providers("", func(id string) bool { return id == "zai" })
	if len(skipped) != len(all)-1 {
		t.Errorf("skip: %d of %d", len(skipped), len(all))
	}
	if _, err := Template("openai"); !errors.Is(err, ErrUnknownProvider) || err.Error() != "Unknown catalog provider: openai" {
		t.Errorf("Template(openai) = %v", err)
	}
}

func TestLookupResolvesBuiltInProviderModels(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		provider, model, family string
		context, output         int
		in, out                 *float64
		reasoning               bool
	}{
		{"openai", "gpt-4o-mini", "gpt-4o-mini", 128_000, 16_384, f(0.15), f(0.6), false},
		{"azure_openai", "gpt-4o", "gpt-4o", 128_000, 16_384, f(2.5), f(10), false},
		{"anthropic", "claude-sonnet-4-5-20250929", "claude-sonnet-4.5", 1_000_000, 64_000, f(3), f(15), true},
		{"anthropic", "claude-sonnet-4-0", "claude-sonnet-4", 200_000, 64_000, f(3), f(15), true},
		{"anthropic", "claude-opus-4-20250514", "claude-opus-4", 200_000, 32_000, f(15), f(75), true},
		{"google", "gemini-2.0-flash-001", "gemini-2.0-flash", 1_048_576, 8_192, f(0.1), f(0.4), false},
		{"openrouter", "anthropic/claude-sonnet-4.5", "claude-sonnet-4.5", 1_000_000, 64_000, f(3), f(15), true},
		{"openrouter", "deepseek/deepseek-r1-0528", "deepseek-r1", 163_840, 16_000, f(0.7), f(2.5), true},
		{"litellm", "claude-3-5-sonnet-latest", "claude-3.5-sonnet", 200_000, 8_192, f(3), f(15), false},
		{"mistral", "codestral-2508", "codestral", 256_000, 4_096, f(0.3), f(0.9), false},
		{"groq", "llama-3.3-70b-versatile", "llama-3.3-70b-versatile", 131_072, 32_768, f(0.59), f(0.79), false},
		{"xai", "grok-code-fast-1", "grok-code-fast-1", 256_000, 10_000, f(0.2), f(1.5), true},
		{"zai", "glm-4.6", "glm-4.6", 204_800, 131_072, f(0.6), f(2.2), true},
	}
	for _, c := range cases {
		info, ok := Lookup(c.provider, c.model)
		if !ok {
			t.Errorf("Lookup(%s, %s): unknown", c.provider, c.model)
			continue
		}
		k := info.Known
		if info.Provider != c.provider || info.Model != c.model || k.ID != c.family || k.ContextLimit != c.context ||
			k.MaxOutput != c.output || *k.Cost.Input != *c.in || *k.Cost.Output != *c.out || k.Reasoning != c.reasoning {
			t.Errorf("Lookup(%s, %s) = %+v", c.provider, c.model, info)
		}
	}
	for _, pm := range [][2]string{{"openai", "my-finetune"}, {"ollama", "qwen3"}, {"nope", "gpt-4o-x"}, {"openai", ""}} {
		if info, ok := Lookup(pm[0], pm[1]); ok {
			t.Errorf("Lookup(%s, %s) = %+v, want unknown", pm[0], pm[1], info)
		}
	}
}
