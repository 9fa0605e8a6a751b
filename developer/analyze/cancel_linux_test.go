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

// A cancelled analyze kills its helper and reaps it before returning: a
// helper blocked reading a FIFO that never gets a writer is gone, not
// left running or as a zombie.
func TestCancelLeavesNoHelper(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "stuck.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := analyze.Run(ctx, helper, analyze.Request{Path: fifo})
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for len(helperPIDs(t, helper)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the helper never started")
		}
		select {
		case err := <-done:
			t.Fatalf("analyze of a FIFO returned before cancel: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("analyze did not return after cancel; helper processes: %v", helperPIDs(t, helper))
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if pids := helperPIDs(t, helper); len(pids) != 0 {
		t.Errorf("helper processes left after cancel: %v", pids)
	}
}
