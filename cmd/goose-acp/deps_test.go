package main

import (
	"os/exec"
	"strings"
	"testing"
)

// heavyPackages cost every goose-acp start time (package init) and
// resident memory while giving the binary nothing it uses: the provider
// SDKs were only HTTP plumbing. (Licences are licenses_test.go's.)
var heavyPackages = []string{
	"github.com/openai/openai-go/v3",
	"github.com/anthropics/anthropic-sdk-go",
	"google.golang.org/genai",
	"google.golang.org/grpc",
	"google.golang.org/protobuf/internal/detrand", // hashes the executable at init
}

func listDeps(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	return deps
}

func TestHeavyPackagesStayOutOfTheBinary(t *testing.T) {
	deps := listDeps(t, ".")
	if !deps["github.com/goose-acp/goose-acp/developer/analyze"] || !deps["github.com/goose-acp/goose-acp/developer"] {
		t.Fatal("go list output does not look like goose-acp's dependencies")
	}
	for _, p := range heavyPackages {
		if deps[p] {
			t.Errorf("%s is linked into goose-acp again", p)
		}
	}
}

// analyzeEngine is analyze's parser side; only the goose-acp-analyze
// helper links it.
const analyzeEngine = "github.com/goose-acp/goose-acp/developer/analyze/engine"

// isParser reports the tree-sitter bindings and grammars (C, so cgo).
func isParser(p string) bool {
	return p == analyzeEngine || strings.HasPrefix(p, "github.com/tree-sitter/") ||
		strings.HasPrefix(p, "github.com/tree-sitter-grammars/")
}

// goose-acp is cgo-free: tree-sitter (C) runs in the goose-acp-analyze
// helper, so the agent neither links it nor its engine — listed here as
// the environment builds (with cgo in CI), the case that would pull it in.
func TestAgentLinksNoParser(t *testing.T) {
	for p := range listDeps(t, ".") {
		if isParser(p) {
			t.Errorf("goose-acp links %s; analyze's parser belongs in cmd/goose-acp-analyze", p)
		}
	}
	helper := listDeps(t, "../goose-acp-analyze")
	if !helper[analyzeEngine] || !helper["github.com/tree-sitter/go-tree-sitter"] {
		t.Error("goose-acp-analyze does not link the engine and tree-sitter")
	}
}

// isTerminalUI reports the interactive configure's terminal UI: huh, the
// bubbletea runtime and its widgets, and the clipboard they pull in, and
// the styling packages of charmbracelet/log (lipgloss, termenv, the ANSI
// parser and its width tables). Their package init (a terminal background
// query, a PATH search for clipboard tools, the parser's tables) ran
// before every editor's initialize was answered.
func isTerminalUI(p string) bool {
	return p == "github.com/charmbracelet/huh" || strings.HasPrefix(p, "github.com/charmbracelet/huh/") ||
		p == "github.com/charmbracelet/bubbletea" || strings.HasPrefix(p, "github.com/charmbracelet/bubbles/") ||
		p == "github.com/atotto/clipboard" || p == "github.com/charmbracelet/log" ||
		p == "github.com/charmbracelet/lipgloss" || p == "github.com/muesli/termenv" ||
		p == "github.com/charmbracelet/x/ansi" || p == "github.com/mattn/go-runewidth"
}

// goose-acp links no terminal UI: `goose-acp configure` without flags runs
// goose-acp-configure, which does; the logger is log/slog's.
func TestAgentLinksNoTerminalUI(t *testing.T) {
	deps := listDeps(t, ".")
	if !deps["github.com/ncruces/go-sqlite3"] {
		t.Error("go list output does not look like goose-acp's dependencies (no ncruces/go-sqlite3)")
	}
	for p := range deps {
		if isTerminalUI(p) {
			t.Errorf("goose-acp links %s; the interactive configure belongs in cmd/goose-acp-configure", p)
		}
	}
	helper := listDeps(t, "../goose-acp-configure")
	for _, p := range []string{"github.com/charmbracelet/huh", "github.com/charmbracelet/bubbletea", "github.com/goose-acp/goose-acp/internal/configureui"} {
		if !helper[p] {
			t.Errorf("goose-acp-configure does not link %s", p)
		}
	}
}
