package recipe

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/goose-acp/goose-acp/core/config"
)

// DefaultVersion is the version written when a recipe omits it.
const DefaultVersion = "1.0.0"

// RecipeDirParam is the built-in template variable holding the directory of
// the recipe file.
const RecipeDirParam = "recipe_dir"

// Recipe is goose's Recipe. Field order is goose's struct order so that the
// compact JSON (and therefore a deeplink) is byte-identical to goose's.
type Recipe struct {
	Version      string                   `json:"version"`
	Title        string                   `json:"title"`
	Description  string                   `json:"description"`
	Instructions *string                  `json:"instructions,omitempty"`
	Prompt       *string                  `json:"prompt,omitempty"`
	Extensions   []config.ExtensionConfig `json:"extensions,omitempty"`
	Settings     *Settings                `json:"settings,omitempty"`
	Activities   []string                 `json:"activities,omitempty"`
	Author       *Author                  `json:"author,omitempty"`
	Parameters   []Parameter              `json:"parameters,omitempty"`
	Response     *Response                `json:"response,omitempty"`
	SubRecipes   []SubRecipe              `json:"sub_recipes,omitempty"`
	Retry        *RetryConfig             `json:"retry,omitempty"`
}

// Author is who wrote the recipe.
type Author struct {
	Contact  *string `json:"contact,omitempty"`
	Metadata *string `json:"metadata,omitempty"`
}

// Settings overrides the provider, model, temperature and turn limit.
type Settings struct {
	GooseProvider *string  `json:"goose_provider,omitempty"`
	GooseModel    *string  `json:"goose_model,omitempty"`
	Temperature   *float64 `json:"temperature,omitempty"`
	MaxTurns      *int     `json:"max_turns,omitempty"`
}

// Response carries the JSON schema that drives the final_output tool.
type Response struct {
	JSONSchema json.RawMessage `json:"json_schema,omitempty"`
}

// SubRecipe is a recipe exposed to the model as a tool. Values that are not
// strings in the file are stringified as JSON, as goose does.
type SubRecipe struct {
	Name                   string            `json:"name"`
	Path                   string            `json:"path"`
	Values                 map[string]string `json:"values"`
	SequentialWhenRepeated bool              `json:"sequential_when_repeated"`
	Description            *string           `json:"description,omitempty"`
}

// UnmarshalJSON stringifies non-string values.
func (s *SubRecipe) UnmarshalJSON(b []byte) error {
	var raw struct {
		Name                   string                     `json:"name"`
		Path                   string                     `json:"path"`
		Values                 map[string]json.RawMessage `json:"values"`
		SequentialWhenRepeated bool                       `json:"sequential_when_repeated"`
		Description            *string                    `json:"description"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*s = SubRecipe{Name: raw.Name, Path: raw.Path, SequentialWhenRepeated: raw.SequentialWhenRepeated, Description: raw.Description}
	if raw.Values != nil {
		s.Values = make(map[string]string, len(raw.Values))
		for k, v := range raw.Values {
			s.Values[k] = stringifyJSON(v)
		}
	}
	return nil
}

// InputType is a parameter's input_type.
type InputType string

const (
	InputString  InputType = "string"
	InputNumber  InputType = "number"
	InputBoolean InputType = "boolean"
	InputDate    InputType = "date"
	// InputFile parameters import a file's content; they cannot have defaults.
	InputFile   InputType = "file"
	InputSelect InputType = "select"
	// InputObject and InputArray are passed as JSON and allow dot access and
	// iteration in templates.
	InputObject InputType = "object"
	InputArray  InputType = "array"
)

// Requirement is a parameter's requirement.
type Requirement string

const (
	Required   Requirement = "required"
	Optional   Requirement = "optional"
	UserPrompt Requirement = "user_prompt"
)

// Parameter is a recipe parameter. Default accepts any YAML scalar and keeps
// it as text.
type Parameter struct {
	Key         string      `json:"key"`
	InputType   InputType   `json:"input_type"`
	Requirement Requirement `json:"requirement"`
	Description string      `json:"description"`
	Default     *string     `json:"default,omitempty"`
	Options     []string    `json:"options,omitempty"`
}

// UnmarshalJSON checks the enums and stringifies a scalar default.
func (p *Parameter) UnmarshalJSON(b []byte) error {
	var raw struct {
		Key         *string         `json:"key"`
		InputType   InputType       `json:"input_type"`
		Requirement Requirement     `json:"requirement"`
		Description *string         `json:"description"`
		Default     json.RawMessage `json:"default"`
		Options     []string        `json:"options"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	switch {
	case raw.Key == nil:
		return fmt.Errorf("missing field `key`")
	case raw.Description == nil:
		return fmt.Errorf("missing field `description`")
	}
	if err := checkEnum("input_type", string(raw.InputType), "string", "number", "boolean", "date", "file", "select", "object", "array"); err != nil {
		return err
	}
	if err := checkEnum("requirement", string(raw.Requirement), "required", "optional", "user_prompt"); err != nil {
		return err
	}
	*p = Parameter{Key: *raw.Key, InputType: raw.InputType, Requirement: raw.Requirement, Description: *raw.Description, Options: raw.Options}
	if len(raw.Default) > 0 && string(raw.Default) != "null" {
		d := stringifyJSON(raw.Default)
		p.Default = &d
	}
	return nil
}

func checkEnum(field, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	if v == "" {
		return fmt.Errorf("missing field `%s`", field)
	}
	return fmt.Errorf("%s: unknown variant `%s`, expected one of %s", field, v, quoteList(allowed))
}

func quoteList(vs []string) string {
	out := ""
	for i, v := range vs {
		if i > 0 {
			out += ", "
		}
		out += "`" + v + "`"
	}
	return out
}

// RetryConfig is goose's recipe retry block.
type RetryConfig struct {
	MaxRetries              int            `json:"max_retries"`
	Checks                  []SuccessCheck `json:"checks"`
	OnFailure               *string        `json:"on_failure,omitempty"`
	TimeoutSeconds          *int64         `json:"timeout_seconds,omitempty"`
	OnFailureTimeoutSeconds *int64         `json:"on_failure_timeout_seconds,omitempty"`
}

// Validate applies goose's RetryConfig::validate rules and texts.
func (r RetryConfig) Validate() error {
	switch {
	case r.MaxRetries <= 0:
		return fmt.Errorf("max_retries must be greater than 0")
	case r.TimeoutSeconds != nil && *r.TimeoutSeconds <= 0:
		return fmt.Errorf("timeout_seconds must be greater than 0 if specified")
	case r.OnFailureTimeoutSeconds != nil && *r.OnFailureTimeoutSeconds <= 0:
		return fmt.Errorf("on_failure_timeout_seconds must be greater than 0 if specified")
	}
	return nil
}

// SuccessCheck is one retry check; goose has only shell checks. It is
// written as {"type":"Shell","command":…} and "shell" is accepted on read.
type SuccessCheck struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

// UnmarshalJSON accepts "Shell" or "shell".
func (c *SuccessCheck) UnmarshalJSON(b []byte) error {
	type plain SuccessCheck
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	if p.Type != "Shell" && p.Type != "shell" {
		return fmt.Errorf("unknown variant `%s`, expected `Shell`", p.Type)
	}
	p.Type = "Shell"
	*c = SuccessCheck(p)
	return nil
}

// stringifyJSON returns a JSON string's value, or other JSON as compact text.
func stringifyJSON(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var anyV any
	if json.Unmarshal(v, &anyV) == nil {
		if f, ok := anyV.(float64); ok {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		if b, err := json.Marshal(anyV); err == nil {
			return string(b)
		}
	}
	return string(v)
}

// PromptText is what a headless run sends as the first user message: the
// prompt when it is not blank, else the instructions.
func (r *Recipe) PromptText() (string, error) {
	if r.Prompt != nil && !isBlank(*r.Prompt) {
		return *r.Prompt, nil
	}
	if r.Instructions != nil && !isBlank(*r.Instructions) {
		return *r.Instructions, nil
	}
	return "", ErrNoPromptOrInstructions
}

// ResponseSchema returns the final_output JSON schema, or nil.
func (r *Recipe) ResponseSchema() json.RawMessage {
	if r.Response == nil || len(r.Response.JSONSchema) == 0 || string(r.Response.JSONSchema) == "null" {
		return nil
	}
	return r.Response.JSONSchema
}
