package agent

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/template"

	"github.com/goose-acp/goose-acp/core/errkind"
)

//go:embed prompts/*.md
var promptFS embed.FS

// Prompt template names (goose's prompt_template registry names).
const (
	TemplateSystem          = "system.md"
	TemplateCompaction      = "compaction.md"
	TemplateRecipe          = "recipe.md"
	TemplateSessionName     = "session_name.md"
	TemplatePermissionJudge = "permission_judge.md"
)

// templateRegistry lists the templates the agent renders, with goose's
// descriptions, in goose's order.
var templateRegistry = []struct{ name, description string }{
	{TemplateSystem, "Main system prompt that defines goose's personality and behavior"},
	{TemplateCompaction, "Prompt for summarizing conversation history when context limits are reached"},
	{TemplateRecipe, "Prompt for generating recipe files from conversations"},
	{TemplatePermissionJudge, "Prompt for analyzing tool operations for read-only detection"},
	{TemplateSessionName, "Prompt for generating a short session title from the first messages"},
}

// ErrUnknownTemplate is returned for a name that is not a registered
// prompt template.
var ErrUnknownTemplate = errkind.New(errkind.NotFound, "prompt template is not registered")

// Template is goose's Template JSON: a prompt template with its default
// content and the user's override from <config>/prompts/<name>, if any.
// Templates use Go text/template syntax (the defaults show the fields).
type Template struct {
	Name           string  `json:"name"`
	Description    string  `json:"description"`
	DefaultContent string  `json:"default_content"`
	UserContent    *string `json:"user_content,omitempty"`
	IsCustomized   bool    `json:"is_customized"`
}

// Content is what the agent renders: the override if there is one.
func (t Template) Content() string {
	if t.UserContent != nil {
		return *t.UserContent
	}
	return t.DefaultContent
}

func templateDescription(name string) (string, bool) {
	for _, t := range templateRegistry {
		if t.name == name {
			return t.description, true
		}
	}
	return "", false
}

// userPromptsDir is goose's <config>/prompts.
func userPromptsDir(configDir string) string { return filepath.Join(configDir, "prompts") }

// PromptTemplate returns one registered template with the user's override
// read from configDir/prompts (none when configDir is empty).
func PromptTemplate(configDir, name string) (Template, error) {
	desc, ok := templateDescription(name)
	if !ok {
		return Template{}, errkind.Wrapf(ErrUnknownTemplate, "Prompt template '%s' not found", name)
	}
	def, err := fs.ReadFile(promptFS, "prompts/"+name)
	if err != nil {
		return Template{}, fmt.Errorf("built-in template %q: %w", name, err)
	}
	t := Template{Name: name, Description: desc, DefaultContent: string(def)}
	if configDir != "" {
		if b, err := os.ReadFile(filepath.Join(userPromptsDir(configDir), name)); err == nil {
			s := string(b)
			t.UserContent, t.IsCustomized = &s, true
		}
	}
	return t, nil
}

// PromptTemplates lists every registered template.
func PromptTemplates(configDir string) []Template {
	out := make([]Template, 0, len(templateRegistry))
	for _, r := range templateRegistry {
		if t, err := PromptTemplate(configDir, r.name); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// SavePromptTemplate writes the user's override. The content must parse
// as a Go template, so a typo cannot silently disable a prompt.
func SavePromptTemplate(configDir, name, content string) error {
	if _, ok := templateDescription(name); !ok {
		return errkind.Wrapf(ErrUnknownTemplate, "Prompt template '%s' not found", name)
	}
	if configDir == "" {
		return errors.New("no config directory to save prompt templates in")
	}
	if _, err := template.New(name).Parse(content); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidTemplate, err)
	}
	dir := userPromptsDir(configDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save prompt %s: %w", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		return fmt.Errorf("save prompt %s: %w", name, err)
	}
	return nil
}

// ErrInvalidTemplate is returned when an override does not parse.
var ErrInvalidTemplate = errkind.New(errkind.Invalid, "invalid prompt template")

// ResetPromptTemplate removes the user's override (no error if none).
func ResetPromptTemplate(configDir, name string) error {
	if _, ok := templateDescription(name); !ok {
		return errkind.Wrapf(ErrUnknownTemplate, "Prompt template '%s' not found", name)
	}
	if configDir == "" {
		return nil
	}
	err := os.Remove(filepath.Join(userPromptsDir(configDir), name))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reset prompt %s: %w", name, err)
	}
	return nil
}

// renderPrompt renders the named template (the user's override when it
// exists) with data. A broken override is logged and the built-in default
// is used, so a bad edit never leaves the agent without a prompt.
func (a *Agent) renderPrompt(name string, data any) (string, error) {
	t, err := PromptTemplate(a.opts.ConfigDir, name)
	if err != nil {
		return "", err
	}
	if t.IsCustomized {
		out, err := executeTemplate(name, *t.UserContent, data)
		if err == nil {
			return out, nil
		}
		a.log.Warn("user prompt template failed; using the default", "template", name, "error", err)
	}
	tmpl, err := defaultTemplate(name, t.DefaultContent)
	if err != nil {
		return "", err
	}
	return run(tmpl, data)
}

// parsedDefaults caches the built-in templates, parsed once.
var parsedDefaults sync.Map // name → *template.Template

func defaultTemplate(name, text string) (*template.Template, error) {
	if t, ok := parsedDefaults.Load(name); ok {
		return t.(*template.Template), nil
	}
	tmpl, err := template.New(name).Option("missingkey=zero").Parse(text)
	if err != nil {
		return nil, err
	}
	parsedDefaults.Store(name, tmpl)
	return tmpl, nil
}

func executeTemplate(name, text string, data any) (string, error) {
	tmpl, err := template.New(name).Option("missingkey=zero").Parse(text)
	if err != nil {
		return "", err
	}
	return run(tmpl, data)
}

func run(tmpl *template.Template, data any) (string, error) {
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, data); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// plainPrompt renders a template that takes no data, trimmed.
func (a *Agent) plainPrompt(name string) string {
	s, err := a.renderPrompt(name, nil)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(s)
}
