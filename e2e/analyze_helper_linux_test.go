//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
)

// helperProcesses lists the running goose-acp-analyze processes of this
// test binary's helper, zombies included.
func helperProcesses() []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if exe, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); exe == analyzeHelper {
			pids = append(pids, pid)
		}
	}
	return pids
}

// startStuckAnalyze has the model analyze a FIFO nobody writes, so the
// helper blocks reading it, and waits until that helper runs.
func startStuckAnalyze(t *testing.T) (*acpClient, string, <-chan promptResult) {
	t.Helper()
	// Helpers of earlier tests' agents end when their agents' stdin closes.
	helperGone(t, "the earlier tests' agents exited")
	fifo := filepath.Join(t.TempDir(), "stuck.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	env := newAgentEnv(t, toolCallTurn("a1", "analyze", map[string]any{"path": fifo}), textTurn("after"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	done := c.promptAsync(sess.SessionID, "analyze the fifo")
	c.waitFor("a goose-acp-analyze process", func() bool { return len(helperProcesses()) > 0 })
	return c, sess.SessionID, done
}

func helperGone(t *testing.T, after string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(helperProcesses()) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("goose-acp-analyze %v still running after %s", helperProcesses(), after)
		}
	}
}

// session/cancel during analyze ends the turn and its helper.
func TestAnalyzeCancelLeavesNoHelper(t *testing.T) {
	c, sid, done := startStuckAnalyze(t)
	c.notify("session/cancel", acp.SessionIDRequest{SessionID: sid})
	if r := c.awaitPrompt(done, 10*time.Second); r.StopReason != "cancelled" {
		t.Fatalf("stopReason %q, want cancelled", r.StopReason)
	}
	helperGone(t, "session/cancel")
}

// A SIGKILLed agent takes its running helper with it.
func TestAnalyzeHelperDiesWithTheAgent(t *testing.T) {
	c, _, _ := startStuckAnalyze(t)
	_ = c.cmd.Process.Kill()
	c.close()
	helperGone(t, "the agent was SIGKILLed")
}

// One agent process serves its analyze calls with one helper, kept
// between calls and prompts, which ends when the agent exits.
func TestAnalyzeHelperKeptAndEndsWithTheAgent(t *testing.T) {
	helperGone(t, "the earlier tests' agents exited")
	file, want := analyzeFixture(t)
	env := newAgentEnv(t,
		toolCallTurn("a1", "analyze", map[string]any{"path": file}), textTurn("one"),
		toolCallTurn("a2", "analyze", map[string]any{"path": file}), textTurn("two"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	var pids [2][]int
	for i := range 2 {
		if r := c.prompt(sess.SessionID, "analyze main.go"); r.StopReason != "end_turn" {
			t.Fatalf("prompt %d: stop %q\n%s", i+1, r.StopReason, c.stderr.String())
		}
		if got := viewRequest(t, env.LLM.Requests()[2*i+1].Body).results; len(got) != i+1 || got[i] != want {
			t.Fatalf("prompt %d: analyze results to the model:\n%q\nwant last\n%q", i+1, got, want)
		}
		pids[i] = helperProcesses()
	}
	if len(pids[0]) != 1 || len(pids[1]) != 1 || pids[0][0] != pids[1][0] {
		t.Errorf("helper processes after the first call %v, after the second %v; want the same one", pids[0], pids[1])
	}
	c.close()
	helperGone(t, "the agent's stdin closed")
}
