package config

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The goosed 1.33 OpenAPI copy kept (and checked against the shared
// reference) by core/conversation's tests.
const openAPIPath = "../conversation/testdata/openapi/goosed-openapi-1.33.0.json"

func compileComponent(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(openAPIPath)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "mem://goosed/1.33/openapi.json"
	if err := c.AddResource(url, nullableToJSONSchema(doc)); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url + "#/components/schemas/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// nullableToJSONSchema rewrites OpenAPI 3.0 {"type":T,"nullable":true}.
func nullableToJSONSchema(v any) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = nullableToJSONSchema(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = nullableToJSONSchema(x[k])
		}
		if x["nullable"] == true {
			delete(x, "nullable")
			if t, ok := x["type"].(string); ok {
				x["type"] = []any{t, "null"}
			}
		}
	}
	return v
}

func TestExtensionEntriesMatchOpenAPI(t *testing.T) {
	sch := compileComponent(t, "ExtensionEntry")
	timeout, yes := int64(60), true
	entries := []ExtensionEntry{
		{true, ExtensionConfig{Type: ExtensionStdio, Name: "gh", Description: "d", Cmd: "npx", Args: []string{"-y"}, Envs: map[string]string{"A": "b"}, EnvKeys: []string{"T"}, Timeout: &timeout, Bundled: &yes, AvailableTools: []string{"x"}}},
		{false, ExtensionConfig{Type: ExtensionStdio, Name: "bare", Cmd: "run"}},
		{true, ExtensionConfig{Type: ExtensionBuiltin, Name: "developer", DisplayName: "Developer", Timeout: &timeout}},
		{true, ExtensionConfig{Type: ExtensionPlatform, Name: "todo", Bundled: &yes}},
		{true, ExtensionConfig{Type: ExtensionStreamableHTTP, Name: "remote", URI: "https://mcp.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}}},
		{true, ExtensionConfig{Type: ExtensionFrontend, Name: "ui", Tools: []json.RawMessage{json.RawMessage(`{"name":"open","inputSchema":{"type":"object"}}`)}, Instructions: "use it"}},
		{true, ExtensionConfig{Type: ExtensionInlinePython, Name: "py", Code: "print(1)", Dependencies: []string{"requests"}}},
		{false, ExtensionConfig{Type: ExtensionSSE, Name: "old", URI: "http://localhost:8080/sse"}},
	}
	for _, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(`{"type":"stdio","name":"x","description":"","cmd":"a","args":[]}`)))
	if sch.Validate(inst) == nil {
		t.Fatal("entry without enabled accepted; the schema check is not biting")
	}
}
