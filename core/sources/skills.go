package sources

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// SkillFile is the file that makes a directory a skill.
const SkillFile = "SKILL.md"

// SkillEntry is a discovered skill as a source.
func SkillEntry(sk platform.Skill) Entry {
	return Entry{Type: TypeSkill, Name: sk.Name, Description: sk.Description, Content: sk.Content, Path: sk.Dir,
		Global: sk.Global, Writable: true, SupportingFiles: nonNil(sk.SupportingFiles), Properties: map[string]any{}}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// skillMarkdown is SKILL.md: name and description front-matter (metadata
// kept when the skill had some), the content as the body.
func skillMarkdown(name, description, content string, metadata map[string]any) (string, error) {
	pairs := []any{"name", name, "description", description}
	if len(metadata) > 0 {
		pairs = append(pairs, "metadata", metadata)
	}
	return frontMatter(mapping(pairs...), content)
}

// CreateSkill writes <base>/<name>/SKILL.md; an existing name is refused.
func (s Store) CreateSkill(base, name, description, content string) (Entry, error) {
	if err := ValidateName(name); err != nil {
		return Entry{}, err
	}
	dir := filepath.Join(base, name)
	if _, err := os.Stat(dir); err == nil {
		return Entry{}, invalid("A source named %q already exists", name)
	}
	md, err := skillMarkdown(name, description, content, nil)
	if err != nil {
		return Entry{}, err
	}
	if err := writeFile(filepath.Join(dir, SkillFile), md); err != nil {
		return Entry{}, err
	}
	return s.skillAt(dir, name, description, content), nil
}

func (s Store) skillAt(dir, name, description, content string) Entry {
	return Entry{Type: TypeSkill, Name: name, Description: description, Content: content, Path: dir,
		Global: pathpolicy.Within(dir, s.GlobalSkillsDir()), Writable: true, SupportingFiles: []string{}, Properties: map[string]any{}}
}

// skillDir checks that path is a skill directory (it holds SKILL.md).
func skillDir(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", invalid("Source path %q must be absolute", path)
	}
	if st, err := os.Stat(filepath.Join(path, SkillFile)); err != nil || !st.Mode().IsRegular() {
		return "", invalid("Source %q not found", path)
	}
	return filepath.Clean(path), nil
}

// UpdateSkill rewrites a skill's SKILL.md, renaming its directory when the
// name changes (refused when the new name is taken).
func (s Store) UpdateSkill(path, name, description, content string) (Entry, error) {
	if err := ValidateName(name); err != nil {
		return Entry{}, err
	}
	dir, err := skillDir(path)
	if err != nil {
		return Entry{}, err
	}
	var meta struct {
		Metadata map[string]any `yaml:"metadata"`
	}
	if text, err := os.ReadFile(filepath.Join(dir, SkillFile)); err == nil {
		_, _ = splitFrontMatter(string(text), &meta)
	}
	md, err := skillMarkdown(name, description, content, meta.Metadata)
	if err != nil {
		return Entry{}, err
	}
	target := dir
	if filepath.Base(dir) != name {
		target = filepath.Join(filepath.Dir(dir), name)
		if _, err := os.Stat(target); err == nil {
			return Entry{}, invalid("A source named %q already exists", name)
		}
		if err := os.Rename(dir, target); err != nil {
			return Entry{}, err
		}
	}
	if err := writeFile(filepath.Join(target, SkillFile), md); err != nil {
		return Entry{}, err
	}
	return s.skillAt(target, name, description, content), nil
}

// DeleteSkill removes a skill directory with its supporting files.
func (s Store) DeleteSkill(path string) error {
	dir, err := skillDir(path)
	if err != nil {
		return err
	}
	if dir == filepath.Clean(s.GlobalSkillsDir()) {
		return errors.New("refusing to delete the skills directory itself")
	}
	return os.RemoveAll(dir)
}

// readSkill reads a skill directory's entry (for export).
func (s Store) readSkill(dir string) (Entry, error) {
	text, err := os.ReadFile(filepath.Join(dir, SkillFile))
	if err != nil {
		return Entry{}, err
	}
	var meta struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}
	body, err := splitFrontMatter(string(text), &meta)
	if err != nil {
		return Entry{}, invalid("Source %q has front-matter that does not parse: %v", dir, err)
	}
	if meta.Name == "" {
		meta.Name = filepath.Base(dir)
	}
	return s.skillAt(dir, meta.Name, meta.Description, body), nil
}
