//go:build cgo

package engine

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoCgoBuild runs this package's tests as a CGO_ENABLED=0 build, so the
// plain `go test ./...` (a cgo build) also checks what a binary without
// cgo answers (nocgo_test.go).
func TestNoCgoBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package again without cgo")
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^TestAnalyzeWithoutCgo$", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("CGO_ENABLED=0 go test: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestAnalyzeWithoutCgo") {
		t.Fatalf("CGO_ENABLED=0 go test ran no TestAnalyzeWithoutCgo:\n%s", out)
	}
}
