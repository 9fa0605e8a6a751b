package platform

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// Skill is one discovered SKILL.md (goose's SourceEntry of type skill).
type Skill struct {
	Name        string
	Description string
	// Content is the body after the front-matter.
	Content string
	// Dir is the skill's directory (the canonical path).
	Dir    string
	Global bool
	// SupportingFiles are the other files under Dir (absolute paths),
	// without sub-directories holding their own SKILL.md.
	SupportingFiles []string
	// Metadata is the front-matter's free metadata map (agentskills.io):
	// "arguments" names positional arguments, "argument-hint" describes them.
	Metadata map[string]any
}

// ArgumentNames are the skill's declared argument names.
func (s Skill) ArgumentNames() []string {
	var out []string
	if list, ok := s.Metadata["arguments"].([]any); ok {
		for _, v := range list {
			if n, ok := v.(string); ok && n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// ArgumentHint is metadata.argument-hint, if any.
func (s Skill) ArgumentHint() string {
	h, _ := s.Metadata["argument-hint"].(string)
	return h
}

// SkillDirs says where skills are looked for.
type SkillDirs struct {
	WorkingDir string
	Home       string
	// ConfigDir is goose's config dir (<config>/skills, global .gooseignore).
	ConfigDir string
	// ProjectPluginSkills and UserPluginSkills are the skill directories
	// of the project's and the user's plugins (core/plugins discovers
	// them).
	ProjectPluginSkills, UserPluginSkills []string
	Logger                                *slog.Logger
}

type skillDir struct {
	path   string
	global bool
}

// dirs lists goose's skill directories in precedence order: project,
// enabled project plugins, global, enabled user plugins.
func (o SkillDirs) dirs() []skillDir {
	var out []skillDir
	project, user := o.ProjectPluginSkills, o.UserPluginSkills
	if wd := o.WorkingDir; wd != "" {
		for _, d := range []string{".agents", ".goose", ".claude"} {
			out = append(out, skillDir{filepath.Join(wd, d, "skills"), false})
		}
	}
	for _, p := range project {
		out = append(out, skillDir{p, false})
	}
	if o.Home != "" {
		out = append(out, skillDir{filepath.Join(o.Home, ".agents", "skills"), true})
	}
	if o.ConfigDir != "" {
		out = append(out, skillDir{filepath.Join(o.ConfigDir, "skills"), true})
	}
	if o.Home != "" {
		out = append(out, skillDir{filepath.Join(o.Home, ".claude", "skills"), true},
			skillDir{filepath.Join(o.Home, ".config", "agents", "skills"), true})
	}
	for _, p := range user {
		out = append(out, skillDir{p, true})
	}
	return out
}

func within(path, dir string) bool { return pathpolicy.Within(path, dir) }

// ignored applies .gooseignore (the shared path policy's rules, as the
// developer tools read them) to a path under a skill directory.
func ignored(r *pathpolicy.Rules, path string, isDir bool) bool {
	return r != nil && r.Match(path, isDir)
}

// DiscoverSkills walks every skill directory for SKILL.md files; the first
// skill of a name wins. Paths restricted by .gooseignore are skipped.
func DiscoverSkills(o SkillDirs) []Skill {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var ign *pathpolicy.Rules
	if o.WorkingDir != "" {
		ign = pathpolicy.RulesFor(o.WorkingDir, o.ConfigDir)
	}
	seen := map[string]bool{}
	var out []Skill
	for _, d := range o.dirs() {
		for _, file := range walkFiles(d.path, ign, func(string) bool { return true }) {
			if filepath.Base(file) != "SKILL.md" {
				continue
			}
			s, ok := readSkill(file, d.global, log)
			if !ok || seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			dir := s.Dir
			s.SupportingFiles = slices.DeleteFunc(walkFiles(dir, ign, func(sub string) bool {
				_, err := os.Stat(filepath.Join(sub, "SKILL.md"))
				return err != nil
			}), func(f string) bool { return filepath.Dir(f) == dir && filepath.Base(f) == "SKILL.md" })
			out = append(out, s)
		}
	}
	return out
}

// walkFiles lists the files under root (recursively, in name order),
// skipping .git/.hg/.svn, ignored paths and directories descend rejects.
// Only symlinked directories are resolved: each real directory reached
// through a link is walked once, which ends symlink cycles.
func walkFiles(root string, ign *pathpolicy.Rules, descend func(string) bool) []string {
	var out []string
	linked := map[string]bool{}
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			isDir, regular := e.IsDir(), e.Type().IsRegular()
			if e.Type()&os.ModeSymlink != 0 {
				fi, err := os.Stat(p)
				if err != nil {
					continue
				}
				isDir, regular = fi.IsDir(), fi.Mode().IsRegular()
				if isDir {
					real, err := filepath.EvalSymlinks(p)
					if err != nil || linked[real] {
						continue
					}
					linked[real] = true
				}
			}
			switch {
			case isDir:
				switch e.Name() {
				case ".git", ".hg", ".svn":
					continue
				}
				if !ignored(ign, p, true) && descend(p) {
					walk(p)
				}
			case regular && !ignored(ign, p, false):
				out = append(out, p)
			}
		}
	}
	walk(root)
	return out
}

func readSkill(file string, global bool, log *slog.Logger) (Skill, bool) {
	text, err := readSkillFile("", file)
	if err != nil {
		log.Warn("failed to read skill file", "path", file, "error", err)
		return Skill{}, false
	}
	var meta struct {
		Name        string         `yaml:"name"`
		Description string         `yaml:"description"`
		Metadata    map[string]any `yaml:"metadata"`
	}
	body, ok, err := parseFrontMatter(text, &meta)
	if err != nil {
		log.Warn("failed to parse skill frontmatter", "path", file, "error", err)
		return Skill{}, false
	}
	dir := filepath.Dir(file)
	switch {
	case !ok:
		return Skill{}, false
	case meta.Name == "":
		log.Warn("skill is missing a required 'name' in frontmatter, skipping", "path", dir)
		return Skill{}, false
	case strings.Contains(meta.Name, "/"):
		log.Warn("skill name contains '/', skipping", "name", meta.Name)
		return Skill{}, false
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return Skill{Name: meta.Name, Description: meta.Description, Content: body, Dir: dir, Global: global, Metadata: meta.Metadata}, true
}

// parseFrontMatter splits "---\n<yaml>\n---\n<body>" and decodes the YAML
// into v; ok is false when the text has no front-matter. The body is
// trimmed, as goose trims it.
func parseFrontMatter(text string, v any) (body string, ok bool, err error) {
	t := strings.TrimLeft(strings.ReplaceAll(text, "\r\n", "\n"), " \t\n\ufeff")
	rest, found := strings.CutPrefix(t, "---")
	if !found {
		return "", false, nil
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return "", false, nil
	}
	if err := yaml.Unmarshal([]byte(rest[:end]), v); err != nil {
		return "", false, err
	}
	body = rest[end+4:]
	if i := strings.IndexByte(body, '\n'); i >= 0 && strings.TrimSpace(body[:i]) == "" {
		body = body[i+1:]
	}
	return strings.TrimSpace(body), true, nil
}
