package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// guardScript records its payload and denies any command with "rm -rf"
// (exit 2, reason on stderr), as a team's policy hook does.
const guardScript = `payload=$(cat)
printf '%s\n' "$payload" >> "$PLUGIN_ROOT/pre.log"
case "$payload" in *'rm -rf'*) echo "rm -rf is not allowed here" >&2; exit 2;; esac
exit 0
`

// TestPluginToolHooks: a user plugin's PreToolUse hook denies a shell
// call (the command never runs; the editor sees the call fail with
// goose's denial text; the model reads it), PreToolUseResult observes
// both decisions, the allowed call gets BeforeShellExecution,
// PostToolUse and AfterShellExecution, and every payload carries goose's
// fields in goose's order.
func TestPluginToolHooks(t *testing.T) {
	work := t.TempDir()
	keep := filepath.Join(work, "keep.txt")
	if err := os.WriteFile(keep, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := newAgentEnv(t,
		toolCallTurn("call_rm", shellTool, map[string]string{"command": "rm -rf keep.txt"}),
		toolCallTurn("call_echo", shellTool, map[string]string{"command": "echo listed"}),
		textTurn("done"))
	root := userPlugin(t, env, "guard", map[string]string{
		"guard.sh": guardScript,
		"hooks/hooks.json": hooksJSON(map[string][2]string{
			"PreToolUse":           {"shell$", "sh ${PLUGIN_ROOT}/guard.sh"},
			"PreToolUseResult":     {"", recordTo("result.log")},
			"PostToolUse":          {"", recordTo("post.log")},
			"PostToolUseFailure":   {"", recordTo("postfail.log")},
			"BeforeShellExecution": {"^echo", recordTo("before.log")},
			"AfterShellExecution":  {"", recordTo("after.log")},
		}),
	})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	if resp := c.prompt(sess.SessionID, "clean up"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "precious" {
		t.Fatalf("the denied command ran: %v %q", err, b)
	}
	denial := "Tool call denied by policy hook `guard`: rm -rf is not allowed here. Do not retry; this is a policy denial, not a transient failure."
	var final acp.SessionUpdate
	for _, u := range c.toolUpdates(sess.SessionID, "call_rm") {
		if u.Status == "failed" || u.Status == "completed" {
			final = u
		}
	}
	if final.Status != "failed" || len(final.ToolContent) != 1 || final.ToolContent[0].Content == nil || final.ToolContent[0].Content.Text != denial {
		t.Fatalf("denied call's final update = %s\n%s", jsonOf(final), c.dump(sess.SessionID))
	}
	if !llmSaw(env, denial) {
		t.Fatal("the model did not read the denial")
	}
	if st := c.finalStatus(sess.SessionID, "call_echo"); st != "completed" {
		t.Fatalf("allowed call ended %q", st)
	}

	id := sess.SessionID
	tool := func(call, command string) string {
		return `"matcher_context":"` + shellTool + `","tool_call_id":"` + call + `","tool_name":"` + shellTool + `","tool_input":{"command":"` + command + `"},"working_dir":"` + work + `"`
	}
	pre := payloads(filepath.Join(root, "pre.log"))
	want := []string{
		`{"event":"PreToolUse","session_id":"` + id + `",` + tool("call_rm", "rm -rf keep.txt") + `}`,
		`{"event":"PreToolUse","session_id":"` + id + `",` + tool("call_echo", "echo listed") + `}`,
	}
	if strings.Join(pre, "\n") != strings.Join(want, "\n") {
		t.Fatalf("PreToolUse payloads\n got %s\nwant %s", strings.Join(pre, "\n"), strings.Join(want, "\n"))
	}
	results := payloads(filepath.Join(root, "result.log"))
	want = []string{
		`{"event":"PreToolUseResult","session_id":"` + id + `",` + tool("call_rm", "rm -rf keep.txt") + `,"decision":"deny","policy_evaluated":true,"blocked_by":"guard","reason":"rm -rf is not allowed here","cause":"policy_denial"}`,
		`{"event":"PreToolUseResult","session_id":"` + id + `",` + tool("call_echo", "echo listed") + `,"decision":"allow","policy_evaluated":true}`,
	}
	if strings.Join(results, "\n") != strings.Join(want, "\n") {
		t.Fatalf("PreToolUseResult payloads\n got %s\nwant %s", strings.Join(results, "\n"), strings.Join(want, "\n"))
	}
	if post := payloads(filepath.Join(root, "post.log")); len(post) != 1 || post[0] != `{"event":"PostToolUse","session_id":"`+id+`",`+tool("call_echo", "echo listed")+`}` {
		t.Fatalf("PostToolUse payloads (none for the denied call) = %q", post)
	}
	if fails := payloads(filepath.Join(root, "postfail.log")); len(fails) != 0 {
		t.Fatalf("PostToolUseFailure fired: %q", fails)
	}
	extended := `{"event":"%s","session_id":"` + id + `","matcher_context":"echo listed","tool_name":"` + shellTool + `","tool_input":{"command":"echo listed"},"working_dir":"` + work + `"}`
	if got := payloads(filepath.Join(root, "before.log")); len(got) != 1 || got[0] != strings.Replace(extended, "%s", "BeforeShellExecution", 1) {
		t.Fatalf("BeforeShellExecution payloads = %q", got)
	}
	if got := payloads(filepath.Join(root, "after.log")); len(got) != 1 || got[0] != strings.Replace(extended, "%s", "AfterShellExecution", 1) {
		t.Fatalf("AfterShellExecution payloads = %q", got)
	}
}

// TestPluginHooksSkipSubagents: as in goose, a subagent's turns run no
// hooks; the parent's delegate call (a tool the parent offers) does.
func TestPluginHooksSkipSubagents(t *testing.T) {
	work := t.TempDir()
	summary := `{"final_output":"{\"summary\":\"two files\"}"}`
	env := newAgentEnv(t,
		toolCallTurn("call_del", "delegate", map[string]string{"instructions": "List the files"}),
		toolCallTurn("call_ls", shellTool, map[string]string{"command": "ls"}),
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_fin", Name: "final_output", Arguments: summary}}},
		textTurn("The subagent found two files."))
	root := userPlugin(t, env, "audit", map[string]string{
		"hooks/hooks.json": hooksJSON(map[string][2]string{"PreToolUse": {"", recordTo("pre.log")}, "UserPromptSubmit": {"", recordTo("prompt.log")}}),
	})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	if resp := c.prompt(sess.SessionID, "delegate it"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	pre := payloads(filepath.Join(root, "pre.log"))
	if len(pre) != 1 || !strings.Contains(pre[0], `"tool_call_id":"call_del","tool_name":"delegate"`) {
		t.Fatalf("PreToolUse payloads = %q, want only the parent's delegate call", pre)
	}
	if got := payloads(filepath.Join(root, "prompt.log")); len(got) != 1 {
		t.Fatalf("UserPromptSubmit ran %d times, want the parent's prompt only", len(got))
	}
}
