package recipe

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/errkind"
)

const validHead = "version: 1.0.0\ntitle: T\ndescription: D\n"

func TestValidateTemplateErrors(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"file default", "prompt: '{{ f }}'\nparameters:\n  - {key: f, input_type: file, requirement: required, description: x, default: /etc/passwd}\n",
			"File parameters cannot have default values to avoid importing sensitive user files: f"},
		{"optional without default", "prompt: '{{ o }}'\nparameters:\n  - {key: o, input_type: string, requirement: optional, description: x}\n",
			"Optional parameters missing default values in the recipe: o. Please provide defaults."},
		{"duplicate", "prompt: '{{ a }}'\nparameters:\n  - {key: a, input_type: string, requirement: required, description: x}\n  - {key: a, input_type: string, requirement: required, description: y}\n",
			"Duplicate parameter definition: a."},
		{"missing definitions", "prompt: '{{ b }} {{ a }}'\n", "Missing definitions for parameters in the recipe file: a, b."},
		{"unnecessary", "prompt: hi\nparameters:\n  - {key: a, input_type: string, requirement: required, description: x}\n", "Unnecessary parameter definitions: a."},
		{"both", "prompt: '{{ b }}'\nparameters:\n  - {key: a, input_type: string, requirement: required, description: x}\n",
			"Missing definitions for parameters in the recipe file: b.\nUnnecessary parameter definitions: a."},
		{"no prompt", "instructions: '  '\n", "Recipe must specify at least one of `instructions` or `prompt`."},
		{"retry zero", "prompt: p\nretry: {max_retries: 0, checks: []}\n", "Invalid retry configuration: max_retries must be greater than 0"},
		{"retry timeout", "prompt: p\nretry: {max_retries: 1, checks: [], timeout_seconds: 0}\n", "Invalid retry configuration: timeout_seconds must be greater than 0 if specified"},
		{"retry on_failure timeout", "prompt: p\nretry: {max_retries: 1, checks: [], on_failure_timeout_seconds: 0}\n", "Invalid retry configuration: on_failure_timeout_seconds must be greater than 0 if specified"},
		{"bad schema", "prompt: p\nresponse: {json_schema: {type: 12}}\n", "JSON schema validation failed: "},
		{"bad input type", "prompt: '{{ a }}'\nparameters:\n  - {key: a, input_type: colour, requirement: required, description: x}\n", "input_type: unknown variant `colour`"},
		{"bad check type", "prompt: p\nretry: {max_retries: 1, checks: [{type: http, command: x}]}\n", "unknown variant `http`"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ValidateTemplate(validHead+tc.body, "")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want prefix %q", err, tc.want)
			}
		})
	}
}

func TestValidateTemplateAccepts(t *testing.T) {
	for name, body := range map[string]string{
		"jinja conditional prompt": "instructions: Test {{ user_role }}\nprompt: |\n  {% if user_role in [\"Director, Account Management\", \"Senior\"] %}\n  - strategic\n  {% else %}\n  - basics\n  {% endif %}\nparameters:\n  - {key: user_role, input_type: string, requirement: required, description: r}\n",
		"nested under recipe key":  "recipe:\n  title: T\n  description: D\n  prompt: p\n",
		"json":                     `{"title":"T","description":"D","prompt":"p","context":["ignored legacy field"]}`,
		"structured object":        "prompt: '{{ signal.name }}'\nparameters:\n  - {key: signal, input_type: object, requirement: required, description: s}\n",
		"recipe_dir builtin":       "prompt: 'in {{ recipe_dir }}'\n",
	} {
		t.Run(name, func(t *testing.T) {
			content := body
			if !strings.HasPrefix(body, "recipe:") && !strings.HasPrefix(body, "{") {
				content = validHead + body
			}
			if _, err := ValidateTemplate(content, ""); err != nil {
				t.Fatalf("ValidateTemplate: %v", err)
			}
		})
	}
}

func TestFromContentErrors(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"missing title": {"description: d\nprompt: p\n", "missing field `title`"},
		"not a mapping": {"- a\n- b\n", "invalid type"},
		"bad yaml":      {"title: [\n", "yaml:"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := FromContent(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestBuild(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "notes.txt")
	os.WriteFile(secret, []byte("file body"), 0o644)
	content := validHead + "prompt: '{{ who }} / {{ notes }} / {{ mode }}'\nparameters:\n" +
		"  - {key: who, input_type: string, requirement: user_prompt, description: 'Who?'}\n" +
		"  - {key: notes, input_type: file, requirement: required, description: Notes}\n" +
		"  - {key: mode, input_type: select, requirement: optional, default: fast, options: [fast, slow], description: Mode}\n"

	_, err := Build(content, dir, []Param{{"notes", secret}}, nil)
	var missing *MissingParamsError
	if !errors.As(err, &missing) || err.Error() != `Missing required parameters: ["who"]` {
		t.Fatalf("headless build err = %v", err)
	}
	r, err := Build(content, dir, []Param{{"notes", secret}}, func(key, desc string) (string, error) { return key + ":" + desc, nil })
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.PromptText(); got != "who:Who? / file body / fast" {
		t.Fatalf("prompt = %q", got)
	}
	if _, err := Build(content, dir, []Param{{"notes", filepath.Join(dir, "nope")}, {"who", "x"}}, nil); err == nil || !strings.HasPrefix(err.Error(), "Invalid recipe: Failed to read parameter file") {
		t.Fatalf("missing file err = %v", err)
	}
	sub := validHead + "prompt: p\nsub_recipes:\n  - {name: s, path: missing.yaml}\n"
	if _, err := Build(sub, dir, nil, nil); err == nil || !strings.Contains(err.Error(), "Sub-recipe file does not exist: ") {
		t.Fatalf("sub-recipe err = %v", err)
	}
}

func TestLoadFileExample(t *testing.T) {
	r, err := LoadFile("testdata/recipes/code-review.yaml", []Param{{"language", "go"}, {"strict", "true"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("testdata/recipes")
	if p, _ := r.PromptText(); p != "Review the diff between main and HEAD in "+abs+"." {
		t.Errorf("prompt = %q", p)
	}
	if !strings.Contains(*r.Instructions, "Treat every warning as a blocking issue.") || strings.Contains(*r.Instructions, "{%") {
		t.Errorf("instructions = %q", *r.Instructions)
	}
	if r.ResponseSchema() == nil || r.Settings == nil || *r.Settings.MaxTurns != 20 || r.Retry.MaxRetries != 2 {
		t.Errorf("recipe = %+v", r)
	}
	names := []string{}
	for _, e := range r.Extensions {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "developer,analyze" {
		t.Errorf("extensions = %v", names)
	}
}

func TestParseParams(t *testing.T) {
	got, err := ParseParams([]string{"a=1", "b=x=y", "c="})
	if err != nil || len(got) != 3 || got[1] != (Param{"b", "x=y"}) || got[2] != (Param{"c", ""}) {
		t.Fatalf("got %v %v", got, err)
	}
	if _, err := ParseParams([]string{"nope"}); err == nil || err.Error() != "Invalid parameter format: 'nope'. Expected format: key=value" {
		t.Fatalf("err = %v", err)
	}
}

// Validation failures and missing values are Invalid, with goose's text.
func TestRecipeErrorKinds(t *testing.T) {
	if err := invalidf("bad %s", "recipe"); errkind.Of(err) != errkind.Invalid || !errors.Is(err, ErrInvalid) || errkind.Detail(err) != "bad recipe" {
		t.Errorf("invalid: %v (kind %v)", err, errkind.Of(err))
	}
	if err := error(&MissingParamsError{Parameters: []string{"x"}}); errkind.Of(err) != errkind.Invalid {
		t.Errorf("missing params: kind %v", errkind.Of(err))
	}
}
