package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestACPv2WithTheSDKClient drives the real binary as an ACP v2 (draft)
// client with @agentclientprotocol/sdk 2.4.0's experimental v2 client, its
// v2 zod schemas validating every frame: negotiation, the prompt
// lifecycle (messageId answer, user_message, running/requires_action/idle
// states, held prompts, cancel), config options, display terminals and
// their output, tool-call and terminal cancel, session/resume with and
// without replay, auth/login and auth/logout, and v1's methods gone.
func TestACPv2WithTheSDKClient(t *testing.T) {
	dir := nodeHarness(t)
	work := t.TempDir()
	env := newAgentEnv(t,
		providertest.Turn{Text: []string{"Hello ", "from goose"}},
		toolCallTurn("call_perm", "shell", map[string]string{"command": "echo hi"}),
		textTurn("ran it"),
		toolCallTurn("call_out", "shell", map[string]string{"command": "echo from-the-shell"}),
		textTurn("printed"),
		toolCallTurn("call_sleep", "shell", map[string]string{"command": "sleep 30"}),
		textTurn("stopped"),
		toolCallTurn("call_term", "shell", map[string]string{"command": "sleep 31"}),
		textTurn("stopped too"),
		slowTurn("wait"),
		textTurn("one"),
		textTurn("two"),
	)
	var report struct {
		Frames     int               `json:"frames"`
		Violations []json.RawMessage `json:"violations"`
		Inbound    []string          `json:"inbound"`
	}
	runNodeScript(t, dir, "harness_v2.mjs", append(env.environ(), "GOOSE_ACP_BIN="+binary, "WORKDIR="+work), &report,
		"init", "basic", "permission", "terminal", "toolcancel", "terminalcancel", "cancel", "held", "resume", "list", "v1gone", "logout", "close")
	if report.Frames == 0 || len(report.Violations) != 0 {
		t.Fatalf("frames=%d violations=%s", report.Frames, report.Violations)
	}
	for _, m := range report.Inbound {
		if strings.HasPrefix(m, "fs/") || strings.HasPrefix(m, "terminal/") {
			t.Errorf("a v2 client was sent %s (v2 has no fs/terminal delegation)", m)
		}
	}
}

// runNodeScript runs `node script args…` in dir with env, fails the test
// when it exits non-zero, and decodes the last JSON line it printed (its
// report) into report.
func runNodeScript(t *testing.T, dir, script string, env []string, report any, args ...string) {
	t.Helper()
	cmd := exec.Command("node", append([]string{script}, args...)...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	t.Logf("node %s in %s:\n%s", script, filepath.Base(dir), out)
	if err != nil {
		t.Fatalf("node %s failed: %v\nstderr:\n%s", script, err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "{") {
			_ = json.Unmarshal(sc.Bytes(), report)
		}
	}
}
