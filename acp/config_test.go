package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/goose-acp/goose-acp/core/config"
)

// settingsHome is a goose config directory with config.yaml (yaml) and
// secrets in secrets.yaml (GOOSE_DISABLE_KEYRING), plus env overrides.
type settingsHome struct {
	paths config.Paths
	cfg   *config.Config
	env   map[string]string
}

func newSettingsHome(t testing.TB, yamlText string) *settingsHome {
	t.Helper()
	root := t.TempDir()
	h := &settingsHome{paths: config.Paths{Config: filepath.Join(root, "config"), Data: filepath.Join(root, "data"),
		State: filepath.Join(root, "state")}, env: map[string]string{"GOOSE_DISABLE_KEYRING": "1"}}
	if err := os.MkdirAll(h.paths.Config, 0o755); err != nil {
		t.Fatal(err)
	}
	if yamlText != "" {
		if err := os.WriteFile(h.paths.ConfigFile(), []byte(yamlText), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := config.Open(config.Options{Paths: h.paths, Getenv: func(k string) string { return h.env[k] },
		SystemFile: filepath.Join(root, "none.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	h.cfg = cfg
	return h
}

// serve starts an ACP server over this home and returns its client.
func (h *settingsHome) serve(t *testing.T) *lineClient {
	return serveLines(t, Options{Settings: Settings{Config: h.cfg}})
}

// yamlFile reads a file of the config dir as YAML (nil when absent).
func (h *settingsHome) yamlFile(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(h.paths.Config, name))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, b)
	}
	return m
}

func TestUnstableConfigReadWriteOnDisk(t *testing.T) {
	h := newSettingsHome(t, "GOOSE_MODE: smart_approve\nGOOSE_MODEL: gpt-4o\n")
	c := h.serve(t)

	got := c.callUnstable(t, 1, "_goose/unstable/config/read-all", map[string]any{})
	if !jsonEqual(string(got), `{"config":{"GOOSE_MODE":"smart_approve","GOOSE_MODEL":"gpt-4o"}}`) {
		t.Errorf("read-all = %s", got)
	}
	c.callUnstable(t, 2, "_goose/unstable/config/upsert", map[string]any{"key": "GOOSE_TEMPERATURE", "value": 0.4})
	c.callUnstable(t, 3, "_goose/unstable/config/upsert", map[string]any{"key": "OPENAI_API_KEY", "value": "sk-test-1234567890", "isSecret": true})
	if cfg := h.yamlFile(t, "config.yaml"); cfg["GOOSE_TEMPERATURE"] != 0.4 || cfg["GOOSE_MODE"] != "smart_approve" || cfg["OPENAI_API_KEY"] != nil {
		t.Errorf("config.yaml after upsert: %v", cfg)
	}
	if sec := h.yamlFile(t, "secrets.yaml"); sec["OPENAI_API_KEY"] != "sk-test-1234567890" {
		t.Errorf("secrets.yaml after upsert: %v", sec)
	}
	// Secrets come back masked (goose's mask_secret), never in read-all.
	got = c.callUnstable(t, 4, "_goose/unstable/config/read", map[string]any{"key": "OPENAI_API_KEY", "isSecret": true})
	if !jsonEqual(string(got), `{"value":"sk-test-**********"}`) {
		t.Errorf("secret read = %s", got)
	}
	got = c.callUnstable(t, 5, "_goose/unstable/config/read-all", map[string]any{})
	if strings.Contains(string(got), "sk-test") {
		t.Errorf("read-all leaked a secret: %s", got)
	}
	got = c.callUnstable(t, 6, "_goose/unstable/config/read", map[string]any{"key": "NOT_SET"})
	if !jsonEqual(string(got), `{"value":null}`) {
		t.Errorf("unset read = %s", got)
	}
	// An environment override wins for config/read, as in goose.
	h.env["GOOSE_MODEL"] = "from-env"
	got = c.callUnstable(t, 7, "_goose/unstable/config/read", map[string]any{"key": "GOOSE_MODEL"})
	if !jsonEqual(string(got), `{"value":"from-env"}`) {
		t.Errorf("env override read = %s", got)
	}
	c.callUnstable(t, 8, "_goose/unstable/config/remove", map[string]any{"key": "GOOSE_TEMPERATURE"})
	c.callUnstable(t, 9, "_goose/unstable/config/remove", map[string]any{"key": "OPENAI_API_KEY", "isSecret": true})
	if cfg := h.yamlFile(t, "config.yaml"); cfg["GOOSE_TEMPERATURE"] != nil || cfg["GOOSE_MODE"] != "smart_approve" {
		t.Errorf("config.yaml after remove: %v", cfg)
	}
	if sec := h.yamlFile(t, "secrets.yaml"); sec["OPENAI_API_KEY"] != nil {
		t.Errorf("secrets.yaml after remove: %v", sec)
	}
	r := c.callRaw(t, 10, "_goose/unstable/config/upsert", map[string]any{"key": "", "value": 1})
	if r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("empty key: %+v", r)
	}
}

// A corrupt config.yaml is an error naming the file, and is not rewritten.
func TestUnstableConfigCorruptFileIsAnError(t *testing.T) {
	h := newSettingsHome(t, "GOOSE_MODE: auto\n")
	c := h.serve(t)
	bad := []byte("GOOSE_MODE: [unclosed\n")
	if err := os.WriteFile(h.paths.ConfigFile(), bad, 0o600); err != nil {
		t.Fatal(err)
	}
	r := c.callRaw(t, 1, "_goose/unstable/config/upsert", map[string]any{"key": "X", "value": 1})
	if r.Error == nil || !strings.Contains(string(r.Error.Data), "config.yaml") {
		t.Fatalf("upsert over a corrupt file: %+v", r)
	}
	if b, _ := os.ReadFile(h.paths.ConfigFile()); string(b) != string(bad) {
		t.Errorf("corrupt file was rewritten: %s", b)
	}
}

func TestUnstableConfigWithoutSettingsIsAnError(t *testing.T) {
	c := serveLines(t, Options{})
	r := c.callRaw(t, 1, "_goose/unstable/config/read-all", map[string]any{})
	if r.Error == nil || !strings.Contains(string(r.Error.Data), "not available") {
		t.Fatalf("read-all without a config: %+v", r)
	}
}

func TestUnstableExtensionsOnDisk(t *testing.T) {
	h := newSettingsHome(t, `extensions:
  developer:
    enabled: true
    type: builtin
    name: developer
    description: ""
    timeout: 300
    bundled: true
  legacy:
    enabled: false
    type: sse
    name: legacy
    description: old server
    uri: http://localhost:9/sse
  notes:
    enabled: true
    type: frontend
    name: notes
    description: ""
    tools: []
`)
	c := h.serve(t)
	got := c.callUnstable(t, 1, "_goose/unstable/config/extensions/list", map[string]any{})
	want := `{"extensions":[
	  {"extension":{"type":"builtin","name":"developer","timeout":300,"bundled":true},"enabled":true,"configKey":"developer"},
	  {"extension":{"type":"mcp","description":"old server","server":{"type":"sse","name":"legacy","url":"http://localhost:9/sse","headers":[]}},"enabled":false,"configKey":"legacy"}],
	 "warnings":["extension \"notes\" (type frontend) is not listed: goose's ACP API has no form for it"]}`
	if !jsonEqual(string(got), want) {
		t.Errorf("list =\n%s\nwant\n%s", got, want)
	}

	// Desktop's bundled sync adds a stdio server with an inline env value:
	// the value goes to the secret store, its name to env_keys.
	stdio := map[string]any{"extension": map[string]any{"type": "mcp", "description": "GitHub",
		"server": map[string]any{"name": "GitHub Tools", "command": "npx", "args": []string{"-y", "gh-mcp"},
			"env": []map[string]string{{"name": "GITHUB_TOKEN", "value": "ghp_secret"}}},
		"envKeys": []string{"EXTRA"}, "timeout": 60}, "enabled": true}
	c.callUnstable(t, 2, "_goose/unstable/config/extensions/add", stdio)
	remote := map[string]any{"extension": map[string]any{"type": "mcp",
		"server": map[string]any{"type": "http", "name": "remote", "url": "https://mcp.example/mcp",
			"headers": []map[string]string{{"name": "X-Team", "value": "core"}}}}, "enabled": false}
	c.callUnstable(t, 3, "_goose/unstable/config/extensions/add", remote)
	exts, _ := h.yamlFile(t, "config.yaml")["extensions"].(map[string]any)
	gh, _ := exts["githubtools"].(map[string]any)
	if gh["type"] != "stdio" || gh["cmd"] != "npx" || gh["enabled"] != true || gh["timeout"] != 60 ||
		!jsonEqual(toJSONString(t, gh["env_keys"]), `["EXTRA","GITHUB_TOKEN"]`) || gh["envs"] != nil {
		t.Errorf("stdio entry on disk: %v", gh)
	}
	if sec := h.yamlFile(t, "secrets.yaml"); sec["GITHUB_TOKEN"] != "ghp_secret" {
		t.Errorf("env value not in secrets.yaml: %v", sec)
	}
	rm, _ := exts["remote"].(map[string]any)
	if rm["type"] != "streamable_http" || rm["uri"] != "https://mcp.example/mcp" || rm["enabled"] != false ||
		!jsonEqual(toJSONString(t, rm["headers"]), `{"X-Team":"core"}`) {
		t.Errorf("http entry on disk: %v", rm)
	}

	c.callUnstable(t, 4, "_goose/unstable/config/extensions/set-enabled", map[string]any{"configKey": "remote", "enabled": true})
	c.callUnstable(t, 5, "_goose/unstable/config/extensions/remove", map[string]any{"configKey": "legacy"})
	exts, _ = h.yamlFile(t, "config.yaml")["extensions"].(map[string]any)
	if rm, _ := exts["remote"].(map[string]any); rm["enabled"] != true || rm["uri"] != "https://mcp.example/mcp" {
		t.Errorf("after set-enabled: %v", rm)
	}
	if _, ok := exts["legacy"]; ok {
		t.Errorf("legacy still configured: %v", exts)
	}
	if dev, _ := exts["developer"].(map[string]any); dev["enabled"] != true {
		t.Errorf("developer lost: %v", exts)
	}

	r := c.callRaw(t, 6, "_goose/unstable/config/extensions/set-enabled", map[string]any{"configKey": "nope", "enabled": true})
	if r.Error == nil || r.Error.Code != -32602 || string(r.Error.Data) != `"Extension 'nope' not found"` {
		t.Errorf("set-enabled of a missing key: %+v", r)
	}
	sse := map[string]any{"extension": map[string]any{"type": "mcp", "server": map[string]any{"type": "sse", "name": "s", "url": "http://x", "headers": []any{}}}}
	r = c.callRaw(t, 7, "_goose/unstable/config/extensions/add", sse)
	if r.Error == nil || r.Error.Code != -32602 || string(r.Error.Data) != `"SSE is unsupported, migrate to streamable_http"` {
		t.Errorf("adding sse: %+v", r)
	}
}

func toJSONString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// goose's names from before the _goose/unstable rename answer the same.
func TestUnstableOlderNamesAreAliases(t *testing.T) {
	h := newSettingsHome(t, "GOOSE_MODE: chat\n")
	c := h.serve(t)
	r := c.callRaw(t, 1, "_goose/config/upsert", map[string]any{"key": "GOOSE_MODE", "value": "auto"})
	if r.Error != nil || h.yamlFile(t, "config.yaml")["GOOSE_MODE"] != "auto" {
		t.Fatalf("_goose/config/upsert: %+v", r)
	}
	for i, pair := range [][2]string{{"_goose/config/read", "_goose/unstable/config/read"},
		{"_goose/config/extensions", "_goose/unstable/config/extensions/list"},
		{"_goose/providers/list", "_goose/unstable/providers/list"}} {
		params := map[string]any{"key": "GOOSE_MODE"}
		old, cur := c.callRaw(t, 10+2*i, pair[0], params), c.callRaw(t, 11+2*i, pair[1], params)
		if old.Error != nil || cur.Error != nil || !jsonEqual(string(old.Result), string(cur.Result)) {
			t.Errorf("%s answered %s %+v, %s answered %s", pair[0], old.Result, old.Error, pair[1], cur.Result)
		}
	}
	if r := c.callRaw(t, 20, "_goose/config/remove", map[string]any{"key": "GOOSE_MODE"}); r.Error != nil || h.yamlFile(t, "config.yaml")["GOOSE_MODE"] != nil {
		t.Errorf("_goose/config/remove: %+v", r)
	}
}
