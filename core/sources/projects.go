package sources

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// Projects are <data>/projects/<slug>.md: front-matter name (the display
// title), description and free properties (workingDirs, icon, …), the
// content as the body. The slug is the project's stable id.

func (s Store) projectFile(slug string) string { return filepath.Join(s.projectsDir(), slug+".md") }

// ListProjects reads every project file (unreadable ones are skipped).
func (s Store) ListProjects() []Entry {
	if s.DataDir == "" {
		return []Entry{}
	}
	files, _ := filepath.Glob(filepath.Join(s.projectsDir(), "*.md"))
	out := []Entry{}
	for _, f := range files {
		if e, err := s.readProject(f); err == nil {
			out = append(out, e)
		}
	}
	sortEntries(out)
	return out
}

func (s Store) readProject(file string) (Entry, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return Entry{}, err
	}
	props := map[string]any{}
	body, err := splitFrontMatter(string(text), &props)
	if err != nil {
		body, props = string(text), map[string]any{}
	}
	slug := strings.TrimSuffix(filepath.Base(file), ".md")
	title, _ := props["name"].(string)
	description, _ := props["description"].(string)
	delete(props, "name")
	delete(props, "description")
	if title != "" && title != slug {
		props["title"] = title
	}
	return Entry{Type: TypeProject, Name: slug, Description: description, Content: body, Path: file, Global: true,
		Writable: true, SupportingFiles: []string{}, Properties: props}, nil
}

func projectMarkdown(slug, description, content string, props map[string]any) (string, error) {
	title := slug
	if t, ok := props["title"].(string); ok && t != "" {
		title = t
	}
	pairs := []any{"name", title, "description", description}
	for _, k := range sortedKeys(props) {
		if k != "name" && k != "description" && k != "title" {
			pairs = append(pairs, k, props[k])
		}
	}
	return frontMatter(mapping(pairs...), content)
}

// CreateProject writes a new project file; an existing slug is refused.
func (s Store) CreateProject(slug, description, content string, props map[string]any) (Entry, error) {
	if err := ValidateName(slug); err != nil {
		return Entry{}, err
	}
	if s.DataDir == "" {
		return Entry{}, errors.New("projects are not available: no data directory")
	}
	file := s.projectFile(slug)
	if _, err := os.Stat(file); err == nil {
		return Entry{}, invalid("A source named %q already exists", slug)
	}
	md, err := projectMarkdown(slug, description, content, props)
	if err != nil {
		return Entry{}, err
	}
	if err := writeFile(file, md); err != nil {
		return Entry{}, err
	}
	return s.readProject(file)
}

// projectPath checks that path is a project file of ours.
func (s Store) projectPath(path string) (string, error) {
	clean := filepath.Clean(path)
	if !filepath.IsAbs(clean) || !pathpolicy.Within(clean, s.projectsDir()) {
		return "", invalid("Path %q is not a project source", path)
	}
	if filepath.Ext(clean) != ".md" {
		return "", invalid("Path %q is not a markdown file", path)
	}
	if st, err := os.Stat(clean); err != nil || !st.Mode().IsRegular() {
		return "", invalid("Project source %q not found", path)
	}
	return clean, nil
}

// UpdateProject rewrites a project; its slug cannot change. nil props
// keep the stored properties.
func (s Store) UpdateProject(path, slug, description, content string, props map[string]any) (Entry, error) {
	file, err := s.projectPath(path)
	if err != nil {
		return Entry{}, err
	}
	current := strings.TrimSuffix(filepath.Base(file), ".md")
	if current != slug {
		return Entry{}, invalid("Project slug cannot be changed (current: %q, requested: %q)", current, slug)
	}
	if props == nil {
		old, err := s.readProject(file)
		if err != nil {
			return Entry{}, err
		}
		props = old.Properties
	}
	md, err := projectMarkdown(slug, description, content, props)
	if err != nil {
		return Entry{}, err
	}
	if err := writeFile(file, md); err != nil {
		return Entry{}, err
	}
	return s.readProject(file)
}

// DeleteProject removes a project file.
func (s Store) DeleteProject(path string) error {
	file, err := s.projectPath(path)
	if err != nil {
		return err
	}
	return os.Remove(file)
}

// ProjectWorkingDirs are a project's properties.workingDirs.
func (s Store) ProjectWorkingDirs(slug string) []string {
	if ValidateName(slug) != nil {
		return nil
	}
	e, err := s.readProject(s.projectFile(slug))
	if err != nil {
		return nil
	}
	list, _ := e.Properties["workingDirs"].([]any)
	var out []string
	for _, v := range list {
		if d, ok := v.(string); ok && d != "" {
			out = append(out, d)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}
