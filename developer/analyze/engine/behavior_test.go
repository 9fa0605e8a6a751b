//go:build cgo

package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "secret.go"), "package x\n")
	ignored := func(p string) bool { return filepath.Base(p) == "secret.go" }
	tests := []struct {
		name     string
		req      Request
		sentinel error
		msg      string
	}{
		{"missing", Request{Path: filepath.Join(dir, "nope")}, analyze.ErrNotFound,
			fmt.Sprintf("Path '%s' does not exist", filepath.Join(dir, "nope"))},
		{"ignored", Request{Path: "secret.go", WorkingDir: dir, Ignored: ignored}, analyze.ErrIgnored,
			fmt.Sprintf("Access to '%s' is restricted by .gooseignore", filepath.Join(dir, "secret.go"))},
		{"empty", Request{Path: " ", WorkingDir: dir}, analyze.ErrEmptyPath, "The 'path' parameter cannot be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Analyze(context.Background(), tt.req)
			if !errors.Is(err, tt.sentinel) {
				t.Fatalf("err = %v, want %v", err, tt.sentinel)
			}
			if err.Error() != tt.msg {
				t.Errorf("message = %q, want %q", err.Error(), tt.msg)
			}
		})
	}
}

func TestIgnoredEntriesAreSkipped(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "keep.go"), "package x\nfunc Keep() {}\n")
	writeFile(t, filepath.Join(dir, "node_modules", "dep.js"), "function dep() {}\n")
	writeFile(t, filepath.Join(dir, "drop.py"), "def drop():\n    pass\n")
	ignored := func(p string) bool {
		return filepath.Base(p) == "node_modules" || strings.HasSuffix(p, ".py")
	}
	got, err := Analyze(context.Background(), Request{Path: dir, MaxDepth: 0, Ignored: ignored})
	if err != nil {
		t.Fatal(err)
	}
	want := "SUMMARY:\nShown: 1 files, 2L, 1F, 0C (unlimited depth)\nLanguages: go (100%)\n\n" +
		"PATH [LOC, FUNCTIONS, CLASSES] <FLAGS>\nkeep.go [2L, 1F]\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	focus, err := Analyze(context.Background(), Request{Path: dir, Focus: "dep", FollowDepth: 1, Ignored: ignored})
	if err != nil {
		t.Fatal(err)
	}
	if focus != "Symbol 'dep' not found in any analyzed files.\n" {
		t.Errorf("focus reached an ignored file: %q", focus)
	}
}

func TestLargeOutputWarning(t *testing.T) {
	dir := t.TempDir()
	for i := range 1001 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("f%04d.go", i)), "package x\n")
	}
	got, err := Analyze(context.Background(), Request{Path: dir, MaxDepth: 3})
	if err != nil {
		t.Fatal(err)
	}
	lines := 1001 + 5 // files + SUMMARY, Shown, Languages, blank, header
	want := fmt.Sprintf("LARGE OUTPUT WARNING\n\nThe analysis would produce %d lines (~%d tokens).\n"+
		"This exceeds the 1000 line limit.\n\nTo proceed anyway, add 'force: true' to your parameters:\n"+
		"analyze path=\"%s\" force=true\n\nOr narrow your scope by:\n• Analyzing a subdirectory instead\n"+
		"• Using focus mode: focus=\"symbol_name\"\n• Reducing depth: max_depth=1", lines, lines*10, dir)
	if got != want || !strings.HasPrefix(got, analyze.LargeOutputWarningPrefix) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	forced, err := Analyze(context.Background(), Request{Path: dir, MaxDepth: 3, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := countLines([]byte(forced)); n != lines || !strings.Contains(forced, "f1000.go [1L]\n") {
		t.Errorf("forced output has %d lines, want %d with every file", n, lines)
	}
}

func TestLargeOutputWarningNamesFocus(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package x\nfunc target() {}\n")
	for i := range 1100 {
		fmt.Fprintf(&b, "func c%d() { target() }\n", i)
	}
	writeFile(t, filepath.Join(dir, "big.go"), b.String())
	got, err := Analyze(context.Background(), Request{Path: dir, Focus: "target", FollowDepth: 1, MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, fmt.Sprintf("analyze path=\"%s\" force=true focus=\"target\"\n", dir)) {
		t.Errorf("warning does not repeat the focus:\n%s", got)
	}
}

func TestSymlinksAndSkippedFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "src", "a.go"), "package a\n\nfunc A() {}\n")
	writeFile(t, filepath.Join(dir, "bin.go"), "package a\x00\xff\xfe\n")
	writeFile(t, filepath.Join(dir, "blank.py"), "")
	writeFile(t, filepath.Join(dir, "data.bin"), "x\n")
	if err := os.Symlink("src", filepath.Join(dir, "linkdir")); err != nil {
		t.Skipf("symlinks unsupported here: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "src", "a.go"), filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("missing", filepath.Join(dir, "broken")); err != nil {
		t.Fatal(err)
	}
	got, err := Analyze(context.Background(), Request{Path: dir, MaxDepth: 0})
	if err != nil {
		t.Fatal(err)
	}
	want := "SUMMARY:\nShown: 1 files, 3L, 1F, 0C (unlimited depth)\nLanguages: go (100%)\n\n" +
		"PATH [LOC, FUNCTIONS, CLASSES] <FLAGS>\n" +
		"link.go -> " + filepath.Join("src", "a.go") + "\n" +
		"linkdir/ -> src\n" +
		"src/\n  a.go [3L, 1F]\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestFocusDepthLimit(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "root.go"), "package a\nfunc f0() {}\n")
	writeFile(t, filepath.Join(dir, "l1", "one.go"), "package a\nfunc f1() { f0() }\n")
	writeFile(t, filepath.Join(dir, "l1", "l2", "two.go"), "package a\nfunc f2() { f0() }\n")
	for _, tt := range []struct{ maxDepth, files int }{{1, 2}, {2, 3}, {0, 3}} {
		got, err := Analyze(context.Background(), Request{Path: dir, Focus: "f0", FollowDepth: 1, MaxDepth: tt.maxDepth})
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("  Files analyzed: %d\n", tt.files); !strings.Contains(got, want) {
			t.Errorf("max_depth=%d: want %q in\n%s", tt.maxDepth, want, got)
		}
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Analyze(ctx, Request{Path: fixtureRoot(t), MaxDepth: 0})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestFunctionListWraps(t *testing.T) {
	var b strings.Builder
	b.WriteString("package x\n")
	for i := range 30 {
		fmt.Fprintf(&b, "func function_number_%02d() {}\n", i)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "many.go"), b.String())
	got, err := Analyze(context.Background(), Request{Path: filepath.Join(dir, "many.go")})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(got, "\n") {
		if len(line) > 100 {
			t.Errorf("line longer than 100 bytes: %q", line)
		}
	}
	// goose writes "\n   " and then the usual separating space.
	if !strings.Contains(got, "\n    function_number_") {
		t.Errorf("no indented continuation line:\n%s", got)
	}
}

func TestImportSummary(t *testing.T) {
	long := "import { aVeryLongImportedName } from './some/long/module/path.js';"
	got := importSummary([]string{"use std::fs", "use std::io", long, "from x import y", "require"})
	want := []string{"use std(2)", long[:37] + "...", "from x import y", "require"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	if s := truncateBytes("ab€", 3); s != "ab" {
		t.Errorf("truncateBytes split a rune: %q", s)
	}
}

func TestConcurrentAnalyses(t *testing.T) {
	root := fixtureRoot(t)
	done := make(chan error, 4)
	for range 4 {
		go func() {
			_, err := Analyze(context.Background(), Request{Path: root, Focus: "helper", FollowDepth: 2})
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// Ruby's attribute macros count as functions and require/require_relative/
// load as imports, each once, in source order; other calls are neither.
func TestRubyMacrosAndImports(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.rb")
	writeFile(t, p, "load 'a.rb'\nrequire 'b'\nrequire_relative 'c'\nputs 'x'\n"+
		"class K\n  attr_writer :w\n  attr_reader :r\n  attr_accessor :a\n  private\n  def m; end\nend\n")
	got, err := Analyze(context.Background(), Request{Path: p})
	if err != nil {
		t.Fatal(err)
	}
	want := "FILE: " + p + " [11L, 4F, 1C]\n\nC: K:5\n\nF: attr_writer:6 attr_reader:7 attr_accessor:8 m:10\n\nI: load; require; require_relative\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
