//go:build !windows

package developer

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A command that ignores SIGTERM is killed with SIGKILL one second after
// the cancel, the whole group with it.
func TestShellCancelEscalatesToSIGKILL(t *testing.T) {
	h := newHarness(t, Options{})
	pidFile := filepath.Join(h.dir, "bg.pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell", Arguments: map[string]any{
			"command": "trap '' TERM; sleep 60 & echo $! > " + pidFile + "; wait"}})
		done <- err
	}()
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0 && time.Now().Before(deadline); {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("background sleep never started")
	}
	start := time.Now()
	cancel()
	<-done
	for pidAlive(pid) && time.Since(start) < 5*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	took := time.Since(start)
	if pidAlive(pid) {
		t.Fatalf("sleep %d (ignoring SIGTERM) survived %v after cancel", pid, took)
	}
	if took < 900*time.Millisecond || took > 3*time.Second {
		t.Fatalf("killed after %v; want SIGTERM, then SIGKILL after 1 s", took)
	}
	for h.svc.procs.Len() != 0 && time.Since(start) < 5*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	if n := h.svc.procs.Len(); n != 0 {
		t.Fatalf("%d tracked processes left", n)
	}
}
