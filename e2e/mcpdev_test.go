//go:build !windows

package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// passedLine is run.mjs's closing summary; anything but "0 failed" fails.
var passedLine = regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed$`)

// TestMCPDeveloperAcceptance runs the developer server's acceptance scenario through the official MCP
// TypeScript client (e2e/mcpdev/run.mjs) against the real binary's
// `goose-acp mcp developer`. The harness's npm packages are installed on
// first use; without node/npm it skips (fails in CI).
func TestMCPDeveloperAcceptance(t *testing.T) {
	dir := mcpdevHarness(t)
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "run.mjs")
	cmd.Dir = dir
	// A private HOME/GOOSE_PATH_ROOT keeps the user's global .gooseignore
	// and config out of the run; GOOSE_ACP_ARGS unset → "mcp developer".
	cmd.Env = append(withoutEnv(os.Environ(), "GOOSE_ACP_ARGS"),
		"GOOSE_ACP_BIN="+binary, "HOME="+home, "GOOSE_PATH_ROOT="+filepath.Join(home, "goose"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("run.mjs:\n%s", out.String())
	m := passedLine.FindAllStringSubmatch(out.String(), -1)
	if err != nil || len(m) == 0 {
		t.Fatalf("acceptance harness: %v (summary line found: %v)", err, len(m) > 0)
	}
	last := m[len(m)-1]
	if last[2] != "0" || last[1] == "0" {
		t.Fatalf("acceptance harness: %s passed, %s failed", last[1], last[2])
	}
}

// mcpdevHarness returns e2e/mcpdev with its locked npm packages installed.
func mcpdevHarness(t *testing.T) string {
	t.Helper()
	return npmtest.Install(t, "mcpdev")
}

// withoutEnv drops every KEY=… entry for key.
func withoutEnv(env []string, key string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if len(kv) > len(key) && kv[:len(key)+1] == key+"=" {
			continue
		}
		out = append(out, kv)
	}
	return out
}
