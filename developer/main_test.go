package developer

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves goroutines behind (shell
// readers, waiters, MCP sessions).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
