package google

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

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
func functionDeclarations(tools []provider.Tool) []functionDeclaration {
	out := make([]functionDeclaration, 0, len(tools))
	for _, t := range tools {
		d := functionDeclaration{Name: t.Name, Description: t.Description}
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

// toSchema converts a filtered JSON schema to Gemini's schema object, as
// genai's typed Schema serialised it: upper-case type ("OBJECT"), a
// "null" in a type list turned into nullable, enum values as strings,
// integer maxItems/minItems, string-only required names; values of
// another type are dropped, and so are empty strings, lists and maps.
func toSchema(m map[string]any) map[string]any {
	s := map[string]any{}
	typ, nullable := schemaType(m["type"])
	if typ != "" {
		s["type"] = typ
	}
	if b, ok := m["nullable"].(bool); ok {
		nullable = &b
	}
	if nullable != nil {
		s["nullable"] = *nullable
	}
	for _, k := range []string{"format", "description"} {
		if v, _ := m[k].(string); v != "" {
			s[k] = v
		}
	}
	if enum, ok := m["enum"].([]any); ok && len(enum) > 0 {
		vals := make([]string, len(enum))
		for i, e := range enum {
			vals[i] = fmt.Sprint(e)
		}
		s["enum"] = vals
	}
	for _, k := range []string{"maxItems", "minItems"} {
		if n, ok := int64Of(m[k]); ok {
			s[k] = n
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		out := map[string]any{}
		for name, p := range props {
			if pm, ok := p.(map[string]any); ok {
				out[name] = toSchema(pm)
			}
		}
		if len(out) > 0 {
			s["properties"] = out
		}
	}
	if req, ok := m["required"].([]any); ok {
		var names []string
		for _, r := range req {
			if name, ok := r.(string); ok {
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			s["required"] = names
		}
	}
	if items, ok := m["items"].(map[string]any); ok {
		s["items"] = toSchema(items)
	}
	return s
}

// schemaType maps "string" or ["string","null"] to Gemini's upper-case
// type, marking the latter nullable; no type means STRING.
func schemaType(v any) (string, *bool) {
	switch t := v.(type) {
	case string:
		return strings.ToUpper(t), nil
	case []any:
		typ := ""
		nullable := false
		for _, e := range t {
			s, _ := e.(string)
			if s == "null" {
				nullable = true
			} else if typ == "" && s != "" {
				typ = strings.ToUpper(s)
			}
		}
		if nullable {
			return typ, &nullable
		}
		return typ, nil
	}
	return "STRING", nil
}

func int64Of(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}
