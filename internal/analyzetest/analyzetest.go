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
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("analyzetest: no source path")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..")
	out := filepath.Join(dir, Name())
	cmd := exec.Command("go", "build", "-o", out, "./cmd/goose-acp-analyze")
	cmd.Dir = root
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
