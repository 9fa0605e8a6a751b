package e2e

import (
	"testing"
)

// What Goose Desktop 1.5x reads beyond the schema (issue "Goose Desktop
// 1.5x reads more than the schema says"), over the real binary on the
// ACP SDK 1.5.0 with Desktop 1.5x's request params.

// sessions.ts acpNewSession: _meta.enabledExtensions is the new-chat
// extension choice; present, it is exactly the session's extensions (an
// empty list: none).
func TestDesktopNewChatExtensionChoice(t *testing.T) {
	env := newAgentEnv(t)
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	todo := map[string]any{"type": "platform", "name": "todo", "description": "todo", "bundled": true}
	r := runDesktop(t, env, desktopScript{Steps: []desktopStep{
		dcall("none", "session/new", map[string]any{"cwd": work, "mcpServers": []any{},
			"_meta": map[string]any{"client": "goose-desktop", "enabledExtensions": []any{}}}),
		dext("noneList", "session/extensions/list", map[string]any{"sessionId": "${none.sessionId}"}),
		dcall("one", "session/new", map[string]any{"cwd": work, "mcpServers": []any{},
			"_meta": map[string]any{"client": "goose-desktop", "enabledExtensions": []any{todo}}}),
		dext("oneList", "session/extensions/list", map[string]any{"sessionId": "${one.sessionId}"}),
		dcall("default", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}, "_meta": map[string]any{"client": "goose-desktop"}}),
		dext("defaultList", "session/extensions/list", map[string]any{"sessionId": "${default.sessionId}"}),
		dcall("bad", "session/new", map[string]any{"cwd": work, "mcpServers": []any{},
			"_meta": map[string]any{"enabledExtensions": []any{map[string]any{"type": "teleport", "name": "x"}}}}),
	}})
	keys := func(name string) []string {
		var res struct {
			Extensions []struct {
				ExtensionKey string `json:"extensionKey"`
			} `json:"extensions"`
		}
		r.decode(name, &res)
		out := []string{}
		for _, e := range res.Extensions {
			out = append(out, e.ExtensionKey)
		}
		return out
	}
	if got := keys("noneList"); len(got) != 0 {
		t.Errorf("enabledExtensions [] gave %v", got)
	}
	if got := keys("oneList"); len(got) != 1 || got[0] != "todo" {
		t.Errorf("enabledExtensions [todo] gave %v", got)
	}
	if got := keys("defaultList"); len(got) < 2 {
		t.Errorf("without enabledExtensions the configured set: %v", got)
	}
	if e := r.fail("bad"); e.Code != -32602 {
		t.Errorf("an extension of unknown type: %+v", e)
	}
}
