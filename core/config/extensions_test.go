package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/errkind"
)

func TestExtensionEntryJSON(t *testing.T) {
	timeout := int64(300)
	e := ExtensionEntry{Enabled: true, Config: ExtensionConfig{
		Type: ExtensionStdio, Name: "github", Description: "GitHub MCP", Cmd: "npx",
		Args: []string{"-y", "@modelcontextprotocol/server-github"}, EnvKeys: []string{"GITHUB_TOKEN"}, Timeout: &timeout,
	}}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"enabled":true,"type":"stdio","name":"github","description":"GitHub MCP","cmd":"npx","args":["-y","@modelcontextprotocol/server-github"],"env_keys":["GITHUB_TOKEN"],"timeout":300}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	var back ExtensionEntry
	if err := json.Unmarshal(b, &back); err != nil || !back.Enabled || back.Config.Cmd != "npx" {
		t.Fatalf("%+v %v", back, err)
	}
}

func TestSetExtensionWritesGooseForm(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), "GOOSE_PROVIDER: anthropic\n")
	c := e.open(t)
	timeout := int64(300)
	err := c.SetExtension(ExtensionEntry{Enabled: false, Config: ExtensionConfig{
		Type: ExtensionStdio, Name: "GitHub Tools", Description: "GitHub MCP", Cmd: "npx",
		Args: []string{"-y", "@modelcontextprotocol/server-github"}, Envs: map[string]string{}, EnvKeys: []string{"GITHUB_TOKEN"}, Timeout: &timeout,
	}})
	if err != nil {
		t.Fatal(err)
	}
	bundled := true
	if err := c.SetExtension(ExtensionEntry{Enabled: true, Config: ExtensionConfig{
		Type: ExtensionPlatform, Name: "developer", DisplayName: "Developer", Description: "Code editing and shell access", Bundled: &bundled,
	}}); err != nil {
		t.Fatal(err)
	}
	want := `GOOSE_PROVIDER: anthropic
extensions:
  githubtools:
    enabled: false
    type: stdio
    name: GitHub Tools
    description: GitHub MCP
    cmd: npx
    args:
      - -y
      - "@modelcontextprotocol/server-github"
    env_keys:
      - GITHUB_TOKEN
    timeout: 300
  developer:
    enabled: true
    type: platform
    name: developer
    description: Code editing and shell access
    display_name: Developer
    bundled: true
`
	if got := readString(t, e.paths.ConfigFile()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	exts, errs := c.Extensions()
	if len(errs) != 0 || len(exts) != 2 || exts["githubtools"].Config.Name != "GitHub Tools" || !exts["developer"].Enabled {
		t.Fatalf("%+v %v", exts, errs)
	}
	if err := c.RemoveExtension("githubtools"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Extension("githubtools"); err == nil {
		t.Fatal("extension still present")
	}
	if got, err := c.Extension("developer"); err != nil || got.Config.DisplayName != "Developer" {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestExtensionsSkipsBadEntries(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), `extensions:
  good:
    enabled: true
    type: builtin
    name: good
    description: ok
  wrongtype:
    enabled: true
    type: carrier_pigeon
    name: wrongtype
    description: nope
  notamap: 5
`)
	c := e.open(t)
	exts, errs := c.Extensions()
	if len(exts) != 1 || exts["good"].Config.Type != ExtensionBuiltin {
		t.Fatalf("exts = %+v", exts)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), `"notamap"`) || !strings.Contains(errs[1].Error(), `unknown extension type "carrier_pigeon"`) {
		t.Fatalf("errs = %v", errs)
	}
}

func TestSetExtensionRejectsEmptyKey(t *testing.T) {
	c := newTestEnv(t).open(t)
	if err := c.SetExtension(ExtensionEntry{Config: ExtensionConfig{Type: ExtensionBuiltin, Name: "  "}}); err == nil {
		t.Fatal("empty key accepted")
	}
}

// TestAddExtensionWithEnvSecrets: a stdio server's env values go to the
// secret store and only their names to env_keys (after the names the entry
// had, each once); an entry with no key writes nothing anywhere.
func TestAddExtensionWithEnvSecrets(t *testing.T) {
	e := newTestEnv(t)
	e.env["GOOSE_DISABLE_KEYRING"] = "1"
	writeAll(t, e.paths.ConfigFile(), "GOOSE_PROVIDER: anthropic\n")
	c := e.open(t)
	err := c.AddExtensionWithEnvSecrets(ExtensionEntry{Config: ExtensionConfig{Type: ExtensionBuiltin, Name: "  "}},
		[]KeyValue{{Key: "NOPE", Value: "x"}})
	if !errkind.Is(err, errkind.Invalid) || errkind.Detail(err) != `extension name "  " gives an empty config key` {
		t.Fatalf("empty key: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.paths.Config, "secrets.yaml")); !os.IsNotExist(err) {
		t.Fatalf("a refused extension stored its env: %v", err)
	}
	err = c.AddExtensionWithEnvSecrets(ExtensionEntry{Enabled: true, Config: ExtensionConfig{Type: ExtensionStdio, Name: "gh", Cmd: "npx",
		EnvKeys: []string{"EXTRA", "GITHUB_TOKEN"}}},
		[]KeyValue{{Key: "ZED", Value: "z"}, {Key: "GITHUB_TOKEN", Value: "old"}, {Key: "GITHUB_TOKEN", Value: "ghp_new"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := os.ReadFile(e.paths.ConfigFile())
	if want := "GOOSE_PROVIDER: anthropic\nextensions:\n  gh:\n    enabled: true\n    type: stdio\n    name: gh\n    description: \"\"\n    cmd: npx\n    args: []\n    env_keys:\n      - EXTRA\n      - GITHUB_TOKEN\n      - ZED\n"; string(cfg) != want {
		t.Fatalf("config.yaml:\n%s\nwant:\n%s", cfg, want)
	}
	if sec, _ := os.ReadFile(filepath.Join(e.paths.Config, "secrets.yaml")); string(sec) != "GITHUB_TOKEN: ghp_new\nZED: z\n" {
		t.Fatalf("secrets.yaml:\n%s", sec)
	}
}
