package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/permission"
)

// TestListToolsUserLevelBesideTheEffectivePermission: ListTools reports,
// for every face, a tool's permission.yaml user level (found under its
// bare name, else under the prefixed name a rule saved before goose 1.54
// carries: what goosed lists) beside the permission goose would apply in
// the session's mode (what goose 1.54 lists: ask_before in approve mode
// for a tool without a rule).
func TestListToolsUserLevelBesideTheEffectivePermission(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "permission.yaml")
	if err := os.WriteFile(file, []byte("user:\n  always_allow:\n    - developer__echo\n  never_allow:\n    - read\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	perms, err := config.OpenPermissions(file)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, mapConfig{"GOOSE_MODE": "approve"}, func(o *Options) {
		o.Permissions = permission.FromConfig(perms)
		o.Builtins["developer"] = o.Builtins["tt"] // a builtin named developer: bare tool names
	})
	h.start(StartOptions{Extensions: []config.ExtensionConfig{{Type: config.ExtensionBuiltin, Name: "developer", AvailableTools: []string{"echo", "read", "big"}}}})
	tools, err := h.a.Extensions().ListTools(context.Background(), h.id, "developer")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]permission.Level{}
	for _, tl := range tools {
		got[tl.Name] = [2]permission.Level{tl.UserLevel, tl.Permission}
	}
	want := map[string][2]permission.Level{
		"echo": {permission.LevelAlwaysAllow, permission.LevelAlwaysAllow}, // saved as developer__echo
		"read": {permission.LevelNeverAllow, permission.LevelNeverAllow},
		"big":  {permission.LevelNone, permission.LevelAskBefore},
	}
	if len(got) != len(want) {
		t.Fatalf("tools %v", got)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: user level, permission = %v, want %v", name, got[name], w)
		}
	}
}

// TestCallToolRefusesAToolTheSessionLacks: a direct call names a tool the
// session's extensions offer, else ErrToolNotFound with the name.
func TestCallToolRefusesAToolTheSessionLacks(t *testing.T) {
	h := newHarness(t, nil)
	h.start(StartOptions{})
	_, err := h.a.Extensions().CallTool(context.Background(), h.id, "tt__nope", nil)
	if !errors.Is(err, ErrToolNotFound) || errkind.Detail(err) != "Tool not found: tt__nope" {
		t.Fatalf("unknown tool: %v", err)
	}
	if res, err := h.a.Extensions().CallTool(context.Background(), h.id, "tt__echo", map[string]any{"q": 1}); err != nil || res.IsError {
		t.Fatalf("tt__echo: %+v %v", res, err)
	}
}
