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
	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// nodeHarness returns the e2e/node directory with its locked npm packages
// installed (npmtest skips without node/npm, fails instead in CI).
func nodeHarness(t *testing.T) string {
	t.Helper()
	return npmtest.Install(t, "node")
}

// TestNodeSDKClientValidatesEveryFrame drives the agent with the official
// TypeScript SDK and requires zero zod schema violations across all frames.
func TestNodeSDKClientValidatesEveryFrame(t *testing.T) {
	dir := nodeHarness(t)
	work := t.TempDir()
	notes := filepath.Join(work, "notes.txt")
	args, _ := json.Marshal(map[string]string{"path": notes})
	env := newAgentEnv(t,
		providertest.Turn{Text: []string{"Hello ", "from goose"}},
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_perm", Name: "shell", Arguments: `{"command":"echo hi"}`}}},
		providertest.Turn{Text: []string{"ran it"}},
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_read", Name: "read", Arguments: string(args)}}},
		providertest.Turn{Text: []string{"read it"}},
		toolCallTurn("call_w1", "write", map[string]string{"path": filepath.Join(work, "out.txt"), "content": "from node\n"}),
		textTurn("refused"),
		toolCallTurn("call_w2", "write", map[string]string{"path": filepath.Join(work, "out.txt"), "content": "from node\n"}),
		textTurn("wrote"),
		textTurn("an image"),
		slowTurn("wait"),
	)
	var report struct {
		Frames     int               `json:"frames"`
		Violations []json.RawMessage `json:"violations"`
	}
	runNodeHarness(t, dir, append(env.environ(), "GOOSE_ACP_BIN="+binary, "WORKDIR="+work), &report,
		"basic", "permission", "fsread", "fswrite", "notice", "config", "image", "cancel", "list", "load")
	if report.Frames == 0 || len(report.Violations) != 0 {
		t.Fatalf("frames=%d violations=%s", report.Frames, report.Violations)
	}
	// The fs read went through the editor: the model saw the buffer text.
	reqs := env.LLM.Requests()
	var sawBuffer bool
	for _, r := range reqs {
		sawBuffer = sawBuffer || bytes.Contains(r.Body, []byte("buffer-content-12345"))
	}
	if !sawBuffer {
		t.Errorf("the model never saw the editor's buffer content")
	}
}

// runNodeHarness runs `node harness.mjs args…` in dir with env, fails the
// test when it exits non-zero, and decodes the last JSON line it printed
// (its report) into report.
func runNodeHarness(t *testing.T, dir string, env []string, report any, args ...string) {
	t.Helper()
	cmd := exec.Command("node", append([]string{"harness.mjs"}, args...)...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	t.Logf("node harness %s:\n%s", filepath.Base(dir), out)
	if err != nil {
		t.Fatalf("node harness failed: %v\nstderr:\n%s", err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "{") {
			_ = json.Unmarshal(sc.Bytes(), report)
		}
	}
}
