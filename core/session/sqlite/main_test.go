package sqlite_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain lets the crash test re-run this binary as its child (see
// crash_unix_test.go) and checks that no store leaves goroutines behind.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(runCrashChild(path))
	}
	goleak.VerifyTestMain(m)
}
