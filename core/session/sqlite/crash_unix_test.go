//go:build unix

package sqlite_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

const crashChildEnv = "GOOSE_ACP_SESSION_CRASH_CHILD"

// runCrashChild is the child: it creates a session, then appends messages
// forever, printing each index only after AppendMessage has committed it.
func runCrashChild(path string) int {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		return 2
	}
	s, err := st.Create(ctx, session.NewSession{WorkingDir: "/crash"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child create:", err)
		return 2
	}
	fmt.Printf("session %s\n", s.ID)
	for i := 0; ; i++ {
		m := conversation.UserText(int64(i), "message "+strconv.Itoa(i)+" "+strings.Repeat("x", i%500))
		if err := st.AppendMessage(ctx, s.ID, m); err != nil {
			fmt.Fprintln(os.Stderr, "child append:", err)
			return 2
		}
		fmt.Printf("committed %d\n", i)
	}
}

// TestCrashMidAppend SIGKILLs a process in the middle of a stream of
// appends; the database must then open, pass integrity_check and hold
// every message the child reported committed.
func TestCrashMidAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions", "sessions.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	var id string
	committed := -1
	killed := false
	deadline := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for lines.Scan() {
		f := strings.Fields(lines.Text())
		switch {
		case len(f) == 2 && f[0] == "session":
			id = f[1]
		case len(f) == 2 && f[0] == "committed":
			committed, _ = strconv.Atoi(f[1])
		}
		if committed >= 300 && !killed {
			// Kill while the child is mid-stream; lines already in the
			// pipe still count, so keep reading to EOF.
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("child stopped on its own after %d commits: %v", committed, err)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child did not die by SIGKILL: %v", cmd.ProcessState)
	}
	checkAfterCrash(t, path, id, committed)
}

func checkAfterCrash(t *testing.T, path, id string, committed int) {
	t.Helper()
	st := openStore(t, path, nil)
	defer st.Close()
	var integrity string
	if err := rawDB(t, path).QueryRow(`PRAGMA integrity_check`).Scan(&integrity); err != nil || integrity != "ok" {
		t.Fatalf("integrity_check = %q (%v)", integrity, err)
	}
	s, err := st.Get(context.Background(), id, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Conversation) < committed+1 {
		t.Fatalf("%d messages survived, child reported %d committed", len(s.Conversation), committed+1)
	}
	for i := 0; i <= committed; i++ {
		if want := "message " + strconv.Itoa(i) + " "; !strings.HasPrefix(s.Conversation[i].AsText(), want) {
			t.Fatalf("message %d is %q", i, s.Conversation[i].AsText()[:20])
		}
	}
	t.Logf("killed after %d reported commits; %d messages on disk", committed+1, len(s.Conversation))
}
