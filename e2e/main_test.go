package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// binary is the goose-acp executable under test.
var binary string

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	if b := os.Getenv("GOOSE_ACP_BINARY"); b != "" {
		binary = b
		return m.Run(), nil
	}
	dir, err := os.MkdirTemp("", "goose-acp-e2e-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	name := "goose-acp"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	binary = filepath.Join(dir, name)
	build := exec.Command("go", "build", "-o", binary, "../cmd/goose-acp")
	build.Env = append(os.Environ(), "CGO_ENABLED=1") // analyze needs cgo (tree-sitter is C)
	if out, err := build.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("building goose-acp: %v\n%s", err, out)
	}
	return m.Run(), nil
}
