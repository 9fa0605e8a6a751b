package extension

import (
	"context"
	"errors"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
)

// namedManager serves the test tools under the builtin names developer,
// summon and t.
func namedManager(t *testing.T) *Manager {
	t.Helper()
	f := func(context.Context, Env) (Server, error) { return MCP(testServer()), nil }
	return newManager(t, Options{SessionID: "s1", WorkingDir: "/w", Builtins: map[string]BuiltinFactory{"developer": f, "summon": f, "t": f}})
}

// goose 1.54 offers the first-class extensions' tools under their own
// names and every other extension's as "<key>__<tool>"; the list is in
// extension-key order whatever order the extensions connected in, and a
// name two extensions offer stays with the first.
func TestToolNamesFollowGoose154(t *testing.T) {
	m := namedManager(t)
	ctx := context.Background()
	for _, c := range []config.ExtensionConfig{
		{Type: config.ExtensionBuiltin, Name: "t", AvailableTools: []string{"echo"}},
		{Type: config.ExtensionPlatform, Name: "summon", AvailableTools: []string{"echo", "pid"}},
		{Type: config.ExtensionBuiltin, Name: "developer", AvailableTools: []string{"echo", "meta"}},
	} {
		if err := m.Add(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if got := toolNames(m.Tools(ctx)); got != "echo,meta,pid,t__echo" {
		t.Fatalf("tools = %s", got)
	}
	tools := m.Tools(ctx)
	if tools[0].Extension != "developer" || tools[0].Local != "echo" || tools[0].PrefixedName() != "developer__echo" {
		t.Fatalf("echo = %+v", tools[0])
	}
	if tools[3].PrefixedName() != "t__echo" {
		t.Fatalf("t__echo's prefixed name = %s", tools[3].PrefixedName())
	}
}

// A stdio or HTTP server that calls itself "developer" is not goose's
// developer: its tools keep the prefix.
func TestOnlyBuiltinAndPlatformExtensionsAreUnprefixed(t *testing.T) {
	for _, c := range []struct {
		cfg  config.ExtensionConfig
		key  string
		want bool
	}{
		{config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "developer"}, "developer", true},
		{config.ExtensionConfig{Type: config.ExtensionPlatform, Name: "Skills"}, "skills", true},
		{config.ExtensionConfig{Type: config.ExtensionPlatform, Name: "analyze"}, "analyze", true},
		{config.ExtensionConfig{Type: config.ExtensionStdio, Name: "developer"}, "developer", false},
		{config.ExtensionConfig{Type: config.ExtensionStreamableHTTP, Name: "summon"}, "summon", false},
		{config.ExtensionConfig{Type: config.ExtensionPlatform, Name: "todo"}, "todo", false},
		{config.ExtensionConfig{Type: config.ExtensionPlatform, Name: "extensionmanager"}, "extensionmanager", false},
		{config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "developer"}, "developer_AbC123", false},
	} {
		if got := Unprefixed(c.cfg, c.key); got != c.want {
			t.Errorf("%s %q as %q: unprefixed = %v", c.cfg.Type, c.cfg.Name, c.key, got)
		}
	}
}

// Stored sessions, recipes and models trained on older goose call
// "developer__shell"; the call reaches shell. goose 1.54's
// recover_mangled_tool_name also takes "developer.shell" and a
// "functions." prefix.
func TestCallByOlderOrMangledName(t *testing.T) {
	m := namedManager(t)
	ctx := context.Background()
	if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "developer"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "t"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"meta", "developer__meta", "developer.meta", "functions.meta", "functions:developer__meta"} {
		res, err := m.Call(ctx, "call-1", name, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := res.Content[0].Text; got != `{"auth":"","cid":"call-1","progress":"call-1","sid":"s1","wd":"/w"}` {
			t.Fatalf("%s: %s", name, got)
		}
	}
	if tool, ok := m.Tool(ctx, "t.pid"); !ok || tool.Name != "t__pid" {
		t.Fatalf("t.pid resolved to %+v %v", tool, ok)
	}
	if _, err := m.Call(ctx, "c", "nosuch__meta", nil); !errors.Is(err, ErrToolNotFound) {
		t.Fatalf("nosuch__meta: %v", err)
	}
}

// A mangled name two tools could mean resolves to neither.
func TestResolveRefusesAmbiguousNames(t *testing.T) {
	tools := []Tool{
		{Name: "shell", Extension: "developer", Local: "shell"},
		{Name: "a__b", Extension: "a", Local: "b"},
		{Name: "a.b", Extension: "x", Local: "a.b"},
	}
	if got, ok := Resolve(tools, "developer__shell"); !ok || got.Name != "shell" {
		t.Fatalf("developer__shell = %+v %v", got, ok)
	}
	if got, ok := Resolve(tools, "a.b"); !ok || got.Name != "a.b" {
		t.Fatalf("exact a.b = %+v %v", got, ok)
	}
	if got, ok := Resolve(tools, "functions.a.b"); ok {
		t.Fatalf("functions.a.b resolved to %+v", got)
	}
}
