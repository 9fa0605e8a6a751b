package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// claudeSettings is a Claude Code ~/.claude/settings.json: a PreToolUse
// hook on Bash that denies rm -rf with hookSpecificOutput, a
// UserPromptSubmit hook that records its payload and adds context, and a
// PostToolUse hook on Bash that records its payload.
const claudeSettings = `{
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh \"$HOME/.claude/hooks/no-rm.sh\""}]}],
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat >> \"$HOME/.claude/hooks/prompt.log\"; echo >> \"$HOME/.claude/hooks/prompt.log\"; printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"Ticket ABC-123 is in progress.\"}}'"}]}],
    "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cat >> \"$HOME/.claude/hooks/post.log\"; echo >> \"$HOME/.claude/hooks/post.log\""}]}]
  }
}`

const claudeNoRm = `payload=$(cat)
printf '%s\n' "$payload" >> "$HOME/.claude/hooks/payloads.log"
case "$payload" in *'rm -rf'*)
  printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked by policy"}}'
  exit 0;;
*'git push'*)
  printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"pushing needs a human"}}'
  exit 0;;
esac
exit 0
`

// TestClaudeCodeHooksOptIn: a Claude Code settings.json hook that blocks
// rm -rf blocks it with GOOSE_CLAUDE_HOOKS=true (matched as Bash, given
// Claude's payload fields, its additionalContext reaching the model; a
// call it answers "ask" about is refused, not run) and is ignored without
// it.
func TestClaudeCodeHooksOptIn(t *testing.T) {
	for _, on := range []bool{true, false} {
		name := map[bool]string{true: "on", false: "off"}[on]
		t.Run(name, func(t *testing.T) {
			work := t.TempDir()
			victim := filepath.Join(work, "build")
			if err := os.MkdirAll(victim, 0o755); err != nil {
				t.Fatal(err)
			}
			env := newAgentEnv(t, toolCallTurn("call_rm", shellTool, map[string]string{"command": "rm -rf build"}),
				toolCallTurn("call_echo", shellTool, map[string]string{"command": "echo kept"}),
				toolCallTurn("call_push", shellTool, map[string]string{"command": "touch pushed; echo git push"}), textTurn("ok"))
			if on {
				env.Vars["GOOSE_CLAUDE_HOOKS"] = "true"
			}
			writePlugin(t, filepath.Join(env.Root, ".claude"), map[string]string{
				"settings.json":  claudeSettings,
				"hooks/no-rm.sh": claudeNoRm,
			})
			c := startAgent(t, env)
			c.initialize(acp.ClientCapabilities{})
			sess := c.newSession(work)
			if resp := c.prompt(sess.SessionID, "clean the build"); resp.StopReason != "end_turn" {
				t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
			}
			_, err := os.Stat(victim)
			if blocked := err == nil; blocked != on {
				t.Fatalf("rm -rf blocked = %v with GOOSE_CLAUDE_HOOKS %s", blocked, name)
			}
			// A hook answering "ask" is not taken as an allow: goose-acp
			// cannot ask from a hook, so the call is refused and says why.
			_, err = os.Stat(filepath.Join(work, "pushed"))
			if refused := err != nil; refused != on {
				t.Fatalf("the call the hook asks about refused = %v with GOOSE_CLAUDE_HOOKS %s", refused, name)
			}
			log := payloads(filepath.Join(env.Root, ".claude", "hooks", "payloads.log"))
			if !on {
				if len(log) != 0 || llmSaw(env, "Ticket ABC-123") {
					t.Fatalf("Claude hooks ran without the opt-in: %q", log)
				}
				return
			}
			denial := "Tool call denied by policy hook `claude`: rm -rf is blocked by policy. Do not retry; this is a policy denial, not a transient failure."
			if !llmSaw(env, denial) || c.finalStatus(sess.SessionID, "call_rm") != "failed" {
				t.Fatalf("denial not delivered\n%s", c.dump(sess.SessionID))
			}
			ask := "Tool call denied by policy hook `claude`: the hook asks the user to confirm this call (permissionDecision \"ask\"), which goose-acp cannot ask from a hook, so the call is refused: pushing needs a human. Do not retry; this is a policy denial, not a transient failure."
			if !llmSaw(env, ask) || c.finalStatus(sess.SessionID, "call_push") != "failed" {
				t.Fatalf("the ask refusal not delivered\n%s", c.dump(sess.SessionID))
			}
			if !llmSaw(env, "Ticket ABC-123 is in progress.") {
				t.Fatal("the UserPromptSubmit hook's additionalContext did not reach the model")
			}
			want := `{"event":"PreToolUse","session_id":"` + sess.SessionID + `","matcher_context":"` + shellTool + `","tool_call_id":"call_rm","tool_name":"Bash","tool_input":{"command":"rm -rf build"},"working_dir":"` + work + `","hook_event_name":"PreToolUse","cwd":"` + work + `","tool_use_id":"call_rm"}`
			if len(log) != 3 || log[0] != want {
				t.Fatalf("Claude hook payload\n got %q\nwant %q", log, want)
			}
			prompt := payloads(filepath.Join(env.Root, ".claude", "hooks", "prompt.log"))
			wantPrompt := `{"event":"UserPromptSubmit","session_id":"` + sess.SessionID + `","matcher_context":"clean the build","message":"clean the build","working_dir":"` + work + `","hook_event_name":"UserPromptSubmit","cwd":"` + work + `","prompt":"clean the build"}`
			if len(prompt) != 1 || prompt[0] != wantPrompt {
				t.Fatalf("Claude UserPromptSubmit payload\n got %q\nwant %q", prompt, wantPrompt)
			}
			// PostToolUse only for the allowed call, with the shell's output
			// as tool_response (stdout and stderr, as Claude's Bash names them).
			post := payloads(filepath.Join(env.Root, ".claude", "hooks", "post.log"))
			if len(post) != 1 || post[0] != (`{"event":"PostToolUse","session_id":"`+sess.SessionID+`","matcher_context":"`+shellTool+`","tool_call_id":"call_echo","tool_name":"Bash","tool_input":{"command":"echo kept"},"working_dir":"`+work+`","hook_event_name":"PostToolUse","cwd":"`+work+`","tool_use_id":"call_echo","tool_response":{"exit_code":0,"stderr":"","stdout":"kept"}}`) {
				t.Fatalf("Claude PostToolUse payload = %q", post)
			}
			if strings.Contains(c.stderr.String(), "panic") {
				t.Fatal(c.stderr.String())
			}
		})
	}
}
