package recipe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/errkind"
)

// FromContent parses a recipe from YAML or JSON text (JSON is read as YAML,
// as goose does), unwrapping a top-level "recipe:" key. Like goose's
// Recipe::from_content it adds the "analyze" platform extension when the
// builtin developer extension is listed, and "summon" when there are
// sub_recipes. Template tags are not rendered here.
func FromContent(content string) (*Recipe, error) {
	r, err := parseYAMLRecipe(content)
	if err != nil {
		return nil, err
	}
	r.ensureAnalyzeForDeveloper()
	r.ensureSummonForSubRecipes()
	return r, nil
}

// FromJSON decodes goose's recipe JSON (as carried in a deeplink) without
// any additions. title and description must be strings.
func FromJSON(b []byte) (*Recipe, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return fromJSONObject(m, b)
}

func parseYAMLRecipe(content string) (*Recipe, error) {
	var doc any
	if err := yaml.Unmarshal([]byte(content), &doc); err != nil {
		return nil, errkind.Wrapf(ErrInvalid, "%s", stripLocation(err.Error()))
	}
	top, ok := normalizeYAML(doc).(map[string]any)
	if !ok {
		return nil, invalidf("invalid type: expected struct Recipe")
	}
	if nested, ok := top["recipe"]; ok {
		if top, ok = nested.(map[string]any); !ok {
			return nil, invalidf("invalid type: expected struct Recipe")
		}
	}
	b, err := json.Marshal(top)
	if err != nil {
		return nil, errkind.Wrapf(ErrInvalid, "%v", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, errkind.Wrapf(ErrInvalid, "%v", err)
	}
	r, err := fromJSONObject(m, b)
	if err != nil {
		return nil, errkind.Wrapf(ErrInvalid, "%s", err.Error())
	}
	return r, nil
}

func fromJSONObject(m map[string]json.RawMessage, b []byte) (*Recipe, error) {
	for _, f := range []string{"title", "description"} {
		v, ok := m[f]
		if !ok {
			return nil, fmt.Errorf("missing field `%s`", f)
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			return nil, fmt.Errorf("invalid type for `%s`: expected a string", f)
		}
	}
	var r Recipe
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&r); err != nil {
		return nil, cleanJSONError(err)
	}
	if _, ok := m["version"]; !ok {
		r.Version = DefaultVersion
	}
	return &r, nil
}

// normalizeYAML turns yaml.v3's generic values into JSON-encodable ones.
func normalizeYAML(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = normalizeYAML(e)
		}
		return t
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[fmt.Sprint(k)] = normalizeYAML(e)
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = normalizeYAML(e)
		}
		return t
	}
	return v
}

// cleanJSONError words a decode failure as goose's serde message reads,
// without encoding/json's "json: " prefix: built from the type error's
// fields, never by editing the error's text. Syntax errors and our own
// UnmarshalJSON errors carry no prefix and pass through.
func cleanJSONError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	if te.Struct == "" && te.Field == "" {
		return fmt.Errorf("cannot unmarshal %s into Go value of type %s", te.Value, te.Type)
	}
	return fmt.Errorf("cannot unmarshal %s into Go struct field %s.%s of type %s", te.Value, te.Struct, te.Field, te.Type)
}

// stripLocation is goose's strip_error_location: drop " at line …".
func stripLocation(msg string) string {
	if i := strings.Index(msg, " at line"); i >= 0 {
		return msg[:i]
	}
	return msg
}

func isBlank(s string) bool { return strings.TrimFunc(s, unicode.IsSpace) == "" }

func (r *Recipe) ensureAnalyzeForDeveloper() {
	hasDev, hasAnalyze := false, false
	for _, e := range r.Extensions {
		if e.Type == config.ExtensionBuiltin && e.Name == "developer" {
			hasDev = true
		}
		if e.Name == "analyze" {
			hasAnalyze = true
		}
	}
	if hasDev && !hasAnalyze {
		r.Extensions = append(r.Extensions, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: "analyze"})
	}
}

func (r *Recipe) ensureSummonForSubRecipes() {
	if r.SubRecipes == nil {
		return
	}
	for _, e := range r.Extensions {
		if e.Name == "summon" {
			return
		}
	}
	r.Extensions = append(r.Extensions, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: "summon"})
}
