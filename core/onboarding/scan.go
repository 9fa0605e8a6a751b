package onboarding

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Source kinds (acp-schema.json's OnboardingImportSourceKind).
const (
	KindGooseConfig   = "goose_config"
	KindClaudeDesktop = "claude_desktop"
)

// Counts are goose's OnboardingImportCounts.
type Counts struct {
	Providers   int `json:"providers"`
	Extensions  int `json:"extensions"`
	Sessions    int `json:"sessions"`
	Skills      int `json:"skills"`
	Projects    int `json:"projects"`
	Preferences int `json:"preferences"`
}

func (c *Counts) add(o Counts) {
	c.Providers += o.Providers
	c.Extensions += o.Extensions
	c.Sessions += o.Sessions
	c.Skills += o.Skills
	c.Projects += o.Projects
	c.Preferences += o.Preferences
}

// Candidate is something onboarding can import (its id names the kind
// and the file).
type Candidate struct {
	ID          string   `json:"id"`
	SourceKind  string   `json:"sourceKind"`
	DisplayName string   `json:"displayName"`
	Path        string   `json:"path"`
	Counts      Counts   `json:"counts"`
	Warnings    []string `json:"warnings"`
}

// Places says where to look: goose's config dir, the home directory and
// the OS's user config dir (Claude Desktop keeps its file there).
type Places struct {
	ConfigDir, Home, UserConfigDir string
}

func (p Places) gooseConfigs() []string {
	paths := []string{filepath.Join(p.ConfigDir, "config.yaml")}
	if p.Home != "" {
		paths = append(paths, filepath.Join(p.Home, ".config", "goose", "config.yaml"))
	}
	return dedupe(paths)
}

func (p Places) claudeConfigs() []string {
	var paths []string
	if p.UserConfigDir != "" {
		paths = append(paths, filepath.Join(p.UserConfigDir, "Claude", "claude_desktop_config.json"))
	}
	if p.Home != "" {
		paths = append(paths, filepath.Join(p.Home, "Library", "Application Support", "Claude", "claude_desktop_config.json"),
			filepath.Join(p.Home, "AppData", "Roaming", "Claude", "claude_desktop_config.json"))
	}
	return dedupe(paths)
}

func dedupe(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if c := filepath.Clean(p); !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// Scan lists the candidates of the given kinds (none: all), by display
// name. Files that are missing or do not parse are not candidates.
func Scan(p Places, kinds []string) []Candidate {
	want := func(k string) bool {
		if len(kinds) == 0 {
			return true
		}
		for _, x := range kinds {
			if x == k {
				return true
			}
		}
		return false
	}
	out := []Candidate{}
	if want(KindGooseConfig) {
		for _, path := range p.gooseConfigs() {
			if c, ok := scanGooseConfig(path); ok {
				out = append(out, c)
			}
		}
	}
	if want(KindClaudeDesktop) {
		for _, path := range p.claudeConfigs() {
			if c, ok := scanClaude(path); ok {
				out = append(out, c)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].DisplayName < out[j].DisplayName })
	return out
}

func readYAMLMap(path string) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m, nil
}

func nonBlank(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return strings.TrimSpace(s)
}

func scanGooseConfig(path string) (Candidate, bool) {
	m, err := readYAMLMap(path)
	if err != nil {
		return Candidate{}, false
	}
	var c Counts
	if nonBlank(m, "GOOSE_PROVIDER") != "" || nonBlank(m, "GOOSE_MODEL") != "" {
		c.Providers = 1
	}
	if exts, ok := m["extensions"].(map[string]any); ok {
		c.Extensions = len(exts)
	}
	c.Skills = countSkillDirs(filepath.Join(filepath.Dir(path), "skills"))
	return Candidate{ID: gooseConfigPrefix + path, SourceKind: KindGooseConfig, DisplayName: "Existing Goose configuration",
		Path: path, Counts: c, Warnings: []string{}}, true
}

func countSkillDirs(dir string) int {
	entries, _ := os.ReadDir(dir)
	n := 0
	for _, e := range entries {
		if st, err := os.Stat(filepath.Join(dir, e.Name(), "SKILL.md")); e.IsDir() && err == nil && st.Mode().IsRegular() {
			n++
		}
	}
	return n
}

type claudeServer struct {
	Command *string           `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// readClaude returns the servers that have a command and a warning per
// server that has none.
func readClaude(path string) (map[string]claudeServer, []string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var cfg struct {
		MCPServers map[string]claudeServer `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return nil, nil, err
	}
	servers := map[string]claudeServer{}
	warnings := []string{}
	for _, name := range sortedNames(cfg.MCPServers) {
		s := cfg.MCPServers[name]
		if s.Command != nil && strings.TrimSpace(*s.Command) != "" {
			servers[name] = s
		} else {
			warnings = append(warnings, "Claude MCP server '"+name+"' has no command.")
		}
	}
	return servers, warnings, nil
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func scanClaude(path string) (Candidate, bool) {
	servers, warnings, err := readClaude(path)
	if err != nil || (len(servers) == 0 && len(warnings) == 0) {
		return Candidate{}, false
	}
	return Candidate{ID: claudePrefix + path, SourceKind: KindClaudeDesktop, DisplayName: "Claude Desktop tools",
		Path: path, Counts: Counts{Extensions: len(servers)}, Warnings: warnings}, true
}

const (
	gooseConfigPrefix = "goose_config:"
	claudePrefix      = "claude_desktop:"
)
