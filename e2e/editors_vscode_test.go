package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// TestVSCodeACPClient drives the agent with the SDK VS Code's
// "ACP Client" extension ships (@agentclientprotocol/sdk 0.21.1), handling
// requests as the extension does (e2e/vscode/harness.mjs): auto-approve
// takes the first allow option, a missing file's read fails with -32603,
// and a session_info_update without a title clears the banner.
//   - autoapprove: both writes are asked and granted once; no
//     permission.yaml rule appears;
//   - title: the banner keeps the session's title through three turns;
//   - missingfile: the read of a missing file asks the editor once and the
//     model is told the file does not exist; creating it reads nothing
//     more and is "Created";
//   - clear: /clear shows "Conversation cleared".
func TestVSCodeACPClient(t *testing.T) {
	dir := npmtest.Install(t, "vscode")
	work := t.TempDir()
	target := filepath.Join(work, "a.txt")
	env := newAgentEnv(t,
		toolCallTurn("call_w1", devTool("write"), map[string]string{"path": target, "content": "one\n"}),
		textTurn("wrote one"),
		toolCallTurn("call_w2", devTool("write"), map[string]string{"path": target, "content": "two\n"}),
		textTurn("wrote two"),
		textTurn("parser refactored"), textTurn("tests added"), textTurn("shipped"),
		toolCallTurn("call_r", devTool("read"), map[string]string{"path": "plan.md"}),
		toolCallTurn("call_n", devTool("write"), map[string]string{"path": "plan.md", "content": "# Plan\n"}),
		textTurn("planned"),
		textTurn("hi there"),
	)
	var report struct {
		Results []struct {
			Name  string `json:"name"`
			OK    bool   `json:"ok"`
			Error string `json:"error"`
		} `json:"results"`
		FSErrors []string `json:"fsErrors"`
	}
	runNodeHarness(t, dir, append(env.environ(), "GOOSE_ACP_BIN="+binary, "WORKDIR="+work), &report,
		"autoapprove", "title", "missingfile", "clear")
	for _, r := range report.Results {
		if !r.OK {
			t.Errorf("%s: %s", r.Name, r.Error)
		}
	}
	if b, err := os.ReadFile(filepath.Join(env.Root, "config", "permission.yaml")); err == nil {
		t.Errorf("auto-approved calls left a standing rule in permission.yaml:\n%s", b)
	}
	if !llmSaw(env, "Failed to read plan.md: file does not exist") || llmSaw(env, "Internal error") {
		t.Error("the model was not told plainly that plan.md does not exist")
	}
	if len(report.FSErrors) != 1 {
		t.Errorf("the editor failed %d reads, want 1 (the model's read of the missing file): %q", len(report.FSErrors), report.FSErrors)
	}
}
