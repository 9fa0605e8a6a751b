package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestUnstableOnboardingImportOnDisk(t *testing.T) {
	h := newSettingsHome(t, "")
	r := newDesktopRig(t, func(o *Options) { o.Settings = Settings{Config: h.cfg} })
	home := filepath.Join(r.dir, "home")
	claude := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	writeFile(t, claude, `{"mcpServers":{"github":{"command":"npx","args":["github-mcp"],"env":{"T":"1"}},"broken":{"args":["x"]}}}`)
	oldGoose := filepath.Join(home, ".config", "goose", "config.yaml")
	writeFile(t, oldGoose, "GOOSE_PROVIDER: openai\nGOOSE_MODEL: gpt-4o\nextensions:\n  fetch:\n    enabled: true\n    type: stdio\n    name: fetch\n    description: Fetch\n    cmd: uvx\n    args: [mcp-server-fetch]\n")
	writeFile(t, filepath.Join(home, ".config", "goose", "skills", "reviewer", "SKILL.md"), "---\nname: reviewer\ndescription: d\n---\nReview.")

	var scan struct {
		Candidates []struct {
			ID         string         `json:"id"`
			SourceKind string         `json:"sourceKind"`
			Counts     map[string]int `json:"counts"`
			Warnings   []string       `json:"warnings"`
		} `json:"candidates"`
	}
	mustUnmarshal(t, r.call(t, unstable+"onboarding/import/scan", map[string]any{}), &scan)
	if len(scan.Candidates) != 2 {
		t.Fatalf("candidates: %+v", scan.Candidates)
	}
	var ids []string
	for _, c := range scan.Candidates {
		ids = append(ids, c.ID)
		switch c.SourceKind {
		case "claude_desktop":
			if c.Counts["extensions"] != 1 || len(c.Warnings) != 1 {
				t.Fatalf("claude candidate: %+v", c)
			}
		case "goose_config":
			if c.Counts["providers"] != 1 || c.Counts["extensions"] != 1 || c.Counts["skills"] != 1 {
				t.Fatalf("goose candidate: %+v", c)
			}
		}
	}
	var res struct {
		Imported         map[string]int `json:"imported"`
		Warnings         []string       `json:"warnings"`
		ProviderDefaults map[string]any `json:"providerDefaults"`
	}
	mustUnmarshal(t, r.call(t, unstable+"onboarding/import/apply", map[string]any{"candidateIds": append(ids, "bogus:x")}), &res)
	if res.Imported["extensions"] != 2 || res.Imported["providers"] != 1 || res.Imported["skills"] != 1 ||
		res.ProviderDefaults["providerId"] != "openai" || res.ProviderDefaults["modelId"] != "gpt-4o" {
		t.Fatalf("apply: %+v", res)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "Skipped unknown import candidate: bogus:x") {
		t.Fatalf("warnings: %v", res.Warnings)
	}
	y := h.yamlFile(t, "config.yaml")
	exts, _ := y["extensions"].(map[string]any)
	gh, _ := exts["github"].(map[string]any)
	if y["GOOSE_PROVIDER"] != "openai" || y["GOOSE_MODEL"] != "gpt-4o" || exts["fetch"] == nil || gh == nil || gh["enabled"] != false || gh["cmd"] != "npx" {
		t.Fatalf("config.yaml after import: %v", y)
	}
	if _, err := os.Stat(filepath.Join(h.paths.Config, "skills", "reviewer", "SKILL.md")); err != nil {
		t.Fatalf("skill copied: %v", err)
	}
	mustUnmarshal(t, r.call(t, unstable+"onboarding/import/apply", map[string]any{"candidateIds": ids}), &res)
	if res.Imported["extensions"] != 0 || res.Imported["skills"] != 0 {
		t.Fatalf("a second import overwrote: %+v", res)
	}
}
