package recipe

import (
	"fmt"
	"sort"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// ValidateTemplate is goose's validate_recipe_template_from_content: it
// parses the recipe text (dir is the recipe's directory, "" for none) and
// applies goose's rules, returning the unrendered recipe. Errors wrap
// ErrInvalid and carry goose's texts.
func ValidateTemplate(content, dir string) (*Recipe, error) {
	r, vars, err := parseRecipeTemplate(content, dir)
	if err != nil {
		return nil, asInvalid(err)
	}
	checks := []func() error{
		func() error { return validateParameterDefaults(r.Parameters) },
		func() error { return validateDuplicateParameters(r.Parameters) },
		func() error { return validateParametersInTemplate(r.Parameters, vars) },
		func() error { return validatePromptOrInstructions(r) },
		func() error { return validateRetry(r) },
		func() error { return validateResponseSchema(r) },
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func asInvalid(err error) error {
	if _, ok := err.(*invalidError); ok {
		return err
	}
	return &invalidError{msg: errkind.Detail(err)}
}

func validateParameterDefaults(params []Parameter) error {
	var fileDefaults, optionalNoDefault []string
	for _, p := range params {
		if p.InputType == InputFile && p.Default != nil {
			fileDefaults = append(fileDefaults, p.Key)
		}
		if p.Requirement == Optional && p.Default == nil {
			optionalNoDefault = append(optionalNoDefault, p.Key)
		}
	}
	if len(fileDefaults) > 0 {
		return invalidf("File parameters cannot have default values to avoid importing sensitive user files: %s", strings.Join(fileDefaults, ", "))
	}
	if len(optionalNoDefault) > 0 {
		return invalidf("Optional parameters missing default values in the recipe: %s. Please provide defaults.", strings.Join(optionalNoDefault, ", "))
	}
	return nil
}

func validateDuplicateParameters(params []Parameter) error {
	seen := map[string]bool{}
	for _, p := range params {
		if seen[p.Key] {
			return invalidf("Duplicate parameter definition: %s.", p.Key)
		}
		seen[p.Key] = true
	}
	return nil
}

func validateParametersInTemplate(params []Parameter, vars []string) error {
	keys := map[string]bool{}
	structured := map[string]bool{}
	for _, p := range params {
		keys[p.Key] = true
		if p.InputType == InputObject || p.InputType == InputArray {
			structured[p.Key] = true
		}
	}
	used := map[string]bool{}
	for _, v := range vars {
		if v == RecipeDirParam {
			continue
		}
		if root, _, _ := strings.Cut(v, "."); structured[root] {
			v = root
		}
		used[v] = true
	}
	missing, extra := setDiff(used, keys), setDiff(keys, used)
	if len(missing) == 0 && len(extra) == 0 {
		return nil
	}
	var msg string
	if len(missing) > 0 {
		msg = fmt.Sprintf("Missing definitions for parameters in the recipe file: %s.", strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		msg += fmt.Sprintf("\nUnnecessary parameter definitions: %s.", strings.Join(extra, ", "))
	}
	return invalidf("%s", strings.TrimSpace(msg))
}

func setDiff(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func validatePromptOrInstructions(r *Recipe) error {
	if _, err := r.PromptText(); err != nil {
		return &invalidError{msg: err.Error()}
	}
	return nil
}

func validateRetry(r *Recipe) error {
	if r.Retry == nil {
		return nil
	}
	if err := r.Retry.Validate(); err != nil {
		return invalidf("Invalid retry configuration: %v", err)
	}
	return nil
}

func validateResponseSchema(r *Recipe) error {
	schema := r.ResponseSchema()
	if schema == nil {
		return nil
	}
	if _, err := CompileSchema(schema); err != nil {
		return invalidf("JSON schema validation failed: %v", err)
	}
	return nil
}
