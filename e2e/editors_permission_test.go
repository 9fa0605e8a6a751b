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

	"github.com/goose-acp/goose-acp/acp"
)

// TestEditorsRejectedCallEndsFailed: after the user picks
// Reject the call ends failed in every client — ACP's terminal statuses
// are completed and failed, and a client with no "rejected" state of its
// own (agent-shell) would otherwise show it pending forever. The refused
// diff stays the call's content; the model's refusal text is in rawOutput
// only. session/load replays the call failed too.
func TestEditorsRejectedCallEndsFailed(t *testing.T) {
	for _, p := range editorProfiles {
		t.Run(p.name, func(t *testing.T) {
			work := t.TempDir()
			notes := filepath.Join(work, "notes.txt")
			os.WriteFile(notes, []byte("old notes\n"), 0o644)
			env := newAgentEnv(t,
				toolCallTurn("call_w", devTool("write"), map[string]string{"path": notes, "content": "new notes\n"}),
				toolCallTurn("call_sh", devTool("shell"), map[string]string{"command": "echo no"}),
				textTurn("ok, I will not"),
			)
			c := startAgent(t, env)
			(&editor{}).install(c)
			c.answerPermissions("reject_once")
			c.initializeAs(p.initialize)
			sess := c.newSession(work)
			c.setMode(sess.SessionID, "approve")
			if r := c.prompt(sess.SessionID, "change notes"); r.StopReason != "end_turn" {
				t.Fatalf("stopReason %q", r.StopReason)
			}
			reqs := c.permissionRequests()
			if len(reqs) != 2 {
				t.Fatalf("%d permission requests, want 2", len(reqs))
			}
			old := "old notes\n"
			wantDiff := []acp.ToolCallContent{{Type: "diff", Path: notes, OldText: &old, NewText: strp("new notes\n")}}
			if !reflect.DeepEqual(reqs[0].ToolCall.Content, wantDiff) {
				t.Fatalf("permission content = %+v", reqs[0].ToolCall.Content)
			}
			w := finalToolUpdate(t, c, sess.SessionID, "call_w")
			if w.Status != "failed" || !reflect.DeepEqual(w.ToolContent, wantDiff) || w.RawOutput != declinedText {
				t.Errorf("rejected write's final update = %s, want failed with the diff as content and the refusal as rawOutput", jsonOf(w))
			}
			sh := finalToolUpdate(t, c, sess.SessionID, "call_sh")
			wantCmd := []acp.ToolCallContent{{Type: "content", Content: &acp.ContentBlock{Type: "text", Text: "```sh\necho no\n```"}}}
			if sh.Status != "failed" || !reflect.DeepEqual(sh.ToolContent, wantCmd) || sh.RawOutput != declinedText {
				t.Errorf("rejected shell's final update = %s", jsonOf(sh))
			}
			for _, u := range c.updatesOf(sess.SessionID) {
				for _, tc := range u.ToolContent {
					if tc.Content != nil && strings.Contains(tc.Content.Text, "declined") {
						t.Errorf("the model's refusal text is shown to the user: %s", jsonOf(u))
					}
				}
			}
			if b, _ := os.ReadFile(notes); string(b) != old {
				t.Errorf("the rejected write happened: %q", b)
			}
			c.close()

			c2 := startAgent(t, env)
			c2.initializeAs(p.initialize)
			c2.call("session/load", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: work, MCPServers: []acp.MCPServer{}}, nil)
			for _, id := range []string{"call_w", "call_sh"} {
				if got := c2.finalStatus(sess.SessionID, id); got != "failed" {
					t.Errorf("replayed %s ends %q, want failed\n%s", id, got, c2.dump(sess.SessionID))
				}
			}
		})
	}
}

// TestEditorsCancelledPermissionCancelsTurn: agent-shell
// answers the open permission request "cancelled" and sends session/cancel
// a moment later (Goose Desktop does the same). A "cancelled" answer means
// the turn is being cancelled: it ends cancelled and the model is not
// called again, whichever of the two messages arrives first.
func TestEditorsCancelledPermissionCancelsTurn(t *testing.T) {
	for _, order := range []string{"answer first", "cancel first"} {
		t.Run(order, func(t *testing.T) {
			work := t.TempDir()
			env := newAgentEnv(t,
				toolCallTurn("call_sh", devTool("shell"), map[string]string{"command": "echo ran > ran.txt"}),
				textTurn("must not be asked"),
			)
			c := startAgent(t, env)
			(&editor{}).install(c)
			asked := make(chan struct{})
			answer := make(chan struct{})
			c.on("session/request_permission", func(json.RawMessage) (any, error) {
				close(asked)
				<-answer
				return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
			})
			c.initializeAs(agentShellInitialize)
			sess := c.newSession(work)
			c.setMode(sess.SessionID, "approve")
			done := c.promptAsync(sess.SessionID, "run it")
			select {
			case <-asked:
			case <-time.After(15 * time.Second):
				t.Fatal("no permission request")
			}
			if order == "answer first" {
				close(answer)
				time.Sleep(300 * time.Millisecond) // agent-shell's cancel follows its answer
				c.notify("session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
			} else {
				c.notify("session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
				time.Sleep(50 * time.Millisecond)
				close(answer)
			}
			resp := c.awaitPrompt(done, 10*time.Second)
			if resp.StopReason != "cancelled" {
				t.Errorf("stopReason = %q, want cancelled", resp.StopReason)
			}
			if n := len(env.LLM.Requests()); n != 1 {
				t.Errorf("%d model calls, want 1: a cancelled turn asks the model nothing more", n)
			}
			if got := c.finalStatus(sess.SessionID, "call_sh"); got != "failed" {
				t.Errorf("the cancelled call ends %q, want failed\n%s", got, c.dump(sess.SessionID))
			}
			if _, err := os.Stat(filepath.Join(work, "ran.txt")); err == nil {
				t.Error("the command ran")
			}
		})
	}
}

// TestEditorsRejectThenCancelKeepsTheDiff: agent-shell's Reject answers
// reject_once and sends session/cancel 2 ms later; its C-c C-c on an open
// permission answers "cancelled" and cancels. Either way the refused write
// ends failed with the diff the user was shown as its content (the words
// for the model, refusal or cancel, only in rawOutput) and the file is
// untouched — whichever of the answer and the cancel the agent sees first.
func TestEditorsRejectThenCancelKeepsTheDiff(t *testing.T) {
	for _, tc := range []struct {
		name, outcome string
		cancelFirst   bool
	}{
		{"reject then cancel", "reject_once", false},
		{"cancel then reject", "reject_once", true},
		{"cancelled then cancel", "cancelled", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			notes := filepath.Join(work, "notes.txt")
			os.WriteFile(notes, []byte("old notes\n"), 0o644)
			env := newAgentEnv(t,
				toolCallTurn("call_w", devTool("write"), map[string]string{"path": notes, "content": "new notes\n"}),
				slowTurn("ok, I will not"), // still streaming when the cancel arrives
			)
			c := startAgent(t, env)
			(&editor{}).install(c)
			c.initializeAs(agentShellInitialize)
			sess := c.newSession(work)
			cancel := func() error {
				return c.conn.Notify(context.Background(), "session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
			}
			cancelSent := make(chan error, 1)
			c.on("session/request_permission", func(json.RawMessage) (any, error) {
				if tc.cancelFirst {
					cancelSent <- cancel()
					time.Sleep(50 * time.Millisecond)
				} else {
					go func() {
						time.Sleep(2 * time.Millisecond)
						cancelSent <- cancel()
					}()
				}
				if tc.outcome == "cancelled" {
					return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
				}
				return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": tc.outcome}}, nil
			})
			c.setMode(sess.SessionID, "approve")
			if r := c.prompt(sess.SessionID, "change notes"); r.StopReason != "cancelled" {
				t.Errorf("stopReason %q, want cancelled", r.StopReason)
			}
			if err := <-cancelSent; err != nil {
				t.Fatal(err)
			}
			old := "old notes\n"
			wantDiff := []acp.ToolCallContent{{Type: "diff", Path: notes, OldText: &old, NewText: strp("new notes\n")}}
			w := finalToolUpdate(t, c, sess.SessionID, "call_w")
			raw, _ := w.RawOutput.(string)
			if w.Status != "failed" || !reflect.DeepEqual(w.ToolContent, wantDiff) || (raw != declinedText && raw != "Tool call cancelled by the user.") {
				t.Errorf("final update = %s, want failed with the refused diff as content, the model's words in rawOutput\n%s", jsonOf(w), c.dump(sess.SessionID))
			}
			if tc.outcome == "cancelled" && raw != "Tool call cancelled by the user." {
				t.Errorf("rawOutput %q", raw)
			}
			if b, _ := os.ReadFile(notes); string(b) != old {
				t.Errorf("the refused write happened: %q", b)
			}
		})
	}
}
