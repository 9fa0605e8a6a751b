//go:build !windows

package developer

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pyHarness is an editor-surface server in python_session mode; env
// overrides the test environment (PATH, interpreter…).
func pyHarness(t testing.TB, env map[string]string) *harness {
	t.Helper()
	home := t.TempDir()
	return newHarness(t, Options{Surface: Editor, Getenv: func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		switch k {
		case "HOME":
			return home
		case devModeKey:
			return "python_session"
		}
		return os.Getenv(k)
	}})
}

func needPython(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	return p
}

// cell runs code in session sid and returns (text, isError).
func (h *harness) cell(t *testing.T, sid, code string) (string, bool) {
	t.Helper()
	res, err := h.callMeta(t, "python", map[string]any{"code": code}, mcp.Meta{MetaSessionID: sid})
	if err != nil {
		t.Fatalf("python %q: %v", code, err)
	}
	return strings.Join(texts(res), "\n"), res.IsError
}

func (h *harness) wantCell(t *testing.T, sid, code, want string, wantErr bool) {
	t.Helper()
	got, isErr := h.cell(t, sid, code)
	if got != want || isErr != wantErr {
		t.Fatalf("cell %q:\n got (error=%v) %q\nwant (error=%v) %q", code, isErr, got, wantErr, want)
	}
}

func TestPythonModeToolsAndInfo(t *testing.T) {
	// The mode comes through Options.Config (env, then config.yaml) when set.
	h := newHarness(t, Options{Surface: Editor, Config: func(k string) (any, bool) {
		return "python_session", k == devModeKey
	}})
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Name == "python" && (tool.Description != pythonDescription || tool.Annotations.Title != "Run Python") {
			t.Errorf("python tool: %+v", tool)
		}
	}
	if strings.Join(names, ",") != "python" {
		t.Fatalf("tools %v, want python alone", names)
	}
	init := h.cs.InitializeResult()
	if init.ServerInfo.Title != "Developer (Python session)" || init.Instructions != pythonInstructions {
		t.Fatalf("server info %+v / instructions %q", init.ServerInfo, init.Instructions)
	}
	// "tools" (and an unset key) keep the normal tool surface.
	if h := newHarness(t, Options{Surface: Editor, Config: func(string) (any, bool) { return "tools", true }}); len(mustList(t, h)) < 5 {
		t.Fatal("tools mode lost its tools")
	}
}

func mustList(t *testing.T, h *harness) []*mcp.Tool {
	t.Helper()
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

func TestPythonStateKeptAcrossCells(t *testing.T) {
	needPython(t)
	h := pyHarness(t, nil)
	h.wantCell(t, "s1", "x = 41\nimport os", "(cell completed with no output)", false)
	h.wantCell(t, "s1", "print('hi')\nx + 1", "hi\n=> 42", false)
	h.wantCell(t, "s1", "_ * 2", "=> 84", false)
	h.wantCell(t, "s1", "import sys\nprint('warn', file=sys.stderr)", "stderr:\nwarn", false)
	h.wantCell(t, "s1", "os.environ['AGENT_SESSION_ID'], os.getcwd() == "+strconv.Quote(h.dir), "=> ('s1', True)", false)
	h.wantCell(t, "s1", "r = sh('echo out; echo err >&2; exit 3')\nr.code, r.out, r.err", "=> (3, 'out\\n', 'err\\n')", false)
	h.wantCell(t, "s1", "edit('f.txt', '', 'a b')\nedit('f.txt', 'b', 'c')\nopen('f.txt').read()", "=> 'a c'", false)
	h.wantCell(t, "s1", "1/0", "Traceback (most recent call last):\n  File \"<cell 8>\", line 1, in <module>\nZeroDivisionError: division by zero", true)
	h.wantCell(t, "s1", "raise SystemExit(2)", "SystemExit: 2 (the session keeps running; exit is disabled)", true)
	h.wantCell(t, "s1", "x", "=> 41", false)
	// Another session has its own interpreter.
	got, isErr := h.cell(t, "s2", "x")
	if !isErr || !strings.HasSuffix(got, "NameError: name 'x' is not defined") {
		t.Fatalf("session s2 sees s1's state: %v %q", isErr, got)
	}
	if res, _ := h.call(t, "python", map[string]any{}); !res.IsError || texts(res)[0] != "Missing required parameter: code" {
		t.Fatalf("missing code: %q", texts(res))
	}
}

func TestPythonOutputCapped(t *testing.T) {
	needPython(t)
	h := pyHarness(t, map[string]string{pyMaxOutputKey: "2000"})
	got, _ := h.cell(t, "s", "print('y' * 5000)")
	want := strings.Repeat("y", 2000) + "\n[... output truncated at 2000 chars; the full value is still in your variable if you assigned it - slice it instead of re-printing ...]"
	if got != want {
		t.Fatalf("capped output: %d chars, tail %q", len(got), got[len(got)-120:])
	}
}

func TestPythonCellTimeoutKeepsState(t *testing.T) {
	needPython(t)
	h := pyHarness(t, nil)
	h.svc.py.cellTimeout = 500 * time.Millisecond
	h.wantCell(t, "s", "import time\ny = 5\ntime.sleep(30)",
		"KeyboardInterrupt: cell interrupted (timeout or cancellation). The session and its variables are preserved.", true)
	h.wantCell(t, "s", "y", "=> 5", false)
}

func TestPythonCancelInterruptsCell(t *testing.T) {
	needPython(t)
	h := pyHarness(t, nil)
	h.wantCell(t, "s", "v = 'kept'", "(cell completed with no output)", false)
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _ = h.cs.CallTool(ctx, &mcp.CallToolParams{Name: "python", Arguments: map[string]any{"code": "import time\ntime.sleep(30)"}, Meta: mcp.Meta{MetaSessionID: "s"}})
	// The next cell waits for the interrupted one: it must not take the sleep's 30 s.
	h.wantCell(t, "s", "v", "=> 'kept'", false)
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("cancelled cell kept running %v", d)
	}
}

// pidGone polls until pid no longer exists.
func pidGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
	}
	t.Fatalf("python process %d still running", pid)
}

func (h *harness) kernelPID(t *testing.T, sid string) int {
	t.Helper()
	got, _ := h.cell(t, sid, "import os\nos.getpid()")
	pid, err := strconv.Atoi(strings.TrimPrefix(got, "=> "))
	if err != nil {
		t.Fatalf("pid cell: %q", got)
	}
	return pid
}

// TestPythonIdleShutdown: an idle kernel is stopped; the next cell starts
// a new one that restores the snapshot and says what came back.
func TestPythonIdleShutdown(t *testing.T) {
	needPython(t)
	h := pyHarness(t, nil)
	h.svc.py.idleTTL = 300 * time.Millisecond
	h.wantCell(t, "s", "z = 1\ngen = (i for i in range(3))", "(cell completed with no output)", false)
	pidGone(t, h.kernelPID(t, "s"))
	h.wantCell(t, "s", "z", "[python session restored from a previous process; available again: z, os; not restored (too large, not picklable, or no longer importable): gen]\n=> 1", false)
	h.wantCell(t, "s", "z + 1", "=> 2", false)
}

// TestPythonCrashRestarts: a cell that kills the interpreter is an error
// with goose's restart notice; the next cell runs in a new interpreter
// restored from the last snapshot.
func TestPythonCrashRestarts(t *testing.T) {
	needPython(t)
	h := pyHarness(t, nil)
	h.wantCell(t, "s", "w = [1, 2]", "(cell completed with no output)", false)
	h.wantCell(t, "s", "import os\nos._exit(3)", "the python session died while executing a cell\n"+pyResetNotice, true)
	h.wantCell(t, "s", "w", "[python session restored from a previous process; available again: w]\n=> [1, 2]", false)
}

func TestPythonKernelEndsWithConnection(t *testing.T) {
	needPython(t)
	h := pyHarness(t, nil)
	pid := h.kernelPID(t, "s")
	var stateDirs []string
	h.svc.py.mu.Lock()
	for _, sl := range h.svc.py.slots {
		stateDirs = append(stateDirs, sl.stateDir)
	}
	h.svc.py.mu.Unlock()
	if len(stateDirs) != 1 || stateDirs[0] == "" {
		t.Fatalf("state dirs %q", stateDirs)
	}
	h.cs.Close()
	pidGone(t, pid)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(stateDirs[0]); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("snapshot dir %s outlived the connection", stateDirs[0])
		}
	}
}

func TestPythonMissingInterpreter(t *testing.T) {
	h := pyHarness(t, map[string]string{"PATH": t.TempDir()})
	h.wantCell(t, "s", "1", pyNoInterpreter, true)
	if pyNoInterpreter != "no python3 or python interpreter found on PATH; install Python 3.9+ or set GOOSE_PYTHON_SESSION_PYTHON" {
		t.Fatal("goose's text changed")
	}
}

// TestPythonTooOld: a python3 on PATH that reports 3.8 gets goose's
// startup error (the driver's own version check, run by a real
// interpreter that pretends to be 3.8).
func TestPythonTooOld(t *testing.T) {
	// The interpreter itself, not a launcher shim that needs PATH.
	out, err := exec.Command(needPython(t), "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatal(err)
	}
	real := strings.TrimSpace(string(out))
	dir := t.TempDir()
	fake := "#!/bin/sh\nexec " + real + ` -c 'import sys, runpy; sys.version_info = (3, 8, 10, "final", 0); sys.version = "3.8.10 (fake)"; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name="__main__")' "$@"` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "python3"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	h := pyHarness(t, map[string]string{"PATH": dir})
	h.wantCell(t, "s", "1", "the python session failed to start: Python 3.9 or newer is required, found 3.8.10", true)
}

func TestPythonConfiguredInterpreterMissing(t *testing.T) {
	h := pyHarness(t, map[string]string{pyInterpreterKey: "/nonexistent/python9"})
	got, isErr := h.cell(t, "s", "1")
	if !isErr || !strings.HasPrefix(got, "failed to start the python session with `/nonexistent/python9`: ") {
		t.Fatalf("%v %q", isErr, got)
	}
}

// TestPythonToolsListGolden pins what a client sees in python_session
// mode (regenerate with -update and review the diff).
func TestPythonToolsListGolden(t *testing.T) {
	h := newHarness(t, Options{Surface: Editor, Getenv: func(k string) string {
		if k == devModeKey {
			return "python_session"
		}
		return ""
	}})
	golden(t, "tools_python.json", "\x00", string(encodeToolsList(t, h)))
}

// TestPythonViewImage: view_image() attaches the picture through
// read_image; a missing one is reported in the result, not as a failure.
func TestPythonViewImage(t *testing.T) {
	needPython(t)
	h := pyHarness(t, nil)
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 4, 3))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.dir, "a.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := h.callMeta(t, "python", map[string]any{"code": "view_image('a.png')\nview_image('gone.png')"}, mcp.Meta{MetaSessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	got := texts(res)
	var images int
	for _, c := range res.Content {
		if _, ok := c.(*mcp.ImageContent); ok {
			images++
		}
	}
	if res.IsError || images != 1 || len(got) != 3 || got[0] != "(cell completed with no output)" ||
		!strings.HasPrefix(got[1], "Loaded image from "+filepath.Join(h.dir, "a.png")+" (") ||
		!strings.HasPrefix(got[2], "[view_image could not load "+filepath.Join(h.dir, "gone.png")+": ") ||
		strings.Contains(got[2], "Error:") || !strings.HasSuffix(got[2], "]") {
		t.Fatalf("error=%v images=%d texts=%q", res.IsError, images, got)
	}
}

// TestPythonSettings: goose's keys, read through Options.Config.
func TestPythonSettings(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "python"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{}
	s := newService(Options{Surface: Editor, Config: func(k string) (any, bool) { v, ok := cfg[k]; return v, ok }})
	for v, want := range map[any]time.Duration{nil: 120 * time.Second, 3: 3 * time.Second, "0": time.Second, "soon": 120 * time.Second} {
		if cfg[pyCellTimeoutKey] = v; v == nil {
			delete(cfg, pyCellTimeoutKey)
		}
		if got := s.cellTimeout(); got != want {
			t.Errorf("cell timeout %v → %v, want %v", v, got, want)
		}
	}
	// python3 first, then python; a configured interpreter wins.
	if got, err := s.interpreter(t.TempDir() + string(os.PathListSeparator) + dir); err != nil || got != filepath.Join(dir, "python") {
		t.Errorf("fallback to python: %q %v", got, err)
	}
	cfg[pyInterpreterKey] = "/opt/py/bin/python3.12"
	if got, _ := s.interpreter(dir); got != "/opt/py/bin/python3.12" {
		t.Errorf("configured interpreter: %q", got)
	}
	if s.pythonMode() {
		t.Error("python mode without GOOSE_DEVELOPER_MODE")
	}
}
