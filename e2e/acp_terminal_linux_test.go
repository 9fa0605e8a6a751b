//go:build linux

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp"
)

// terminals is a fake editor's terminal/* implementation running real
// local processes (each in its own process group, as editors do), so
// delegated shell calls, kills and releases are observable.
type terminals struct {
	mu    sync.Mutex
	next  int
	procs map[string]*termProc
}

type termProc struct {
	cmd  *exec.Cmd
	out  lockedBuffer
	done chan struct{}
	code int
	sig  string
}

func (ts *terminals) install(c *acpClient) {
	ts.procs = map[string]*termProc{}
	c.on("terminal/create", func(p json.RawMessage) (any, error) {
		var req acp.CreateTerminalRequest
		if err := json.Unmarshal(p, &req); err != nil {
			return nil, err
		}
		args := append([]string{"-c", req.Command}, req.Args...)
		if len(req.Args) > 0 {
			args = []string{"-c", `"$0" "$@"`, req.Command}
			args = append(args, req.Args...)
		}
		tp := &termProc{cmd: exec.Command("/bin/sh", args...), done: make(chan struct{})}
		tp.cmd.Dir = req.CWD
		tp.cmd.Env = os.Environ()
		for _, e := range req.Env {
			tp.cmd.Env = append(tp.cmd.Env, e.Name+"="+e.Value)
		}
		tp.cmd.Stdout, tp.cmd.Stderr = &tp.out, &tp.out
		tp.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := tp.cmd.Start(); err != nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
		}
		go func() {
			err := tp.cmd.Wait()
			tp.code = tp.cmd.ProcessState.ExitCode()
			if ws, ok := tp.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				tp.sig = ws.Signal().String()
			}
			_ = err
			close(tp.done)
		}()
		ts.mu.Lock()
		defer ts.mu.Unlock()
		ts.next++
		id := "term-" + strconv.Itoa(ts.next)
		ts.procs[id] = tp
		return acp.CreateTerminalResponse{TerminalID: id}, nil
	})
	get := func(p json.RawMessage) (*termProc, error) {
		var req acp.TerminalRequest
		if err := json.Unmarshal(p, &req); err != nil {
			return nil, err
		}
		ts.mu.Lock()
		defer ts.mu.Unlock()
		tp := ts.procs[req.TerminalID]
		if tp == nil {
			return nil, &jsonrpc2.Error{Code: acp.CodeResourceNotFound, Message: "unknown terminal " + req.TerminalID}
		}
		return tp, nil
	}
	status := func(tp *termProc) acp.TerminalExitStatus {
		st := acp.TerminalExitStatus{}
		if tp.sig != "" {
			st.Signal = &tp.sig
		} else {
			code := tp.code
			st.ExitCode = &code
		}
		return st
	}
	c.on("terminal/output", func(p json.RawMessage) (any, error) {
		tp, err := get(p)
		if err != nil {
			return nil, err
		}
		resp := acp.TerminalOutputResponse{Output: tp.out.String()}
		select {
		case <-tp.done:
			st := status(tp)
			resp.ExitStatus = &st
		default:
		}
		return resp, nil
	})
	c.on("terminal/wait_for_exit", func(p json.RawMessage) (any, error) {
		tp, err := get(p)
		if err != nil {
			return nil, err
		}
		<-tp.done
		return status(tp), nil
	})
	kill := func(p json.RawMessage, drop bool) (any, error) {
		tp, err := get(p)
		if err != nil {
			return nil, err
		}
		_ = syscall.Kill(-tp.cmd.Process.Pid, syscall.SIGKILL)
		if drop {
			var req acp.TerminalRequest
			json.Unmarshal(p, &req)
			ts.mu.Lock()
			delete(ts.procs, req.TerminalID)
			ts.mu.Unlock()
		}
		return nil, nil
	}
	c.on("terminal/kill", func(p json.RawMessage) (any, error) { return kill(p, false) })
	c.on("terminal/release", func(p json.RawMessage) (any, error) { return kill(p, true) })
}

func (ts *terminals) live() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.procs)
}

func TestTerminalDelegation(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t,
		toolCallTurn("call_t", "shell", map[string]string{"command": "echo term-out-42; pwd"}),
		textTurn("ran"),
		toolCallTurn("call_f", "shell", map[string]string{"command": "echo failing >&2; exit 3"}),
		textTurn("failed"),
	)
	c := startAgent(t, env)
	ts := &terminals{}
	ts.install(c)
	c.initialize(acp.ClientCapabilities{Terminal: true})
	sess := c.newSession(work)
	if r := c.prompt(sess.SessionID, "run"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	creates := c.callsTo("terminal/create")
	if len(creates) != 1 {
		t.Fatalf("terminal/create calls = %d", len(creates))
	}
	var cr acp.CreateTerminalRequest
	json.Unmarshal(creates[0], &cr)
	if cr.Command != "echo term-out-42; pwd" || cr.CWD != work || cr.OutputByteLimit == nil || *cr.OutputByteLimit != 50000 || cr.SessionID != sess.SessionID {
		t.Errorf("terminal/create = %s", creates[0])
	}
	var seq []string
	for _, m := range c.methodLog() {
		if strings.HasPrefix(m, "terminal/") {
			seq = append(seq, m)
		}
	}
	if got := strings.Join(seq, ","); got != "terminal/create,terminal/wait_for_exit,terminal/output,terminal/release" {
		t.Errorf("terminal calls = %s", got)
	}
	if ts.live() != 0 {
		t.Errorf("%d terminals not released", ts.live())
	}
	ups := c.toolUpdates(sess.SessionID, "call_t")
	var sawTerminal bool
	for _, u := range ups {
		for _, tc := range u.ToolContent {
			sawTerminal = sawTerminal || (tc.Type == "terminal" && tc.TerminalID == "term-1")
		}
	}
	if !sawTerminal {
		t.Errorf("no terminal content block for term-1\n%s", c.dump(sess.SessionID))
	}
	if got := c.finalStatus(sess.SessionID, "call_t"); got != "completed" {
		t.Errorf("status %q", got)
	}
	if !llmSaw(env, "term-out-42") || !llmSaw(env, work) {
		t.Error("the model did not see the terminal output (with the session cwd)")
	}
	if r := c.prompt(sess.SessionID, "fail"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	if got := c.finalStatus(sess.SessionID, "call_f"); got != "failed" {
		t.Errorf("exit 3: status %q, want failed", got)
	}
	if !llmSaw(env, "exit code: 3") {
		t.Error("the model did not see the exit code")
	}
}

// TestCancelDuringDelegatedTerminal: the terminal is killed and released,
// the prompt answers cancelled within 2 s.
func TestCancelDuringDelegatedTerminal(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, toolCallTurn("call_s", "shell", map[string]string{"command": "sleep 30"}))
	c := startAgent(t, env)
	ts := &terminals{}
	ts.install(c)
	c.initialize(acp.ClientCapabilities{Terminal: true})
	sess := c.newSession(work)
	done := c.promptAsync(sess.SessionID, "sleep")
	c.waitFor("terminal/create", func() bool { return len(c.callsTo("terminal/create")) == 1 && ts.live() == 1 })
	ts.mu.Lock()
	pid := ts.procs["term-1"].cmd.Process.Pid
	ts.mu.Unlock()
	c.notify("session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
	// Well inside the sleep's 30 s: the cancel did not wait for the command.
	if r := c.awaitPrompt(done, cancelBound); r.StopReason != "cancelled" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	c.waitFor("terminal/release", func() bool { return len(c.callsTo("terminal/release")) == 1 })
	if len(c.callsTo("terminal/kill")) == 0 {
		t.Error("the running terminal was not killed")
	}
	waitGone(t, pid)
}

// cancelBound is how long a cancelled `sleep 30` may take to answer: far
// more than a loaded machine needs, far less than waiting the sleep out.
const cancelBound = 20 * time.Second

// TestCancelDuringLocalTool: sleep 30 run by the agent itself stops on
// cancel, the prompt answers well before the sleep would end and no
// child process is left.
func TestCancelDuringLocalTool(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, toolCallTurn("call_s", "shell", map[string]string{"command": "sleep 30"}))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	done := c.promptAsync(sess.SessionID, "sleep")
	kids := c.waitForDescendant(t, "sleep")
	c.notify("session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
	if r := c.awaitPrompt(done, cancelBound); r.StopReason != "cancelled" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	for _, pid := range kids {
		waitGone(t, pid)
	}
	if got := c.finalStatus(sess.SessionID, "call_s"); got != "failed" && got != "completed" {
		t.Errorf("the cancelled call was left %q", got)
	}
}

// TestClientDisconnectMidTurn: closing stdin during a running tool makes
// the agent exit and leaves no process behind.
func TestClientDisconnectMidTurn(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, toolCallTurn("call_s", "shell", map[string]string{"command": "sleep 30"}))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	_ = c.promptAsync(sess.SessionID, "sleep")
	kids := c.waitForDescendant(t, "sleep")
	// close fails the test unless the agent exits within 10 s of stdin
	// closing: it did not wait for the sleep's 30 s.
	c.close()
	for _, pid := range kids {
		waitGone(t, pid)
	}
}

// TestZedTerminalOutputMeta: with _meta.terminal_output set (and no
// terminal capability) a local shell call streams into Zed's terminal
// display: terminal_info, terminal_output with the output, terminal_exit.
func TestZedTerminalOutputMeta(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, toolCallTurn("call_z", "shell", map[string]string{"command": "echo zed-live-1"}), textTurn("ok"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{Meta: acp.Meta{"terminal_output": true}})
	sess := c.newSession(work)
	c.prompt(sess.SessionID, "run")
	var info, output, exit bool
	for _, u := range c.toolUpdates(sess.SessionID, "call_z") {
		if ti, ok := u.Meta["terminal_info"].(map[string]any); ok && ti["terminal_id"] == "call_z" && ti["cwd"] == work {
			info = true
		}
		if to, ok := u.Meta["terminal_output"].(map[string]any); ok && strings.Contains(fmt.Sprint(to["data"]), "zed-live-1") {
			output = true
		}
		if te, ok := u.Meta["terminal_exit"].(map[string]any); ok && te["exit_code"] == float64(0) {
			exit = true
		}
	}
	if !info || !output || !exit {
		t.Fatalf("terminal_info=%v terminal_output=%v terminal_exit=%v\n%s", info, output, exit, c.dump(sess.SessionID))
	}
}

// waitForDescendant waits until the agent has a descendant process whose
// command name is comm and returns all its descendants' pids.
func (c *acpClient) waitForDescendant(t *testing.T, comm string) []int {
	t.Helper()
	var pids []int
	c.waitFor("a "+comm+" child process", func() bool {
		pids = descendants(c.cmd.Process.Pid)
		for _, p := range pids {
			if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", p)); strings.TrimSpace(string(b)) == comm {
				return true
			}
		}
		return false
	})
	return pids
}

// descendants lists the live descendants of pid from /proc.
func descendants(root int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may contain spaces.
		rest := string(b[strings.LastIndexByte(string(b), ')')+2:])
		f := strings.Fields(rest)
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	for pid := range parent {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == root {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// waitGone fails unless pid exits (or is only a zombie) within 3 s.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return
		}
		if f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:])); len(f) > 0 && f[0] == "Z" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	t.Errorf("process %d (%q) still running", pid, strings.ReplaceAll(string(b), "\x00", " "))
}
