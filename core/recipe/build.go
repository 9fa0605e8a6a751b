package recipe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Param is one key=value given on the command line or by a schedule.
type Param struct{ Key, Value string }

// ParseParams parses "key=value" arguments (split at the first "=").
func ParseParams(args []string) ([]Param, error) {
	out := make([]Param, 0, len(args))
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("Invalid parameter format: '%s'. Expected format: key=value", a)
		}
		out = append(out, Param{Key: k, Value: v})
	}
	return out, nil
}

// PromptFunc asks the user for a user_prompt parameter's value.
type PromptFunc func(key, description string) (string, error)

// LoadFile reads, validates and renders the recipe at path with params:
// what `goose-acp run --recipe FILE --params k=v` and scheduled jobs do.
// prompt may be nil (headless): user_prompt parameters without a value are
// then reported missing.
func LoadFile(path string, params []Param, prompt PromptFunc) (*Recipe, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("recipe: read %s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("recipe: %w", err)
	}
	return Build(string(b), filepath.Dir(abs), params, prompt)
}

// Build is goose's build_recipe_from_template: validate, apply parameter
// values (defaults, prompts, file contents, recipe_dir), render, parse and
// resolve sub-recipe paths against dir. Errors are *MissingParamsError or
// wrap ErrInvalid with goose's "Invalid recipe: …" text.
func Build(content, dir string, params []Param, prompt PromptFunc) (*Recipe, error) {
	tmplRecipe, err := ValidateTemplate(content, dir)
	if err != nil {
		return nil, invalidRecipe(err)
	}
	values, missing, err := applyValues(params, tmplRecipe.Parameters, dir, prompt)
	if err != nil {
		return nil, invalidRecipe(err)
	}
	if len(missing) > 0 {
		return nil, &MissingParamsError{Parameters: missing}
	}
	rendered, err := Render(content, values)
	if err != nil {
		return nil, invalidRecipe(err)
	}
	r, err := FromContent(rendered)
	if err != nil {
		return nil, invalidRecipe(err)
	}
	for i := range r.SubRecipes {
		p, err := resolveSubRecipePath(r.SubRecipes[i].Path, dir)
		if err != nil {
			return nil, invalidRecipe(err)
		}
		r.SubRecipes[i].Path = p
	}
	return r, nil
}

func invalidRecipe(err error) error {
	return &invalidError{msg: "Invalid recipe: " + asInvalid(err).Error()}
}

func applyValues(user []Param, defs []Parameter, dir string, prompt PromptFunc) (map[string]string, []string, error) {
	values := make(map[string]string, len(user)+1)
	for _, p := range user {
		values[p.Key] = p.Value
	}
	values[RecipeDirParam] = dir
	var missing []string
	for _, def := range defs {
		v, given := values[def.Key]
		switch {
		case given && def.InputType == InputFile:
			content, err := os.ReadFile(v)
			if err != nil {
				return nil, nil, fmt.Errorf("Failed to read parameter file %s: %w", v, err)
			}
			values[def.Key] = string(content)
		case given:
		case def.Default != nil:
			values[def.Key] = *def.Default
		case def.Requirement == UserPrompt && prompt != nil:
			answer, err := prompt(def.Key, def.Description)
			if err != nil {
				return nil, nil, err
			}
			values[def.Key] = answer
		default:
			missing = append(missing, def.Key)
		}
	}
	return values, missing, nil
}

func resolveSubRecipePath(p, dir string) (string, error) {
	full := p
	if !filepath.IsAbs(p) {
		full = filepath.Join(dir, p)
	}
	if _, err := os.Stat(full); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("Sub-recipe file does not exist: %s", full)
		}
		return "", fmt.Errorf("Failed to resolve sub-recipe path %s: %w", full, err)
	}
	resolved, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", fmt.Errorf("Failed to resolve sub-recipe path %s: %w", full, err)
	}
	abs, err := filepath.Abs(resolved)
	if err != nil {
		return "", fmt.Errorf("Failed to resolve sub-recipe path %s: %w", full, err)
	}
	return abs, nil
}
