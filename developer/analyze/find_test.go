package analyze_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

func exeIn(dir string) func() (string, error) {
	return func() (string, error) { return filepath.Join(dir, "goose-acp"), nil }
}

func copyHelper(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(helper)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, analyze.HelperName)
	if err := os.WriteFile(p, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func noEnv(string) string { return "" }

// Find's order: $GOOSE_ACP_ANALYZE, beside goose-acp (symlinks
// resolved), PATH.
func TestFindOrder(t *testing.T) {
	agentDir, pathDir, empty := t.TempDir(), t.TempDir(), t.TempDir()
	beside := copyHelper(t, agentDir)
	onPath := copyHelper(t, pathDir)
	t.Setenv("PATH", pathDir)

	env := func(k string) string {
		if k == analyze.HelperEnv {
			return helper
		}
		return ""
	}
	if got, err := analyze.Find(env, exeIn(agentDir)); err != nil || got != helper {
		t.Errorf("explicit: %q, %v; want %q", got, err, helper)
	}
	if got, err := analyze.Find(noEnv, exeIn(agentDir)); err != nil || got != beside {
		t.Errorf("beside: %q, %v; want %q", got, err, beside)
	}
	if got, err := analyze.Find(noEnv, exeIn(empty)); err != nil || got != onPath {
		t.Errorf("PATH: %q, %v; want %q", got, err, onPath)
	}
	if runtime.GOOS != "windows" {
		// goose-acp reached through a symlink elsewhere (npm's bin/, a
		// package manager's bin dir): its helper sits beside the real file.
		link := filepath.Join(empty, "goose-acp")
		if err := os.Symlink(filepath.Join(agentDir, "goose-acp"), link); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(agentDir, "goose-acp"), nil, 0o755)
		if got, err := analyze.Find(noEnv, exeIn(empty)); err != nil || got != beside {
			t.Errorf("through a symlink: %q, %v; want %q", got, err, beside)
		}
	}
}

// No helper anywhere: the model reads where analyze looked and the build
// command that fixes it.
func TestFindMissing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", t.TempDir())
	_, err := analyze.Find(noEnv, exeIn(dir))
	want := "analyze is not available: its helper program " + analyze.HelperName + " was not found " +
		"(GOOSE_ACP_ANALYZE is not set, and it is neither in " + dir + " beside goose-acp nor on PATH). " +
		"It needs cgo and a C compiler (gcc or clang); build it from the goose-acp source into goose-acp's " +
		"directory: go build -o " + filepath.Join(dir, analyze.HelperName) + " ./cmd/goose-acp-analyze"
	if !errors.Is(err, analyze.ErrNoHelper) || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}

	missing := filepath.Join(dir, "nowhere", analyze.HelperName)
	_, err = analyze.Find(func(k string) string {
		if k == analyze.HelperEnv {
			return missing
		}
		return ""
	}, exeIn(dir))
	want = "analyze cannot run its helper: GOOSE_ACP_ANALYZE is set to " + missing + ", which is not an executable " +
		"file (no such file or directory). Point it at a goose-acp-analyze built with cgo (go build -o " + missing +
		" ./cmd/goose-acp-analyze, which needs a C compiler such as gcc or clang) or unset it to use the one beside goose-acp."
	if runtime.GOOS != "windows" && (!errors.Is(err, analyze.ErrNoHelper) || err.Error() != want) {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}
