package sources

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// Types of source (acp-schema.json's SourceType).
const (
	TypeSkill        = "skill"
	TypeBuiltinSkill = "builtinSkill"
	TypeRecipe       = "recipe"
	TypeSubrecipe    = "subrecipe"
	TypeAgent        = "agent"
	TypeProject      = "project"
)

// Entry is goose's SourceEntry.
type Entry struct {
	Type            string         `json:"type"`
	Name            string         `json:"name"`
	Description     string         `json:"description"`
	Content         string         `json:"content"`
	Path            string         `json:"path"`
	Global          bool           `json:"global"`
	Writable        bool           `json:"writable"`
	SupportingFiles []string       `json:"supportingFiles"`
	Properties      map[string]any `json:"properties"`
}

// ErrInvalid marks bad input (a face answers invalid params).
var ErrInvalid = errkind.New(errkind.Invalid, "invalid source request")

func invalid(format string, args ...any) error {
	return errkind.Wrapf(ErrInvalid, format, args...)
}

// Store is where sources live: Home for ~/.agents/skills, DataDir for
// <data>/projects.
type Store struct {
	Home, DataDir string
}

// GlobalSkillsDir is ~/.agents/skills.
func (s Store) GlobalSkillsDir() string { return filepath.Join(s.Home, ".agents", "skills") }

// ProjectSkillsDir is <project>/.agents/skills.
func ProjectSkillsDir(projectDir string) string {
	return filepath.Join(projectDir, ".agents", "skills")
}

func (s Store) projectsDir() string { return filepath.Join(s.DataDir, "projects") }

var namePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`) })

// ValidateName requires a kebab-case ASCII name (a directory or file name
// that is the same on every OS).
func ValidateName(name string) error {
	if len(name) > 64 || !namePattern().MatchString(name) {
		return invalid("Invalid source name %q: use lowercase letters, digits and single hyphens (at most 64)", name)
	}
	return nil
}

// requireMutable: only skills and projects are written through these
// methods (goose's require_mutable_type).
func requireMutable(typ string) error {
	if typ != TypeSkill && typ != TypeProject {
		return invalid("Source type '%s' is not supported for mutation.", typ)
	}
	return nil
}

// frontMatter renders "---\n<yaml>---\n\n<content>\n".
func frontMatter(fields yaml.Node, content string) (string, error) {
	b, err := yaml.Marshal(&fields)
	if err != nil {
		return "", err
	}
	out := "---\n" + string(b) + "---\n"
	if content != "" {
		out += "\n" + content + "\n"
	}
	return out, nil
}

// mapping builds an ordered YAML mapping of key/value pairs.
func mapping(pairs ...any) yaml.Node {
	n := yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(pairs); i += 2 {
		var k, v yaml.Node
		_ = k.Encode(pairs[i])
		_ = v.Encode(pairs[i+1])
		n.Content = append(n.Content, &k, &v)
	}
	return n
}

// splitFrontMatter decodes the front-matter into v and returns the
// trimmed body; a file without front-matter is all body.
func splitFrontMatter(text string, v any) (string, error) {
	t := strings.TrimLeft(strings.ReplaceAll(text, "\r\n", "\n"), " \t\n\ufeff")
	rest, ok := strings.CutPrefix(t, "---")
	if !ok {
		return strings.TrimSpace(text), nil
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return strings.TrimSpace(text), nil
	}
	if err := yaml.Unmarshal([]byte(rest[:end]), v); err != nil {
		return "", err
	}
	return strings.TrimSpace(rest[end+4:]), nil
}

// writeFile writes atomically (temp file + rename) so a failed write
// leaves the old file.
func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".source-*")
	if err != nil {
		return err
	}
	_, werr := tmp.WriteString(text)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func sortEntries(es []Entry) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Type != es[j].Type {
			return es[i].Type < es[j].Type
		}
		return es[i].Name < es[j].Name
	})
}
