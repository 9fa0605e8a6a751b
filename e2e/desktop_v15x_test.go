package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
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

// chatSessionController.ts editMessage forks with _meta.conversationBefore
// set to the edited message's created time, which Desktop reads from
// _meta.goose.created of the frames (adapter/shared.ts), live and on
// replay; tool cards take their identity from _meta.goose.toolCall and
// live progress from _meta.toolNotification (adapter/tools.ts,
// toolNotifications.ts).
func TestDesktopMessageTimesForkAndToolFrames(t *testing.T) {
	entry := everythingEntry(t)
	env := newAgentEnv(t, providertest.Turn{Thinking: []string{"weighing it"}, Text: []string{"first answer"}},
		toolCallTurn("call_long", "everything__trigger-long-running-operation", map[string]any{"duration": 0.3, "steps": 3}),
		textTurn("done"))
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	everything := map[string]any{"type": "mcp", "server": map[string]any{"name": "everything", "command": "node", "args": []any{entry}, "env": []any{}}}
	prompt := func(as, text string) desktopStep {
		return dcall(as, "session/prompt", map[string]any{"sessionId": "${s.sessionId}", "prompt": []any{map[string]any{"type": "text", "text": text}}})
	}
	r := runDesktop(t, env, desktopScript{Steps: []desktopStep{
		dcall("s", "session/new", map[string]any{"cwd": work, "mcpServers": []any{},
			"_meta": map[string]any{"client": "goose-desktop", "enabledExtensions": []any{everything}}}),
		prompt("p1", "first question"),
		{"sleepMs": 1100},
		prompt("p2", "run the long operation"),
		dreconnect(),
		dcall("load", "session/load", map[string]any{"sessionId": "${s.sessionId}", "cwd": work, "mcpServers": []any{}}),
	}})
	var s struct {
		SessionID string `json:"sessionId"`
	}
	r.decode("s", &s)
	ups := r.updates(s.SessionID, false)
	goose := func(u map[string]any) map[string]any {
		m, _ := u["_meta"].(map[string]any)
		g, _ := m["goose"].(map[string]any)
		return g
	}
	// Live frames (before the reconnect) and replayed ones carry the same
	// created time per message.
	created := map[string][]float64{} // messageId → created seen
	seen := map[any]int{}             // frame kind → frames with created
	var toolCall, progress map[string]any
	for _, u := range ups {
		kind := u["sessionUpdate"]
		g := goose(u)
		switch kind {
		case "user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update":
			m, _ := u["_meta"].(map[string]any)
			if kind == "tool_call_update" && m["toolNotification"] != nil {
				if progress == nil {
					progress = m["toolNotification"].(map[string]any)
				}
				continue
			}
			if kind == "tool_call_update" && u["status"] == "in_progress" {
				continue
			}
			c, ok := g["created"].(float64)
			id, _ := g["messageId"].(string)
			if !ok || id == "" {
				t.Errorf("%s without _meta.goose {created, messageId}: %s", kind, djson(t, u))
				continue
			}
			created[id] = append(created[id], c)
			seen[kind]++
			if kind == "tool_call" && toolCall == nil {
				toolCall, _ = g["toolCall"].(map[string]any)
			}
		}
	}
	// Each kind live and again on the replay after the reconnect.
	for _, kind := range []string{"user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update"} {
		if seen[kind] < 2 {
			t.Errorf("%d %s frames with _meta.goose.created, want live and replayed ones", seen[kind], kind)
		}
	}
	for id, cs := range created {
		for _, c := range cs {
			if c != cs[0] {
				t.Errorf("message %s has created %v in different frames", id, cs)
			}
		}
	}
	if djson(t, toolCall) != `{"extensionName":"everything","toolName":"everything__trigger-long-running-operation"}` {
		t.Errorf("_meta.goose.toolCall = %s", djson(t, toolCall))
	}
	if progress["type"] != "progress" {
		t.Errorf("_meta.toolNotification = %s", djson(t, progress))
	} else if p, _ := progress["params"].(map[string]any); p["total"] != float64(3) || p["progress"] == nil || p["progressToken"] == nil {
		t.Errorf("progress params = %s", djson(t, p))
	}
	// The second question's time, as Desktop reads it from the replay.
	var secondAt float64
	for _, u := range ups {
		if c, ok := u["content"].(map[string]any); ok && u["sessionUpdate"] == "user_message_chunk" && c["text"] == "run the long operation" {
			secondAt, _ = goose(u)["created"].(float64)
		}
	}
	if secondAt == 0 {
		t.Fatalf("no replayed user_message_chunk of the second question with created")
	}

	// Edit the second question: fork before it, then open the fork.
	r2 := runDesktop(t, env, desktopScript{Steps: []desktopStep{
		dcall("fork", "session/fork", map[string]any{"sessionId": s.SessionID, "cwd": work, "mcpServers": []any{},
			"_meta": map[string]any{"conversationBefore": int64(secondAt)}}),
		dcall("load", "session/load", map[string]any{"sessionId": "${fork.sessionId}", "cwd": work, "mcpServers": []any{}}),
		dcall("bad", "session/fork", map[string]any{"sessionId": s.SessionID, "cwd": work, "mcpServers": []any{},
			"_meta": map[string]any{"conversationBefore": "yesterday"}}),
	}})
	var fork struct {
		SessionID string `json:"sessionId"`
	}
	r2.decode("fork", &fork)
	var texts []string
	for _, u := range r2.updates(fork.SessionID, false) {
		if c, ok := u["content"].(map[string]any); ok && u["sessionUpdate"] == "user_message_chunk" {
			texts = append(texts, c["text"].(string))
		}
	}
	if djson(t, texts) != `["first question"]` {
		t.Errorf("the fork before the edited message replays user texts %v", texts)
	}
	if e := r2.fail("bad"); e.Code != -32602 || string(e.Data) != `"conversationBefore must be an integer timestamp"` {
		t.Errorf("bad conversationBefore: %+v", e)
	}
}

// acp/capabilities.ts: Desktop opens goose://recipe deep links only when
// initialize advertises _meta.goose.recipeParameterScopes, and offers an
// empty new-chat extension choice only with emptyExtensionSelection (an
// object); localInference is not offered.
func TestDesktopInitializeAdvertisesGooseFeatures(t *testing.T) {
	env := newAgentEnv(t)
	r := runDesktop(t, env, desktopScript{Steps: []desktopStep{}})
	if len(r.Initialize) != 1 {
		t.Fatalf("initialize results: %d", len(r.Initialize))
	}
	var init struct {
		AgentCapabilities struct {
			Meta struct {
				Goose map[string]any `json:"goose"`
			} `json:"_meta"`
		} `json:"agentCapabilities"`
	}
	if err := json.Unmarshal(r.Initialize[0], &init); err != nil {
		t.Fatal(err)
	}
	g := init.AgentCapabilities.Meta.Goose
	_, scopes := g["recipeParameterScopes"]
	empty, _ := g["emptyExtensionSelection"].(map[string]any)
	_, local := g["localInference"]
	if !scopes || empty == nil || local {
		t.Errorf("agentCapabilities._meta.goose = %s", djson(t, g))
	}
}

// adapter/tools.ts names a tool card by _meta.goose.toolCall: a
// first-class extension's bare tool (shell) still names its extension.
func TestDesktopToolCardIdentity(t *testing.T) {
	env := newAgentEnv(t, toolCallTurn("call_sh", "shell", map[string]any{"command": "echo hi"}), textTurn("ran"))
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	r := runDesktop(t, env, desktopScript{Steps: []desktopStep{
		dcall("s", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}, "_meta": map[string]any{"client": "goose-desktop"}}),
		dcall("p", "session/prompt", map[string]any{"sessionId": "${s.sessionId}", "prompt": []any{map[string]any{"type": "text", "text": "say hi"}}}),
	}})
	var s struct {
		SessionID string `json:"sessionId"`
	}
	r.decode("s", &s)
	calls := updatesOfKind(r.updates(s.SessionID, false), "tool_call")
	if len(calls) != 1 {
		t.Fatalf("tool_call frames: %d", len(calls))
	}
	meta, _ := calls[0]["_meta"].(map[string]any)
	g, _ := meta["goose"].(map[string]any)
	if got := djson(t, g["toolCall"]); got != `{"extensionName":"developer","toolName":"shell"}` {
		t.Errorf("_meta.goose.toolCall = %s", got)
	}
}

// The token meter (chatSessionStore.ts) reads only goose's usage_update:
// after session/new and after session/load (a reopened chat, a reconnect)
// it shows the session's stored usage before any new reply.
func TestDesktopUsageAfterNewAndLoad(t *testing.T) {
	env := newAgentEnv(t, providertest.Turn{Text: []string{"hello"}, Usage: &providertest.Usage{Input: 1200, Output: 30}})
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	r := runDesktop(t, env, desktopScript{Steps: []desktopStep{
		dcall("s", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}, "_meta": map[string]any{"client": "goose-desktop"}}),
		dwait("${s.sessionId}", "usage_update", true, 1),
		dcall("p", "session/prompt", map[string]any{"sessionId": "${s.sessionId}", "prompt": []any{map[string]any{"type": "text", "text": "hi"}}}),
		dreconnect(),
		dcall("load", "session/load", map[string]any{"sessionId": "${s.sessionId}", "cwd": work, "mcpServers": []any{}}),
		dwait("${s.sessionId}", "usage_update", true, 3),
	}})
	var s struct {
		SessionID string `json:"sessionId"`
	}
	r.decode("s", &s)
	custom := updatesOfKind(r.updates(s.SessionID, true), "usage_update")
	if len(custom) < 3 {
		t.Fatalf("goose usage_update frames: %d", len(custom))
	}
	if first := custom[0]; first["used"] != float64(0) || first["contextLimit"] != float64(128000) {
		t.Errorf("after session/new: %s", djson(t, first))
	}
	var afterLoad map[string]any
	for _, f := range r.framesAfter("load") {
		var p struct {
			Update map[string]any `json:"update"`
		}
		if f.Method == "_goose/unstable/session/update" && json.Unmarshal(f.Params, &p) == nil && p.Update["sessionUpdate"] == "usage_update" {
			afterLoad = p.Update
		}
	}
	if afterLoad == nil || afterLoad["used"].(float64) <= 0 || afterLoad["accumulatedInputTokens"].(float64) <= 0 ||
		afterLoad["accumulatedOutputTokens"].(float64) <= 0 {
		t.Errorf("after session/load: %s", djson(t, afterLoad))
	}
	// The reply's usage comes back with its replay (message_usage with
	// the reply's id), as it came live.
	var live, replayed []map[string]any
	loadAt := 0
	for _, s := range r.Steps {
		if s["as"] == "load" {
			loadAt = int(s["afterSeq"].(float64))
		}
	}
	for _, f := range r.Inbound {
		var p struct {
			Update map[string]any `json:"update"`
		}
		if f.Method != "_goose/unstable/session/update" || json.Unmarshal(f.Params, &p) != nil || p.Update["sessionUpdate"] != "message_usage" {
			continue
		}
		if f.Seq > loadAt {
			replayed = append(replayed, p.Update)
		} else {
			live = append(live, p.Update)
		}
	}
	if len(live) != 1 || len(replayed) != 1 || live[0]["messageId"] != replayed[0]["messageId"] {
		t.Fatalf("message_usage live %s, replayed %s", djson(t, live), djson(t, replayed))
	}
	lu, ru := live[0]["usage"].(map[string]any), replayed[0]["usage"].(map[string]any)
	for _, k := range []string{"inputTokens", "outputTokens", "totalTokens"} {
		if lu[k] != ru[k] || ru[k] == nil {
			t.Errorf("%s: live %v, replayed %v", k, lu[k], ru[k])
		}
	}
}

// bundled-extensions.ts writes computercontroller, memory, tutorial and
// autovisualiser into config.yaml (disabled). goose-acp ships none of
// them: enabling one is refused up front with a clear -32050 and
// config.yaml is left as it was; a session never fails on one (a config
// that enables one, written by goose itself, starts without it).
func TestDesktopBuiltinsGooseACPDoesNotShip(t *testing.T) {
	env := newAgentEnv(t)
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	env.writeConfig(t, "extensions:\n  tutorial:\n    enabled: true\n    type: builtin\n    name: tutorial\n    bundled: true\n")
	memory := map[string]any{"type": "builtin", "name": "memory", "description": "Teach goose your preferences", "display_name": "Memory", "timeout": 300, "bundled": true}
	r := runDesktop(t, env, desktopScript{Steps: []desktopStep{
		dext("sync", "config/extensions/add", map[string]any{"extension": memory, "enabled": false}),
		dext("enable", "config/extensions/set-enabled", map[string]any{"configKey": "memory", "enabled": true}),
		dext("addEnabled", "config/extensions/add", map[string]any{"extension": map[string]any{"type": "builtin", "name": "computercontroller"}, "enabled": true}),
		dext("list", "config/extensions/list", map[string]any{}),
		dcall("s", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}, "_meta": map[string]any{"client": "goose-desktop"}}),
		dext("sessionExts", "session/extensions/list", map[string]any{"sessionId": "${s.sessionId}"}),
		dext("sessionAdd", "session/extensions/add", map[string]any{"sessionId": "${s.sessionId}", "extension": memory}),
		dcall("chosen", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}, "_meta": map[string]any{"client": "goose-desktop", "enabledExtensions": []any{memory}}}),
		dcall("sessions", "session/list", map[string]any{"_meta": map[string]any{"goose": map[string]any{"archiveState": "all"}}}),
	}})
	r.ok("sync")
	want := `"The memory extension is not available in goose-acp: goose-acp does not ship goose's memory extension; keep notes in a hints file such as .goosehints, which every session reads"`
	for _, name := range []string{"enable", "sessionAdd", "chosen"} {
		if e := r.fail(name); e.Code != -32050 || e.Message != "The memory extension is not available in goose-acp: goose-acp does not ship goose's memory extension; keep notes in a hints file such as .goosehints, which every session reads" {
			t.Errorf("%s: %+v, want -32050 %s", name, e, want)
		}
	}
	if e := r.fail("addEnabled"); e.Code != -32050 || !strings.Contains(e.Message, "computercontroller") {
		t.Errorf("add enabled computercontroller: %+v", e)
	}
	var list struct {
		Extensions []struct {
			Enabled   bool           `json:"enabled"`
			Extension map[string]any `json:"extension"`
		} `json:"extensions"`
	}
	r.decode("list", &list)
	for _, e := range list.Extensions {
		switch e.Extension["name"] {
		case "memory":
			if e.Enabled {
				t.Errorf("memory enabled in config after a refused enable")
			}
		case "computercontroller":
			t.Errorf("a refused add was written: %v", e)
		}
	}
	cfg, err := os.ReadFile(filepath.Join(env.Root, "config", "config.yaml"))
	if err != nil || strings.Contains(string(cfg), "computercontroller") || !strings.Contains(string(cfg), "memory") {
		t.Errorf("config.yaml:\n%s", cfg)
	}
	var exts struct {
		Extensions []struct {
			ExtensionKey string `json:"extensionKey"`
		} `json:"extensions"`
	}
	r.decode("sessionExts", &exts)
	for _, e := range exts.Extensions {
		if e.ExtensionKey == "tutorial" || e.ExtensionKey == "memory" {
			t.Errorf("session has %s", e.ExtensionKey)
		}
	}
	var sessions struct {
		Sessions []map[string]any `json:"sessions"`
	}
	r.decode("sessions", &sessions)
	if len(sessions.Sessions) != 1 {
		t.Errorf("a refused session/new left a session: %d sessions", len(sessions.Sessions))
	}
}

// acp/contextReport.ts: the context breakdown dialog reads
// _goose/unstable/context/report (goose's ContextReportResponse).
func TestDesktopContextReport(t *testing.T) {
	env := newAgentEnv(t, providertest.Turn{Text: []string{"Sure."}, Usage: &providertest.Usage{Input: 900, Output: 5}})
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	if err := os.WriteFile(filepath.Join(work, ".goosehints"), []byte("Always answer in haiku."), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runDesktop(t, env, desktopScript{Steps: []desktopStep{
		dcall("s", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}, "_meta": map[string]any{"client": "goose-desktop"}}),
		dcall("p", "session/prompt", map[string]any{"sessionId": "${s.sessionId}", "prompt": []any{map[string]any{"type": "text", "text": "Describe the repo."}}}),
		dext("report", "context/report", map[string]any{"sessionId": "${s.sessionId}", "unrolledAgentLoop": true}),
		dext("missing", "context/report", map[string]any{"sessionId": "nope"}),
	}})
	var rep struct {
		Model struct {
			Provider     string `json:"provider"`
			ModelName    string `json:"modelName"`
			ContextLimit int    `json:"contextLimit"`
		} `json:"model"`
		Estimated int  `json:"estimatedTotalTokens"`
		Wire      int  `json:"wireTotalTokens"`
		Live      *int `json:"liveTotalTokens"`
		Segments  []struct {
			Category       string  `json:"category"`
			Label          string  `json:"label"`
			Source         *string `json:"source"`
			TokenCount     int     `json:"tokenCount"`
			ContentPreview *string `json:"contentPreview"`
			Parts          []struct {
				Label      string `json:"label"`
				TokenCount int    `json:"tokenCount"`
			} `json:"parts"`
		} `json:"segments"`
	}
	r.decode("report", &rep)
	if rep.Model.Provider != "openai" || rep.Model.ModelName != "gpt-4o" || rep.Model.ContextLimit != 128000 {
		t.Errorf("model %+v", rep.Model)
	}
	if rep.Live == nil || *rep.Live != 905 || rep.Wire <= 0 {
		t.Errorf("live %v wire %d", rep.Live, rep.Wire)
	}
	sum := 0
	seen := map[string]bool{}
	for _, s := range rep.Segments {
		sum += s.TokenCount
		seen[s.Category+"/"+s.Label] = true
		switch {
		case s.Category == "system_prompt" && s.Label == "Base system prompt":
			if s.Source == nil || *s.Source != "prompts/system.md" || s.TokenCount == 0 {
				t.Errorf("base segment %+v", s)
			}
		case s.Category == "additional_instructions" && s.Label == "hints":
			if s.ContentPreview == nil || !strings.Contains(*s.ContentPreview, "Always answer in haiku.") {
				t.Errorf("hints segment %+v", s)
			}
		case s.Category == "tool_definitions" && s.Label == "developer":
			names := map[string]bool{}
			parts := 0
			for _, p := range s.Parts {
				names[p.Label] = true
				parts += p.TokenCount
			}
			if !names["shell"] || parts != s.TokenCount {
				t.Errorf("developer tools segment %+v", s)
			}
		}
	}
	for _, want := range []string{"system_prompt/Base system prompt", "additional_instructions/hints", "tool_definitions/developer",
		"messages/User messages", "messages/Assistant messages"} {
		if !seen[want] {
			t.Errorf("no %s segment", want)
		}
	}
	if sum != rep.Estimated || rep.Estimated < rep.Wire {
		t.Errorf("segments sum %d, estimated %d, wire %d", sum, rep.Estimated, rep.Wire)
	}
	if e := r.fail("missing"); e.Code != -32002 {
		t.Errorf("unknown session: %+v", e)
	}
}

// adapter/tools.ts mcpAppMetadata: a finished call of a tool that declares
// an MCP App UI (_meta.ui.resourceUri) carries _meta.goose.mcpApp, and
// Desktop renders the app from that resource (read with resources/read).
func TestDesktopMCPAppToolFrames(t *testing.T) {
	env := newAgentEnv(t, toolCallTurn("call_chart", "chart__show_chart", map[string]any{}), textTurn("shown"))
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	dir, _ := filepath.Abs("desktop")
	chart := map[string]any{"type": "mcp", "server": map[string]any{"name": "chart", "command": "node",
		"args": []any{filepath.Join(dir, "mcp-app-server.mjs")}, "env": []any{}}}
	r := runDesktop(t, env, desktopScript{Steps: []desktopStep{
		dcall("s", "session/new", map[string]any{"cwd": work, "mcpServers": []any{},
			"_meta": map[string]any{"client": "goose-desktop", "enabledExtensions": []any{chart}}}),
		dcall("p", "session/prompt", map[string]any{"sessionId": "${s.sessionId}", "prompt": []any{map[string]any{"type": "text", "text": "chart it"}}}),
		dext("ui", "resources/read", map[string]any{"sessionId": "${s.sessionId}", "uri": "ui://chart/app", "extensionName": "chart"}),
	}})
	var s struct {
		SessionID string `json:"sessionId"`
	}
	r.decode("s", &s)
	var app any
	for _, u := range updatesOfKind(r.updates(s.SessionID, false), "tool_call_update") {
		if u["status"] != "completed" {
			continue
		}
		meta, _ := u["_meta"].(map[string]any)
		g, _ := meta["goose"].(map[string]any)
		app = g["mcpApp"]
	}
	if got := djson(t, app); got != `{"extensionName":"chart","resourceUri":"ui://chart/app","toolName":"chart__show_chart"}` {
		t.Errorf("_meta.goose.mcpApp = %s", got)
	}
	if got := string(r.ok("ui")); !strings.Contains(got, "<div>chart</div>") {
		t.Errorf("resources/read of the app: %s", got)
	}
}

// adapter/toolNotifications.ts: a running command's output reaches
// Desktop's tool card as tool_call_updates carrying
// _meta.toolNotification {type: "message", params: goose's shell_output
// logging notification}, line by line while it runs.
func TestDesktopShellOutputStreams(t *testing.T) {
	env := newAgentEnv(t, toolCallTurn("call_sh", devTool("shell"), map[string]string{"command": "echo live-1; echo live-2"}), textTurn("done"))
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	r := runDesktop(t, env, desktopScript{Steps: []desktopStep{
		dcall("s", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}, "_meta": map[string]any{"client": "goose-desktop"}}),
		dcall("p", "session/prompt", map[string]any{"sessionId": "${s.sessionId}", "prompt": []any{map[string]any{"type": "text", "text": "run it"}}}),
	}})
	var s struct {
		SessionID string `json:"sessionId"`
	}
	r.decode("s", &s)
	var lines []string
	for _, u := range updatesOfKind(r.updates(s.SessionID, false), "tool_call_update") {
		m, _ := u["_meta"].(map[string]any)
		n, _ := m["toolNotification"].(map[string]any)
		if n == nil || u["toolCallId"] != "call_sh" {
			continue
		}
		if got, want := djson(t, n), `{"params":{"data":{"output":"`; n["type"] != "message" || !strings.HasPrefix(got, want) {
			t.Errorf("toolNotification %s", got)
			continue
		}
		p := n["params"].(map[string]any)
		d, _ := p["data"].(map[string]any)
		if p["level"] != "info" || p["logger"] != "shell_tool" || d["type"] != "shell_output" || d["stream"] != "stdout" {
			t.Errorf("shell output notification %s", djson(t, n))
		}
		lines = append(lines, fmt.Sprint(d["output"]))
	}
	if strings.Join(lines, ",") != "live-1,live-2" {
		t.Errorf("live output lines %q, want [live-1 live-2]", lines)
	}
}
