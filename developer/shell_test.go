//go:build !windows

package developer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/developer/shellrun"
	"github.com/goose-acp/goose-acp/internal/proctree"
)

func TestClassicShellHappyPathUsesMetaWorkingDirAndSession(t *testing.T) {
	h := newHarness(t, Options{})
	other := t.TempDir()
	res, err := h.callMeta(t, "shell", map[string]any{"command": "pwd; echo out; sleep 0.1; echo err >&2; sleep 0.1; printenv AGENT_SESSION_ID GOOSE_TERMINAL AGENT GIT_TERMINAL_PROMPT GIT_PAGER"},
		mcp.Meta{MetaWorkingDir: other, MetaSessionID: "session-789", "unknown-key": 42})
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(other)
	want := real + "\nout\nerr\nsession-789\n1\ngoose\n0\ncat\n"
	got := texts(res)
	if len(got) != 2 || got[0] != want || got[1] != want || res.IsError {
		t.Fatalf("got %q isError=%v, want both %q", got, res.IsError, want)
	}
	meta := res.Meta[MetaKeyShell].(map[string]any)
	if meta["exitCode"].(float64) != 0 {
		t.Fatalf("meta = %v", res.Meta)
	}
}

func TestClassicShellValidation(t *testing.T) {
	h := newHarness(t, Options{})
	os.WriteFile(filepath.Join(h.dir, "secrets.txt"), []byte("k"), 0o600)
	os.WriteFile(filepath.Join(h.dir, "allowed.txt"), []byte("ok"), 0o600)
	cases := []struct {
		name, command string
		code          int64
		msg           string
	}{
		{"empty", "", jsonrpc.CodeInvalidParams, "Shell command cannot be empty"},
		{"blank", "   ", jsonrpc.CodeInvalidParams, "Shell command cannot be empty"},
		{"default ignore relative", "cat secrets.txt", jsonrpc.CodeInternalError, "The command attempts to access 'secrets.txt' which is restricted by .gooseignore"},
		{"default ignore absolute quoted", `cat "` + filepath.Join(h.dir, "secrets.txt") + `"`, jsonrpc.CodeInternalError,
			"The command attempts to access '" + filepath.Join(h.dir, "secrets.txt") + "' which is restricted by .gooseignore"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.call(t, "shell", map[string]any{"command": tc.command})
			rpcError(t, err, tc.code, tc.msg)
		})
	}
	if res := h.mustCall(t, "shell", map[string]any{"command": "cat allowed.txt"}); texts(res)[0] != "ok" {
		t.Fatalf("allowed: %q", texts(res))
	}
}

func TestShellNonZeroExitIsReported(t *testing.T) {
	for _, surface := range []Surface{Classic, Editor} {
		h := newHarness(t, Options{Surface: surface})
		res := h.mustCall(t, "shell", map[string]any{"command": "echo fail && exit 7"})
		if !res.IsError || !strings.HasSuffix(texts(res)[0], "fail\n\nCommand exited with code 7") {
			t.Fatalf("surface %d: %q isError=%v", surface, texts(res), res.IsError)
		}
	}
}

// pidAlive treats zombies as dead: a reparented child may wait for a
// reaper that a container's init never runs.
func pidAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

// startBackgroundShell runs "<prefix> sleep 60 & echo $! > pidfile; wait"
// through the shell tool and returns the sleep's pid, the call's cancel and
// its end.
func startBackgroundShell(t *testing.T, h *harness, prefix string) (int, context.CancelFunc, <-chan error) {
	t.Helper()
	pidFile := filepath.Join(h.dir, "bg.pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell", Arguments: map[string]any{
			"command": prefix + "sleep 60 & echo $! > " + pidFile + "; wait"}})
		done <- err
	}()
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0 && time.Now().Before(deadline); {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		cancel()
		t.Fatal("background sleep never started")
	}
	return pid, cancel, done
}

// waitGone waits up to limit for pid to die and for the process table to
// empty; it reports how long the pid lived after start.
func waitGone(t *testing.T, h *harness, pid int, start time.Time, limit time.Duration) time.Duration {
	t.Helper()
	for pidAlive(pid) && time.Since(start) < limit {
		time.Sleep(10 * time.Millisecond)
	}
	took := time.Since(start)
	if pidAlive(pid) {
		t.Fatalf("sleep %d survived %v after cancel", pid, took)
	}
	for h.svc.procs.Len() != 0 && time.Since(start) < limit {
		time.Sleep(10 * time.Millisecond)
	}
	if n := h.svc.procs.Len(); n != 0 {
		t.Fatalf("%d tracked processes left after cancel", n)
	}
	return took
}

func TestShellCancellationKillsProcessGroup(t *testing.T) {
	h := newHarness(t, Options{})
	pid, cancel, done := startBackgroundShell(t, h, "")
	start := time.Now()
	cancel()
	<-done
	waitGone(t, h, pid, start, 2*time.Second)
	if h.svc.stats.Cancelled.Load() != 1 {
		t.Fatalf("cancelled counter = %d", h.svc.stats.Cancelled.Load())
	}
}

func TestShellCompletionLeavesNoTrackingEntry(t *testing.T) {
	h := newHarness(t, Options{})
	for i := 0; i < 5; i++ {
		h.mustCall(t, "shell", map[string]any{"command": "echo " + strconv.Itoa(i)})
	}
	if n := h.svc.procs.Len(); n != 0 {
		t.Fatalf("%d tracked processes left", n)
	}
	if got := h.svc.stats.Succeeded.Load(); got != 5 {
		t.Fatalf("succeeded = %d", got)
	}
}

func TestClassicShellTruncatesToLast100Lines(t *testing.T) {
	h := newHarness(t, Options{})
	res := h.mustCall(t, "shell", map[string]any{"command": "for i in $(seq 1 150); do echo \"Line $i\"; done"})
	got := texts(res)
	if !strings.HasPrefix(got[0], "private note: output was 150 lines and we are only showing the most recent lines, remainder of lines in ") {
		t.Fatalf("assistant = %.200q", got[0])
	}
	if !strings.HasPrefix(got[1], "NOTE: Output was 150 lines, showing only the last 100 lines.\n\nLine 51\n") ||
		strings.Contains(got[1], "Line 50\n") || !strings.HasSuffix(got[1], "Line 150") {
		t.Fatalf("user = %.200q", got[1])
	}
	path := strings.Fields(strings.SplitAfter(got[0], "remainder of lines in ")[1])[0]
	full, err := os.ReadFile(path)
	if err != nil || strings.Count(string(full), "\n") != 150 {
		t.Fatalf("saved output %s: %v lines=%d", path, err, strings.Count(string(full), "\n"))
	}
}

func TestClassicShellCharacterCap(t *testing.T) {
	h := newHarness(t, Options{})
	_, err := h.call(t, "shell", map[string]any{"command": "head -c 400001 /dev/zero | tr '\\0' a"})
	rpcError(t, err, jsonrpc.CodeInternalError, "Shell output from command 'head -c 400001 /dev/zero | tr '\\0' a' has too many characters (400001). Maximum character count is 400000.")
}

func TestEditorShellTruncationSavesFullOutput(t *testing.T) {
	h := newHarness(t, Options{Surface: Editor})
	res := h.mustCall(t, "shell", map[string]any{"command": "seq 0 2499 | sed 's/^/line /'"})
	got := texts(res)
	if len(got) != 2 || !strings.HasPrefix(got[0], "line 2450\n") || !strings.HasSuffix(got[0], "line 2499") {
		t.Fatalf("preview = %.100q (%d contents)", got[0], len(got))
	}
	if !strings.HasPrefix(got[1], "[Output exceeded 2000 line limit (2500 lines total). Full output saved to ") ||
		!strings.HasSuffix(got[1], "up to 2000 lines at a time.]") {
		t.Fatalf("notice = %q", got[1])
	}
	path := strings.Fields(strings.SplitAfter(got[1], "saved to ")[1])[0]
	path = strings.TrimSuffix(path, ".")
	if b, err := os.ReadFile(path); err != nil || strings.Count(string(b), "\n") != 2499 {
		t.Fatalf("saved %s: %v", path, err)
	}
}

func TestEditorShellEmptyAndTimeout(t *testing.T) {
	h := newHarness(t, Options{Surface: Editor})
	res := h.mustCall(t, "shell", map[string]any{"command": ""})
	if !res.IsError || texts(res)[0] != "Command cannot be empty." {
		t.Fatalf("empty: %q", texts(res))
	}
	start := time.Now()
	res = h.mustCall(t, "shell", map[string]any{"command": "sleep 30", "timeout_secs": 1})
	// Well inside the sleep's 30 s, far above a loaded machine's delays.
	if !res.IsError || texts(res)[0] != "(no output)\n\nCommand timed out after 1 seconds" || time.Since(start) > 20*time.Second {
		t.Fatalf("timeout: %q after %v", texts(res), time.Since(start))
	}
}

func TestShellDoesNotHangOnBackgroundedProcess(t *testing.T) {
	h := newHarness(t, Options{Surface: Editor})
	t.Cleanup(func() { proctree.StopAll(5 * time.Second) }) // the sleep outlives the call
	start := time.Now()
	// A call that waited for the backgrounded sleep would take its 30 s.
	res := h.mustCall(t, "shell", map[string]any{"command": "echo before && (sleep 30 &) ; echo after"})
	if time.Since(start) > 20*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
	if res.IsError || !strings.Contains(texts(res)[0], "before\nafter") {
		t.Fatalf("got %q", texts(res))
	}
}

func TestShellStreamsLinesToEmitter(t *testing.T) {
	em := &recordingEmitter{}
	h := newHarness(t, Options{Surface: Editor, Emitter: em})
	h.mustCall(t, "shell", map[string]any{"command": "echo one; sleep 0.1; echo two >&2"})
	em.mu.Lock()
	defer em.mu.Unlock()
	var lines []string
	for _, e := range em.events {
		lines = append(lines, e.Stream+":"+e.Output)
	}
	if strings.Join(lines, "|") != "stdout:one\n|stderr:two\n" {
		t.Fatalf("events = %q", lines)
	}
}

func TestShellEditorStubsFailLoudly(t *testing.T) {
	h := newHarness(t, Options{})
	res := h.mustCall(t, "shell", map[string]any{"command": "eval \"$GIT_EDITOR\" 2>&1; echo code=$?"})
	if got := texts(res)[0]; got != "Interactive Git commands are not supported in this environment.\ncode=1\n" {
		t.Fatalf("got %q", got)
	}
}

func TestLoginShellPathProbe(t *testing.T) {
	script := filepath.Join(t.TempDir(), "fake-login-sh")
	os.WriteFile(script, []byte("#!/bin/sh\n[ \"$1 $2 $3\" = '-l -i -c' ] || exit 3\necho 'motd noise'\necho '/login/bin:/usr/bin'\necho\n"), 0o755)
	svc := newService(Options{Getenv: func(string) string { return "" }})
	if got := svc.loginPath(shellrun.SpecFor(script, "linux")); got != "/login/bin:/usr/bin" {
		t.Fatalf("login PATH = %q", got)
	}
}

func TestShellHandlesOneHugeLine(t *testing.T) {
	h := newHarness(t, Options{Surface: Editor})
	res := h.mustCall(t, "shell", map[string]any{"command": "head -c 300000 /dev/zero | tr '\\0' a"})
	got := texts(res)
	if len(got) != 2 || len(got[0]) != 10_000 || !strings.HasPrefix(got[1], "[Output exceeded 50000 byte limit (300000 bytes total).") {
		t.Fatalf("preview %d bytes, notice %q", len(got[0]), got[1:])
	}
}

func TestShellOutputLoggingNotifications(t *testing.T) {
	srv, svc := newServerWithService(Options{WorkingDir: t.TempDir()})
	t.Cleanup(svc.outDir.remove)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan map[string]any, 8)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			if r.Params.Logger == "shell_tool" {
				got <- r.Params.Data.(map[string]any)
			}
		},
	}).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	// On protocol 2026-07-28 the level travels in each request's _meta.
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "shell", Arguments: map[string]any{"command": "echo '  hi  '; echo; sleep 0.1; echo x >&2"},
		Meta: mcp.Meta{mcp.MetaKeyLogLevel: "info"}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for len(lines) < 2 {
		select {
		case d := <-got:
			if d["type"] != "shell_output" {
				t.Fatalf("data = %v", d)
			}
			lines = append(lines, d["stream"].(string)+":"+d["output"].(string))
		case <-time.After(5 * time.Second):
			t.Fatalf("notifications so far: %q", lines)
		}
	}
	if strings.Join(lines, "|") != "stdout:hi|stderr:x" {
		t.Fatalf("lines = %q", lines)
	}
}
