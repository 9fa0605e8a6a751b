package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// httpHarness returns e2e/http with its locked npm packages installed
// (npmtest skips without node/npm, fails instead in CI), generating the
// TypeScript client from goosed-openapi.json first.
func httpHarness(t *testing.T) string {
	t.Helper()
	dir := npmtest.Install(t, "http")
	gen := exec.Command("npm", "run", "--silent", "gen")
	gen.Dir = dir
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("generating the client from goosed-openapi.json: %v\n%s", err, out)
	}
	return dir
}

// TestHTTPDesktopFlowWithGeneratedClient runs the desktop's startup, a chat
// turn with a tool approval over the session-events API and a legacy
// /reply turn against `goose-acp agent` over HTTPS with the fingerprint
// pinned, all through the generated client.
func TestHTTPDesktopFlowWithGeneratedClient(t *testing.T) {
	dir := httpHarness(t)
	work := t.TempDir()
	env := newAgentEnv(t,
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_shell", Name: "shell", Arguments: `{"command":"echo approved-42"}`}}},
		providertest.Turn{Text: []string{"It printed ", "approved-42."}},
		providertest.Turn{Text: []string{"legacy ", "answer"}},
	)
	env.Vars["GOOSE_MODE"] = "approve"
	env.writeConfig(t, "extensions:\n  developer:\n    enabled: true\n    type: builtin\n    name: developer\n    description: Developer tools\n    timeout: 300\n")
	cmd := exec.Command("node", "harness.mjs")
	cmd.Dir = dir
	cmd.Env = append(env.environ(), "GOOSE_ACP_BIN="+binary, "WORKDIR="+work)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	done := make(chan struct{})
	timer := time.AfterFunc(3*time.Minute, func() {
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
		}
	})
	defer timer.Stop()
	out, err := cmd.Output()
	close(done)
	var report struct {
		Steps       []string            `json:"steps"`
		Events      map[string][]string `json:"events"`
		Fingerprint string              `json:"fingerprint"`
		Stored      int                 `json:"stored"`
		Error       string              `json:"error"`
		Timing      map[string]int      `json:"timing"`
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "{") {
			_ = json.Unmarshal(sc.Bytes(), &report)
		}
	}
	if err != nil || report.Error != "" {
		t.Fatalf("harness failed: %v\n%s\nsteps: %v\nstderr:\n%s", err, report.Error, report.Steps, stderr.String())
	}
	t.Logf("steps %v\nevents %v\ntiming (ms) %v", report.Steps, report.Events, report.Timing)
	want := []string{"assistant:toolRequest", "assistant:actionRequired", "user:toolResponse"}
	got := strings.Join(report.Events["approval"], " ")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("approval turn %v lacks %s", report.Events["approval"], w)
		}
	}
	if last := report.Events["legacy"]; len(last) == 0 || last[len(last)-1] != "Finish" {
		t.Errorf("legacy turn %v", last)
	}
	// user, tool request, tool response, answer; user, answer.
	if report.Stored != 6 {
		t.Errorf("stored %d messages, want 6", report.Stored)
	}
	// The model saw the approved command's output.
	var sawOutput bool
	for _, r := range env.LLM.Requests() {
		sawOutput = sawOutput || bytes.Contains(r.Body, []byte("approved-42"))
	}
	if !sawOutput {
		t.Error("the model never saw the tool output")
	}
}
