package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// acp24Report is what e2e/node/acp24.mjs prints: each scenario's result,
// the frames it saw, zod violations, and what the scenarios recorded.
type acp24Report struct {
	Results []struct {
		Name  string `json:"name"`
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	} `json:"results"`
	Frames       int                        `json:"frames"`
	Violations   []json.RawMessage          `json:"violations"`
	Report       map[string]json.RawMessage `json:"report"`
	Permissions  []json.RawMessage          `json:"permissions"`
	Elicitations []json.RawMessage          `json:"elicitations"`
}

// runACP24 runs the SDK harness e2e/node/acp24.mjs against the binary:
// initialize with caps (clientCapabilities JSON), then the scenarios. It
// fails the test on a failed scenario or a schema violation.
func runACP24(t *testing.T, env *agentEnv, work, caps string, scenarios ...string) acp24Report {
	t.Helper()
	return runACP24With(t, env, work, caps, nil, scenarios...)
}

// runACP24With is runACP24 with extra environment for the harness
// (MCP_SERVERS: the session's mcpServers JSON).
func runACP24With(t *testing.T, env *agentEnv, work, caps string, extra []string, scenarios ...string) acp24Report {
	t.Helper()
	dir := nodeHarness(t)
	cmd := exec.Command("node", append([]string{"acp24.mjs"}, scenarios...)...)
	cmd.Dir = dir
	cmd.Env = append(append(env.environ(), "GOOSE_ACP_BIN="+binary, "WORKDIR="+work, "CAPS="+caps), extra...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var r acp24Report
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "{") {
			_ = json.Unmarshal(sc.Bytes(), &r)
		}
	}
	for _, res := range r.Results {
		if !res.OK {
			t.Errorf("scenario %s: %s", res.Name, res.Error)
		}
	}
	if len(r.Violations) > 0 {
		t.Errorf("zod violations: %s", r.Violations)
	}
	if err != nil || r.Frames == 0 {
		t.Fatalf("acp24 harness: %v (frames %d)\n%s\nstderr:\n%s", err, r.Frames, out, stderr.String())
	}
	return r
}

// field decodes one recorded value of the harness report.
func (r acp24Report) field(t *testing.T, name string, v any) {
	t.Helper()
	raw, ok := r.Report[name]
	if !ok {
		t.Fatalf("the harness recorded no %s", name)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s %s: %v", name, raw, err)
	}
}
