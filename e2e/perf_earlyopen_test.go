package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The goose-acp an editor spawns opens an existing sessions.db while the
// process starts, before the editor's first request (for `goose-acp` and
// `goose-acp acp`, with or without a log flag), and closes it cleanly when
// the editor leaves without asking for anything. Its first session/new
// then no longer waits for the open.
func TestEditorProcessOpensItsSessionsDBAtStart(t *testing.T) {
	env := newAgentEnv(t)
	db := filepath.Join(env.Root, "data", "sessions", "sessions.db")
	first := exec.Command(binary)
	first.Env, first.Dir = env.environ(), env.Root
	first.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}` + "\n")
	if out, err := first.Output(); err != nil || !strings.Contains(string(out), `"protocolVersion":1`) {
		t.Fatalf("first run: %v, %s", err, out)
	}
	for _, args := range [][]string{nil, {"acp"}, {"--log-level", "debug", "acp", "--with-builtin", "todo"}} {
		if n := walSize(db); n != oneFrameWAL {
			t.Fatalf("%q: sessions.db-wal has %d bytes before the process starts, want one frame (%d)", args, n, oneFrameWAL)
		}
		cmd := exec.Command(binary, args...)
		cmd.Env, cmd.Dir = env.environ(), env.Root
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			// The open of an up-to-date file writes nothing: the
			// process has the file open.
			if hasOpen(t, cmd.Process.Pid, db) {
				break
			}
			if time.Now().After(deadline) {
				stdin.Close()
				_ = cmd.Wait()
				t.Fatalf("%q: sessions.db was not opened before the editor's first request", args)
			}
			time.Sleep(2 * time.Millisecond)
		}
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%q: exit %v", args, err)
		}
		if n := walSize(db); n != oneFrameWAL {
			t.Errorf("%q: the store opened at start was not closed: sessions.db-wal has %d bytes", args, n)
		}
	}
}

// oneFrameWAL is the write-ahead log a closed store leaves: its header
// and one 4 KiB page (the next process's first write appends to it).
const oneFrameWAL = 32 + 24 + 4096

// hasOpen reports whether process pid has path open (Linux: its
// descriptors in /proc/<pid>/fd).
func hasOpen(t *testing.T, pid int, path string) bool {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("open files are listed in /proc/<pid>/fd on Linux only")
	}
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false // not started yet, or gone
	}
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && target == path {
			return true
		}
	}
	return false
}

// walSize is the size of db's write-ahead log (-1: none).
func walSize(db string) int64 {
	fi, err := os.Stat(db + "-wal")
	if err != nil {
		return -1
	}
	return fi.Size()
}
