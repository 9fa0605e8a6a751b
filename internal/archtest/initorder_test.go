package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// cmd/goose-acp/internal/firstframe answers an editor's initialize from
// its package init, so the earlier Go initialises it, the earlier the
// answer. Go initialises a package once its imports are, and among the
// ready ones the first by import path: a dependency whose path sorts late
// waits for most of the binary (runtime/debug, through internal/buildinfo
// and acp/jsonrpc, held firstframe back past ~40 packages' init). Its
// closure keeps them out.
func TestFirstFrameWaitsForNoLatePackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/goose-acp/goose-acp/cmd/goose-acp/internal/firstframe").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	for _, late := range []string{"runtime/debug", "log/slog", "github.com/sourcegraph/jsonrpc2", "net/url"} {
		if deps[late] {
			t.Errorf("firstframe depends on %s, which Go initialises late", late)
		}
	}
}
