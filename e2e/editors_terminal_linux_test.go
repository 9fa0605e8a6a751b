//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
)

// displayOnlyInitialize is Zed's initialize without the terminal
// capability: the client renders the agent's own command output through
// _meta.terminal_output (display terminals) and runs nothing itself.
const displayOnlyInitialize = `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":false,"_meta":{"terminal_output":true}},"clientInfo":{"name":"zed","title":"Zed","version":"0.230.0"}}`

// TestEditorsTerminalInfoOnToolCall: Zed creates a display
// terminal only from the tool_call's _meta.terminal_info; output for a
// terminal it does not know fails ("Terminal … not found"). A shell
// call's tool_call carries terminal_info (its id, the session's cwd) and
// the terminal content item, before any output.
func TestEditorsTerminalInfoOnToolCall(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, toolCallTurn("call_z", devTool("shell"), map[string]string{"command": "echo display-7"}), textTurn("ok"))
	c := startAgent(t, env)
	(&editor{}).install(c)
	c.initializeAs(displayOnlyInitialize)
	sess := c.newSession(work)
	c.prompt(sess.SessionID, "run")
	ups := c.toolUpdates(sess.SessionID, "call_z")
	if len(ups) == 0 || ups[0].SessionUpdate != acp.UpdateToolCall {
		t.Fatalf("no tool_call\n%s", c.dump(sess.SessionID))
	}
	call := ups[0]
	info, _ := call.Meta["terminal_info"].(map[string]any)
	if info["terminal_id"] != "call_z" || info["cwd"] != work {
		t.Errorf("tool_call _meta = %s, want terminal_info {terminal_id: call_z, cwd: %s}", jsonOf(call.Meta), work)
	}
	var hasTerminal bool
	for _, tc := range call.ToolContent {
		hasTerminal = hasTerminal || (tc.Type == "terminal" && tc.TerminalID == "call_z")
	}
	if !hasTerminal {
		t.Errorf("tool_call content = %s, want the terminal call_z", jsonOf(call.ToolContent))
	}
	var output bool
	for _, u := range ups[1:] {
		if to, ok := u.Meta["terminal_output"].(map[string]any); ok && strings.Contains(fmt.Sprint(to["data"]), "display-7") {
			output = true
		}
	}
	if !output {
		t.Errorf("no terminal_output with the command's output\n%s", c.dump(sess.SessionID))
	}
	// A client without terminal_output gets no display terminal.
	c2 := startAgent(t, newAgentEnv(t, toolCallTurn("call_p", devTool("shell"), map[string]string{"command": "echo plain"}), textTurn("ok")))
	c2.initializeAs(agentShellInitialize)
	(&editor{}).install(c2)
	s2 := c2.newSession(work)
	c2.prompt(s2.SessionID, "run")
	for _, u := range c2.toolUpdates(s2.SessionID, "call_p") {
		if u.Meta["terminal_info"] != nil {
			t.Errorf("terminal_info sent to a client that did not ask: %s", jsonOf(u))
		}
	}
}

// TestEditorsCancelledShellKeepsTerminal: cancelling a
// running command keeps its terminal in the call's final update (ACP's
// content replaces the call's content; the terminal holds what the
// command printed), for Zed's own terminals and its display terminals,
// and the terminal is released only after that update.
func TestEditorsCancelledShellKeepsTerminal(t *testing.T) {
	for _, tc := range []struct{ name, initialize, terminalID string }{
		{"zed terminal", zedInitialize, "term-1"},
		{"display terminal", displayOnlyInitialize, "call_s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			env := newAgentEnv(t, toolCallTurn("call_s", devTool("shell"), map[string]string{"command": "echo started-4242; sleep 30"}))
			c := startAgent(t, env)
			ts := &terminals{}
			ts.install(c)
			(&editor{}).install(c)
			c.initializeAs(tc.initialize)
			sess := c.newSession(work)
			done := c.promptAsync(sess.SessionID, "run")
			if tc.terminalID == "term-1" {
				c.waitFor("terminal/create", func() bool { return len(c.callsTo("terminal/create")) == 1 && ts.live() == 1 })
			} else {
				c.waitFor("the command's output", func() bool { return strings.Contains(c.dump(sess.SessionID), "started-4242") })
			}
			time.Sleep(200 * time.Millisecond)
			c.notify("session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
			if r := c.awaitPrompt(done, 5*time.Second); r.StopReason != "cancelled" {
				t.Fatalf("stopReason %q", r.StopReason)
			}
			last := finalToolUpdate(t, c, sess.SessionID, "call_s")
			if last.Status != "failed" || len(last.ToolContent) == 0 || last.ToolContent[0].Type != "terminal" || last.ToolContent[0].TerminalID != tc.terminalID {
				t.Errorf("final update = %s, want failed with the terminal %s kept", jsonOf(last), tc.terminalID)
			}
			if tc.terminalID == "call_s" {
				if exit, ok := last.Meta["terminal_exit"].(map[string]any); !ok || exit["terminal_id"] != "call_s" {
					t.Errorf("the display terminal was not told the command ended: %s", jsonOf(last.Meta))
				}
			} else {
				c.waitFor("terminal/release", func() bool { return len(c.callsTo("terminal/release")) == 1 })
				if !c.releasedAfterFinal("call_s") {
					t.Errorf("terminal/release came before the call's final update: %v", c.methodLog())
				}
			}
		})
	}
}

// releasedAfterFinal reports whether the first terminal/release came after
// the tool call's final (failed or completed) update. The client records
// session/update notifications and requests in one arrival order.
func (c *acpClient) releasedAfterFinal(toolCallID string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	final := -1
	for i, n := range c.updates {
		u := n.Update
		if u.ToolCallID == toolCallID && u.SessionUpdate == acp.UpdateToolCallUpdate && (u.Status == "failed" || u.Status == "completed") {
			final = i
		}
	}
	seen := 0
	for _, m := range c.calls {
		switch m {
		case "session/update":
			seen++
		case "terminal/release":
			return final >= 0 && seen > final
		}
	}
	return false
}

// TestEditorsCancelledShellKeepsItsOutput: a client with no terminal of
// its own and no display terminal (agent-shell, acpx) sees a command's
// output only in the call's final content. Cancelling the command keeps
// what it printed there, before the cancel text (the model reads only the
// cancel text, as goose words it).
func TestEditorsCancelledShellKeepsItsOutput(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, toolCallTurn("call_s", devTool("shell"), map[string]string{"command": "echo started-4242; echo second-line; touch ready; sleep 30"}))
	c := startAgent(t, env)
	(&editor{}).install(c)
	c.initializeAs(agentShellInitialize)
	sess := c.newSession(work)
	done := c.promptAsync(sess.SessionID, "run")
	c.waitFor("the command to print", func() bool { _, err := os.Stat(filepath.Join(work, "ready")); return err == nil })
	time.Sleep(500 * time.Millisecond)
	c.notify("session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
	if r := c.awaitPrompt(done, 20*time.Second); r.StopReason != "cancelled" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	last := finalToolUpdate(t, c, sess.SessionID, "call_s")
	want := []acp.ToolCallContent{
		{Type: "content", Content: &acp.ContentBlock{Type: "text", Text: "started-4242\nsecond-line"}},
		{Type: "content", Content: &acp.ContentBlock{Type: "text", Text: "Tool call cancelled by the user."}},
	}
	if last.Status != "failed" || !reflect.DeepEqual(last.ToolContent, want) || last.RawOutput != "Tool call cancelled by the user." {
		t.Errorf("final update = %s, want failed with the command's output then the cancel text", jsonOf(last))
	}
	if llmSaw(env, "started-4242") {
		t.Error("the partial output reached the model")
	}
}
