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
			s := providertest.Serve(t, tc.format, providertest.Turn{Text: []string{"o", "k"}})
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
	an := providertest.Serve(t, providertest.Anthropic, providertest.Turn{Text: []string{"from claude"}})
	ol := providertest.Serve(t, providertest.Ollama, providertest.Turn{Text: []string{"from llama"}})
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
			s := providertest.Serve(t, format, providertest.Turn{Text: []string{"env ok"}})
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

func TestConfigured(t *testing.T) {
	f := newFixture(t)
	writeFile(t, f.dir, "custom_open.json", `{"name":"custom_open","engine":"openai","display_name":"Open","api_key_env":"",
		"base_url":"http://localhost:1234/v1","models":[{"name":"m","context_limit":8000}],"requires_auth":false}`)
	writeFile(t, f.dir, "custom_keyed.json", `{"name":"custom_keyed","engine":"openai","display_name":"Keyed","api_key_env":"CUSTOM_KEYED_API_KEY",
		"base_url":"http://localhost:1234/v1","models":[{"name":"m","context_limit":8000}]}`)
	reg := f.registry()
	check := func(want map[string]bool) {
		t.Helper()
		for name, w := range want {
			if got := reg.Configured(name); got != w {
				t.Errorf("Configured(%s) = %v, want %v", name, got, w)
			}
		}
	}
	check(map[string]bool{"openai": false, "anthropic": false, "ollama": false, "azure_openai": false,
		"custom_open": true, "custom_keyed": false, "nope": false})
	f.secrets["OPENAI_API_KEY"] = "k"
	f.env["OLLAMA_HOST"] = "localhost"
	f.secrets["CUSTOM_KEYED_API_KEY"] = "k"
	f.env["AZURE_OPENAI_API_KEY"] = "k"
	check(map[string]bool{"openai": true, "ollama": true, "custom_keyed": true, "azure_openai": false})
	f.config["AZURE_OPENAI_ENDPOINT"] = "https://x"
	f.config["AZURE_OPENAI_DEPLOYMENT_NAME"] = "d"
	check(map[string]bool{"azure_openai": true})
}
