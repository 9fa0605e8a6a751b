package xvfbtest

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/jezek/xgb"
)

// FreeDisplay picks an X display number with neither a socket nor a lock
// file, so a stale server of an earlier run is never mistaken for ours.
func FreeDisplay(t testing.TB) int {
	t.Helper()
	for n := 90 + os.Getpid()%400; n < 1000; n++ {
		_, sockErr := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n))
		_, lockErr := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n))
		if os.IsNotExist(sockErr) && os.IsNotExist(lockErr) {
			return n
		}
	}
	t.Fatal("no free X display number")
	return 0
}

// Start runs a 640x480x24 Xvfb, waits until it accepts connections, points
// DISPLAY at it (WAYLAND_DISPLAY cleared) and returns the display name. It
// skips the test when Xvfb is not installed. At cleanup the server gets
// SIGTERM, so it removes its socket and lock file, and SIGKILL only if it
// hangs.
func Start(t testing.TB) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the X11 capture path is Linux-only")
	}
	bin, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed (Debian: apt-get install xvfb); the X11 capture path is untested here")
	}
	display := fmt.Sprintf(":%d", FreeDisplay(t))
	cmd := exec.Command(bin, display, "-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// No goroutine waits on the server while the test runs (tests check
	// for leaked goroutines); cleanup reaps it.
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	deadline := time.Now().Add(15 * time.Second)
	for {
		if c, err := xgb.NewConnDisplay(display); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Xvfb %s did not come up", display)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Setenv("DISPLAY", display)
	t.Setenv("WAYLAND_DISPLAY", "")
	return display
}
