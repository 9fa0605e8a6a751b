package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/checkpoint"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// textSince concatenates the agent_message_chunk texts after the first n
// updates of a session.
func (c *acpClient) textSince(sessionID string, n int) string {
	var b strings.Builder
	for _, u := range c.updatesOf(sessionID)[n:] {
		if u.SessionUpdate == acp.UpdateAgentMessageChunk && u.Content != nil {
			b.WriteString(u.Content.Text)
		}
	}
	return b.String()
}

// command sends a prompt and returns the agent text it produced.
func (c *acpClient) command(t *testing.T, sessionID, text string) string {
	t.Helper()
	n := len(c.updatesOf(sessionID))
	if r := c.prompt(sessionID, text); r.StopReason != "end_turn" {
		t.Fatalf("%s: stopReason %q", text, r.StopReason)
	}
	return c.textSince(sessionID, n)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// lastRequestHas reports which of texts the last LLM request carried.
func lastRequestHas(env *agentEnv, text string) bool {
	reqs := env.LLM.Requests()
	needle, _ := json.Marshal(text) // as a JSON string's content: the turn context may follow it
	return strings.Contains(string(reqs[len(reqs)-1].Body), string(needle[1:len(needle)-1]))
}

// TestRewindRestoresLocalFiles: /rewind and /undo are
// advertised; /rewind lists the user messages; /undo puts the files the
// last turn changed back and drops the turn from what the model sees;
// /rewind 1 goes back to before the first message, deleting a file that
// did not exist then. Checkpoints live in <data>/sessions/<id>/checkpoints.
func TestRewindRestoresLocalFiles(t *testing.T) {
	work := t.TempDir()
	a, fresh := filepath.Join(work, "a.txt"), filepath.Join(work, "new.txt")
	os.WriteFile(a, []byte("one\n"), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("w1", "write", map[string]string{"path": a, "content": "two\n"}),
		toolCallTurn("w2", "write", map[string]string{"path": fresh, "content": "new\n"}),
		textTurn("done one"),
		toolCallTurn("e1", "edit", map[string]string{"path": a, "before": "two", "after": "three"}),
		textTurn("done two"),
		textTurn("done three"),
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
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
	var ours []acp.AvailableCommand
	for _, cmd := range cmds {
		if cmd.Name == "rewind" || cmd.Name == "undo" {
			ours = append(ours, cmd)
		}
	}
	got, _ := json.Marshal(ours)
	want := `[{"name":"rewind","description":"Undo the conversation and file changes back to a message (/rewind lists them)","input":{"hint":"message number"}},` +
		`{"name":"undo","description":"Undo the last turn: its messages and the files it changed"}]`
	if string(got) != want {
		t.Errorf("commands = %s\nwant %s", got, want)
	}

	c.command(t, sess.SessionID, "first: write files")
	c.command(t, sess.SessionID, "second: edit a")
	if readFile(t, a) != "three\n" || readFile(t, fresh) != "new\n" {
		t.Fatalf("before rewind: a=%q new=%q\n%s", readFile(t, a), readFile(t, fresh), c.dump(sess.SessionID))
	}
	idx := filepath.Join(env.Root, "data", "sessions", sess.SessionID, "checkpoints", "index.jsonl")
	if b, err := os.ReadFile(idx); err != nil || strings.Count(string(b), "\n") != 3 {
		t.Errorf("checkpoint index %s: %q %v", idx, b, err)
	}

	if got := c.command(t, sess.SessionID, "/rewind"); got != agent.RewindListHeader+"\n1. first: write files\n2. second: edit a" {
		t.Errorf("/rewind = %q", got)
	}
	if got := c.command(t, sess.SessionID, "/rewind 7"); got != `/rewind needs a message number from 1 to 2, not "7"; send /rewind to see them.` {
		t.Errorf("/rewind 7 = %q", got)
	}
	if got, want := c.command(t, sess.SessionID, "/undo"), "Rewound to before message 2 (second: edit a).\nRestored "+a; got != want {
		t.Errorf("/undo = %q, want %q", got, want)
	}
	if readFile(t, a) != "two\n" || readFile(t, fresh) != "new\n" {
		t.Errorf("after /undo: a=%q new=%q", readFile(t, a), readFile(t, fresh))
	}
	c.command(t, sess.SessionID, "third")
	if !lastRequestHas(env, "first: write files") || lastRequestHas(env, "second: edit a") || !lastRequestHas(env, "third") {
		t.Errorf("the model's history after /undo: %s", env.LLM.Requests()[len(env.LLM.Requests())-1].Body)
	}
	want = fmt.Sprintf("Rewound to before message 1 (first: write files).\nRestored %s\nRemoved %s (it did not exist before)", a, fresh)
	if got := c.command(t, sess.SessionID, "/rewind 1"); got != want {
		t.Errorf("/rewind 1 = %q, want %q", got, want)
	}
	if readFile(t, a) != "one\n" {
		t.Errorf("after /rewind 1: a=%q", readFile(t, a))
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("new.txt still exists: %v", err)
	}
	if got := c.command(t, sess.SessionID, "/undo"); got != agent.RewindNothing {
		t.Errorf("/undo on an empty conversation = %q", got)
	}
	if b, _ := os.ReadFile(idx); len(b) != 0 {
		t.Errorf("checkpoints left after rewinding everything: %q", b)
	}
}

// TestRewindThroughEditor: with the editor's fs, the
// checkpoint is the buffer text the edit read (no second
// fs/read_text_file), and /undo writes it back with fs/write_text_file so
// the editor's buffer follows.
func TestRewindThroughEditor(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "app.go")
	os.WriteFile(path, []byte("package app // on disk\n"), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("e1", "edit", map[string]string{"path": path, "before": "world", "after": "goose"}),
		textTurn("edited"),
	)
	c := startAgent(t, env)
	buffer := "package app\n\nvar hello = \"world\"\n"
	ed := &editor{buffers: map[string]string{path: buffer}}
	ed.install(c)
	c.initialize(fsCaps)
	sess := c.newSession(work)
	c.command(t, sess.SessionID, "edit app.go")
	if n := len(c.callsTo("fs/read_text_file")); n != 1 {
		t.Errorf("fs/read_text_file calls = %d, want 1 (the edit's own read)", n)
	}
	if got, want := c.command(t, sess.SessionID, "/undo"), "Rewound to before message 1 (edit app.go).\nRestored "+path; got != want {
		t.Errorf("/undo = %q, want %q", got, want)
	}
	writes := ed.writeLog()
	if len(writes) != 2 || writes[1].Path != path || writes[1].Content != buffer || writes[1].SessionID != sess.SessionID {
		t.Fatalf("fs/write_text_file = %+v, want the edit then the restored buffer", writes)
	}
	if readFile(t, path) != "package app // on disk\n" {
		t.Errorf("disk was written: %q", readFile(t, path))
	}
}

// TestRewindTooLargeFile: a file over the checkpoint limit is
// still written; the user is told at once that it cannot be rewound, and
// /undo names it among the files it did not restore.
func TestRewindTooLargeFile(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "big.txt")
	big := strings.Repeat("x", checkpoint.MaxFileBytes+1)
	os.WriteFile(path, []byte(big), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("w1", "write", map[string]string{"path": path, "content": "small\n"}),
		textTurn("written"),
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	why := fmt.Sprintf("it is %d bytes, over the %d-byte checkpoint limit", len(big), checkpoint.MaxFileBytes)
	got := c.command(t, sess.SessionID, "write big")
	if !strings.Contains(got, checkpoint.SkippedText(path, why)) || readFile(t, path) != "small\n" {
		t.Errorf("turn text %q, file %d bytes", got, len(readFile(t, path)))
	}
	if got, want := c.command(t, sess.SessionID, "/undo"), "Rewound to before message 1 (write big).\nNot restored "+path+": "+why; got != want {
		t.Errorf("/undo = %q, want %q", got, want)
	}
}

// TestRewindUndoesADelegatesWrites: files a summon delegate's subagent
// wrote belong to the parent's turn, so the parent's /undo restores them.
func TestRewindUndoesADelegatesWrites(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "notes.md")
	os.WriteFile(path, []byte("before\n"), 0o644)
	summary, _ := json.Marshal(map[string]string{"final_output": `{"summary":"wrote notes"}`})
	env := newAgentEnv(t,
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_del", Name: "delegate", Arguments: `{"instructions":"Write the notes"}`}}},
		toolCallTurn("call_w", "write", map[string]string{"path": path, "content": "by the subagent\n"}),
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_fin", Name: "final_output", Arguments: string(summary)}}},
		textTurn("The subagent wrote the notes."),
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.command(t, sess.SessionID, "delegate the notes")
	if readFile(t, path) != "by the subagent\n" {
		t.Fatalf("the subagent did not write: %q\n%s", readFile(t, path), c.stderr.String())
	}
	if got, want := c.command(t, sess.SessionID, "/undo"), "Rewound to before message 1 (delegate the notes).\nRestored "+path; got != want {
		t.Errorf("/undo = %q, want %q", got, want)
	}
	if readFile(t, path) != "before\n" {
		t.Errorf("after /undo: %q", readFile(t, path))
	}
}

// TestRewindAfterRestart: checkpoints are on disk, so a session loaded by
// a new goose-acp process can still /undo its last turn, and a reload
// replays only what is left.
func TestRewindAfterRestart(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "cfg.yaml")
	os.WriteFile(path, []byte("a: 1\n"), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("w1", "write", map[string]string{"path": path, "content": "a: 2\n"}),
		textTurn("changed"),
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.command(t, sess.SessionID, "keep this")
	c.close()

	c2 := startAgent(t, env)
	c2.initialize(acp.ClientCapabilities{})
	c2.call("session/load", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: work, MCPServers: []acp.MCPServer{}}, nil)
	if got, want := c2.command(t, sess.SessionID, "/undo"), "Rewound to before message 1 (keep this).\nRestored "+path; got != want {
		t.Errorf("/undo after restart = %q, want %q", got, want)
	}
	if readFile(t, path) != "a: 1\n" {
		t.Errorf("after /undo: %q", readFile(t, path))
	}
	c3 := startAgent(t, env)
	c3.initialize(acp.ClientCapabilities{})
	c3.call("session/load", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: work, MCPServers: []acp.MCPServer{}}, nil)
	for _, u := range c3.updatesOf(sess.SessionID) {
		if u.SessionUpdate == acp.UpdateUserMessageChunk || u.SessionUpdate == acp.UpdateAgentMessageChunk || u.SessionUpdate == acp.UpdateToolCall {
			t.Errorf("replayed after /undo: %s", jsonOf(u))
		}
	}
}
