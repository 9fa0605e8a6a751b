package analyze_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

// helperPIDs lists this test process's children running exe (zombies
// included: a child not yet reaped is still left behind).
func helperPIDs(t *testing.T, exe string) []int {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []int
	for _, p := range procs {
		stat, err := os.ReadFile(filepath.Join(p, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		if target, _ := os.Readlink(filepath.Join(p, "exe")); target == exe || fields[0] == "Z" {
			pid, _ := strconv.Atoi(filepath.Base(p))
			pids = append(pids, pid)
		}
	}
	return pids
}

// stuckCall starts an analysis of a FIFO that never gets a writer (the
// helper blocks reading it) on a fresh helper, and returns that helper's
// pid and the call's result.
func stuckCall(t *testing.T, ctx context.Context) (int, <-chan error) {
	t.Helper()
	analyze.CloseIdle(helper)
	if pids := helperPIDs(t, helper); len(pids) != 0 {
		t.Fatalf("helper processes before the call: %v", pids)
	}
	fifo := filepath.Join(t.TempDir(), "stuck.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := analyze.Run(ctx, helper, analyze.Request{Path: fifo})
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if pids := helperPIDs(t, helper); len(pids) == 1 {
			return pids[0], done
		}
		if time.Now().After(deadline) {
			t.Fatal("the helper never started")
		}
		select {
		case err := <-done:
			t.Fatalf("analyze of a FIFO returned before cancel: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func await(t *testing.T, done <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("analyze did not return after %s; helper processes: %v", what, helperPIDs(t, helper))
	}
	return nil
}

// A cancelled analyze kills its helper and reaps it before returning: a
// helper blocked reading a FIFO is gone, not left running, kept for the
// next call or left as a zombie; the next call starts a new one.
func TestCancelLeavesNoHelper(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stuck, done := stuckCall(t, ctx)
	cancel()
	if err := await(t, done, "cancel"); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if pids := helperPIDs(t, helper); len(pids) != 0 {
		t.Errorf("helper processes left after cancel: %v", pids)
	}
	if pids := analyze.IdlePIDs(helper); len(pids) != 0 {
		t.Errorf("idle helpers after cancel: %v", pids)
	}
	pid := analyzeGoFile(t)
	if pid == stuck {
		t.Errorf("the call after cancel ran in the cancelled helper %d", pid)
	}
}

// A helper killed during a call is that call's error, naming it; the
// next call runs in a new helper.
func TestHelperKilledDuringACall(t *testing.T) {
	stuck, done := stuckCall(t, context.Background())
	if err := syscall.Kill(stuck, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := await(t, done, "the helper was killed")
	if want := "analyze: " + helper + " failed: signal: killed"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	if pids := helperPIDs(t, helper); len(pids) != 0 {
		t.Errorf("helper processes left: %v", pids)
	}
	if pid := analyzeGoFile(t); pid == stuck {
		t.Errorf("the next call ran in the killed helper %d", pid)
	}
}

// A helper killed while it waits for a call is replaced by the next call
// (which answers), and reaped.
func TestIdleHelperKilled(t *testing.T) {
	analyze.CloseIdle(helper)
	first := analyzeGoFile(t)
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Dead, not yet reaped: a zombie whose other threads are gone too
	// (so its files, the pipes' ends, are closed).
	for deadline := time.Now().Add(10 * time.Second); !deadUnreaped(first); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("helper %d state %q after SIGKILL", first, procState(first))
		}
	}
	second := analyzeGoFile(t)
	if second == first {
		t.Fatalf("the call ran in the killed helper %d", first)
	}
	if pids := helperPIDs(t, helper); len(pids) != 1 || pids[0] != second {
		t.Errorf("helper processes = %v, want [%d] (the killed one reaped)", pids, second)
	}
}

// Sequential calls, in any language, are served by one helper process.
func TestHelperIsReused(t *testing.T) {
	analyze.CloseIdle(helper)
	first := analyzeGoFile(t)
	root := fixture(t)
	for _, name := range []string{"main.go", "app/util/strings.rb", "main.go"} {
		if _, err := analyze.Run(context.Background(), helper, analyze.Request{Path: filepath.Join(root, name)}); err != nil {
			t.Fatal(err)
		}
		if pids := helperPIDs(t, helper); len(pids) != 1 || pids[0] != first {
			t.Fatalf("after %s: helper processes %v, want [%d]", name, pids, first)
		}
	}
	if got := analyzeGoFile(t); got != first {
		t.Errorf("helper %d, want %d", got, first)
	}
}

// analyzeGoFile analyzes the fixture's main.go, checks the answer against
// the golden, and returns the pid of the helper that answered (the one
// kept idle).
func analyzeGoFile(t *testing.T) int {
	t.Helper()
	root := fixture(t)
	got, err := analyze.Run(context.Background(), helper, analyze.Request{Path: "main.go", WorkingDir: root})
	if err != nil {
		t.Fatal(err)
	}
	if want := golden(t, "file_go.txt", root); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	idle := analyze.IdlePIDs(helper)
	if len(idle) == 0 {
		t.Fatal("no helper kept after the call")
	}
	return idle[len(idle)-1]
}

// procState is the state letter of pid ("" when gone).
func procState(pid int) string {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(fields) == 0 {
		return ""
	}
	return fields[0]
}

// deadUnreaped: pid is a zombie and the only task left of its thread
// group.
func deadUnreaped(pid int) bool {
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	return err == nil && len(tasks) == 1 && procState(pid) == "Z"
}
