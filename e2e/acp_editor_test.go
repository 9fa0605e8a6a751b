package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// permissionRequests decodes every session/request_permission received.
func (c *acpClient) permissionRequests() []acp.RequestPermissionRequest {
	c.t.Helper()
	var out []acp.RequestPermissionRequest
	for _, raw := range c.callsTo("session/request_permission") {
		var req acp.RequestPermissionRequest
		if err := json.Unmarshal(raw, &req); err != nil {
			c.t.Fatal(err)
		}
		out = append(out, req)
	}
	return out
}

func onlyDiff(t *testing.T, content []acp.ToolCallContent) acp.ToolCallContent {
	t.Helper()
	for _, c := range content {
		if c.Type == "diff" {
			return c
		}
	}
	t.Fatalf("no diff in %+v", content)
	return acp.ToolCallContent{}
}

func strp(s string) *string { return &s }

// TestApprovalShowsWholeChange: a write over an existing
// file sends the current content as oldText, read through the editor (its
// unsaved buffer, not the disk); an edit sends the whole file before and
// after, the same texts the completed update carries; titles name action
// and object; option names are for people; rawInput is the model's
// arguments.
func TestApprovalShowsWholeChange(t *testing.T) {
	work := t.TempDir()
	notes := filepath.Join(work, "notes.txt")
	app := filepath.Join(work, "src", "app.go")
	os.MkdirAll(filepath.Dir(app), 0o755)
	os.WriteFile(notes, []byte("on disk\n"), 0o644)
	os.WriteFile(app, []byte("package app // disk\n"), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("call_w", "write", map[string]string{"path": notes, "content": "new notes\n"}),
		toolCallTurn("call_e", "edit", map[string]string{"path": "src/app.go", "before": "beta", "after": "gamma"}),
		toolCallTurn("call_n", "write", map[string]string{"path": "fresh.txt", "content": "fresh\n"}),
		textTurn("done"),
	)
	c := startAgent(t, env)
	ed := &editor{buffers: map[string]string{
		notes: "unsaved buffer text\n",
		app:   "package app\n\nvar a = \"alpha\"\nvar b = \"beta\"\n",
	}}
	ed.install(c)
	c.answerPermissions("allow_once")
	c.initialize(fsCaps)
	sess := c.newSession(work)
	c.setMode(sess.SessionID, "approve")
	if r := c.prompt(sess.SessionID, "change files"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	reqs := c.permissionRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d permission requests, want 3", len(reqs))
	}
	wantOptions := []acp.PermissionOption{
		{OptionID: "allow_once", Name: "Allow once", Kind: "allow_once"},
		{OptionID: "allow_always", Name: "Always allow", Kind: "allow_always"},
		{OptionID: "reject_once", Name: "Reject", Kind: "reject_once"},
		{OptionID: "reject_always", Name: "Always reject", Kind: "reject_always"},
	}
	byID := map[string]acp.ToolCallUpdate{}
	for _, r := range reqs {
		if !reflect.DeepEqual(r.Options, wantOptions) {
			t.Errorf("options = %+v", r.Options)
		}
		byID[r.ToolCall.ToolCallID] = r.ToolCall
	}

	w := byID["call_w"]
	if w.Title == nil || *w.Title != "Write notes.txt" {
		t.Errorf("write title = %v", w.Title)
	}
	if got := onlyDiff(t, w.Content); got.Path != notes || !reflect.DeepEqual(got.OldText, strp("unsaved buffer text\n")) || *got.NewText != "new notes\n" {
		t.Errorf("write diff = path %s old %v new %q", got.Path, got.OldText, *got.NewText)
	}
	if !reflect.DeepEqual(w.RawInput, map[string]any{"path": notes, "content": "new notes\n"}) {
		t.Errorf("write rawInput = %v", w.RawInput)
	}

	e := byID["call_e"]
	before, after := "package app\n\nvar a = \"alpha\"\nvar b = \"beta\"\n", "package app\n\nvar a = \"alpha\"\nvar b = \"gamma\"\n"
	if e.Title == nil || *e.Title != "Edit src/app.go" {
		t.Errorf("edit title = %v", e.Title)
	}
	if got := onlyDiff(t, e.Content); got.Path != app || !reflect.DeepEqual(got.OldText, &before) || *got.NewText != after {
		t.Errorf("edit diff = path %s old %v new %q", got.Path, got.OldText, *got.NewText)
	}
	done := findDiff(c.toolUpdates(sess.SessionID, "call_e"))
	if done == nil || !reflect.DeepEqual(done.OldText, &before) || *done.NewText != after {
		t.Errorf("completed edit diff = %+v", done)
	}

	n := byID["call_n"]
	if got := onlyDiff(t, n.Content); got.OldText != nil || *got.NewText != "fresh\n" || got.Path != filepath.Join(work, "fresh.txt") {
		t.Errorf("new file diff = %+v (oldText must be absent)", got)
	}
	for _, id := range []string{"call_w", "call_e", "call_n"} {
		ups := c.toolUpdates(sess.SessionID, id)
		if ups[0].Title == nil || *ups[0].Title != *byID[id].Title {
			t.Errorf("%s: tool_call title %v differs from the approval's %q", id, ups[0].Title, *byID[id].Title)
		}
	}
}

// TestShellTitleAndRawOutput: the shell call's title carries the
// whole command verbatim; every completed call has rawOutput (the text
// the model read).
func TestShellTitleAndRawOutput(t *testing.T) {
	work := t.TempDir()
	cmd := "printf 'a:b' && echo \"one two three four five six seven eight nine ten eleven\""
	env := newAgentEnv(t,
		toolCallTurn("call_sh", "shell", map[string]string{"command": cmd}),
		textTurn("ok"),
	)
	c := startAgent(t, env)
	c.answerPermissions("allow_once")
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.setMode(sess.SessionID, "approve")
	c.prompt(sess.SessionID, "run")
	want := "Run " + cmd
	reqs := c.permissionRequests()
	if len(reqs) != 1 || *reqs[0].ToolCall.Title != want {
		t.Fatalf("permission title = %q, want %q", *reqs[0].ToolCall.Title, want)
	}
	wantContent := []acp.ToolCallContent{{Type: "content", Content: &acp.ContentBlock{Type: "text", Text: "```sh\n" + cmd + "\n```"}}}
	if !reflect.DeepEqual(reqs[0].ToolCall.Content, wantContent) {
		t.Errorf("permission content = %+v", reqs[0].ToolCall.Content)
	}
	ups := c.toolUpdates(sess.SessionID, "call_sh")
	if *ups[0].Title != want || !reflect.DeepEqual(ups[0].RawInput, map[string]any{"command": cmd}) || !reflect.DeepEqual(ups[0].ToolContent, wantContent) {
		t.Errorf("tool_call = %+v", ups[0])
	}
	last := ups[len(ups)-1]
	out, _ := last.RawOutput.(string)
	if last.Status != "completed" || !strings.Contains(out, "a:bone two three four five six seven eight nine ten eleven") {
		t.Errorf("final update status %q rawOutput %q", last.Status, out)
	}
}

// TestRejectedCallsEndFailed: a call the user rejected
// (once or always) ends failed, still showing the command it would have
// run; the model's refusal text is its rawOutput, not its content.
func TestRejectedCallsEndFailed(t *testing.T) {
	for _, outcome := range []string{"reject_once", "reject_always"} {
		t.Run(outcome, func(t *testing.T) {
			work := t.TempDir()
			env := newAgentEnv(t, toolCallTurn("call_sh", "shell", map[string]string{"command": "echo no"}), textTurn("ok"))
			c := startAgent(t, env)
			c.answerPermissions(outcome)
			c.initialize(acp.ClientCapabilities{})
			sess := c.newSession(work)
			c.setMode(sess.SessionID, "approve")
			c.prompt(sess.SessionID, "run")
			ups := c.toolUpdates(sess.SessionID, "call_sh")
			last := ups[len(ups)-1]
			cmd := []acp.ToolCallContent{{Type: "content", Content: &acp.ContentBlock{Type: "text", Text: "```sh\necho no\n```"}}}
			if last.SessionUpdate != acp.UpdateToolCallUpdate || last.Status != "failed" || last.RawOutput != declinedText || !reflect.DeepEqual(last.ToolContent, cmd) {
				t.Errorf("final update = %s, want failed with the command as content and the refusal as rawOutput", jsonOf(last))
			}
		})
	}
}

// TestEditorOutsideWorktreeFallsBackToDisk: Zed answers -32002 to
// fs/read_text_file and "invalid path" to fs/write_text_file for files
// outside its worktrees; those are read and written on local disk.
func TestEditorOutsideWorktreeFallsBackToDisk(t *testing.T) {
	work, outside := t.TempDir(), t.TempDir()
	src := filepath.Join(outside, "gitconfig")
	dst := filepath.Join(outside, "out.txt")
	os.WriteFile(src, []byte("outside-content-5150\n"), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("call_r", "read", map[string]string{"path": src}),
		toolCallTurn("call_w", "write", map[string]string{"path": dst, "content": "written-locally\n"}),
		textTurn("ok"),
	)
	c := startAgent(t, env)
	c.on("fs/read_text_file", func(json.RawMessage) (any, error) {
		return nil, &jsonrpc2.Error{Code: acp.CodeResourceNotFound, Message: "Resource not found"}
	})
	c.on("fs/write_text_file", func(json.RawMessage) (any, error) {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: "Internal error", Data: rawJSON(`"invalid path"`)}
	})
	c.initialize(fsCaps)
	sess := c.newSession(work)
	c.prompt(sess.SessionID, "go")
	if n := len(c.callsTo("fs/read_text_file")); n == 0 {
		t.Error("the editor was not asked first")
	}
	if !llmSaw(env, "outside-content-5150") {
		t.Error("the model did not get the file read from disk")
	}
	if b, err := os.ReadFile(dst); err != nil || string(b) != "written-locally\n" {
		t.Errorf("disk write: %q %v", b, err)
	}
	for _, id := range []string{"call_r", "call_w"} {
		if s := c.finalStatus(sess.SessionID, id); s != "completed" {
			t.Errorf("%s status %q\n%s", id, s, c.dump(sess.SessionID))
		}
	}
}

func rawJSON(s string) *json.RawMessage {
	m := json.RawMessage(s)
	return &m
}

// TestOneUsageUpdatePerPrompt: the usage_update of the last model
// call is not repeated before the prompt result; closing stdin logs
// nothing (no "session/cancel for an unknown session").
func TestOneUsageUpdatePerPrompt(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, textTurn("hello"))
	env.Vars["GOOSE_LOG_LEVEL"] = "info"
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.waitFor("setup usage", func() bool { return countUsage(c.updatesOf(sess.SessionID)) == 1 })
	c.prompt(sess.SessionID, "hi")
	if n := countUsage(c.updatesOf(sess.SessionID)); n != 2 {
		t.Errorf("usage_update frames = %d, want 2 (setup + one for the prompt)\n%s", n, c.dump(sess.SessionID))
	}
	c.close()
	if strings.Contains(c.stderr.String(), "unknown session") {
		t.Errorf("shutdown logged:\n%s", c.stderr.String())
	}
}

func countUsage(ups []acp.SessionUpdate) int {
	n := 0
	for _, u := range ups {
		if u.SessionUpdate == acp.UpdateUsage {
			n++
		}
	}
	return n
}

// TestFirstMessageTitlesTheSession: with naming disabled a
// session is called by its first user message, on one line and cut to 60
// characters, announced once with session_info_update and listed so;
// a session without a message stays "New Chat".
func TestFirstMessageTitlesTheSession(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, textTurn("one"), textTurn("two"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	empty := c.newSession(work)
	msg := "Please refactor the\nsession store so that listing is fast even with thousands of sessions"
	c.prompt(sess.SessionID, msg)
	c.prompt(sess.SessionID, "and a second message")
	want := "Please refactor the session store so that listing is fast ev" // 60 characters
	var titles []string
	for _, u := range c.updatesOf(sess.SessionID) {
		if u.SessionUpdate == acp.UpdateSessionInfo && u.Title != nil {
			titles = append(titles, *u.Title)
		}
	}
	if len(titles) != 1 || titles[0] != want {
		t.Errorf("session_info_update titles = %q, want [%q]", titles, want)
	}
	var list acp.ListSessionsResponse
	c.call("session/list", acp.ListSessionsRequest{CWD: work}, &list)
	got := map[string]string{}
	for _, s := range list.Sessions {
		got[s.SessionID] = s.Title
	}
	if got[sess.SessionID] != want || got[empty.SessionID] != "New Chat" {
		t.Errorf("listed titles = %q", got)
	}
}

// TestConfigChangesApplyInArrivalOrder: Zed sends each saved
// default as its own set_config_option, all at once. They are applied in
// the order they arrived, and choosing the provider already in use keeps
// the model, so the saved model survives.
func TestConfigChangesApplyInArrivalOrder(t *testing.T) {
	env := newAgentEnv(t, textTurn("ok"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var waits []jsonrpc2.Waiter
	for _, kv := range [][2]string{{"model", "gpt-4.1"}, {"provider", "openai"}, {"mode", "approve"}} {
		w, err := c.conn.DispatchCall(ctx, "session/set_config_option", acp.SetConfigOptionRequest{
			SessionID: sess.SessionID, ConfigID: kv[0], Value: json.RawMessage(`"` + kv[1] + `"`)})
		if err != nil {
			t.Fatal(err)
		}
		waits = append(waits, w)
	}
	var last acp.SetConfigOptionResponse
	for _, w := range waits {
		if err := w.Wait(ctx, &last); err != nil {
			t.Fatal(err)
		}
	}
	c.prompt(sess.SessionID, "hi")
	reqs := env.LLM.Script.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0]), `"model":"gpt-4.1"`) {
		t.Errorf("the prompt did not use the saved model:\n%s", reqs)
	}
	cur := map[string]string{}
	for _, u := range c.updatesOf(sess.SessionID) {
		if u.SessionUpdate == acp.UpdateConfigOption {
			for _, o := range u.ConfigOptions {
				cur[o.ID] = o.CurrentValue
			}
		}
	}
	if cur["model"] != "gpt-4.1" || cur["provider"] != "openai" || cur["mode"] != "approve" {
		t.Errorf("last announced options = %v", cur)
	}
}

// TestSlashMenuDescriptionsOneLine: a prompt command whose
// description is its whole multi-line template shows its first line.
func TestSlashMenuDescriptionsOneLine(t *testing.T) {
	env := newAgentEnv(t)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(t.TempDir())
	var cmds []acp.AvailableCommand
	c.waitFor("available_commands_update", func() bool {
		for _, u := range c.updatesOf(sess.SessionID) {
			if u.SessionUpdate == acp.UpdateAvailableCommands {
				cmds = u.AvailableCommands
				return true
			}
		}
		return false
	})
	found := false
	for _, cmd := range cmds {
		if strings.Contains(cmd.Description, "\n") {
			t.Errorf("/%s description has several lines: %q", cmd.Name, cmd.Description)
		}
		if cmd.Name == "diff_edit_test" {
			found = true
			if cmd.Description != "Create a unit test for the text_editor diff_edit command." {
				t.Errorf("diff_edit_test description = %q", cmd.Description)
			}
		}
	}
	if !found {
		t.Errorf("no diff_edit_test command in %+v", cmds)
	}
}

// TestReopenedThreadKeepsDiffs: session/load replays an
// edit's stored diff and its location like the live update did, and
// locations[].line is the 0-based row Zed moves the cursor to.
func TestReopenedThreadKeepsDiffs(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "app.go")
	before := "package app\n\nvar a = 1\nvar b = 2\n"
	os.WriteFile(path, []byte(before), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("call_e", "edit", map[string]string{"path": "app.go", "before": "var b = 2", "after": "var b = 3"}),
		textTurn("edited"),
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.prompt(sess.SessionID, "edit")
	c.close()
	live := lastToolUpdate(c.toolUpdates(sess.SessionID, "call_e"))

	c2 := startAgent(t, env)
	c2.initialize(acp.ClientCapabilities{})
	c2.call("session/load", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: work, MCPServers: []acp.MCPServer{}}, nil)
	replayed := lastToolUpdate(c2.toolUpdates(sess.SessionID, "call_e"))
	after := "package app\n\nvar a = 1\nvar b = 3\n"
	for name, u := range map[string]acp.SessionUpdate{"live": live, "replayed": replayed} {
		d := onlyDiff(t, u.ToolContent)
		if d.Path != path || !reflect.DeepEqual(d.OldText, &before) || d.NewText == nil || *d.NewText != after {
			t.Errorf("%s diff = %+v", name, d)
		}
		if len(u.Locations) != 1 || u.Locations[0].Line == nil || *u.Locations[0].Line != 3 {
			t.Errorf("%s locations = %+v, want row 3 (line 4)", name, u.Locations)
		}
	}
}

func lastToolUpdate(ups []acp.SessionUpdate) acp.SessionUpdate {
	var last acp.SessionUpdate
	for _, u := range ups {
		if u.SessionUpdate == acp.UpdateToolCallUpdate && u.Status != "" && u.Status != "in_progress" {
			last = u
		}
	}
	return last
}

// TestReopenedThreadKeepsMentions: a prompt's resource_link
// (an @-mention) is replayed by session/load as the same link, not as the
// file text the model got.
func TestReopenedThreadKeepsMentions(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "notes.md")
	os.WriteFile(path, []byte("mention-body-8080\n"), 0o644)
	env := newAgentEnv(t, textTurn("read it"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	link := acp.ContentBlock{Type: "resource_link", URI: "file://" + path, Name: "notes.md"}
	c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "look at"}, link)
	c.close()
	if !llmSaw(env, "mention-body-8080") || llmSaw(env, "resourceLink") {
		t.Error("the model must get the file's text and nothing of the link record")
	}

	c2 := startAgent(t, env)
	c2.initialize(acp.ClientCapabilities{})
	c2.call("session/load", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: work, MCPServers: []acp.MCPServer{}}, nil)
	var user []acp.ContentBlock
	for _, u := range c2.updatesOf(sess.SessionID) {
		if u.SessionUpdate == acp.UpdateUserMessageChunk {
			b := *u.Content
			b.Meta = nil
			user = append(user, b)
		}
	}
	want := []acp.ContentBlock{{Type: "text", Text: "look at"}, link}
	if !reflect.DeepEqual(user, want) {
		t.Errorf("replayed user chunks = %+v, want %+v", user, want)
	}
}

// TestNoticesAndCompactionWhenAdvertised: a client that
// advertises session.notices gets a warning notice for an extension that
// failed to start, and one that advertises session.compaction gets
// compaction_update in_progress then completed around goose's automatic
// compaction; a client that advertises neither gets neither.
func TestNoticesAndCompactionWhenAdvertised(t *testing.T) {
	for _, opted := range []bool{true, false} {
		t.Run(map[bool]string{true: "advertised", false: "not advertised"}[opted], func(t *testing.T) {
			env := newAgentEnv(t,
				providertest.Turn{Text: []string{"first"}, Usage: &providertest.Usage{Input: 5000, Output: 100}},
				providertest.Turn{Text: []string{"summary of the chat"}},
				providertest.Turn{Text: []string{"second"}},
			)
			env.Vars["GOOSE_AUTO_COMPACT_THRESHOLD"] = "0.01"
			c := startAgent(t, env)
			caps := acp.ClientCapabilities{}
			if opted {
				caps.Session = &acp.ClientSessionCapabilities{Compaction: rawJSON(`{}`), Notices: rawJSON(`{}`)}
			}
			c.initialize(caps)
			var sess acp.NewSessionResponse
			c.call("session/new", acp.NewSessionRequest{CWD: t.TempDir(), MCPServers: []acp.MCPServer{
				{Name: "broken", Command: filepath.Join(t.TempDir(), "no-such-server")}}}, &sess)
			c.prompt(sess.SessionID, "one")
			c.prompt(sess.SessionID, "two")
			var got []string
			for _, u := range c.updatesOf(sess.SessionID) {
				switch u.SessionUpdate {
				case acp.UpdateNotice:
					got = append(got, "notice:"+u.Severity+":"+*u.Title)
				case acp.UpdateCompaction:
					got = append(got, "compaction:"+u.CompactionID+":"+u.Status)
				}
			}
			want := []string{"notice:warning:Extension broken failed to start", "compaction:compaction-1:in_progress", "compaction:compaction-1:completed"}
			if !opted {
				want = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("updates = %q, want %q\n%s", got, want, c.dump(sess.SessionID))
			}
		})
	}
}

// TestRetryNotice: a rate-limited provider call that goose
// retries is a warning notice for a client that advertises notices.
func TestRetryNotice(t *testing.T) {
	env := newAgentEnv(t,
		providertest.Turn{Status: 429, ErrorBody: `{"error":{"message":"slow down","type":"rate_limit_exceeded"}}`, RetryAfter: "1"},
		textTurn("after the retry"),
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{Session: &acp.ClientSessionCapabilities{Notices: rawJSON(`{}`)}})
	sess := c.newSession(t.TempDir())
	if r := c.prompt(sess.SessionID, "hi"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	var notices []string
	for _, u := range c.updatesOf(sess.SessionID) {
		if u.SessionUpdate == acp.UpdateNotice {
			notices = append(notices, u.Severity+": "+*u.Title)
		}
	}
	if len(notices) != 1 || !strings.HasPrefix(notices[0], "warning: openai is rate limited; retrying in 1s (attempt 1 of ") {
		t.Errorf("notices = %q\n%s", notices, c.dump(sess.SessionID))
	}
	if !strings.Contains(c.agentText(sess.SessionID), "after the retry") {
		t.Error("the retried call's answer is missing")
	}
}
