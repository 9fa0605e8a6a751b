package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// TestEditorsClearSaysCleared: /clear answers
// with goose's "Conversation cleared" as an agent message, without a model
// call; the next turn starts from an empty history.
func TestEditorsClearSaysCleared(t *testing.T) {
	for _, p := range editorProfiles {
		t.Run(p.name, func(t *testing.T) {
			env := newAgentEnv(t, textTurn("first answer"), textTurn("fresh answer"))
			c := startAgent(t, env)
			c.initializeAs(p.initialize)
			sess := c.newSession(t.TempDir())
			c.prompt(sess.SessionID, "remember the word pelican")
			before := len(c.updatesOf(sess.SessionID))
			if r := c.prompt(sess.SessionID, "/clear"); r.StopReason != "end_turn" {
				t.Fatalf("stopReason %q", r.StopReason)
			}
			var said []string
			for _, u := range c.updatesOf(sess.SessionID)[before:] {
				if u.SessionUpdate == acp.UpdateAgentMessageChunk {
					said = append(said, u.Content.Text)
				}
			}
			if len(said) != 1 || said[0] != "Conversation cleared" {
				t.Errorf("/clear showed %q, want [\"Conversation cleared\"]", said)
			}
			if n := len(env.LLM.Requests()); n != 1 {
				t.Errorf("%d model calls after /clear, want 1", n)
			}
			c.prompt(sess.SessionID, "what word?")
			reqs := env.LLM.Requests()
			if last := string(reqs[len(reqs)-1].Body); len(reqs) != 2 || strings.Contains(last, "pelican") || strings.Contains(last, "Conversation cleared") {
				t.Errorf("the model still saw the cleared history: %s", last)
			}
		})
	}
}

// TestEditorsTodoAsksNoPermission: approve mode asks before
// tools that change files or run commands, not before the todo list (it
// only writes the session's notes).
func TestEditorsTodoAsksNoPermission(t *testing.T) {
	env := newAgentEnv(t,
		toolCallTurn("call_todo", todoWrite, map[string]string{"content": "- [ ] write the tests"}),
		textTurn("planned"),
	)
	env.enableTodo(t)
	c := startAgent(t, env)
	c.answerPermissions("reject_once")
	c.initializeAs(agentShellInitialize)
	sess := c.newSession(t.TempDir())
	c.setMode(sess.SessionID, "approve")
	c.prompt(sess.SessionID, "plan it")
	if n := len(c.callsTo("session/request_permission")); n != 0 {
		t.Errorf("approve mode asked %d times for the todo list", n)
	}
	if got := c.finalStatus(sess.SessionID, "call_todo"); got != "completed" {
		t.Errorf("todo call ends %q\n%s", got, c.dump(sess.SessionID))
	}
}

// TestEditorsWholeFileReadHasNoLine: a read of a whole file
// names the file without a line (0 is no position: v2 calls it invalid,
// and Zed would put the cursor on the first row); a read from a line
// keeps it, as the 0-based row Zed moves to.
func TestEditorsWholeFileReadHasNoLine(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "notes.md")
	os.WriteFile(path, []byte("one\ntwo\nthree\nfour\nfive\n"), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("call_all", devTool("read"), map[string]any{"path": "notes.md"}),
		toolCallTurn("call_at", devTool("read"), map[string]any{"path": "notes.md", "line": 4, "limit": 1}),
		textTurn("read"),
	)
	c := startAgent(t, env)
	(&editor{}).install(c)
	c.initializeAs(zedInitialize)
	sess := c.newSession(work)
	c.prompt(sess.SessionID, "read it")
	for id, want := range map[string]string{"call_all": `[{"path":"` + path + `"}]`, "call_at": `[{"path":"` + path + `","line":3}]`} {
		n := 0
		for _, u := range c.toolUpdates(sess.SessionID, id) {
			if u.Locations == nil {
				continue
			}
			n++
			if got := jsonOf(u.Locations); got != want {
				t.Errorf("%s %s locations = %s, want %s", id, u.SessionUpdate, got, want)
			}
		}
		if n == 0 {
			t.Errorf("%s has no locations\n%s", id, c.dump(sess.SessionID))
		}
	}
}

// TestEditorsModeChangesUpdateBothViews: a client may show
// the mode as session/new's modes or as the "mode" config option. Either
// way of setting it updates both views before the response: set_mode
// sends current_mode_update and config_option_update, set_config_option
// "mode" sends config_option_update and current_mode_update.
func TestEditorsModeChangesUpdateBothViews(t *testing.T) {
	env := newAgentEnv(t)
	c := startAgent(t, env)
	c.initializeAs(zedInitialize)
	sess := c.newSession(t.TempDir())
	modeOption := func(from int) (string, bool) {
		ups := c.updatesOf(sess.SessionID)
		val, seen := "", false
		for _, u := range ups[from:] {
			if u.SessionUpdate != acp.UpdateConfigOption {
				continue
			}
			for _, o := range u.ConfigOptions {
				if o.ID == "mode" {
					val, seen = o.CurrentValue, true
				}
			}
		}
		return val, seen
	}
	currentMode := func(from int) string {
		cur := ""
		for _, u := range c.updatesOf(sess.SessionID)[from:] {
			if u.SessionUpdate == acp.UpdateCurrentMode {
				cur = u.CurrentModeID
			}
		}
		return cur
	}
	before := len(c.updatesOf(sess.SessionID))
	c.setMode(sess.SessionID, "approve")
	if v, ok := modeOption(before); !ok || v != "approve" {
		t.Errorf("after set_mode the mode config option is %q (sent: %v), want approve", v, ok)
	}
	if m := currentMode(before); m != "approve" {
		t.Errorf("current_mode_update = %q", m)
	}
	before = len(c.updatesOf(sess.SessionID))
	c.call("session/set_config_option", acp.SetConfigOptionRequest{SessionID: sess.SessionID, ConfigID: "mode", Value: []byte(`"chat"`)}, nil)
	if m := currentMode(before); m != "chat" {
		t.Errorf("after set_config_option mode, current_mode_update = %q, want chat", m)
	}
	if v, _ := modeOption(before); v != "chat" {
		t.Errorf("config option mode = %q", v)
	}
}

// TestEditorsPlainTitles: Zed shows titles as plain text,
// so a title carries no Markdown: "Run echo plain-title", not the command
// in backticks, on the tool_call and on the permission request alike.
func TestEditorsPlainTitles(t *testing.T) {
	env := newAgentEnv(t, toolCallTurn("call_t", devTool("shell"), map[string]string{"command": "echo plain-title"}), textTurn("ok"))
	c := startAgent(t, env)
	ts := &editor{}
	ts.install(c)
	c.answerPermissions("allow_once")
	c.initializeAs(agentShellInitialize)
	sess := c.newSession(t.TempDir())
	c.setMode(sess.SessionID, "approve")
	c.prompt(sess.SessionID, "run")
	want := "Run echo plain-title"
	if reqs := c.permissionRequests(); len(reqs) != 1 || reqs[0].ToolCall.Title == nil || *reqs[0].ToolCall.Title != want {
		t.Errorf("permission title = %s, want %q", jsonOf(reqs), want)
	}
	ups := c.toolUpdates(sess.SessionID, "call_t")
	if len(ups) == 0 || ups[0].Title == nil || *ups[0].Title != want {
		t.Errorf("tool_call title = %s, want %q", jsonOf(ups), want)
	}
}

// TestEditorsStdioStderrWarningsOnly: acp.el turns every
// stderr chunk into an error and agent-shell shows each as a "Notices"
// block. Over stdio goose-acp writes only warnings and errors to stderr
// by default; info records (a shell command starting, a server
// connecting) go to the log file under <state>/logs/cli, as `run` does.
// GOOSE_LOG_LEVEL still puts that level on stderr.
func TestEditorsStdioStderrWarningsOnly(t *testing.T) {
	for _, level := range []string{"", "info"} {
		t.Run("GOOSE_LOG_LEVEL="+level, func(t *testing.T) {
			env := newAgentEnv(t, toolCallTurn("call_sh", devTool("shell"), map[string]string{"command": "echo quiet"}), textTurn("ok"))
			delete(env.Vars, "GOOSE_LOG_LEVEL")
			if level != "" {
				env.Vars["GOOSE_LOG_LEVEL"] = level
			}
			c := startAgent(t, env)
			(&editor{}).install(c)
			c.initializeAs(agentShellInitialize)
			var sess acp.NewSessionResponse
			c.call("session/new", acp.NewSessionRequest{CWD: t.TempDir(), MCPServers: []acp.MCPServer{
				{Name: "broken", Command: filepath.Join(t.TempDir(), "no-such-server")}}}, &sess)
			c.prompt(sess.SessionID, "run")
			c.close()
			stderr := c.stderr.String()
			if !strings.Contains(stderr, "WARN") || !strings.Contains(stderr, "broken") {
				t.Errorf("the failed extension's warning is missing from stderr:\n%s", stderr)
			}
			infoOnStderr := strings.Contains(stderr, "INFO")
			if level == "" && infoOnStderr {
				t.Errorf("info records reached stderr:\n%s", stderr)
			}
			if level == "info" && !strings.Contains(stderr, "shell start") {
				t.Errorf("GOOSE_LOG_LEVEL=info did not put info on stderr:\n%s", stderr)
			}
			if level != "" {
				return
			}
			logs, _ := filepath.Glob(filepath.Join(env.Root, "state", "logs", "cli", "*", "*.log"))
			var logged bool
			for _, f := range logs {
				b, _ := os.ReadFile(f)
				logged = logged || strings.Contains(string(b), "shell start")
			}
			if !logged {
				t.Errorf("no log file under state/logs/cli has the info records: %v", logs)
			}
		})
	}
}

// TestEditorsSessionInfoAlwaysHasInfo: a session_info_update
// goes to an editor only with session info in it (a title); the running
// turn's run id (_meta.goose.activeRunId, for steering) goes only to a
// client that asked for goose's own notifications, as Goose Desktop does —
// VS Code's ACP Client reads an update without a title as "title cleared".
func TestEditorsSessionInfoAlwaysHasInfo(t *testing.T) {
	for _, tc := range []struct {
		name, initialize string
		runIDs           bool
	}{
		{"zed", zedInitialize, false},
		{"desktop", `{"protocolVersion":1,"clientCapabilities":{"_meta":{"goose":{"customNotifications":true}}},"clientInfo":{"name":"goose-desktop","version":"1.44.0"}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newAgentEnv(t, textTurn("one"), textTurn("two"))
			c := startAgent(t, env)
			c.initializeAs(tc.initialize)
			sess := c.newSession(t.TempDir())
			c.prompt(sess.SessionID, "first message")
			c.prompt(sess.SessionID, "second message")
			var titled, runs int
			for _, u := range c.updatesOf(sess.SessionID) {
				if u.SessionUpdate != acp.UpdateSessionInfo {
					continue
				}
				if u.Title != nil {
					titled++
				} else if g, ok := u.Meta["goose"].(map[string]any); ok && g["activeRunId"] != nil || ok && len(g) == 1 {
					runs++
				} else {
					t.Errorf("session_info_update with nothing in it: %s", jsonOf(u))
				}
			}
			if titled != 1 {
				t.Errorf("%d titled session_info_updates, want 1", titled)
			}
			if got := runs > 0; got != tc.runIDs {
				t.Errorf("run-id updates sent: %d; want them only for a client with customNotifications (%v)", runs, tc.runIDs)
			}
		})
	}
}

// TestEditorsNoKeyringNoNotice: on a Linux without a keyring service (no
// D-Bus session: agent-shell in a terminal, a container) a start, a new
// session and a turn put nothing on stderr — agent-shell shows every
// stderr line as a notice. Reading secrets from the file is only logged;
// storing one there is what warns.
func TestEditorsNoKeyringNoNotice(t *testing.T) {
	env := newAgentEnv(t, textTurn("hi"))
	delete(env.Vars, "GOOSE_DISABLE_KEYRING")
	delete(env.Vars, "GOOSE_LOG_LEVEL")
	env.Vars["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + filepath.Join(t.TempDir(), "no-bus")
	c := startAgent(t, env)
	(&editor{}).install(c)
	c.initializeAs(agentShellInitialize)
	sess := c.newSession(t.TempDir())
	c.prompt(sess.SessionID, "hello")
	c.close()
	if s := c.stderr.String(); s != "" {
		t.Errorf("stderr of a plain start and turn:\n%s", s)
	}
}
