package developer

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/developer/analyze"
	"github.com/goose-acp/goose-acp/internal/analyzetest"
)

// TestMain builds the real goose-acp-analyze helper (with cgo) for the
// analyze tool's tests, named by GOOSE_ACP_ANALYZE, and fails the package
// when a test leaves goroutines behind (shell readers, waiters, MCP
// sessions).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "developer-analyze-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	helper, err := analyzetest.Build(dir, true)
	if err != nil {
		os.RemoveAll(dir)
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(analyze.HelperEnv, helper)
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		os.RemoveAll(dir)
		os.Exit(code)
	}))
}
