//go:build !windows

package developer

import (
	"testing"
	"time"
)

// A command that ignores SIGTERM is killed with SIGKILL one second after
// the cancel, the whole group with it.
func TestShellCancelEscalatesToSIGKILL(t *testing.T) {
	h := newHarness(t, Options{})
	pid, cancel, done := startBackgroundShell(t, h, "trap '' TERM; ")
	start := time.Now()
	cancel()
	<-done
	if took := waitGone(t, h, pid, start, 5*time.Second); took < 900*time.Millisecond || took > 3*time.Second {
		t.Fatalf("killed after %v; want SIGTERM, then SIGKILL after 1 s", took)
	}
}
