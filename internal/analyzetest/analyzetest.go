package analyzetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Name is the helper's file name on this OS.
func Name() string {
	if runtime.GOOS == "windows" {
		return "goose-acp-analyze.exe"
	}
	return "goose-acp-analyze"
}

// Build compiles cmd/goose-acp-analyze into dir, with cgo (the real
// parser) or without (the helper that answers the no-cgo error), and
// returns its path.
func Build(dir string, cgo bool) (string, error) {
	out := filepath.Join(dir, Name())
	// By import path: a test runs in its package's directory, inside the
	// module.
	cmd := exec.Command("go", "build", "-o", out, "github.com/goose-acp/goose-acp/cmd/goose-acp-analyze")
	env := "CGO_ENABLED=0"
	if cgo {
		env = "CGO_ENABLED=1"
	}
	cmd.Env = append(os.Environ(), env)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building goose-acp-analyze (%s): %w\n%s", env, err, b)
	}
	return out, nil
}
