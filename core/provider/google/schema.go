package google

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/goose-acp/goose-acp/core/provider"
)

// acceptedSchemaKeys are the JSON-schema keywords goose keeps for Gemini;
// everything else (anyOf, additionalProperties, default, $schema, …) is
// stripped, because Gemini rejects the whole request over one of them.
var acceptedSchemaKeys = map[string]bool{
	"type": true, "format": true, "description": true, "nullable": true, "enum": true,
	"maxItems": true, "minItems": true, "properties": true, "required": true, "items": true,
}

// functionDeclarations declares each tool; parameters are sent only when
// the schema has properties, as goose does.
func functionDeclarations(tools []provider.Tool) []*genai.FunctionDeclaration {
	out := make([]*genai.FunctionDeclaration, 0, len(tools))
	for _, t := range tools {
		d := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
		var schema map[string]any
		dec := json.NewDecoder(bytes.NewReader(t.InputSchema))
		dec.UseNumber()
		if dec.Decode(&schema) == nil {
			if props, ok := schema["properties"].(map[string]any); ok && len(props) > 0 {
				d.Parameters = toSchema(filterSchema(schema, ""))
			}
		}
		out = append(out, d)
	}
	return out
}

// filterSchema is goose's process_map: keep accepted keywords (all keys
// directly under "properties", which are property names), recurse into
// objects, and default a missing type to "string".
func filterSchema(m map[string]any, parent string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !acceptedSchemaKeys[k] && parent != "properties" {
			continue
		}
		if nested, ok := v.(map[string]any); ok {
			v = filterSchema(nested, k)
		}
		out[k] = v
	}
	if _, ok := out["type"]; !ok && parent != "properties" {
		out["type"] = "string"
	}
	return out
}

// toSchema converts a filtered schema to genai's typed Schema.
func toSchema(m map[string]any) *genai.Schema {
	s := &genai.Schema{}
	s.Type, s.Nullable = schemaType(m["type"])
	s.Format, _ = m["format"].(string)
	s.Description, _ = m["description"].(string)
	if b, ok := m["nullable"].(bool); ok {
		s.Nullable = &b
	}
	if enum, ok := m["enum"].([]any); ok {
		for _, e := range enum {
			s.Enum = append(s.Enum, fmt.Sprint(e))
		}
	}
	s.MaxItems, s.MinItems = int64Of(m["maxItems"]), int64Of(m["minItems"])
	if props, ok := m["properties"].(map[string]any); ok {
		s.Properties = make(map[string]*genai.Schema, len(props))
		for name, p := range props {
			if pm, ok := p.(map[string]any); ok {
				s.Properties[name] = toSchema(pm)
			}
		}
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	if items, ok := m["items"].(map[string]any); ok {
		s.Items = toSchema(items)
	}
	return s
}

// schemaType maps "string" or ["string","null"] to Gemini's upper-case
// type, marking the latter nullable.
func schemaType(v any) (genai.Type, *bool) {
	switch t := v.(type) {
	case string:
		return genai.Type(strings.ToUpper(t)), nil
	case []any:
		var typ genai.Type
		nullable := false
		for _, e := range t {
			s, _ := e.(string)
			if s == "null" {
				nullable = true
			} else if typ == "" && s != "" {
				typ = genai.Type(strings.ToUpper(s))
			}
		}
		if nullable {
			return typ, &nullable
		}
		return typ, nil
	}
	return genai.TypeString, nil
}

func int64Of(v any) *int64 {
	n, ok := v.(json.Number)
	if !ok {
		return nil
	}
	i, err := n.Int64()
	if err != nil {
		return nil
	}
	return &i
}
