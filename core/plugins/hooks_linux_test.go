//go:build linux

package plugins

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/internal/proctree"
)

// The test binary is its own process supervisor, as goose-acp is, so the
// hooks here run the way the agent runs them.
func init() { proctree.Init(os.Args) }

// TestHookRunsUnderTheTurnContext: cancelling the context ends the hook
// and every process it started, at once.
func TestHookRunsUnderTheTurnContext(t *testing.T) {
	dir := t.TempDir()
	mark := "HOOK_TREE_" + strings.ReplaceAll(t.Name(), "/", "_")
	p := hookPlugin(t, dir, "sleepy", oneHook("SessionStart", "", cmd(mark+"=1 sh -c 'sleep 300 & sleep 300'")))
	h := LoadHooks([]Plugin{p}, dir, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Emitted, 1)
	go func() { done <- h.Emit(ctx, SessionStart, Payload{Event: SessionStart, SessionID: "s"}) }()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	cancel()
	select {
	case out := <-done:
		if len(out.Failures) != 1 {
			t.Fatalf("cancelled hook: %+v", out)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hook outlived its context")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("cancel took %s", d)
	}
	if left := proctree.PidsWithEnv(mark + "=1"); len(left) > 0 {
		t.Fatalf("processes outlived the cancelled hook: %v", left)
	}
}
