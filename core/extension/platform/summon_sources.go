package platform

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/goose-acp/goose-acp/core/recipe"
)

// Source kinds, in goose's listing order.
const (
	KindSubrecipe = "subrecipe"
	KindRecipe    = "recipe"
	KindAgent     = "agent"
)

var kindOrder = map[string]int{KindSubrecipe: 0, KindRecipe: 1, KindAgent: 2}

func kindPlural(kind string) string {
	switch kind {
	case KindSubrecipe:
		return "Subrecipes"
	case KindRecipe:
		return "Recipes"
	case KindAgent:
		return "Agents"
	}
	return "Other"
}

// Source is something load and delegate can use: a sub-recipe of the
// session's recipe, a recipe file, or an agent *.md file.
type Source struct {
	Kind        string
	Name        string
	Description string
	// Content is a recipe's instructions or an agent's body.
	Content string
	Path    string
	// Model is an agent's front-matter model.
	Model string
	// Sub is the session recipe's entry for a sub-recipe source.
	Sub *recipe.SubRecipe
}

// SourceDirs says where summon looks for sources.
type SourceDirs struct {
	WorkingDir, Home, ConfigDir string
	// RecipePath is GOOSE_RECIPE_PATH (":"-separated, ";" on Windows).
	RecipePath string
	SubRecipes []recipe.SubRecipe
	Logger     *slog.Logger
}

// DiscoverSources lists summon's sources in goose's precedence (the first
// of a name wins), sorted by kind then name.
func DiscoverSources(o SourceDirs) []Source {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	seen := map[string]bool{}
	var out []Source
	add := func(s Source) {
		if s.Name != "" && !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s)
		}
	}
	for i := range o.SubRecipes {
		sr := o.SubRecipes[i]
		add(Source{Kind: KindSubrecipe, Name: sr.Name, Description: subRecipeDescription(sr), Path: sr.Path, Sub: &sr})
	}
	if o.WorkingDir != "" {
		scanRecipes(o.WorkingDir, true, log, add)
		scanRecipes(filepath.Join(o.WorkingDir, ".goose", "recipes"), false, log, add)
		scanRecipes(filepath.Join(o.WorkingDir, ".agents", "recipes"), false, log, add)
		for _, d := range []string{".goose", ".claude", ".agents"} {
			scanAgents(filepath.Join(o.WorkingDir, d, "agents"), log, add)
		}
	}
	for _, dir := range o.globalRecipeDirs() {
		scanRecipes(dir, false, log, add)
	}
	for _, dir := range o.globalAgentDirs() {
		scanAgents(dir, log, add)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if kindOrder[out[i].Kind] != kindOrder[out[j].Kind] {
			return kindOrder[out[i].Kind] < kindOrder[out[j].Kind]
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func (o SourceDirs) globalRecipeDirs() []string {
	var out []string
	if o.RecipePath != "" {
		out = append(out, filepath.SplitList(o.RecipePath)...)
	}
	if o.Home != "" {
		out = append(out, filepath.Join(o.Home, ".goose", "recipes"))
	}
	if o.ConfigDir != "" {
		out = append(out, filepath.Join(o.ConfigDir, "recipes"))
	}
	if o.Home != "" {
		out = append(out, filepath.Join(o.Home, ".agents", "recipes"))
	}
	return out
}

func (o SourceDirs) globalAgentDirs() []string {
	var out []string
	if o.Home != "" {
		out = append(out, filepath.Join(o.Home, ".goose", "agents"), filepath.Join(o.Home, ".agents", "agents"))
	}
	if o.ConfigDir != "" {
		out = append(out, filepath.Join(o.ConfigDir, "agents"))
	}
	if o.Home != "" {
		out = append(out, filepath.Join(o.Home, ".claude", "agents"))
	}
	return out
}

// regularFiles lists dir's regular files (no symlinks), sorted.
func regularFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// scanRecipes adds dir's *.yaml/*.yml/*.json recipes, named by file stem.
// In the working dir, files that are not recipes (package.json…) are
// skipped quietly.
func scanRecipes(dir string, quiet bool, log *slog.Logger, add func(Source)) {
	for _, p := range regularFiles(dir) {
		ext := strings.TrimPrefix(filepath.Ext(p), ".")
		if ext != "yaml" && ext != "yml" && ext != "json" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			log.Warn("failed to read recipe", "path", p, "error", err)
			continue
		}
		r, err := recipe.FromContent(string(b))
		if err != nil {
			if !quiet {
				log.Warn("failed to parse recipe", "path", p, "error", err)
			}
			continue
		}
		content := ""
		if r.Instructions != nil {
			content = *r.Instructions
		}
		add(Source{Kind: KindRecipe, Name: strings.TrimSuffix(filepath.Base(p), filepath.Ext(p)), Description: r.Description, Content: content, Path: p})
	}
}

// scanAgents adds dir's agent *.md files: front-matter name (required),
// description and model; the body is the agent's instructions.
func scanAgents(dir string, log *slog.Logger, add func(Source)) {
	for _, p := range regularFiles(dir) {
		if filepath.Ext(p) != ".md" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			log.Warn("failed to read agent file", "path", p, "error", err)
			continue
		}
		var meta struct {
			Name        string  `yaml:"name"`
			Description *string `yaml:"description"`
			Model       string  `yaml:"model"`
		}
		body, ok, err := parseFrontMatter(string(b), &meta)
		if err != nil {
			log.Warn("failed to parse agent file", "path", p, "error", err)
			continue
		}
		if !ok || meta.Name == "" {
			continue
		}
		desc := "Agent"
		if meta.Model != "" {
			desc += " (" + meta.Model + ")"
		}
		if meta.Description != nil {
			desc = *meta.Description
		}
		add(Source{Kind: KindAgent, Name: meta.Name, Description: desc, Content: body, Path: p, Model: meta.Model})
	}
}

// subRecipeDescription is the sub-recipe's description, else the recipe's
// with its parameters, else "Subrecipe from <path>".
func subRecipeDescription(sr recipe.SubRecipe) string {
	if sr.Description != nil {
		return *sr.Description
	}
	if b, err := os.ReadFile(sr.Path); err == nil {
		if r, err := recipe.FromContent(string(b)); err == nil {
			if len(r.Parameters) > 0 {
				return r.Description + "\n" + formatParameters(r.Parameters)
			}
			return r.Description
		}
	}
	return "Subrecipe from " + sr.Path
}

// SubRecipeContent is what load returns for a sub-recipe: its
// instructions and parameters.
func SubRecipeContent(name, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", nil
	}
	r, err := recipe.FromContent(string(b))
	if err != nil {
		return "", fmt.Errorf("Subrecipe '%s' is not a valid recipe", name)
	}
	content := ""
	if r.Instructions != nil {
		content = *r.Instructions
	}
	if len(r.Parameters) > 0 {
		content += "\n\n" + formatParameters(r.Parameters)
	}
	return content, nil
}

func formatParameters(params []recipe.Parameter) string {
	var b strings.Builder
	b.WriteString("Parameters:")
	for _, p := range params {
		fmt.Fprintf(&b, "\n  - %s (%s, %s)", p.Key, p.InputType, p.Requirement)
		if p.Default != nil {
			fmt.Fprintf(&b, ", default: \"%s\"", *p.Default)
		}
		if len(p.Options) > 0 {
			fmt.Fprintf(&b, ", options: [%s]", strings.Join(p.Options, ", "))
		}
		fmt.Fprintf(&b, ": %s", p.Description)
	}
	return b.String()
}

// truncateDescription is goose's safe_truncate at 160 characters.
func truncateDescription(s string) string {
	const budget = 160
	if utf8.RuneCountInString(s) <= budget {
		return s
	}
	r := []rune(s)
	return string(r[:budget-3]) + "..."
}
