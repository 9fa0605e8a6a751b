package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// subagentTurns: the parent delegates; the child says a word and runs a
// shell command the security inspector stops for approval (harmless:
// nothing listens on port 9), then ends with its summary; the parent
// answers.
func subagentTurns() []providertest.Turn {
	shell := providertest.Turn{Text: []string{"Checking."}, ToolCalls: []providertest.ToolCall{{ID: "call_sh", Name: "shell",
		Arguments: `{"command":"curl -s http://127.0.0.1:9/x | sh"}`}}}
	summary, _ := json.Marshal(map[string]string{"summary": "the network is down"})
	args, _ := json.Marshal(map[string]string{"final_output": string(summary)})
	final := providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_fin", Name: "final_output", Arguments: string(args)}}}
	return []providertest.Turn{
		toolCallTurn("call_d", "delegate", map[string]string{"instructions": "Check the network"}),
		shell, final, textTurn("The network is down."),
	}
}

// A client that advertises subagents follows a delegate as a child
// session (SDK 2.4.0's unstable schema, zod-validated): subagent_update on
// the parent announces it before any of its traffic and reports its end;
// the child's stream has the task as a session_message from the parent,
// then its own text and tool calls; its approval is asked on the parent
// session (naming the child) while the child is requires_action; the
// delegate call stays in the parent without progress lines.
func TestSubagentsAsChildSessions(t *testing.T) {
	env := newAgentEnv(t, subagentTurns()...)
	env.Vars["SECURITY_PROMPT_ENABLED"] = "true"
	r := runACP24(t, env, t.TempDir(), `{"subagents":{}}`, "subagents")
	var child string
	r.field(t, "child", &child)
	if child == "" {
		t.Fatal("no subagent_update announced a child")
	}
	var parent, childUpdates, order []string
	r.field(t, "parentUpdates", &parent)
	r.field(t, "childUpdates", &childUpdates)
	r.field(t, "order", &order)
	wantParent := []string{
		"session_info_update",
		"tool_call call_d Delegate",
		"tool_call_update call_d in_progress",
		`subagent_update child title=Delegated Task description=Check the network state=running capabilities={"cancel":{}} cwd call=call_d`,
		"subagent_update child state=requires_action",
		"subagent_update child state=running",
		"subagent_update child state=idle/end_turn",
		"tool_call_update call_d completed",
		"agent_message_chunk The network is down.",
	}
	if strings.Join(parent, "\n") != strings.Join(wantParent, "\n") {
		t.Errorf("parent updates\n got %q\nwant %q", parent, wantParent)
	}
	wantChild := []string{
		"session_message call_d from=parent to=self: Check the network",
		"agent_message_chunk Checking.",
		"tool_call call_sh Run curl -s http://127.0.0.1:9/x | sh",
		"tool_call_update call_sh in_progress",
		"tool_call_update call_sh completed",
		"tool_call call_fin Final output",
		"tool_call_update call_fin completed",
		`agent_message_chunk {"summary":"the network is down"}`,
	}
	if strings.Join(childUpdates, "\n") != strings.Join(wantChild, "\n") {
		t.Errorf("child updates\n got %q\nwant %q", childUpdates, wantChild)
	}
	wantOrder := []string{
		`subagent_update child title=Delegated Task description=Check the network state=running capabilities={"cancel":{}} cwd call=call_d`,
		"subagent_update child state=requires_action",
		"request_permission on=parent child=named",
		"subagent_update child state=running",
		"subagent_update child state=idle/end_turn",
	}
	if strings.Join(order, "\n") != strings.Join(wantOrder, "\n") {
		t.Errorf("order\n got %q\nwant %q", order, wantOrder)
	}
	if string(r.Report["others"]) != "0" || string(r.Report["subagentStop"]) != `"end_turn"` {
		t.Errorf("updates on other sessions %s, stop %s", r.Report["others"], r.Report["subagentStop"])
	}
}

// Without the capability nothing changes: one delegate tool call whose
// progress lines show the child's work, the child's approval asked on the
// parent session without _meta, no frame for another session.
func TestSubagentsWithoutTheCapabilityStayOneToolCall(t *testing.T) {
	env := newAgentEnv(t, subagentTurns()...)
	env.Vars["SECURITY_PROMPT_ENABLED"] = "true"
	r := runACP24(t, env, t.TempDir(), `{}`, "subagents")
	var parent, order []string
	r.field(t, "parentUpdates", &parent)
	r.field(t, "order", &order)
	if string(r.Report["child"]) != "null" || string(r.Report["others"]) != "0" {
		t.Errorf("child %s, updates on other sessions %s", r.Report["child"], r.Report["others"])
	}
	joined := strings.Join(parent, "\n")
	if !strings.Contains(joined, "tool_call_update call_d in_progress progress") || strings.Contains(joined, "subagent_update") ||
		!strings.HasSuffix(joined, "tool_call_update call_d completed\nagent_message_chunk The network is down.") {
		t.Errorf("parent updates %q", parent)
	}
	if strings.Join(order, "\n") != "request_permission on=parent child=unnamed" {
		t.Errorf("order %q", order)
	}
}

// session/cancel with a running subagent's id (its capabilities allow it)
// stops that child only: it ends cancelled, and the parent's turn goes on
// to its answer.
func TestCancellingOneSubagent(t *testing.T) {
	env := newAgentEnv(t,
		toolCallTurn("call_d", "delegate", map[string]string{"instructions": "Wait for the build"}),
		providertest.Turn{Text: []string{"Waiting."}, Hang: true},
		textTurn("The subagent was stopped."))
	r := runACP24(t, env, t.TempDir(), `{"subagents":{}}`, "subagentcancel")
	var parent []string
	r.field(t, "cancelParent", &parent)
	joined := strings.Join(parent, "\n")
	if string(r.Report["cancelStop"]) != `"end_turn"` || !strings.Contains(joined, "subagent_update child state=idle/cancelled") ||
		!strings.HasSuffix(joined, "agent_message_chunk The subagent was stopped.") {
		t.Errorf("stop %s, parent updates %q", r.Report["cancelStop"], parent)
	}
}
