package developer

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"testing"
)

// toolsList returns what a client sees from tools/list on a fresh server
// of surface: every tool's name, description, schemas, annotations and
// _meta, indented, in the server's (name) order.
func toolsList(t *testing.T, surface Surface) []byte {
	t.Helper()
	return encodeToolsList(t, newHarness(t, Options{Surface: surface, ReadTool: true, Getenv: func(k string) string {
		if k == "SHELL" {
			return "/bin/bash"
		}
		return ""
	}}))
}

// encodeToolsList is h's tools/list answer, indented, HTML left unescaped.
func encodeToolsList(t *testing.T, h *harness) []byte {
	t.Helper()
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res.Tools); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestToolsListGolden pins the tool surfaces as a client sees them:
// the classic one `goose-acp mcp developer` serves, the editor one (with
// read, as an fs client gets it) and the analyze one the agent loads
// in-process. Any change to a name, schema, description,
// annotation or declared ToolMeta shows up here; regenerate with
// `go test ./developer -run TestToolsListGolden -update` and review the diff.
func TestToolsListGolden(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the editor shell description names the Windows shell; the goldens are the unix texts")
	}
	for name, surface := range map[string]Surface{"tools_classic.json": Classic, "tools_editor.json": Editor, "tools_analyze.json": Analyze} {
		t.Run(name, func(t *testing.T) {
			golden(t, name, "\x00", string(toolsList(t, surface)))
		})
	}
}

// TestEveryToolDeclaresItsMeta: each tool of both surfaces carries its
// ToolMeta under MetaKeyTool with a kind, and the argument names it
// declares exist in its input schema.
func TestEveryToolDeclaresItsMeta(t *testing.T) {
	for _, surface := range []Surface{Classic, Editor, Analyze} {
		var tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Properties map[string]any `json:"properties"`
			} `json:"inputSchema"`
			Meta map[string]ToolMeta `json:"_meta"`
		}
		if err := json.Unmarshal(toolsList(t, surface), &tools); err != nil {
			t.Fatal(err)
		}
		for _, tool := range tools {
			m, ok := tool.Meta[MetaKeyTool]
			if !ok || m.Kind == "" {
				t.Errorf("surface %d: %s has no %s kind: %+v", surface, tool.Name, MetaKeyTool, tool.Meta)
				continue
			}
			for _, arg := range []string{m.Path, m.Line, m.Range, m.Before, m.After, m.Content} {
				if _, ok := tool.InputSchema.Properties[arg]; arg != "" && !ok {
					t.Errorf("%s declares argument %q, not in its schema", tool.Name, arg)
				}
			}
		}
	}
}
