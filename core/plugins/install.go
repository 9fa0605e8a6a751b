package plugins

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// InstallMetadata is goose's .goose-plugin-install.json.
const InstallMetadata = ".goose-plugin-install.json"

// Plugin formats install knows.
const (
	FormatOpenPlugins = "open-plugins"
	FormatGemini      = "gemini"
)

// componentMarkers make a checkout an Open Plugins plugin without a
// manifest.
var componentMarkers = []string{"hooks/hooks.json", "commands", "agents", ".mcp.json"}

const geminiManifest = "gemini-extension.json"

// Installed is what install and update report.
type Installed struct {
	Name, Version, Format, Source, Dir string
	// Skills are the imported skills' names (<plugin>:<skill> for Open
	// Plugins).
	Skills []string
}

type installMeta struct {
	Source          string     `json:"source"`
	SourceType      string     `json:"source_type"`
	Format          string     `json:"format"`
	AutoUpdate      bool       `json:"auto_update"`
	LastUpdateCheck *time.Time `json:"last_update_check"`
}

// Install is goose plugin install: it clones source (a git URL, a local
// repository path or a file:// URL) with git, recognises an Open Plugins
// (or Gemini) plugin, copies it to the user's plugin dir under its name,
// renames its skills <plugin>:<skill> and writes goose's install metadata.
// A plugin already installed under that name is an error.
func (e Env) Install(ctx context.Context, source string, autoUpdate bool) (Installed, error) {
	if strings.TrimSpace(source) == "" {
		return Installed{}, errors.New("Plugin source URL must not be empty")
	}
	dir := e.UserDir()
	if dir == "" {
		return Installed{}, errors.New("plugins: no home directory to install into")
	}
	tmp, err := os.MkdirTemp("", "goose-plugin-*")
	if err != nil {
		return Installed{}, err
	}
	defer os.RemoveAll(tmp)
	checkout := filepath.Join(tmp, "checkout")
	if err := cloneRepo(ctx, source, checkout); err != nil {
		return Installed{}, err
	}
	var last *time.Time
	if autoUpdate {
		now := time.Now().UTC()
		last = &now
	}
	return installFrom(source, checkout, dir, autoUpdate, last)
}

// Update is goose plugin update: it clones the plugin's recorded source
// again and swaps the new copy in.
func (e Env) Update(ctx context.Context, name string) (Installed, error) {
	if strings.TrimSpace(name) == "" {
		return Installed{}, errors.New("Plugin name must not be empty")
	}
	current := filepath.Join(e.UserDir(), name)
	if fi, err := os.Stat(current); err != nil || !fi.IsDir() {
		return Installed{}, fmt.Errorf("Plugin '%s' is not installed", name)
	}
	meta, err := readInstallMeta(current)
	if err != nil {
		return Installed{}, err
	}
	if meta.SourceType != "git" {
		return Installed{}, fmt.Errorf("Plugin '%s' was installed from '%s' and cannot be updated with this command", name, meta.SourceType)
	}
	staging, err := os.MkdirTemp(e.UserDir(), ".update-*")
	if err != nil {
		return Installed{}, err
	}
	defer os.RemoveAll(staging)
	checkout := filepath.Join(staging, ".checkout")
	if err := cloneRepo(ctx, meta.Source, checkout); err != nil {
		return Installed{}, err
	}
	now := time.Now().UTC()
	updated, err := installFrom(meta.Source, checkout, staging, meta.AutoUpdate, &now)
	if err != nil {
		return Installed{}, err
	}
	if updated.Name != name {
		return Installed{}, fmt.Errorf("Updated plugin name '%s' does not match installed plugin '%s'", updated.Name, name)
	}
	backup := filepath.Join(staging, ".previous")
	if err := os.Rename(current, backup); err != nil {
		return Installed{}, err
	}
	if err := os.Rename(updated.Dir, current); err != nil {
		_ = os.Rename(backup, current)
		return Installed{}, err
	}
	updated.Dir = current
	return updated, nil
}

// Remove deletes an installed user plugin and forgets it in config.yaml.
func (e Env) Remove(name string) (string, error) {
	if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return "", fmt.Errorf("invalid plugin name %q", name)
	}
	dir := filepath.Join(e.UserDir(), name)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("Plugin '%s' is not installed", name)
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if e.Config != nil {
		configMu.Lock()
		defer configMu.Unlock()
		entries := e.configEntries()
		if _, ok := entries[dir]; ok {
			delete(entries, dir)
			if err := e.Config.Set(ConfigKey, entries); err != nil {
				return dir, fmt.Errorf("removed %s, but config.yaml still lists it: %w", dir, err)
			}
		}
	}
	return dir, nil
}

// cloneRepo runs git clone --depth 1.
func cloneRepo(ctx context.Context, source, dest string) error {
	cmd := exec.CommandContext(ctx, "git", "clone", "--depth", "1", "--quiet", source, dest)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if errors.Is(err, exec.ErrNotFound) {
			msg = "git is not installed or not on PATH"
		} else if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("Failed to clone plugin repository: %s", msg)
	}
	return nil
}

// installFrom installs a checkout into root: Open Plugins first, then
// Gemini, as goose does.
func installFrom(source, checkout, root string, autoUpdate bool, last *time.Time) (Installed, error) {
	hasManifest := manifestPath(checkout) != ""
	hasMarker := false
	for _, m := range componentMarkers {
		if _, err := os.Stat(filepath.Join(checkout, filepath.FromSlash(m))); err == nil {
			hasMarker = true
		}
	}
	_, geminiErr := os.Stat(filepath.Join(checkout, geminiManifest))
	switch {
	case hasManifest || (hasMarker && geminiErr != nil):
		return installOpenPlugin(source, checkout, root, autoUpdate, last)
	case geminiErr == nil:
		return installGemini(source, checkout, root, autoUpdate, last)
	}
	return Installed{}, errors.New("No supported plugin format found")
}

func installOpenPlugin(source, checkout, root string, autoUpdate bool, last *time.Time) (Installed, error) {
	m, err := ReadManifest(checkout, source)
	if err != nil {
		return Installed{}, err
	}
	if err := ValidateName(m.Name); err != nil {
		return Installed{}, err
	}
	dest := filepath.Join(root, m.Name)
	if _, err := os.Stat(dest); err == nil {
		return Installed{}, fmt.Errorf("Plugin '%s' is already installed at %s", m.Name, dest)
	}
	skills := findSkills(checkout, SkillRoots(checkout))
	if _, err := (Plugin{Name: m.Name, Root: checkout}).MCPServers(); err != nil {
		return Installed{}, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return Installed{}, err
	}
	if err := copyTree(checkout, dest); err != nil {
		return Installed{}, err
	}
	out := Installed{Name: m.Name, Version: m.Version, Format: FormatOpenPlugins, Source: source, Dir: dest}
	for _, s := range skills {
		name := m.Name + ":" + s.name
		if err := renameSkill(filepath.Join(dest, s.rel, "SKILL.md"), name); err != nil {
			return Installed{}, err
		}
		out.Skills = append(out.Skills, name)
	}
	sort.Strings(out.Skills)
	if out.Version == "" {
		out.Version = "unknown"
	}
	return out, writeInstallMeta(dest, source, FormatOpenPlugins, autoUpdate, last)
}

func installGemini(source, checkout, root string, autoUpdate bool, last *time.Time) (Installed, error) {
	b, err := os.ReadFile(filepath.Join(checkout, geminiManifest))
	if err != nil {
		return Installed{}, err
	}
	var m struct {
		Name    *string `json:"name"`
		Version *string `json:"version"`
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Name == nil || m.Version == nil {
		return Installed{}, fmt.Errorf("Failed to parse %s: name and version are required", filepath.Join(checkout, geminiManifest))
	}
	name := *m.Name
	if name == "" {
		return Installed{}, errors.New("Gemini extension name must not be empty")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return Installed{}, fmt.Errorf("Invalid Gemini extension name '%s'. Names may only contain letters, numbers, and dashes", name)
		}
	}
	dest := filepath.Join(root, name)
	if _, err := os.Stat(dest); err == nil {
		return Installed{}, fmt.Errorf("Plugin '%s' is already installed at %s", name, dest)
	}
	skills := findSkills(checkout, []string{filepath.Join(checkout, "skills")})
	if len(skills) == 0 {
		return Installed{}, fmt.Errorf("Plugin '%s' does not contain any Gemini skills", name)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return Installed{}, err
	}
	if err := copyTree(checkout, dest); err != nil {
		return Installed{}, err
	}
	out := Installed{Name: name, Version: *m.Version, Format: FormatGemini, Source: source, Dir: dest}
	for _, s := range skills {
		out.Skills = append(out.Skills, s.name)
	}
	return out, writeInstallMeta(dest, source, FormatGemini, autoUpdate, last)
}

type skillCandidate struct{ name, rel string }

// findSkills lists the skills under the roots: each root or a directory
// right under it holding a SKILL.md, named by its front matter (else its
// directory), sorted by name.
func findSkills(plugin string, roots []string) []skillCandidate {
	var out []skillCandidate
	seen := map[string]bool{}
	add := func(dir string) {
		b, err := os.ReadFile(filepath.Join(dir, "SKILL.md"))
		if err != nil || seen[dir] {
			return
		}
		seen[dir] = true
		rel, err := filepath.Rel(plugin, dir)
		if err != nil {
			return
		}
		name := skillName(b)
		if name == "" {
			name = filepath.Base(dir)
		}
		out = append(out, skillCandidate{name: name, rel: rel})
	}
	for _, r := range roots {
		add(r)
		ents, _ := os.ReadDir(r)
		for _, e := range ents {
			if e.IsDir() {
				add(filepath.Join(r, e.Name()))
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// frontMatter splits "---\n<yaml>---<body>" (goose's rewrite split).
func frontMatter(raw string) (yamlText, body string, ok bool) {
	if !strings.HasPrefix(strings.TrimLeft(raw, " \t\r\n"), "---") {
		return "", "", false
	}
	parts := strings.SplitN(raw, "---", 3)
	if len(parts) < 3 || strings.TrimSpace(parts[0]) != "" || parts[2] == "" {
		return "", "", false
	}
	return parts[1], parts[2], true
}

func skillName(b []byte) string {
	y, _, ok := frontMatter(string(b))
	if !ok {
		return ""
	}
	var meta struct {
		Name string `yaml:"name"`
	}
	if yaml.Unmarshal([]byte(y), &meta) != nil {
		return ""
	}
	return meta.Name
}

// renameSkill sets a SKILL.md's front-matter name (adding front matter
// when it has none), keeping its other keys in order.
func renameSkill(path, name string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	raw := string(b)
	y, body, ok := frontMatter(raw)
	if !ok {
		return os.WriteFile(path, []byte("---\nname: "+yamlScalar(name)+"---\n"+raw+"\n"), 0o644)
	}
	var doc yaml.Node
	mapping := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if yaml.Unmarshal([]byte(strings.TrimSpace(y)), &doc) == nil && len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		mapping = doc.Content[0]
	}
	set := false
	for i := 0; i+1 < len(mapping.Content); i += 2 {
		if mapping.Content[i].Value == "name" {
			mapping.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name}
			set = true
		}
	}
	if !set {
		mapping.Content = append(mapping.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "name"},
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name})
	}
	out, err := yaml.Marshal(mapping)
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte("---\n"+string(out)+"---"+body), 0o644)
}

func yamlScalar(s string) string {
	out, err := yaml.Marshal(s)
	if err != nil {
		return s + "\n"
	}
	return string(out)
}

func writeInstallMeta(dir, source, format string, autoUpdate bool, last *time.Time) error {
	b, err := json.MarshalIndent(installMeta{Source: source, SourceType: "git", Format: format, AutoUpdate: autoUpdate, LastUpdateCheck: last}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, InstallMetadata), b, 0o644)
}

func readInstallMeta(dir string) (installMeta, error) {
	var m installMeta
	b, err := os.ReadFile(filepath.Join(dir, InstallMetadata))
	if err != nil {
		return m, fmt.Errorf("Plugin at %s does not contain install metadata and cannot be updated", dir)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("reading %s: %w", filepath.Join(dir, InstallMetadata), err)
	}
	return m, nil
}

// copyTree copies the regular files and directories under src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return copyFile(path, target)
		}
		return nil
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
