package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/goose-acp/goose-acp/developer/analyze"
	"github.com/goose-acp/goose-acp/internal/analyzetest"
	"github.com/goose-acp/goose-acp/internal/helperexe"
)

// binary is the goose-acp executable under test; analyzeHelper is the
// goose-acp-analyze beside it (or $GOOSE_ACP_ANALYZE); configureHelper the
// goose-acp-configure beside it (or $GOOSE_ACP_CONFIGURE).
var binary, analyzeHelper, configureHelper string

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
		analyzeHelper = os.Getenv(analyze.HelperEnv)
		if analyzeHelper == "" {
			analyzeHelper = filepath.Join(filepath.Dir(b), analyzetest.Name())
		}
		configureHelper = os.Getenv("GOOSE_ACP_CONFIGURE")
		if configureHelper == "" {
			configureHelper = filepath.Join(filepath.Dir(b), helperexe.Name("goose-acp-configure"))
		}
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
	configureHelper = filepath.Join(dir, helperexe.Name("goose-acp-configure"))
	// The agent as documented, cgo-free, and its interactive configure
	// beside it; analyze's helper (tree-sitter is C) with cgo, beside it
	// too, where the agent looks first.
	for _, b := range []struct{ out, pkg string }{{binary, "../cmd/goose-acp"}, {configureHelper, "../cmd/goose-acp-configure"}} {
		build := exec.Command("go", "build", "-o", b.out, b.pkg)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("building %s: %v\n%s", b.pkg, err, out)
		}
	}
	if analyzeHelper, err = analyzetest.Build(dir, true); err != nil {
		return 0, err
	}
	return m.Run(), nil
}
