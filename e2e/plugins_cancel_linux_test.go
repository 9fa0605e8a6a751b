package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/internal/proctree"
)

// TestPluginHookNeverBlocksTheEditor: a PreToolUse hook that hangs (a
// shell with a background sleep) does not hold the editor: session/cancel
// ends the turn cancelled well inside the hook's sleep, the hook's whole
// process tree is gone, and the tool it was deciding about never ran.
func TestPluginHookNeverBlocksTheEditor(t *testing.T) {
	work := t.TempDir()
	marker := filepath.Join(work, "ran.txt")
	env := newAgentEnv(t, toolCallTurn("call_touch", shellTool, map[string]string{"command": "touch " + marker}), textTurn("never"))
	mark := "GOOSE_ACP_E2E_HOOK=" + strings.ReplaceAll(t.Name(), "/", "_")
	userPlugin(t, env, "slow", map[string]string{
		"hooks/hooks.json": hooksJSON(map[string][2]string{"PreToolUse": {"", "cat > /dev/null; " + mark + " sh -c 'sleep 300 & sleep 300'"}}),
	})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	done := c.promptAsync(sess.SessionID, "touch it")
	deadline := time.Now().Add(cancelBound)
	for len(proctree.PidsWithEnv(mark)) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the hook never started\n%s", c.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.notify("session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
	if r := c.awaitPrompt(done, cancelBound); r.StopReason != "cancelled" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	for left := proctree.PidsWithEnv(mark); len(left) > 0; left = proctree.PidsWithEnv(mark) {
		if time.Now().After(deadline) {
			t.Fatalf("the hook's processes outlived the cancel: %v", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the tool ran though its PreToolUse hook never answered")
	}
	if n := len(env.LLM.Requests()); n != 1 {
		t.Fatalf("%d model requests after the cancel, want 1", n)
	}
}
