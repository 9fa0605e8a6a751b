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

// sessions.ts acpListSessions: the history view's search (_meta.query),
// its types ([user, scheduled]: no sub-agent chats), archived chats hidden
// unless asked for (_meta.goose.archiveState), the last message's time
// and snippet.
func TestDesktopSessionListFilters(t *testing.T) {
	env := newAgentEnv(t, textTurn("Use a bigger shared_buffers."), textTurn("Hi there."))
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	types := []string{"user", "scheduled"}
	list := func(as string, meta map[string]any) desktopStep {
		return dcall(as, "session/list", map[string]any{"_meta": meta})
	}
	r := runDesktop(t, env, desktopScript{Steps: []desktopStep{
		dcall("a", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}, "_meta": map[string]any{"client": "goose-desktop"}}),
		dcall("pa", "session/prompt", map[string]any{"sessionId": "${a.sessionId}", "prompt": []any{map[string]any{"type": "text", "text": "Postgres tuning?"}}}),
		dcall("b", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}, "_meta": map[string]any{"client": "goose-desktop"}}),
		dcall("pb", "session/prompt", map[string]any{"sessionId": "${b.sessionId}", "prompt": []any{map[string]any{"type": "text", "text": "hello"}}}),
		dext("archive", "session/archive", map[string]any{"sessionId": "${b.sessionId}"}),
		list("plain", map[string]any{"types": types}),
		list("query", map[string]any{"types": types, "query": "POSTGRES"}),
		list("archived", map[string]any{"types": types, "goose": map[string]any{"archiveState": "archived"}}),
		list("all", map[string]any{"types": types, "goose": map[string]any{"archiveState": "all", "includeLastMessageSnippet": true}}),
		list("scheduled", map[string]any{"types": []string{"scheduled"}}),
		list("badType", map[string]any{"types": []string{"sub_agent"}}),
	}})
	var a, b struct {
		SessionID string `json:"sessionId"`
	}
	r.decode("a", &a)
	r.decode("b", &b)
	type listed struct {
		Sessions []struct {
			SessionID string         `json:"sessionId"`
			Meta      map[string]any `json:"_meta"`
		} `json:"sessions"`
	}
	ids := func(name string) (out []string, metas map[string]map[string]any) {
		var l listed
		r.decode(name, &l)
		metas = map[string]map[string]any{}
		for _, s := range l.Sessions {
			out = append(out, s.SessionID)
			metas[s.SessionID] = s.Meta
		}
		return out, metas
	}
	got, metas := ids("plain")
	if len(got) != 1 || got[0] != a.SessionID {
		t.Errorf("default list (archived hidden) = %v, want [%s]", got, a.SessionID)
	}
	if at, _ := metas[a.SessionID]["lastMessageAt"].(string); len(at) != len("2006-01-02T15:04:05Z") {
		t.Errorf("lastMessageAt = %v", metas[a.SessionID]["lastMessageAt"])
	}
	if got, _ := ids("query"); len(got) != 1 || got[0] != a.SessionID {
		t.Errorf("query POSTGRES = %v", got)
	}
	if got, _ := ids("archived"); len(got) != 1 || got[0] != b.SessionID {
		t.Errorf("archiveState archived = %v", got)
	}
	got, metas = ids("all")
	if len(got) != 2 || metas[a.SessionID]["lastMessageSnippet"] != "Use a bigger shared_buffers." || metas[b.SessionID]["lastMessageSnippet"] != "Hi there." {
		t.Errorf("archiveState all with snippets = %v %v", got, metas)
	}
	if got, _ := ids("scheduled"); len(got) != 0 {
		t.Errorf("types [scheduled] = %v", got)
	}
	if e := r.fail("badType"); e.Code != -32602 || string(e.Data) != `"types may only include user, scheduled, or acp"` {
		t.Errorf("types [sub_agent]: %+v", e)
	}
}
