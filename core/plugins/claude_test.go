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

// TestClassifyClaude: a Claude Code hook's answers. On PreToolUse, "ask"
// and updatedInput refuse the call with a reason naming what goose-acp
// cannot do, instead of letting it run as if allowed; elsewhere they mean
// nothing.
func TestClassifyClaude(t *testing.T) {
	hso := func(s string) []byte {
		return []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse",` + s + `}}`)
	}
	cases := []struct {
		name   string
		ev     Event
		r      run
		want   verdict
		reason string
	}{
		{"deny", PreToolUse, run{code: code(0), stdout: hso(`"permissionDecision":"deny","permissionDecisionReason":"no rm"`)}, vDeny, "no rm"},
		{"exit 2", PreToolUse, run{code: code(2), stderr: []byte("blocked\n")}, vDeny, "blocked"},
		{"allow", PreToolUse, run{code: code(0), stdout: hso(`"permissionDecision":"allow"`)}, vAllow, ""},
		{"plain stdout", PreToolUse, run{code: code(0), stdout: []byte("fine\n")}, vAllow, ""},
		{"ask", PreToolUse, run{code: code(0), stdout: hso(`"permissionDecision":"ask","permissionDecisionReason":"pushes to main"`)}, vDeny, claudeAskRefused + ": pushes to main"},
		{"ask without reason", PreToolUse, run{code: code(0), stdout: hso(`"permissionDecision":"ask"`)}, vDeny, claudeAskRefused},
		{"updatedInput", PreToolUse, run{code: code(0), stdout: hso(`"permissionDecision":"allow","updatedInput":{"command":"ls --dry-run"}`)}, vDeny, claudeUpdateRefused},
		{"updatedInput null", PreToolUse, run{code: code(0), stdout: hso(`"updatedInput":null`)}, vAllow, ""},
		{"ask on another event", PostToolUse, run{code: code(0), stdout: hso(`"permissionDecision":"ask"`)}, vAllow, ""},
		{"ask at exit 1", PreToolUse, run{code: code(1), stdout: hso(`"permissionDecision":"ask"`)}, vFail, "the hook exited with status 1"},
	}
	for _, c := range cases {
		c.r.stdinDelivered = true
		if v, reason := classifyClaude(c.ev, c.r); v != c.want || reason != c.reason {
			t.Errorf("%s: got %v %q, want %v %q", c.name, v, reason, c.want, c.reason)
		}
	}
}
