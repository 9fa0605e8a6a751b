package plugins

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
)

func TestClaudeToolNames(t *testing.T) {
	for name, want := range map[string]string{
		"shell": "Bash", "developer__shell": "Bash", "read": "Read", "write": "Write", "edit": "Edit",
		"tree": "LS", "github__create_issue": "mcp__github__create_issue", "load_skill": "load_skill",
	} {
		if got := claudeToolName(name, nil); got != want {
			t.Errorf("%s → %s, want %s", name, got, want)
		}
	}
	if got := claudeToolName("text_editor", json.RawMessage(`{"command":"view","path":"x"}`)); got != "Read" {
		t.Errorf("text_editor view → %s", got)
	}
}

// TestClaudeHooksDiscovery: Claude settings hooks are found only with
// GOOSE_CLAUDE_HOOKS=true; the user's run, the project's wait for the
// user's consent like any project plugin; matchers are Claude's.
func TestClaudeHooksDiscovery(t *testing.T) {
	env, project, _ := fixture(t)
	settings := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 2"}]},{"matcher":"*","hooks":[{"type":"command","command":"true"}]}]}}`
	write(t, filepath.Join(env.Home, ".claude", "settings.json"), settings)
	write(t, filepath.Join(project, ".claude", "settings.local.json"), settings)
	if ps, _ := env.Discover(project); len(ps) != 0 {
		t.Fatalf("without the opt-in: %s", names(ps))
	}
	env.Getenv = func(k string) string { return map[string]string{ClaudeHooksEnv: "true"}[k] }
	ps, _ := env.Discover(project)
	if n := names(ps); n != "claude/project/awaiting_consent claude/user/active" {
		t.Fatalf("with the opt-in: %s", n)
	}
	h := LoadHooks(ps, project, nil)
	if rules := h.rules[PreToolUse]; len(rules) != 2 {
		t.Fatalf("rules = %d, want the user's two", len(rules))
	}
	ctx := context.Background()
	if out := h.Decide(ctx, PreToolUse, shellPayload("ls")); !out.Denied || out.Plugin != ClaudePlugin {
		t.Fatalf("Bash hook on shell: %+v", out)
	}
	read := Payload{Event: PreToolUse, SessionID: "s"}.ForTool("read", map[string]any{"path": "x"})
	if out := h.Decide(ctx, PreToolUse, read); out.Denied {
		t.Fatalf("the Bash matcher matched read: %+v", out)
	}
}
