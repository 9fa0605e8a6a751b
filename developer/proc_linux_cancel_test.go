//go:build linux

package developer

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/internal/proctree"
)

// treeShapes are the process trees a command can leave behind; each runs
// its sleeps with ORPHAN_MARK in their environment and keeps the shell busy.
var treeShapes = map[string]string{
	"plain":         "sleep 300",
	"background":    "sleep 300 & echo started; sleep 300",
	"grandchildren": `sh -c 'sh -c "sleep 300"; true'; true`,
	"setsid":        "setsid sleep 300 & sleep 300",
	"nohup":         "nohup sleep 300 >/dev/null 2>&1 & sleep 300",
}

// markedPids are the live processes whose environment holds mark.
func markedPids(mark string) []int {
	return proctree.PidsWithEnv("ORPHAN_MARK=" + mark)
}

// waitMarked waits until pred holds for the marked processes.
func waitMarked(t *testing.T, mark string, limit time.Duration, pred func(n int) bool) []int {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		pids := markedPids(mark)
		if pred(len(pids)) || time.Now().After(deadline) {
			return pids
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Cancel and timeout end every process of every tree shape, including
// the ones that left the shell's process group and session.
func TestShellCancelAndTimeoutLeaveNoSurvivors(t *testing.T) {
	h := newHarness(t, Options{})
	for shape, body := range treeShapes {
		for _, how := range []string{"cancel", "timeout"} {
			t.Run(shape+"/"+how, func(t *testing.T) {
				mark := fmt.Sprintf("%s-%s-%d", shape, how, time.Now().UnixNano())
				args := map[string]any{"command": "export ORPHAN_MARK=" + mark + "; " + body}
				if how == "timeout" {
					args["timeout_secs"] = 2
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				done := make(chan struct{})
				go func() {
					defer close(done)
					_, _ = h.cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell", Arguments: args})
				}()
				started := waitMarked(t, mark, 5*time.Second, func(n int) bool { return n > 0 })
				if len(started) == 0 {
					t.Fatal("tree never started")
				}
				time.Sleep(200 * time.Millisecond) // let background members fork
				if how == "cancel" {
					cancel()
				}
				<-done
				if left := waitMarked(t, mark, 5*time.Second, func(n int) bool { return n == 0 }); len(left) != 0 {
					t.Fatalf("%d processes survived: %v", len(left), left)
				}
			})
		}
	}
}

// A finished call's background processes keep running (a dev server the
// model started), and end when Cleanup runs at exit.
func TestShellBackgroundOutlivesCallUntilStopped(t *testing.T) {
	h := newHarness(t, Options{})
	mark := fmt.Sprintf("detached-%d", time.Now().UnixNano())
	res := h.mustCall(t, "shell", map[string]any{"command": "export ORPHAN_MARK=" + mark + "; setsid sleep 300 >/dev/null 2>&1 & echo ok"})
	if got := texts(res); res.IsError || got[0] != "ok\n" {
		t.Fatalf("call: %q isError=%v, want \"ok\\n\" (the detached sleep holds no output pipe)", got, res.IsError)
	}
	if pids := waitMarked(t, mark, 2*time.Second, func(n int) bool { return n > 0 }); len(pids) != 1 {
		t.Fatalf("background sleep: %v", pids)
	}
	if err := Cleanup(); err != nil {
		t.Fatal(err)
	}
	if left := waitMarked(t, mark, 5*time.Second, func(n int) bool { return n == 0 }); len(left) != 0 {
		t.Fatalf("%d processes survived Cleanup: %v", len(left), left)
	}
}

// A parent-death signal fires when the thread that created the child
// exits, and Go ends the thread of every goroutine that exits while
// locked to it. Shells are created on a thread held until they are
// reaped, so threads ending meanwhile never kill a running command.
func TestShellSurvivesOSThreadExits(t *testing.T) {
	h := newHarness(t, Options{})
	done := make(chan []string, 1)
	go func() {
		res, err := h.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell", Arguments: map[string]any{"command": "sleep 1.5; echo alive"}})
		if err != nil {
			done <- []string{err.Error()}
			return
		}
		done <- texts(res)
	}()
	for {
		select {
		case got := <-done:
			if len(got) == 0 || got[0] != "alive\n" {
				t.Fatalf("got %q, want the command to finish", got)
			}
			return
		default:
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				runtime.LockOSThread() // exiting locked ends this OS thread
			}()
		}
		wg.Wait()
		time.Sleep(time.Millisecond)
	}
}
