package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"go.yaml.in/yaml/v3"

	"github.com/goose-acp/goose-acp/acp"
)

// TestPermissionOutcomes runs one shell call in approve mode per outcome
// and checks what the user relies on: whether the command ran, the tool
// call's final status, permission.yaml's exact text, and that the turn
// ends with end_turn unless the client cancelled it.
func TestPermissionOutcomes(t *testing.T) {
	const (
		yamlAllow = "user:\n  always_allow:\n  - shell\n  ask_before: []\n  never_allow: []\n"
		yamlDeny  = "user:\n  always_allow: []\n  ask_before: []\n  never_allow:\n  - shell\n"
	)
	cases := []struct {
		outcome    string // optionId, "cancelled", or "error" (the client fails the request)
		ran        bool
		status     string
		permission string // permission.yaml content; "" = no file
		stop       string
	}{
		{"allow_once", true, "completed", "", "end_turn"},
		{"allow_always", true, "completed", yamlAllow, "end_turn"},
		// A call that did not run ends failed.
		{"reject_once", false, "failed", "", "end_turn"},
		{"reject_always", false, "failed", yamlDeny, "end_turn"},
		// "cancelled" is the client cancelling the turn.
		{"cancelled", false, "failed", "", "cancelled"},
		{"error", false, "failed", "", "end_turn"},
	}
	for _, tc := range cases {
		t.Run(tc.outcome, func(t *testing.T) {
			work := t.TempDir()
			marker := filepath.Join(work, "ran.txt")
			env := newAgentEnv(t,
				toolCallTurn("call_sh", "shell", map[string]string{"command": "echo ran > ran.txt"}),
				textTurn("done"),
			)
			c := startAgent(t, env)
			if tc.outcome == "error" {
				c.on("session/request_permission", func(json.RawMessage) (any, error) {
					return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: "Internal error"}
				})
			} else {
				c.answerPermissions(tc.outcome)
			}
			c.initialize(acp.ClientCapabilities{})
			sess := c.newSession(work)
			c.setMode(sess.SessionID, "approve")
			resp := c.prompt(sess.SessionID, "run it")
			if resp.StopReason != tc.stop {
				t.Errorf("stopReason = %q, want %s", resp.StopReason, tc.stop)
			}
			reqs := c.callsTo("session/request_permission")
			if len(reqs) != 1 {
				t.Fatalf("got %d permission requests, want 1", len(reqs))
			}
			var req acp.RequestPermissionRequest
			if err := json.Unmarshal(reqs[0], &req); err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, o := range req.Options {
				ids = append(ids, o.OptionID+"/"+o.Kind)
			}
			if got := strings.Join(ids, ","); got != "allow_once/allow_once,allow_always/allow_always,reject_once/reject_once,reject_always/reject_always" {
				t.Errorf("options = %s", got)
			}
			if req.ToolCall.ToolCallID != "call_sh" || req.ToolCall.Title == nil || *req.ToolCall.Title != "Run echo ran > ran.txt" {
				t.Errorf("permission toolCall = %+v", req.ToolCall)
			}
			_, err := os.Stat(marker)
			if ran := err == nil; ran != tc.ran {
				t.Errorf("command ran = %v, want %v", ran, tc.ran)
			}
			if got := c.finalStatus(sess.SessionID, "call_sh"); got != tc.status {
				t.Errorf("final status = %q, want %q\n%s", got, tc.status, c.dump(sess.SessionID))
			}
			if tc.ran {
				if got := strings.Join(c.statuses(sess.SessionID, "call_sh"), ">"); got != "pending>in_progress>completed" {
					t.Errorf("statuses = %s, want pending>in_progress>completed", got)
				}
			}
			perm, err := os.ReadFile(filepath.Join(env.Root, "config", "permission.yaml"))
			if tc.permission == "" && err == nil {
				t.Errorf("permission.yaml written for a once decision:\n%s", perm)
			}
			if tc.permission != "" {
				if err != nil {
					t.Fatalf("permission.yaml not written: %v", err)
				}
				assertSameYAML(t, perm, tc.permission)
			}
		})
	}
}

// TestAllowAlwaysIsRemembered: after allow_always, the next call of the
// same tool runs without asking.
func TestAllowAlwaysIsRemembered(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t,
		toolCallTurn("call_1", "shell", map[string]string{"command": "echo one"}),
		textTurn("one"),
		toolCallTurn("call_2", "shell", map[string]string{"command": "echo two"}),
		textTurn("two"),
	)
	c := startAgent(t, env)
	c.answerPermissions("allow_always")
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.setMode(sess.SessionID, "approve")
	c.prompt(sess.SessionID, "first")
	c.prompt(sess.SessionID, "second")
	if n := len(c.callsTo("session/request_permission")); n != 1 {
		t.Fatalf("permission asked %d times, want 1", n)
	}
	if got := c.finalStatus(sess.SessionID, "call_2"); got != "completed" {
		t.Fatalf("second call status = %q\n%s", got, c.dump(sess.SessionID))
	}
}

// TestAutoModeNeverAsks: in auto mode no permission request is sent.
func TestAutoModeNeverAsks(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, toolCallTurn("call_1", "shell", map[string]string{"command": "echo auto"}), textTurn("ok"))
	c := startAgent(t, env)
	c.answerPermissions("reject_once")
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.prompt(sess.SessionID, "go")
	if n := len(c.callsTo("session/request_permission")); n != 0 {
		t.Fatalf("auto mode asked %d times", n)
	}
	if got := c.finalStatus(sess.SessionID, "call_1"); got != "completed" {
		t.Fatalf("status = %q", got)
	}
}

// TestCancelDuringPermissionPrompt: session/cancel while the editor shows
// the prompt answers the turn cancelled at once, withdraws the request with
// $/cancel_request, and the tool never runs.
func TestCancelDuringPermissionPrompt(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, toolCallTurn("call_sh", "shell", map[string]string{"command": "echo ran > ran.txt"}))
	c := startAgent(t, env)
	asked := make(chan struct{})
	release := make(chan struct{})
	c.on("session/request_permission", func(json.RawMessage) (any, error) {
		close(asked)
		<-release // the user has not answered yet
		return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
	})
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.setMode(sess.SessionID, "approve")
	done := c.promptAsync(sess.SessionID, "run it")
	select {
	case <-asked:
	case <-time.After(15 * time.Second):
		t.Fatal("no permission request")
	}
	c.notify("session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
	// The permission request is never answered before the prompt ends:
	// any answer at all means the cancel did not wait for the user.
	resp := c.awaitPrompt(done, 20*time.Second)
	if resp.StopReason != "cancelled" {
		t.Fatalf("stopReason = %q, want cancelled", resp.StopReason)
	}
	c.waitFor("$/cancel_request for the pending permission request", func() bool { return len(c.callsTo("$/cancel_request")) > 0 })
	close(release)
	if _, err := os.Stat(filepath.Join(work, "ran.txt")); err == nil {
		t.Error("the tool ran although the turn was cancelled at the permission prompt")
	}
	// The session keeps working afterwards.
	env.LLM.Script.Append(textTurn("fine"))
	if r := c.prompt(sess.SessionID, "again"); r.StopReason != "end_turn" {
		t.Fatalf("after cancel: %q", r.StopReason)
	}
}

// assertSameYAML compares permission.yaml with goose's text as data: goose
// (serde_yaml) writes "  - item" under a key, our core/config writes
// "    - item"; both parse to the same document, which is what goose reads.
func assertSameYAML(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := yaml.Unmarshal(got, &g); err != nil {
		t.Fatalf("permission.yaml does not parse: %v\n%s", err, got)
	}
	if err := yaml.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("permission.yaml = %q, want (as YAML) %q", got, want)
	}
	if string(got) != want {
		t.Logf("permission.yaml text differs from goose's only in layout: %q vs %q", got, want)
	}
}
