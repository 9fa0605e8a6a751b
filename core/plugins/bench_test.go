package plugins

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkHookCommand is one PreToolUse hook run (sh -c true, through
// the supervisor on Linux): the process time a hook adds to a tool call.
func BenchmarkHookCommand(b *testing.B) {
	dir := b.TempDir()
	root := filepath.Join(dir, "p")
	p := Plugin{Name: "p", Root: root, Scope: ScopeUser, State: Active}
	write(&testing.T{}, filepath.Join(root, "hooks", "hooks.json"), `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}`)
	h := LoadHooks([]Plugin{p}, dir, nil)
	payload := shellPayload("ls")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if out := h.Decide(ctx, PreToolUse, payload); out.Denied || len(out.Failures) > 0 {
			b.Fatalf("%+v", out)
		}
	}
}

// BenchmarkDiscoverNoPlugins is what a session start spends finding that
// there are no plugins (the user's and the project's plugin dirs, the
// settings files, config.yaml's map).
func BenchmarkDiscoverNoPlugins(b *testing.B) {
	dir := b.TempDir()
	env := Env{Home: dir, ConfigDir: filepath.Join(dir, "config"), Config: &memStore{}}
	project := filepath.Join(dir, "project")
	b.ReportAllocs()
	for b.Loop() {
		if ps, err := env.Discover(project); err != nil || len(ps) != 0 {
			b.Fatal(ps, err)
		}
	}
}
