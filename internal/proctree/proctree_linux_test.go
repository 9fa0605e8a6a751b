//go:build linux

package proctree

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// The test binary is its own supervisor, as goose-acp is.
func init() { Init(os.Args) }

func start(t *testing.T, script string, env ...string) *Proc {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), env...)
	OwnGroup(cmd)
	p, err := Prepare(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Launch(cmd.Start); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWaitReportsExitCode(t *testing.T) {
	p := start(t, "exit 3")
	if code := p.Wait(); code == nil || *code != 3 {
		t.Fatalf("exit code = %v, want 3", code)
	}
}

// TestKillEndsDetachedDescendants: a setsid'd, nohup'd grandchild leaves
// the command's group and session, and Kill still ends it.
func TestKillEndsDetachedDescendants(t *testing.T) {
	mark := "PROCTREE_TEST=" + strconv.Itoa(os.Getpid())
	p := start(t, "setsid sleep 300 & nohup sleep 300 >/dev/null 2>&1 & sleep 300", mark)
	deadline := time.Now().Add(5 * time.Second)
	for len(PidsWithEnv(mark)) < 4 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := len(PidsWithEnv(mark)); n < 4 {
		t.Fatalf("%d marked processes before Kill, want the shell and its three sleeps", n)
	}
	p.Kill(p.Waited())
	<-p.Waited()
	deadline = time.Now().Add(5 * time.Second)
	for len(PidsWithEnv(mark)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if left := PidsWithEnv(mark); len(left) > 0 {
		t.Fatalf("processes outlived Kill: %v", left)
	}
}
