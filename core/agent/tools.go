package agent

import (
	"context"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/permission"
)

type toolResult = conversation.Result[conversation.CallToolResult]

// handleTools answers every tool request of one reply and returns the
// tool-response message (responses in request order). cancelled reports
// that ctx ended the turn; the message then still answers every request,
// so no tool request is left orphaned in the history.
func (t *turn) handleTools(reqs []*conversation.ToolRequest) (conversation.Message, bool) {
	results := make(map[string]toolResult, len(reqs))
	var frontend, remaining []*conversation.ToolRequest
	for _, r := range reqs {
		switch {
		case !r.ToolCall.IsOK():
			results[r.ID] = conversation.Err[conversation.CallToolResult](r.ToolCall.Error)
		case t.frontend(r.ToolCall.Value.Name):
			frontend = append(frontend, r)
		default:
			remaining = append(remaining, r)
		}
	}
	cancelled := !t.runFrontend(frontend, results)
	if !cancelled {
		if t.mode == permission.ModeChat {
			for _, r := range remaining {
				results[r.ID] = conversation.TextResult(ChatModeSkipped)
			}
		} else {
			cancelled = !t.runChecked(remaining, results)
		}
	}
	msg := conversation.NewMessage(conversation.RoleUser, t.a.now().Unix()).WithID(t.a.msgID())
	for _, r := range reqs {
		res, ok := results[r.ID]
		if !ok {
			res = conversation.Err[conversation.CallToolResult](CancelledToolText)
		}
		msg.Content = append(msg.Content, conversation.ToolResponseContent(r.ID, res))
	}
	return msg, cancelled || t.ctx.Err() != nil
}

// runFrontend asks the client to run its tools, one at a time.
func (t *turn) runFrontend(reqs []*conversation.ToolRequest, results map[string]toolResult) bool {
	for _, r := range reqs {
		ch := t.s.frontends.add(r.ID)
		m := conversation.NewMessage(conversation.RoleAssistant, t.a.now().Unix()).WithID(t.a.msgID()).
			With(conversation.Content{Type: conversation.TypeFrontendToolRequest, FrontendToolRequest: &conversation.FrontendToolRequest{ID: r.ID, ToolCall: r.ToolCall}})
		t.emit(MessageEvent{Message: m})
		res, err := wait(t.ctx, &t.s.frontends, r.ID, ch)
		if err != nil {
			return false
		}
		results[r.ID] = res
	}
	return true
}

// runChecked inspects the calls, asks for approvals one at a time, then
// runs every approved call in parallel.
func (t *turn) runChecked(reqs []*conversation.ToolRequest, results map[string]toolResult) bool {
	if len(reqs) == 0 {
		return true
	}
	calls := make([]permission.Call, len(reqs))
	for i, r := range reqs {
		calls[i] = t.permissionCall(r)
	}
	split := permission.InspectAll(t.ctx, t.inspectors(), calls, t.conv, func(name string, err error) {
		t.a.log.Warn("inspector failed", "inspector", name, "error", err)
	})
	for _, c := range split.Denied {
		results[c.ID] = declined()
	}
	approved := split.Approved
	for _, c := range split.NeedsApproval {
		d, err := t.confirm(c, split.Prompts)
		if err != nil {
			return false
		}
		switch {
		case d == permission.Cancel:
			// The user cancelled at the prompt: the turn ends here, no
			// call of this reply runs and the model is not asked again
			// (goose's CLI does the same; ACP clients answer "cancelled"
			// only while they cancel the turn).
			return false
		case d.Allows():
			approved = append(approved, c)
		default:
			results[c.ID] = declined()
		}
	}
	t.runParallel(approved, results)
	return t.ctx.Err() == nil
}

// confirm emits a tool confirmation and blocks for the user's decision;
// always_allow / always_deny are written to permission.yaml.
func (t *turn) confirm(c permission.Call, prompts map[string]string) (permission.Decision, error) {
	var prompt *string
	if p, ok := prompts[c.ID]; ok {
		prompt = &p
	}
	ch := t.s.confirms.add(c.ID)
	m := conversation.NewMessage(conversation.RoleAssistant, t.a.now().Unix()).WithID(t.a.msgID()).
		With(conversation.ToolConfirmation(c.ID, c.Name, c.Args, prompt))
	m.Metadata = conversation.Metadata{UserVisible: true, AgentVisible: false}
	t.emit(MessageEvent{Message: m})
	d, err := wait(t.ctx, &t.s.confirms, c.ID, ch)
	if err != nil {
		return "", err
	}
	if lvl := d.PersistedLevel(); lvl != permission.LevelNone && t.a.opts.Permissions != nil {
		if err := t.a.opts.Permissions.SetUser(c.Name, lvl); err != nil {
			t.a.log.Warn("saving permission failed", "tool", c.Name, "error", err)
		}
	}
	return d, nil
}

type callDone struct {
	call permission.Call
	res  toolResult
}

// runParallel runs the calls concurrently, emitting their notifications
// and elicitations as they come, until every call has returned.
func (t *turn) runParallel(calls []permission.Call, results map[string]toolResult) {
	if len(calls) == 0 {
		return
	}
	done := make(chan callDone, len(calls))
	for _, c := range calls {
		t.s.repetition.Record(c)
		ctx, end := t.s.calls.start(t.ctx, c.ID)
		go func() {
			defer end()
			done <- callDone{c, t.dispatch(ctx, c)}
		}()
	}
	for pending := len(calls); pending > 0; {
		select {
		case d := <-done:
			results[d.call.ID] = d.res
			if t.ctx.Err() == nil {
				t.observeToolPath(d.call.Name, d.call.Args)
			}
			pending--
		case <-t.q.signal:
			t.emitQueued()
		}
	}
	t.emitQueued()
}

// call runs one call: the final_output tool in core, anything else
// through the extension manager; large outputs go to a file.
func (t *turn) call(ctx context.Context, c permission.Call) toolResult {
	if c.Name == FinalOutputToolName && t.s.final != nil {
		return t.s.final.call(c.Args)
	}
	if sub, ok := t.s.subRecipes[c.Name]; ok {
		return t.runSubRecipeTool(ctx, sub, c.Args)
	}
	if tool, ok := t.tool(c.Name); ok && tool.Extension == platform.Summon && tool.Local == platform.DelegateTool {
		return t.delegate(ctx, c)
	}
	res, err := t.s.callTool(ctx, c.ID, c.Name, c.Args)
	if err != nil {
		if ctx.Err() != nil {
			return conversation.Err[conversation.CallToolResult](CancelledToolText)
		}
		return conversation.Err[conversation.CallToolResult](err.Error())
	}
	return conversation.Ok(largeResponse(res, t.a.opts.TempDir, t.a.now()))
}

// permissionCall is a tool request as the inspectors see it, under the
// tool's public name whatever name the model used ("shell" for a
// "developer__shell" from an older session), with the prefixed name
// permission.yaml rules of older goose and goose-acp carry.
func (t *turn) permissionCall(r *conversation.ToolRequest) permission.Call {
	name := r.ToolCall.Value.Name
	c := permission.Call{ID: r.ID, Name: name, Args: r.ToolCall.Value.Arguments, Kind: t.toolInfo(name).Kind}
	if tool, ok := t.tool(name); ok {
		c.Name, c.ReadOnly = tool.Name, tool.ReadOnly()
		if p := tool.PrefixedName(); p != tool.Name && tool.Local != "" {
			c.Prefixed = p
		}
	}
	return c
}

// inspectors returns goose's inspectors in goose's order.
func (t *turn) inspectors() []permission.Inspector {
	return []permission.Inspector{
		&permission.SecurityInspector{
			Enable:       t.a.cfg.bool("SECURITY_PROMPT_ENABLED"),
			Threshold:    t.a.cfg.float("SECURITY_PROMPT_THRESHOLD", permission.DefaultSecurityThreshold),
			NewFindingID: func() string { return simpleUUID(t.a.opts.NewID()) },
			Logger:       t.a.log,
		},
		&permission.PermissionInspector{Mode: t.mode, Store: t.a.opts.Permissions, Judge: permission.LLMJudgeWithPrompt(t.prov, t.a.now, t.a.plainPrompt(TemplatePermissionJudge))},
		t.s.repetition,
	}
}

func simpleUUID(id string) string {
	out := make([]byte, 0, len(id))
	for i := 0; i < len(id); i++ {
		if id[i] != '-' {
			out = append(out, id[i])
		}
	}
	return string(out)
}
