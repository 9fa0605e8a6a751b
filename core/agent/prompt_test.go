package agent

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestSystemPromptGolden(t *testing.T) {
	h := newHarness(t, nil, say("ok"))
	fe := config.ExtensionConfig{Type: config.ExtensionFrontend, Name: "A UI", Instructions: "Use the \U000E0041hidden\U000E0042 UI tools."}
	h.start(StartOptions{WorkingDir: t.TempDir(), Extensions: []config.ExtensionConfig{fe}, Recipe: &Recipe{Instructions: "Answer in French.\U000E0043"}})
	h.reply(context.Background(), "hi", nil)
	sys := h.prov.request(0).System
	if strings.ContainsRune(sys, 0xE0041) || strings.ContainsRune(sys, 0xE0043) {
		t.Fatal("tag characters survived")
	}
	// Extensions sorted by name: a_ui before tt.
	if strings.Index(sys, "## aui") > strings.Index(sys, "## tt") {
		t.Fatal("extensions not sorted")
	}
	golden(t, "system_basic.golden", sys)
}

func TestHints(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.MkdirAll(filepath.Join(root, "repo", ".git"), 0o755)
	write("repo/.goosehints", "Root hints\n@docs/api.md\n@../outside.md\n@.git/config\n@secret.env")
	write("repo/.gitignore", "*.env\n")
	write("repo/secret.env", "TOKEN=1")
	write("repo/docs/api.md", "API doc")
	write("outside.md", "FORBIDDEN")
	write("repo/.git/config", "SECRET")
	write("repo/sub/AGENTS.md", "Sub agents")
	write("repo/sub/cwd/.goosehints", "Cwd hints")
	write("config/.goosehints", "Global hint")
	write("home/.agents/AGENTS.md", "Agents home hint") // goose 1.54's global AGENTS.md
	got := loadHints(filepath.Join(root, "repo", "sub", "cwd"), filepath.Join(root, "config"), filepath.Join(root, "home", ".agents"), DefaultContextFileNames)
	want := "\n### Global Hints\nThese are my global goose hints.\nGlobal hint\nAgents home hint\n\n### Project Hints\nThese are hints for working on the project in this directory.\n" +
		"Root hints\n--- Content from docs/api.md ---\nAPI doc\n--- End of docs/api.md ---\n@../outside.md\n@.git/config\n@secret.env\nSub agents\nCwd hints"
	if got != want {
		t.Fatalf("hints =\n%q\nwant\n%q", got, want)
	}
	// Without AGENTS.md among the context file names the agents home is not read.
	if got := loadHints(filepath.Join(root, "repo"), "", filepath.Join(root, "home", ".agents"), []string{".goosehints"}); strings.Contains(got, "Agents home hint") {
		t.Fatalf("agents home read for .goosehints only: %q", got)
	}
	// Without a git root only the working dir counts.
	plain := t.TempDir()
	_ = os.WriteFile(filepath.Join(plain, "AGENTS.md"), []byte("only here"), 0o644)
	if got := loadHints(plain, "", "", DefaultContextFileNames); !strings.HasSuffix(got, "\nonly here") {
		t.Fatalf("hints = %q", got)
	}
}

func TestHintImportLimits(t *testing.T) {
	dir := t.TempDir()
	// A chain deeper than the limit stops expanding at depth 3.
	for i := 0; i < 5; i++ {
		next := ""
		if i < 4 {
			next = "\n@f" + string(rune('0'+i+1)) + ".md"
		}
		_ = os.WriteFile(filepath.Join(dir, "f"+string(rune('0'+i))+".md"), []byte("level"+string(rune('0'+i))+next), 0o644)
	}
	_ = os.WriteFile(filepath.Join(dir, ".goosehints"), []byte("@f0.md"), 0o644)
	got := loadHints(dir, "", "", []string{".goosehints"})
	if !strings.Contains(got, "level2") || strings.Contains(got, "level3\n") || !strings.Contains(got, "@f3.md") {
		t.Fatalf("depth limit not applied: %q", got)
	}
}
