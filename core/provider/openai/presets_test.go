package openai

import (
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func settings(kv ...string) Settings {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestPresetsAgainstServer(t *testing.T) {
	for _, tc := range []struct {
		preset  string
		set     func(url string) Settings
		path    string
		query   string
		authHdr string
		auth    string
		extra   map[string]string
	}{
		{"openai", func(u string) Settings {
			return settings("OPENAI_HOST", u, "OPENAI_API_KEY", testKey, "OPENAI_ORGANIZATION", "org",
				"OPENAI_CUSTOM_HEADERS", "X-A=1, X-B = two")
		}, "/v1/chat/completions", "", "Authorization", "Bearer " + testKey, map[string]string{"OpenAI-Organization": "org", "X-A": "1", "X-B": "two"}},
		{"azure_openai", func(u string) Settings {
			return settings("AZURE_OPENAI_ENDPOINT", u+"/", "AZURE_OPENAI_DEPLOYMENT_NAME", "dep1", "AZURE_OPENAI_API_KEY", testKey)
		}, "/openai/deployments/dep1/chat/completions", "api-version=2024-10-21", "Api-Key", testKey, nil},
		{"groq", func(u string) Settings { return settings("GROQ_API_KEY", testKey, "GROQ_HOST", u) },
			"/openai/v1/chat/completions", "", "Authorization", "Bearer " + testKey, nil},
		{"openrouter", func(u string) Settings { return settings("OPENROUTER_API_KEY", testKey, "OPENROUTER_HOST", u) },
			"/api/v1/chat/completions", "", "Authorization", "Bearer " + testKey, map[string]string{"X-Title": "goose"}},
		{"xai", func(u string) Settings { return settings("XAI_API_KEY", testKey, "XAI_HOST", u+"/v1") },
			"/v1/chat/completions", "", "Authorization", "Bearer " + testKey, nil},
		{"litellm", func(u string) Settings {
			return settings("LITELLM_HOST", u, "LITELLM_BASE_PATH", "/v1/chat/completions", "LITELLM_CUSTOM_HEADERS", "X-Team: core\n")
		}, "/v1/chat/completions", "", "Authorization", "", map[string]string{"X-Team": "core"}},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			s := start(t, providertest.Turn{Text: []string{"ok"}})
			pr, ok := LookupPreset(tc.preset)
			if !ok {
				t.Fatal("no preset")
			}
			o, err := pr.Options(tc.set(s.URL))
			if err != nil {
				t.Fatal(err)
			}
			o.Model, o.Now = model.Config{ModelName: pr.Metadata.DefaultModel}, fixedNow
			p, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			conv, _, err := run(p, userHi)
			if err != nil || conv[0].AsText() != "ok" {
				t.Fatalf("conv %v err %v", conv, err)
			}
			r := s.Requests()[0]
			if r.Path != tc.path || r.Query != tc.query || r.Header.Get(tc.authHdr) != tc.auth {
				t.Fatalf("path %s query %s headers %v", r.Path, r.Query, r.Header)
			}
			if tc.preset == "azure_openai" && r.Header.Get("Authorization") != "" {
				t.Fatal("azure must not send a bearer token")
			}
			for k, v := range tc.extra {
				if r.Header.Get(k) != v {
					t.Fatalf("header %s = %q want %q", k, r.Header.Get(k), v)
				}
			}
		})
	}
}

func TestPresetQuirks(t *testing.T) {
	m, _ := LookupPreset("mistral")
	o, err := m.Options(settings("MISTRAL_API_KEY", "k"))
	if err != nil || !o.MaxTokensOnly || !o.NoStreamOptions || o.Host != "https://api.mistral.ai" {
		t.Fatalf("%+v %v", o, err)
	}
	oa, _ := LookupPreset("openai")
	o, err = oa.Options(settings("OPENAI_TIMEOUT", "30"))
	if err != nil || o.Timeout != 30*time.Second || o.Host != DefaultHost || o.BasePath != DefaultBasePath {
		t.Fatalf("%+v %v", o, err)
	}
	if _, err := oa.Options(settings("OPENAI_TIMEOUT", "soon")); err == nil {
		t.Fatal("bad timeout accepted")
	}
}

func TestPresetMissingKeyNamesKeyNotValue(t *testing.T) {
	for _, name := range []string{"groq", "deepseek", "mistral", "openrouter", "xai"} {
		p, _ := LookupPreset(name)
		_, err := p.Options(settings())
		if err == nil || !strings.Contains(err.Error(), "missing required config key") || !strings.Contains(err.Error(), "_API_KEY") {
			t.Errorf("%s: %v", name, err)
		}
	}
	az, _ := LookupPreset("azure_openai")
	_, err := az.Options(settings("AZURE_OPENAI_ENDPOINT", "https://x", "AZURE_OPENAI_DEPLOYMENT_NAME", "d"))
	if err == nil || !strings.Contains(err.Error(), "AZURE_OPENAI_API_KEY is not set") {
		t.Fatalf("azure: %v", err)
	}
}

func TestPresetMetadata(t *testing.T) {
	names := []string{}
	for _, p := range Presets() {
		md := p.Metadata
		names = append(names, md.Name)
		if md.DisplayName == "" || md.DefaultModel == "" || md.ModelDocLink == "" || len(md.ConfigKeys) == 0 || len(md.KnownModels) == 0 {
			t.Errorf("%s: incomplete metadata %+v", md.Name, md)
		}
	}
	if strings.Join(names, ",") != "openai,azure_openai,deepseek,groq,litellm,mistral,openrouter,xai" {
		t.Fatal(names)
	}
	md := Metadata()
	if md.ConfigKeys[0].Name != "OPENAI_API_KEY" || !md.ConfigKeys[0].Secret || md.ConfigKeys[0].Required ||
		*md.ConfigKeys[1].Default != "https://api.openai.com" {
		t.Fatalf("%+v", md.ConfigKeys)
	}
}

func TestParseHeaders(t *testing.T) {
	h := ParseCommaHeaders("A=1,B = x=y , bad")
	if len(h) != 2 || h["A"] != "1" || h["B"] != "x=y" {
		t.Fatal(h)
	}
	h = ParseLineHeaders("A: 1\nB: http://x\n\n")
	if len(h) != 2 || h["B"] != "http://x" {
		t.Fatal(h)
	}
}
