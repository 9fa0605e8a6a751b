package acp

import (
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/permission"
)

// newSession opens a session over ACP as Desktop does and returns its id.
func (r *desktopRig) newSession(t *testing.T) string {
	t.Helper()
	r.nextID++
	rep := r.callRaw(t, r.nextID, "session/new", map[string]any{"cwd": r.dir, "mcpServers": []any{}})
	if rep.Error != nil {
		t.Fatalf("session/new: %+v", rep.Error)
	}
	var out struct {
		SessionID string `json:"sessionId"`
	}
	mustUnmarshal(t, rep.Result, &out)
	return out.SessionID
}

type memPerms map[string]permission.Level

func (m memPerms) User(tool string) permission.Level  { return m[tool] }
func (m memPerms) Smart(tool string) permission.Level { return m["smart:"+tool] }
func (m memPerms) SetUser(tool string, l permission.Level) error {
	m[tool] = l
	return nil
}
func (m memPerms) SetSmart(tool string, l permission.Level) error {
	m["smart:"+tool] = l
	return nil
}

func TestUnstableToolsListCallAndPermissions(t *testing.T) {
	r := newDesktopRig(t, nil)
	id := r.newSession(t)
	r.call(t, unstable+"session/extensions/add", map[string]any{"sessionId": id,
		"extension": map[string]any{"type": "platform", "name": "todo"}})

	var list struct {
		Extensions []struct {
			Extension    map[string]any `json:"extension"`
			ExtensionKey string         `json:"extensionKey"`
		} `json:"extensions"`
	}
	keys := func() map[string]string {
		mustUnmarshal(t, r.call(t, unstable+"session/extensions/list", map[string]any{"sessionId": id}), &list)
		out := map[string]string{}
		for _, e := range list.Extensions {
			out[e.ExtensionKey], _ = e.Extension["type"].(string)
		}
		return out
	}
	if got := keys(); got["todo"] != "platform" {
		t.Fatalf("session extensions: %+v", list.Extensions)
	}
	if got := string(r.onDisk(t, id).ExtensionData["enabled_extensions.v0"]); !strings.Contains(got, `"todo"`) {
		t.Fatalf("the session's extensions on disk: %s", got)
	}

	var tools struct {
		Tools []struct {
			Name       string   `json:"name"`
			Parameters []string `json:"parameters"`
			Permission *string  `json:"permission"`
		} `json:"tools"`
	}
	mustUnmarshal(t, r.call(t, unstable+"tools/list", map[string]any{"sessionId": id, "extensionName": "todo"}), &tools)
	if len(tools.Tools) == 0 || !strings.HasPrefix(tools.Tools[0].Name, "todo__") || tools.Tools[0].Permission != nil {
		t.Fatalf("tools/list: %+v", tools.Tools)
	}

	var res struct {
		Content []map[string]any `json:"content"`
		IsError bool             `json:"isError"`
	}
	mustUnmarshal(t, r.call(t, unstable+"tools/call", map[string]any{"sessionId": id, "extensionName": "todo",
		"name": "todo_write", "arguments": map[string]any{"content": "- [ ] ship c2"}}), &res)
	if res.IsError || len(res.Content) == 0 {
		t.Fatalf("tools/call: %+v", res)
	}
	code, _, data := r.callErr(t, unstable+"tools/call", map[string]any{"sessionId": id, "extensionName": "todo", "name": "nope"})
	if code != -32602 || data != `"tool not found"` {
		t.Fatalf("unknown tool: %d %s", code, data)
	}

	r.call(t, unstable+"session/extensions/remove", map[string]any{"sessionId": id, "extensionKey": "todo"})
	if _, still := keys()["todo"]; still {
		t.Fatalf("after remove: %+v", list.Extensions)
	}
	if got := string(r.onDisk(t, id).ExtensionData["enabled_extensions.v0"]); strings.Contains(got, `"todo"`) {
		t.Fatalf("todo still on disk after remove: %s", got)
	}
}

func TestUnstableToolPermissionsWriteTheStore(t *testing.T) {
	perms := memPerms{}
	r := newDesktopRigWithPerms(t, perms)
	r.call(t, unstable+"tools/permissions/set", map[string]any{"toolPermissions": []any{
		map[string]any{"toolName": "developer__shell", "permission": "never_allow"},
		map[string]any{"toolName": "todo__todo_write", "permission": "always_allow"}}})
	if perms["developer__shell"] != permission.LevelNeverAllow || perms["todo__todo_write"] != permission.LevelAlwaysAllow {
		t.Fatalf("permission store: %v", perms)
	}
	code, _, _ := r.callErr(t, unstable+"tools/permissions/set", map[string]any{"toolPermissions": []any{
		map[string]any{"toolName": "a", "permission": "always_allow"},
		map[string]any{"toolName": "b", "permission": "sometimes"}}})
	if code != -32602 || perms["a"] != "" {
		t.Fatalf("a bad entry: code %d, store %v (nothing may be written)", code, perms)
	}
	id := r.newSession(t)
	r.call(t, unstable+"session/extensions/add", map[string]any{"sessionId": id,
		"extension": map[string]any{"type": "platform", "name": "todo"}})
	out := r.call(t, unstable+"tools/list", map[string]any{"sessionId": id})
	var tools struct {
		Tools []struct {
			Name       string  `json:"name"`
			Permission *string `json:"permission"`
		} `json:"tools"`
	}
	mustUnmarshal(t, out, &tools)
	for _, tl := range tools.Tools {
		if tl.Name == "todo__todo_write" && (tl.Permission == nil || *tl.Permission != "always_allow") {
			t.Fatalf("todo_write permission: %s", out)
		}
	}
}

func TestUnstableAppsAreAnEmptyList(t *testing.T) {
	r := newDesktopRig(t, nil)
	if got := string(r.call(t, unstable+"apps/list", map[string]any{})); got != `{"apps":[]}` {
		t.Fatalf("apps/list: %s", got)
	}
	code, msg, _ := r.callErr(t, unstable+"apps/import", map[string]any{"html": "<html></html>"})
	if code != CodeUnavailable || !strings.HasPrefix(msg, "MCP Apps is not available in goose-acp") {
		t.Fatalf("apps/import: %d %s", code, msg)
	}
}
