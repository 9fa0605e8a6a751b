package recipe

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// ResponseSchema is a compiled recipe response schema (JSON Schema draft 7 or
// 2020-12): what the final_output tool validates against. It uses the
// validator the MCP SDK already links, whose package init is cheap; the
// one we use in tests compiles its metaschemas at init, which cost every
// process start several milliseconds.
type ResponseSchema struct{ resolved *jsonschema.Resolved }

// CompileSchema compiles a response JSON schema.
func CompileSchema(schema []byte) (*ResponseSchema, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	var raw any
	_ = json.Unmarshal(schema, &raw)
	if err := checkTypeNames(raw); err != nil {
		return nil, err
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return &ResponseSchema{resolved: r}, nil
}

// SchemaError is one validation failure at an instance location ("" is
// the root, "/a/b" a nested property).
type SchemaError struct {
	InstancePath string
	Message      string
}

func (e *SchemaError) Error() string { return e.InstancePath + ": " + e.Message }

// Validate checks a decoded JSON value (as json.Unmarshal into any gives).
func (s *ResponseSchema) Validate(instance any) error {
	err := s.resolved.Validate(instance)
	if err == nil {
		return nil
	}
	return schemaError(err)
}

// schemaError turns the validator's "validating root: validating
// /properties/a: type: …" chain into the instance path and the message.
func schemaError(err error) *SchemaError {
	msg := err.Error()
	path := ""
	for {
		rest, ok := strings.CutPrefix(msg, "validating ")
		if !ok {
			break
		}
		loc, tail, ok := strings.Cut(rest, ": ")
		if !ok {
			break
		}
		if loc != "root" {
			path = instancePath(loc)
		}
		msg = tail
	}
	return &SchemaError{InstancePath: path, Message: msg}
}

// instancePath maps a schema location to the instance location it checks:
// /properties/a/items/properties/b → /a/*/b.
func instancePath(schemaLoc string) string {
	parts := strings.Split(strings.TrimPrefix(schemaLoc, "/"), "/")
	var out []string
	for i := 0; i < len(parts); i++ {
		switch parts[i] {
		case "properties", "patternProperties":
			if i+1 < len(parts) {
				out = append(out, parts[i+1])
				i++
			}
		case "items", "additionalProperties", "prefixItems":
			out = append(out, "*")
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "/" + strings.Join(out, "/")
}

// jsonTypes are the names "type" may hold.
var jsonTypes = map[string]bool{"null": true, "boolean": true, "object": true, "array": true, "number": true, "string": true, "integer": true}

// checkTypeNames rejects an unknown "type" name anywhere in the schema (the
// validator accepts one silently). Keywords that hold data, not schemas,
// are skipped.
func checkTypeNames(v any) error {
	switch n := v.(type) {
	case map[string]any:
		for k, child := range n {
			switch k {
			case "enum", "const", "default", "examples":
				continue
			case "type":
				if err := checkTypeValue(child); err != nil {
					return err
				}
				continue
			}
			if err := checkTypeNames(child); err != nil {
				return err
			}
		}
	case []any:
		for _, child := range n {
			if err := checkTypeNames(child); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkTypeValue(v any) error {
	names := []any{v}
	switch t := v.(type) {
	case []any:
		names = t
	case map[string]any:
		return checkTypeNames(t) // a property called "type"
	}
	for _, name := range names {
		if s, ok := name.(string); !ok || !jsonTypes[s] {
			return fmt.Errorf("invalid value for \"type\": %v", name)
		}
	}
	return nil
}
