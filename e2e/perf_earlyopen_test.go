package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
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
		if _, err := os.Stat(db + "-wal"); err == nil {
			t.Fatalf("%q: sessions.db-wal is there before the process starts", args)
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
			// The open's first write starts the write-ahead log.
			if _, err := os.Stat(db + "-wal"); err == nil {
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
		if _, err := os.Stat(db + "-wal"); err == nil {
			t.Errorf("%q: the store opened at start was not closed: sessions.db-wal is left", args)
		}
	}
}
