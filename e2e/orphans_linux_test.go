//go:build linux

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
)

// orphanShapes are the process trees a shell tool call can build, with
// the number of marked processes each has once running. Every shape keeps
// the shell busy, so the agent is stopped mid-call.
var orphanShapes = []struct {
	name, command string
	procs         int
}{
	{"plain", "sleep 300", 1},
	{"background", "sleep 300 & echo started; sleep 300", 2},
	{"grandchildren", `sh -c 'sh -c "sleep 300; true"; true'; true`, 3},
	{"setsid", "setsid sleep 300 & sleep 300", 2},
	{"nohup", "nohup sleep 300 >/dev/null 2>&1 & sleep 300", 2},
}

// orphanStops are the ways a running call's agent can be stopped.
var orphanStops = []struct {
	name string
	stop func(c *acpClient, sessionID string, done <-chan promptResult)
}{
	{"cancel", func(c *acpClient, sid string, done <-chan promptResult) {
		c.notify("session/cancel", acp.SessionIDRequest{SessionID: sid})
		if r := c.awaitPrompt(done, 10*time.Second); r.StopReason != "cancelled" {
			c.t.Errorf("stopReason %q, want cancelled", r.StopReason)
		}
	}},
	{"stdin-close", func(c *acpClient, _ string, _ <-chan promptResult) { c.close() }},
	{"sigterm", func(c *acpClient, _ string, _ <-chan promptResult) {
		_ = c.cmd.Process.Signal(syscall.SIGTERM)
		c.close()
	}},
	{"sigkill", func(c *acpClient, _ string, _ <-chan promptResult) {
		_ = c.cmd.Process.Kill()
		c.close()
	}},
}

// TestNoProcessOutlivesTheAgent: every tree shape × every way of stopping
// leaves zero live processes carrying the call's unique marker, found by a
// scan of all of /proc (not just the agent's descendants: a setsid'd or
// nohup'd process may have been re-parented anywhere).
func TestNoProcessOutlivesTheAgent(t *testing.T) {
	for _, shape := range orphanShapes {
		for _, stop := range orphanStops {
			t.Run(shape.name+"/"+stop.name, func(t *testing.T) {
				mark := fmt.Sprintf("orphan-%s-%s-%d", shape.name, stop.name, time.Now().UnixNano())
				env := newAgentEnv(t,
					toolCallTurn("call_o", "shell", map[string]string{"command": "export ORPHAN_MARK=" + mark + "; " + shape.command}),
					textTurn("done"))
				c := startAgent(t, env)
				c.initialize(acp.ClientCapabilities{})
				sess := c.newSession(t.TempDir())
				done := c.promptAsync(sess.SessionID, "run it")
				c.waitFor(fmt.Sprintf("%d marked processes", shape.procs), func() bool { return len(markedProcs(mark)) >= shape.procs })
				t.Cleanup(func() { killMarked(mark) }) // never leak into the machine, even on failure
				stop.stop(c, sess.SessionID, done)
				deadline := time.Now().Add(5 * time.Second)
				for len(markedProcs(mark)) > 0 && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if left := markedProcs(mark); len(left) > 0 {
					t.Fatalf("%d processes survived: %s", len(left), describe(left))
				}
			})
		}
	}
}

// markedProcs scans /proc for live processes whose environment holds
// ORPHAN_MARK=mark (zombies are dead: a container's init may never reap).
func markedProcs(mark string) []int {
	want := []byte("ORPHAN_MARK=" + mark + "\x00")
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, want) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			continue
		}
		out = append(out, pid)
	}
	return out
}

func killMarked(mark string) {
	for _, pid := range markedProcs(mark) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// describe names each pid with its command line and parent.
func describe(pids []int) string {
	var b strings.Builder
	for _, pid := range pids {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		fmt.Fprintf(&b, "\n  pid %d %q stat %s", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}), bytes.TrimSpace(stat))
	}
	return b.String()
}
