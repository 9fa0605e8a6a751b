package registry

import (
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestBuiltinEnginesEndToEnd(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format providertest.Format
		set    func(f *fixture, url string)
	}{
		{"anthropic", providertest.Anthropic, func(f *fixture, u string) {
			f.env["ANTHROPIC_HOST"] = u
			f.secrets["ANTHROPIC_API_KEY"] = secretKey
		}},
		{"google", providertest.Google, func(f *fixture, u string) {
			f.env["GOOGLE_HOST"] = u
			f.secrets["GOOGLE_API_KEY"] = secretKey
		}},
		{"ollama", providertest.Ollama, func(f *fixture, u string) { f.config["OLLAMA_HOST"] = u }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := providertest.Start(tc.format, providertest.NewScript(providertest.Turn{Text: []string{"o", "k"}}))
			t.Cleanup(s.Close)
			f := newFixture(t)
			tc.set(f, s.URL)
			p, err := f.registry().Create(tc.name, model.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if text, err := reply(t, p); err != nil || text != "ok" {
				t.Fatalf("%q %v", text, err)
			}
			if p.Metadata().Name != tc.name || p.ModelConfig().ModelName != p.Metadata().DefaultModel {
				t.Fatalf("%s %s", p.Metadata().Name, p.ModelConfig().ModelName)
			}
		})
	}
}

func TestBuiltinEnginesNameMissingKeys(t *testing.T) {
	reg := newFixture(t).registry()
	for name, want := range map[string]string{
		"anthropic": "anthropic: missing required config key ANTHROPIC_API_KEY",
		"google":    "google: missing required config key GOOGLE_API_KEY",
	} {
		if _, err := reg.Create(name, model.Config{}); err == nil || err.Error() != want {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestCustomAnthropicAndOllamaEngines(t *testing.T) {
	an := providertest.Start(providertest.Anthropic, providertest.NewScript(providertest.Turn{Text: []string{"from claude"}}))
	t.Cleanup(an.Close)
	ol := providertest.Start(providertest.Ollama, providertest.NewScript(providertest.Turn{Text: []string{"from llama"}}))
	t.Cleanup(ol.Close)
	f := newFixture(t)
	writeFile(t, f.dir, "custom_claude.json", `{"name":"custom_claude","engine":"anthropic","display_name":"Claude Proxy",
		"api_key_env":"CUSTOM_CLAUDE_API_KEY","base_url":"`+an.URL+`","models":[{"name":"claude-sonnet-4-5","context_limit":200000}],
		"headers":{"X-Proxy":"1"}}`)
	writeFile(t, f.dir, "custom_box.json", `{"name":"custom_box","engine":"ollama","display_name":"Box",
		"api_key_env":"","base_url":"`+ol.URL+`","models":[{"name":"qwen3","context_limit":40000}],"requires_auth":false}`)
	f.secrets["CUSTOM_CLAUDE_API_KEY"] = secretKey
	reg := f.registry()
	for name, want := range map[string]string{"custom_claude": "from claude", "custom_box": "from llama"} {
		p, err := reg.Create(name, model.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if text, err := reply(t, p); err != nil || text != want {
			t.Fatalf("%s: %q %v", name, text, err)
		}
	}
	if h := an.Requests()[0].Header; h.Get("X-Proxy") != "1" || h.Get("X-Api-Key") != secretKey {
		t.Fatalf("anthropic headers %v", h)
	}
	for _, md := range reg.Providers() {
		if md.Name == "custom_box" && len(md.ConfigKeys) != 2 {
			t.Fatalf("ollama custom keys %+v", md.ConfigKeys)
		}
	}
}

// TestServerEnvDrivesFromConfig checks providertest's Server.Env (what e2e
// tests hand the binary) selects and reaches each format's server.
func TestServerEnvDrivesFromConfig(t *testing.T) {
	for _, format := range []providertest.Format{providertest.OpenAI, providertest.Anthropic, providertest.Google, providertest.Ollama} {
		t.Run(format.String(), func(t *testing.T) {
			s := providertest.Start(format, providertest.NewScript(providertest.Turn{Text: []string{"env ok"}}))
			t.Cleanup(s.Close)
			f := newFixture(t)
			for _, kv := range s.Env() {
				k, v, _ := strings.Cut(kv, "=")
				f.env[k] = v
			}
			p, err := f.registry().FromConfig()
			if err != nil {
				t.Fatal(err)
			}
			if text, err := reply(t, p); err != nil || text != "env ok" {
				t.Fatalf("%q %v", text, err)
			}
		})
	}
}
