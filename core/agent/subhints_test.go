package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/toolinfo"
	"github.com/goose-acp/goose-acp/developer"
)

const dirContextHeader = "### Directory-Specific Context: "

// writeTree creates files (relative path → content) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, s := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newRepo is a git checkout with a root hint, a subdirectory with its
// own .goosehints (which imports a file next to it) and one without.
func newRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{
		".goosehints":        "Root hint.",
		"sub/.goosehints":    "Use tabs in sub.\n@style.md\n@../.goosehints\n",
		"sub/style.md":       "Short names.",
		"sub/main.go":        "package main\n",
		"sub/other.go":       "package main\n",
		"plain/readme.txt":   "no hints here\n",
		"backend/api/x.go":   "package api\n",
		"frontend/AGENTS.md": "Frontend agents.",
		"frontend/App.tsx":   "export {}\n",
	})
	return root
}

// newDevHarness wires the real developer server (surface) as "developer".
func newDevHarness(t *testing.T, cfg mapConfig, surface developer.Surface, steps ...step) *harness {
	t.Helper()
	return newHarnessWith(t, cfg, func(o *Options) {
		o.Builtins["developer"] = func(ctx context.Context, env extension.Env) (extension.Server, error) {
			return extension.Direct(developer.NewDirect(developer.Options{Surface: surface, ReadTool: true, WorkingDir: env.WorkingDir})), nil
		}
	}, steps...)
}

func (h *harness) startIn(wd string) {
	h.t.Helper()
	h.start(StartOptions{WorkingDir: wd, Extensions: []config.ExtensionConfig{{Type: config.ExtensionBuiltin, Name: "developer"}}})
}

func readCall(id, path string) conversation.Content {
	return call(id, "read", map[string]any{"path": path})
}

func hintsOn() mapConfig { return mapConfig{SubdirHintLoadingKey: "true"} }

// extrasOf returns the Additional Instructions part of a system prompt.
func extrasOf(sys string) string {
	_, after, _ := strings.Cut(sys, "# Additional Instructions:\n\n")
	return after
}

// TestSubdirHintsLoadedAfterRead: reading a file in a subdirectory adds
// that directory's hints (goose's block, before the project hints) to the
// next request's system prompt; ten turns without using the directory
// remove them again.
func TestSubdirHintsLoadedAfterRead(t *testing.T) {
	root := newRepo(t)
	steps := []step{calls(readCall("r1", filepath.Join(root, "sub", "main.go"))), say("done")}
	for range 9 {
		steps = append(steps, say("ok"))
	}
	h := newDevHarness(t, hintsOn(), developer.Editor, steps...)
	h.startIn(root)
	h.reply(context.Background(), "read it", nil)
	for range 9 {
		h.reply(context.Background(), "again", nil)
	}
	if n := h.prov.numRequests(); n != 11 {
		t.Fatalf("requests = %d", n)
	}
	if s := h.prov.request(0).System; strings.Contains(s, dirContextHeader) {
		t.Fatalf("hints before any read:\n%s", s)
	}
	golden(t, "subdir_hints_extras.golden", strings.ReplaceAll(extrasOf(h.prov.request(1).System), root, "$ROOT"))
	// Loaded at turn 1: turns 2..10 carry it, turn 11 has pruned it.
	for i := 1; i <= 9; i++ {
		if !strings.Contains(h.prov.request(i).System, dirContextHeader) {
			t.Fatalf("request %d lost the hints too early", i)
		}
	}
	last := h.prov.request(10).System
	if strings.Contains(last, dirContextHeader) || !strings.Contains(last, "Root hint.") {
		t.Fatalf("request 10 system:\n%s", extrasOf(last))
	}
	if last != h.prov.request(0).System {
		t.Fatal("pruned prompt differs from the prompt before the read")
	}
}

// TestSubdirHintsAccessKeepsThem: with a pruning window of
// 3, touching the directory again restarts its idle count; once pruned,
// the next read loads it again.
func TestSubdirHintsAccessKeepsThem(t *testing.T) {
	root := newRepo(t)
	cfg := hintsOn()
	cfg[SubdirHintPruningKey] = "3"
	h := newDevHarness(t, cfg, developer.Editor,
		calls(readCall("r1", filepath.Join(root, "sub", "main.go"))), say("a"), // turns 1, 2
		calls(readCall("r2", filepath.Join(root, "sub", "other.go"))), say("b"), // turns 3, 4
		say("c"), say("d"), // turns 5, 6 (pruned at 6: idle 3)
		calls(readCall("r3", filepath.Join(root, "sub", "main.go"))), say("e"), // turns 7, 8
	)
	h.startIn(root)
	for _, text := range []string{"1", "2", "3", "4", "5"} {
		h.reply(context.Background(), text, nil)
	}
	want := []bool{false, true, true, true, true, false, false, true}
	for i, w := range want {
		if got := strings.Count(h.prov.request(i).System, dirContextHeader); (got == 1) != w || got > 1 {
			t.Fatalf("request %d has %d hint blocks, want present=%v", i, got, w)
		}
	}
}

// TestSubdirHintsIgnoredPaths: paths outside the git root (also through
// ".."), relative paths, missing files, other tools and directories
// without hint files never change the system prompt.
func TestSubdirHintsIgnoredPaths(t *testing.T) {
	root := newRepo(t)
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{".goosehints": "OUTSIDE", "f.txt": "x"})
	h := newDevHarness(t, hintsOn(), developer.Editor,
		calls(
			readCall("o1", filepath.Join(outside, "f.txt")),
			readCall("o2", root+"/sub/../../"+filepath.Base(outside)+"/f.txt"),
			readCall("o3", "sub/main.go"),
			readCall("o4", filepath.Join(root, "sub", "missing.go")),
			call("o5", "tt__read", map[string]any{"path": filepath.Join(root, "sub", "main.go")}),
			readCall("o6", filepath.Join(root, "plain", "readme.txt")),
		),
		say("done"))
	h.startIn(root)
	h.reply(context.Background(), "go", nil)
	if a, b := h.prov.request(0).System, h.prov.request(1).System; a != b {
		t.Fatalf("system prompt changed:\n%s", extrasOf(b))
	}
}

// TestSubdirHintsOffByDefault: goose loads subdirectory hints only when
// DYNAMIC_SUBDIRECTORY_HINT_LOADING is 1 or true.
func TestSubdirHintsOffByDefault(t *testing.T) {
	for _, v := range []any{nil, "false", "yes"} {
		root := newRepo(t)
		cfg := mapConfig{}
		if v != nil {
			cfg[SubdirHintLoadingKey] = v
		}
		h := newDevHarness(t, cfg, developer.Editor, calls(readCall("r1", filepath.Join(root, "sub", "main.go"))), say("done"))
		h.startIn(root)
		h.reply(context.Background(), "read", nil)
		if s := h.prov.request(1).System; strings.Contains(s, dirContextHeader) {
			t.Fatalf("%v: hints loaded while off", v)
		}
	}
}

// TestSubdirHintsTextEditorGitRoot: goose's developer__text_editor
// triggers it too; the trust boundary is the git root, so a sibling of the
// working dir counts, and a directory path counts as itself. Only that
// directory's hint files are read, not its parents'.
func TestSubdirHintsTextEditorGitRoot(t *testing.T) {
	root := newRepo(t)
	wd := filepath.Join(root, "backend")
	h := newDevHarness(t, hintsOn(), developer.Classic,
		calls(call("v1", "text_editor", map[string]any{"command": "view", "path": filepath.Join(root, "frontend")})),
		say("done"))
	h.startIn(wd)
	h.reply(context.Background(), "look", nil)
	dir := filepath.Join(root, "frontend")
	want := dirContextHeader + dir + "\n**Scope**: The following instructions apply ONLY when working with files in the `" + dir +
		"` directory and its subdirectories.\n\nFrontend agents."
	got := extrasOf(h.prov.request(1).System)
	if !strings.HasPrefix(got, want+"\n\n### Project Hints\n") {
		t.Fatalf("extras =\n%q\nwant prefix\n%q", got, want)
	}
}

func TestSubdirHintsPruneWindow(t *testing.T) {
	var h subdirHints
	h.nextTurn(10)
	h.add("/r/a", "A")
	h.add("/r/b", "B")
	h.add("/r/empty", "")
	for turn := 2; turn <= 5; turn++ {
		h.nextTurn(10)
	}
	h.touch("/r/b")
	if got := strings.Join(h.snapshot(), ","); got != "A,B" {
		t.Fatalf("extras = %q", got)
	}
	for turn := 6; turn <= 11; turn++ {
		h.nextTurn(10)
	}
	if got := strings.Join(h.snapshot(), ","); got != "B" || len(h.dirs) != 1 {
		t.Fatalf("after turn 11: extras %q, dirs %v", got, h.dirs)
	}
	for turn := 12; turn <= 15; turn++ {
		h.nextTurn(10)
	}
	if len(h.snapshot()) != 0 || len(h.dirs) != 0 {
		t.Fatalf("after turn 15: %v", h.dirs)
	}
	// A window of 0 drops everything at the next turn.
	h.add("/r/a", "A")
	h.nextTurn(0)
	if len(h.dirs) != 0 {
		t.Fatal("window 0 kept a directory")
	}
}

func TestDeclaredPathArgAndConfig(t *testing.T) {
	agentWith := func(key string, v any) *Agent {
		a := New(Options{Config: mapConfig{key: v}})
		t.Cleanup(func() { _ = a.Close() })
		return a
	}
	// The path is the argument the tool declares (the developer tools:
	// "path"); a non-string there, or another argument, is no path.
	declared := toolinfo.Info{Kind: toolinfo.Edit, Path: "path", TextFile: true}
	if p, ok := declared.PathOf(map[string]any{"path": "/a", "file": "/b"}); !ok || p != "/a" {
		t.Fatalf("got %q %v", p, ok)
	}
	if _, ok := declared.PathOf(map[string]any{"path": 3, "command": "ls /x"}); ok {
		t.Fatal("command is not a path argument")
	}
	for v, want := range map[any]int{"4": 4, int64(0): 0, "-1": 10, "x": 10} {
		if got := agentWith(SubdirHintPruningKey, v).cfg.maxIdleTurns(); got != want {
			t.Fatalf("%v: %d, want %d", v, got, want)
		}
	}
	for v, want := range map[any]bool{"1": true, "TRUE": true, true: true, int64(1): true, "0": false, "on": false} {
		if got := agentWith(SubdirHintLoadingKey, v).cfg.subdirHintsEnabled(); got != want {
			t.Fatalf("%v: %v, want %v", v, got, want)
		}
	}
}
