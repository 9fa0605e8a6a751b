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
)

// TestNodeAcceptanceHarness builds the devserver binary and runs
// e2e/mcpdev/run.mjs (seed 000 §14 through the official MCP TypeScript
// client). GOOSE_ACP_E2E_NODE=1 makes it run `npm ci` when node_modules is
// missing; otherwise a missing install skips with the command to run.
func TestNodeAcceptanceHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns node and a server binary; skipped with -short")
	}
	harness, err := filepath.Abs("../e2e/mcpdev")
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH; install Node.js ≥ 20 to run the MCP acceptance harness")
	}
	if _, err := os.Stat(filepath.Join(harness, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		if os.Getenv("GOOSE_ACP_E2E_NODE") == "" {
			t.Skip("e2e/mcpdev/node_modules missing: run `cd e2e/mcpdev && npm ci` or set GOOSE_ACP_E2E_NODE=1")
		}
		npm := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		npm.Dir = harness
		if out, err := npm.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
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
