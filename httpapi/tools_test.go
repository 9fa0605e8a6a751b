package httpapi

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAgentToolsListsTheUserLevel: /agent/tools answers from core's tool
// list (the ACP face's) with goosed's permission: the permission.yaml
// level a tool has, null without one — also in approve mode, where goose
// would ask — and /config/permissions writes through core to
// permission.yaml.
func TestAgentToolsListsTheUserLevel(t *testing.T) {
	e := newTestEnv(t, "approve")
	id := e.startSession()
	e.callJSON("POST", "/config/permissions", map[string]any{"tool_permissions": []any{
		map[string]any{"tool_name": "tt__echo", "permission": "always_allow"}}}, 200, nil)
	if b, _ := os.ReadFile(filepath.Join(e.root, "config", "permission.yaml")); string(b) != "user:\n  always_allow:\n    - tt__echo\n  ask_before: []\n  never_allow: []\n" {
		t.Fatalf("permission.yaml:\n%s", b)
	}
	code, body := e.call("GET", "/agent/tools?session_id="+id+"&extension_name=tt", nil)
	schema := `"parameters":["a","x"],"input_schema":{"properties":{"a":{"type":"string"},"x":{"type":"number"}},"type":"object"}`
	want := `[{"name":"tt__ask","description":"Ask the user",` + schema + `,"permission":null},` +
		`{"name":"tt__echo","description":"Echo the arguments",` + schema + `,"permission":"always_allow"},` +
		`{"name":"tt__notify","description":"Report progress",` + schema + `,"permission":null}]`
	if code != 200 || body != want {
		t.Fatalf("tools = %d %s\nwant %s", code, body, want)
	}
}

// TestCallToolNotFoundIsCores: /agent/call_tool of a tool the session does
// not have is core's refusal (agent.ErrToolNotFound), in goosed's words.
func TestCallToolNotFoundIsCores(t *testing.T) {
	e := newTestEnv(t, "auto")
	id := e.startSession()
	if code, body := e.call("POST", "/agent/call_tool", map[string]any{"session_id": id, "name": "tt__nope", "arguments": map[string]any{}}); code != 404 || body != `{"message":"Tool not found: tt__nope"}` {
		t.Fatalf("unknown tool: %d %s", code, body)
	}
	if code, body := e.call("POST", "/agent/call_tool", map[string]any{"session_id": id, "name": "tt__echo", "arguments": map[string]any{"a": "b"}}); code != 200 || body != `{"content":[{"type":"text","text":"echo:{\"a\":\"b\"}"}],"isError":false}` {
		t.Fatalf("echo: %d %s", code, body)
	}
}
