package analyze_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/developer/analyze"
	"github.com/goose-acp/goose-acp/internal/analyzetest"
)

// helper and noCgoHelper are the real goose-acp-analyze, built with and
// without cgo.
var helper, noCgoHelper string

func TestMain(m *testing.M) {
	code, err := buildAndRun(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

func buildAndRun(m *testing.M) (int, error) {
	dir, err := os.MkdirTemp("", "analyze-helper-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	if err := os.Mkdir(filepath.Join(dir, "nocgo"), 0o755); err != nil {
		return 0, err
	}
	if helper, err = analyzetest.Build(dir, true); err != nil {
		return 0, err
	}
	if noCgoHelper, err = analyzetest.Build(filepath.Join(dir, "nocgo"), false); err != nil {
		return 0, err
	}
	return m.Run(), nil
}

func fixture(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("engine", "testdata", "tree"))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func golden(t *testing.T, name, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("engine", "testdata", "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "ROOT", root)
}

// Through the helper an analysis is byte for byte the engine's (its
// goldens), in every mode.
func TestHelperAnswersTheEnginesText(t *testing.T) {
	root := fixture(t)
	for _, tt := range []struct {
		golden string
		req    analyze.Request
	}{
		{"overview_depth3.txt", analyze.Request{Path: ".", MaxDepth: 3}},
		{"file_go.txt", analyze.Request{Path: "main.go"}},
		{"focus_helper.txt", analyze.Request{Path: ".", Focus: "helper", FollowDepth: 2, MaxDepth: 3}},
	} {
		tt.req.WorkingDir = root
		got, err := analyze.Run(context.Background(), helper, tt.req)
		if err != nil {
			t.Fatalf("%s: %v", tt.golden, err)
		}
		if want := golden(t, tt.golden, root); got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.golden, got, want)
		}
	}
}

// The helper's stdout is exactly one JSON answer.
func TestHelperStdoutIsOneAnswer(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.py"), []byte("def f():\n    return 1\n"), 0o644)
	cmd := exec.Command(helper)
	cmd.Stdin = strings.NewReader(`{"path":"a.py","working_dir":` + quote(dir) + `}`)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"text":"FILE: ` + filepath.Join(dir, "a.py") + ` [2L, 1F, 0C]\n\nF: f:1\n\n"}` + "\n"
	if string(out) != want {
		t.Errorf("stdout = %q\nwant     %q", out, want)
	}
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// goose's messages and the sentinels survive the process boundary; the
// helper applies the working dir's and the global .gooseignore.
func TestHelperErrors(t *testing.T) {
	dir, global := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, ".gooseignore"), []byte("local.go\n"), 0o644)
	os.WriteFile(filepath.Join(global, ".gooseignore"), []byte("global.go\n"), 0o644)
	for _, name := range []string{"local.go", "global.go", "kept.go"} {
		os.WriteFile(filepath.Join(dir, name), []byte("package x\n"), 0o644)
	}
	for _, tt := range []struct {
		path     string
		sentinel error
		msg      string
	}{
		{"nope", analyze.ErrNotFound, "Path '" + filepath.Join(dir, "nope") + "' does not exist"},
		{"local.go", analyze.ErrIgnored, "Access to '" + filepath.Join(dir, "local.go") + "' is restricted by .gooseignore"},
		{"global.go", analyze.ErrIgnored, "Access to '" + filepath.Join(dir, "global.go") + "' is restricted by .gooseignore"},
		{"  ", analyze.ErrEmptyPath, "The 'path' parameter cannot be empty"},
	} {
		_, err := analyze.Run(context.Background(), helper, analyze.Request{Path: tt.path, WorkingDir: dir, ConfigDir: global})
		if !errors.Is(err, tt.sentinel) || err.Error() != tt.msg {
			t.Errorf("%q: err = %v, want %q (%v)", tt.path, err, tt.msg, tt.sentinel)
		}
	}
	got, err := analyze.Run(context.Background(), helper, analyze.Request{Path: ".", WorkingDir: dir, ConfigDir: global, MaxDepth: 1})
	if err != nil || !strings.Contains(got, "kept.go") || strings.Contains(got, "local.go") || strings.Contains(got, "global.go") {
		t.Errorf("overview with ignored files: %q, %v", got, err)
	}
}

// A helper built without cgo answers how to rebuild it, naming itself.
func TestHelperWithoutCgo(t *testing.T) {
	_, err := analyze.Run(context.Background(), noCgoHelper, analyze.Request{Path: fixture(t)})
	want := "analyze is not available: " + noCgoHelper + " was built without cgo (CGO_ENABLED=0), and analyze " +
		"parses code with tree-sitter's C library. To get analyze, install a C compiler (gcc or clang) and " +
		"rebuild the helper with cgo from the goose-acp source: CGO_ENABLED=1 go build -o " + noCgoHelper +
		" ./cmd/goose-acp-analyze"
	if !errors.Is(err, analyze.ErrNoCgo) || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}

// A helper that dies without an answer is an error naming it and what it
// said on stderr.
func TestHelperFailureKeepsStderr(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for the helper")
	}
	bad := filepath.Join(t.TempDir(), "goose-acp-analyze")
	os.WriteFile(bad, []byte("#!/bin/sh\necho 'out of parsers' >&2\nexit 3\n"), 0o755)
	_, err := analyze.Run(context.Background(), bad, analyze.Request{Path: "x"})
	want := "analyze: " + bad + " failed: exit status 3: out of parsers"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}
