package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// manifestPaths are where a plugin's plugin.json may live; the first found
// wins.
var manifestPaths = []string{".goose-plugin/plugin.json", ".plugin/plugin.json", "plugin.json"}

// Manifest is what goose reads of plugin.json (description is only
// documentation).
type Manifest struct {
	Name        string          `json:"name"`
	Version     string          `json:"version"`
	Description string          `json:"description"`
	Skills      json.RawMessage `json:"skills"`
	MCPServers  json.RawMessage `json:"mcpServers"`
}

// manifestPath is the plugin's manifest file, "" when it has none.
func manifestPath(root string) string {
	for _, rel := range manifestPaths {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// readManifest reads the plugin's manifest; a plugin without one has an
// empty manifest.
func readManifest(root string) (Manifest, error) {
	var m Manifest
	p := manifestPath(root)
	if p == "" {
		return m, nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("Failed to parse %s: %w", p, err)
	}
	return m, nil
}

// ReadManifest is the plugin's manifest with goose's name inference: an
// absent or empty name is the last segment of source (a git URL, without
// .git), else the directory's name.
func ReadManifest(root, source string) (Manifest, error) {
	m, err := readManifest(root)
	if err != nil {
		return m, err
	}
	if m.Name == "" {
		m.Name = inferName(root, source)
	}
	return m, nil
}

func inferName(root, source string) string {
	trimmed := strings.TrimSuffix(strings.TrimRight(source, "/"), ".git")
	parts := strings.Split(trimmed, "/")
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i] != "" {
			return parts[i]
		}
	}
	if b := filepath.Base(root); b != "" && b != "." && b != string(filepath.Separator) {
		return b
	}
	return "plugin"
}

// ValidateName is goose's Open Plugins name rule: 1–64 characters of
// lowercase letters, digits, dashes and periods, starting and ending with
// a letter or digit, without "--" or "..".
func ValidateName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("Invalid Open Plugins name '%s'. Names must be 1-64 characters", name)
	}
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	for i := 0; i < len(name); i++ {
		if c := name[i]; !alnum(c) && c != '-' && c != '.' {
			return fmt.Errorf("Invalid Open Plugins name '%s'. Names may only contain lowercase letters, numbers, dashes, and periods", name)
		}
	}
	if !alnum(name[0]) || !alnum(name[len(name)-1]) {
		return fmt.Errorf("Invalid Open Plugins name '%s'. Names must start and end with a letter or number", name)
	}
	if strings.Contains(name, "--") || strings.Contains(name, "..") {
		return fmt.Errorf("Invalid Open Plugins name '%s'. Names must not contain consecutive dashes or periods", name)
	}
	return nil
}

// componentPaths is a manifest component value: a path, a list of paths,
// or {paths, exclusive} (exclusive drops the default location).
type componentPaths struct {
	paths     []string
	exclusive bool
}

// absent is a manifest key that is missing or null.
func absent(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

func parseComponentPaths(raw json.RawMessage) (componentPaths, error) {
	var out componentPaths
	if absent(raw) {
		return out, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return out, err
	}
	strs := func(v any, msg string) ([]string, error) {
		switch x := v.(type) {
		case string:
			return []string{x}, nil
		case []any:
			var ps []string
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return nil, errors.New("Open Plugins component paths must be strings")
				}
				ps = append(ps, s)
			}
			return ps, nil
		}
		return nil, errors.New(msg)
	}
	switch x := v.(type) {
	case string, []any:
		ps, err := strs(x, "")
		out.paths = ps
		return out, err
	case map[string]any:
		if p, ok := x["paths"]; ok {
			ps, err := strs(p, "Open Plugins component paths must be a string or array of strings")
			if err != nil {
				return out, err
			}
			out.paths = ps
		}
		if ex, ok := x["exclusive"]; ok {
			b, isBool := ex.(bool)
			if !isBool {
				return out, errors.New("Open Plugins component exclusive setting must be a boolean")
			}
			out.exclusive = b
		}
		return out, nil
	}
	return out, errors.New("Open Plugins component paths must be a string, array, or object")
}

// relativePath checks a component path: it starts with "./" and stays
// inside the plugin.
func relativePath(p string) (string, error) {
	if !strings.HasPrefix(p, "./") {
		return "", fmt.Errorf("Open Plugins component paths must start with './': %s", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "", fmt.Errorf("Open Plugins component paths must stay within the plugin: %s", p)
		}
	}
	return filepath.FromSlash(p), nil
}

// SkillRoots are the directories holding a plugin's skills: <root>/skills
// (unless the manifest's skills are exclusive) and the manifest's skills
// paths; the plugin root itself when it has a SKILL.md, no skills
// directory and no skills key. Each root, or a directory right under it,
// holds a SKILL.md.
func SkillRoots(root string) []string {
	m, err := readManifest(root)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	_, skillsDirErr := os.Stat(filepath.Join(root, "skills"))
	if _, err := os.Stat(filepath.Join(root, "SKILL.md")); err == nil && skillsDirErr != nil && absent(m.Skills) {
		add(root)
	}
	cp, err := parseComponentPaths(m.Skills)
	if err != nil {
		return out
	}
	if !cp.exclusive {
		add(filepath.Join(root, "skills"))
	}
	for _, p := range cp.paths {
		if rel, err := relativePath(p); err == nil {
			add(filepath.Join(root, rel))
		}
	}
	return out
}

// SkillDirs are the skill directories of discovered plugins, the
// project's first: every plugin's, including a project plugin waiting for
// consent (skills are text the model reads; they run nothing).
func SkillDirs(plugins []Plugin) (project, user []string) {
	for _, p := range plugins {
		if p.claude != nil || p.State == Disabled || p.State == Shadowed {
			continue
		}
		if p.Scope == ScopeProject {
			project = append(project, SkillRoots(p.Root)...)
		} else {
			user = append(user, SkillRoots(p.Root)...)
		}
	}
	return project, user
}
