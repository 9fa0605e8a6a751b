//go:build !windows

package developer

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// TestNodeAcceptanceHarness builds the devserver binary and runs
// e2e/mcpdev/run.mjs (seed 000 §14 through the official MCP TypeScript
// client). The harness's locked npm packages are installed on first use;
// without node/npm it skips (fails with GOOSE_ACP_REQUIRE_NPM=1, as in CI).
func TestNodeAcceptanceHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns node and a server binary; skipped with -short")
	}
	harness := npmtest.Install(t, "../e2e/mcpdev")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "devserver")
	build := exec.Command("go", "build", "-o", bin, "./internal/devserver")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build devserver: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	run := exec.CommandContext(ctx, node, "run.mjs")
	run.Dir = harness
	run.Env = append(os.Environ(), "GOOSE_ACP_BIN="+bin, "GOOSE_ACP_ARGS=")
	out, err := run.CombinedOutput()
	t.Logf("%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || !strings.HasSuffix(lines[len(lines)-1], " passed, 0 failed") {
		t.Fatalf("acceptance harness failed: %v", err)
	}
}
