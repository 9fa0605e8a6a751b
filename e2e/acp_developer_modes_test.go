//go:build !windows

package e2e

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
)

// requestView is what a test reads from one LLM request: the tool names
// offered and the text of each tool result sent back.
type requestView struct {
	tools   []string
	results []string
}

func viewRequest(t *testing.T, body []byte) requestView {
	t.Helper()
	var b struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	var v requestView
	for _, tool := range b.Tools {
		v.tools = append(v.tools, tool.Function.Name)
	}
	for _, m := range b.Messages {
		if m.Role != "tool" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) != nil {
			var parts []struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(m.Content, &parts)
			for _, p := range parts {
				s += p.Text
			}
		}
		v.results = append(v.results, s)
	}
	return v
}

func (c *acpClient) toolKind(sessionID, toolCallID string) string {
	for _, u := range c.toolUpdates(sessionID, toolCallID) {
		if u.SessionUpdate == acp.UpdateToolCall {
			return u.Kind
		}
	}
	return ""
}

// TestPythonSessionModeOverACP: GOOSE_DEVELOPER_MODE: python_session in
// config.yaml gives the model python instead of the developer
// tools; the interpreter keeps its state across turns and is gone once the
// agent is killed.
func TestPythonSessionModeOverACP(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 on PATH")
	}
	env := newAgentEnv(t,
		toolCallTurn("c1", "python", map[string]string{"code": "x = 6 * 7\nx"}),
		textTurn("x is 42"),
		toolCallTurn("c2", "python", map[string]string{"code": "import os\nprint(os.getpid())\nx + 1"}),
		textTurn("x+1 is 43"),
		toolCallTurn("c3", "python", map[string]string{"code": "import os\nos.getpid()"}),
		textTurn("other session"),
	)
	env.writeConfig(t, "GOOSE_DEVELOPER_MODE: python_session\n")
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(t.TempDir())
	if r := c.prompt(sess.SessionID, "compute x"); r.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", r.StopReason, c.stderr.String())
	}
	if r := c.prompt(sess.SessionID, "and x+1"); r.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", r.StopReason, c.stderr.String())
	}
	reqs := env.LLM.Requests()
	first := viewRequest(t, reqs[0].Body)
	if !slices.Contains(first.tools, "python") || slices.Contains(first.tools, "shell") || slices.Contains(first.tools, "write") {
		t.Fatalf("python_session tools: %v", first.tools)
	}
	if got := viewRequest(t, reqs[1].Body).results; len(got) != 1 || got[0] != "=> 42" {
		t.Fatalf("first cell result %q", got)
	}
	last := viewRequest(t, reqs[3].Body).results
	pidText, value, ok := strings.Cut(last[len(last)-1], "\n")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil || value != "=> 43" {
		t.Fatalf("second cell result %q (state not kept?)", last)
	}
	if k := c.toolKind(sess.SessionID, "c1"); k != "execute" {
		t.Errorf("python tool call kind %q, want execute", k)
	}
	if syscall.Kill(pid, 0) != nil {
		t.Fatalf("python process %d not running during the session", pid)
	}
	// A second session has its own interpreter, which outlives the first
	// session's close but not a SIGKILLed agent.
	other := c.newSession(t.TempDir())
	if r := c.prompt(other.SessionID, "pid"); r.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", r.StopReason, c.stderr.String())
	}
	otherPID, err := strconv.Atoi(strings.TrimPrefix(viewRequest(t, env.LLM.Requests()[5].Body).results[0], "=> "))
	if err != nil || otherPID == pid {
		t.Fatalf("second session's interpreter: %v %d", err, otherPID)
	}
	c.call("session/close", acp.SessionIDRequest{SessionID: sess.SessionID}, nil)
	pythonGone(t, pid, "its session's close")
	if syscall.Kill(otherPID, 0) != nil {
		t.Fatal("closing one session ended another session's interpreter")
	}
	_ = c.cmd.Process.Kill() // no cleanup runs: the supervisor's parent-death signal must end it
	c.close()
	pythonGone(t, otherPID, "the killed agent")
}

func pythonGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("python process %d outlived %s", pid, what)
		}
	}
}
