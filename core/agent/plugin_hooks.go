package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/plugins"
)

// The lifecycle hooks' points in the turn (goose's ops_entry_hook,
// ops_toolcalling and ops_stop_hook): UserPromptSubmit before the turn's
// commands, the tool events around each advertised tool's call, Stop when
// the model ends its turn. A session without hooks skips all of it.

// hookPoints are a turn's hook points (a type of their own, so the turn
// keeps the loop's methods).
type hookPoints struct{ t *turn }

// Texts goose shows about Stop hooks.
const (
	StopHookContextFormat      = "Stop hook `%s` blocked ending this turn:\n\n%s\n\nAddress this policy hook denial before trying to stop again."
	StopHookNotificationFormat = "Stop hook `%s` blocked ending this turn."
	StopHookCapFormat          = "Stop hook `%s` blocked the turn from ending more than %d consecutive times — overriding and ending turn to avoid an infinite loop. Set GOOSE_STOP_HOOK_BLOCK_CAP to raise this limit."
	// DefaultStopHookBlockCap is goose's DEFAULT_STOP_HOOK_BLOCK_CAP.
	DefaultStopHookBlockCap = 8
)

func (hp hookPoints) hooks() *plugins.Hooks {
	if hp.t.s.plugins == nil {
		return nil
	}
	return hp.t.s.plugins.hooks
}

// payload is a hook payload for this turn's session.
func (hp hookPoints) payload(ev plugins.Event) plugins.Payload {
	t := hp.t
	return plugins.Payload{Event: ev, SessionID: t.s.id, WorkingDir: t.wd}
}

// inlineNote shows the user a line that is not part of the conversation
// (goose's inline system notification).
func (hp hookPoints) inlineNote(text string) conversation.Message {
	t := hp.t
	m := conversation.NewMessage(conversation.RoleAssistant, t.a.now().Unix()).WithID(t.a.msgID()).
		With(conversation.SystemNotification(conversation.NotificationInline, text))
	m.Metadata = conversation.Metadata{UserVisible: true, AgentVisible: false}
	return m
}

// notice is a NoticeEvent with goose's inline form of the note.
func (hp hookPoints) notice(n Notice) NoticeEvent {
	return NoticeEvent{Notice: n, Message: hp.inlineNote(n.Text())}
}

// hookFailures tells the user about hooks that failed open. From a tool
// call's goroutine the note is queued for the turn's goroutine.
func (hp hookPoints) hookFailures(fs []plugins.Failure, queued bool) {
	t := hp.t
	for _, n := range failureNotices(fs) {
		ev := hp.notice(n)
		if queued {
			t.post(ev)
		} else {
			t.emit(ev)
		}
	}
}

// promptHooks runs once the user's message is in: it waits for the
// session's SessionStart hooks, then runs UserPromptSubmit with the
// message's text (slash commands included, as goose). Context a Claude
// Code hook returns reaches the model after the message.
func (hp hookPoints) promptHooks(msg conversation.Message) (context []string) {
	t := hp.t
	sp := t.s.plugins
	if sp == nil || sp.hooks.Empty() {
		return nil
	}
	select {
	case <-sp.started:
	case <-t.ctx.Done():
		return nil
	}
	if first := sp.context; len(first) > 0 {
		context, sp.context = append(context, first...), nil
	}
	text := msg.AsText()
	if text == "" || !sp.hooks.Has(plugins.UserPromptSubmit) {
		return context
	}
	out := sp.hooks.Emit(t.ctx, plugins.UserPromptSubmit, hp.payload(plugins.UserPromptSubmit).WithMessage(text))
	hp.hookFailures(out.Failures, false)
	return append(context, out.Context...)
}

// hookContext is context hooks gave the model: an agent-only user
// message.
func (hp hookPoints) hookContext(texts []string) []conversation.Message {
	t := hp.t
	if len(texts) == 0 {
		return nil
	}
	m := t.userText(strings.Join(texts, "\n\n"))
	m.Metadata = conversation.Metadata{UserVisible: false, AgentVisible: true}
	return []conversation.Message{m}
}

// steerHooks runs UserPromptSubmit for input steered into the turn.
func (hp hookPoints) steerHooks(m conversation.Message) {
	t := hp.t
	h := hp.hooks()
	if text := m.AsText(); text != "" && h.Has(plugins.UserPromptSubmit) {
		out := h.Emit(t.ctx, plugins.UserPromptSubmit, hp.payload(plugins.UserPromptSubmit).WithMessage(text))
		hp.hookFailures(out.Failures, false)
	}
}

// dispatch runs one approved call; the tools the turn advertises go
// through their hooks.
func (t *turn) dispatch(ctx context.Context, c permission.Call) toolResult {
	if _, advertised := t.toolIndex[c.Name]; !advertised || (hookPoints{t}).hooks().Empty() {
		return t.call(ctx, c)
	}
	return (hookPoints{t}).hookedCall(ctx, c)
}

// toolCategory is goose's categorize_tool: the name's last "__" segment.
func toolCategory(name string) string {
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	switch name {
	case "shell", "bash", "exec", "run":
		return "shell"
	case "read", "view", "cat", "read_file":
		return "read"
	case "write", "edit", "patch", "write_file", "edit_file":
		return "write"
	}
	return ""
}

// toolResponse is a call's result as Claude Code hooks read it in
// tool_response (goose's own payload has no such field): the tool's
// structured content when it has one (the shell's stdout, stderr and
// exit_code, as Claude's Bash response names its output), else the MCP
// result, else the error text.
func toolResponse(res toolResult) json.RawMessage {
	var v any = res.Error
	if res.IsOK() {
		v = res.Value
		if res.Value.StructuredContent != nil {
			v = res.Value.StructuredContent
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// stringArg is the first non-empty string argument of keys.
func stringArg(args map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := args[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// hookedCall is a call with goose's tool hooks: PreToolUse decides (a
// denial is the tool's error result), PreToolUseResult observes the
// decision, BeforeShellExecution / BeforeReadFile precede the call,
// PostToolUse or PostToolUseFailure follow it, and AfterShellExecution /
// AfterFileEdit follow a success.
func (hp hookPoints) hookedCall(ctx context.Context, c permission.Call) toolResult {
	t := hp.t
	h := hp.hooks()
	tool := hp.payload(plugins.PreToolUse).ForTool(c.Name, c.Args)
	tool.ToolCallID = c.ID
	var out plugins.Outcome
	if h.Has(plugins.PreToolUse) {
		out = h.Decide(ctx, plugins.PreToolUse, tool)
		hp.hookFailures(out.Failures, true)
	}
	if h.Has(plugins.PreToolUseResult) {
		r := tool
		r.Event, r.Decision, r.Cause = plugins.PreToolUseResult, "allow", out.Cause
		evaluated := out.Evaluated
		r.PolicyEvaluated = &evaluated
		if out.Denied {
			r.Decision, r.BlockedBy, r.Reason = "deny", out.Plugin, out.Reason
		}
		hp.hookFailures(h.Emit(ctx, plugins.PreToolUseResult, r).Failures, true)
	}
	if out.Denied {
		return conversation.Err[conversation.CallToolResult](out.DenialText())
	}
	extended := tool
	extended.ToolCallID = ""
	category := toolCategory(c.Name)
	switch target := ""; category {
	case "shell":
		if target = stringArg(c.Args, "command"); target != "" {
			hp.emitTool(ctx, plugins.BeforeShellExecution, extended.WithMatcher(target))
		}
	case "read":
		if target = stringArg(c.Args, "path", "file", "file_path"); target != "" {
			hp.emitTool(ctx, plugins.BeforeReadFile, extended.WithMatcher(target))
		}
	}
	res := t.call(ctx, c)
	if ctx.Err() != nil {
		return res
	}
	failed := !res.IsOK() || res.Value.IsError
	post := tool
	post.Event = plugins.PostToolUse
	if failed {
		post.Event = plugins.PostToolUseFailure
	}
	post.ToolResponse = toolResponse(res)
	if h.Has(post.Event) {
		emitted := h.Emit(ctx, post.Event, post)
		hp.hookFailures(emitted.Failures, true)
		if len(emitted.Context) > 0 && res.IsOK() {
			v := *res.Value
			v.Content = append(append([]conversation.ToolContent(nil), v.Content...), conversation.TextBlock(strings.Join(emitted.Context, "\n\n")))
			res = conversation.Ok(v)
		}
	}
	if failed {
		return res
	}
	switch category {
	case "shell":
		if target := stringArg(c.Args, "command"); target != "" {
			hp.emitTool(ctx, plugins.AfterShellExecution, extended.WithMatcher(target))
		}
	case "write":
		if target := stringArg(c.Args, "path", "file", "file_path"); target != "" {
			hp.emitTool(ctx, plugins.AfterFileEdit, extended.WithMatcher(target))
		}
	}
	return res
}

// emitTool runs a non-blocking tool event from a call's goroutine.
func (hp hookPoints) emitTool(ctx context.Context, ev plugins.Event, p plugins.Payload) {
	h := hp.hooks()
	if !h.Has(ev) {
		return
	}
	p.Event = ev
	hp.hookFailures(h.Emit(ctx, ev, p).Failures, true)
}

// stopHook gives Stop hooks the last word on ending the turn the model
// finished with last (its user-visible text). On a denial it stores
// goose's agent-only context message, shows the notification and reports
// that the model must run again, until GOOSE_STOP_HOOK_BLOCK_CAP
// consecutive denials end the turn with goose's warning.
func (hp hookPoints) stopHook(last string) (again bool, err error) {
	t := hp.t
	h := hp.hooks()
	if !h.Has(plugins.Stop) || t.ctx.Err() != nil {
		return false, nil
	}
	p := hp.payload(plugins.Stop)
	p.LastAssistantMessage = last
	p.StopHookActive = t.stopBlocks > 0
	out := h.Decide(t.ctx, plugins.Stop, p)
	hp.hookFailures(out.Failures, false)
	if !out.Denied || t.ctx.Err() != nil {
		return false, nil
	}
	t.stopBlocks++
	if limit := t.a.cfg.int("GOOSE_STOP_HOOK_BLOCK_CAP", DefaultStopHookBlockCap); t.stopBlocks > limit {
		ev := hp.notice(Notice{Severity: "warning", Plugin: out.Plugin, Title: fmt.Sprintf(StopHookCapFormat, out.Plugin, limit)})
		if err := t.persist(ev.Message); err != nil {
			return false, err
		}
		t.emit(ev)
		return false, nil
	}
	nudge := t.userText(fmt.Sprintf(StopHookContextFormat, out.Plugin, out.Reason))
	nudge.Metadata = conversation.Metadata{UserVisible: false, AgentVisible: true}
	if err := t.persist(nudge); err != nil {
		return false, err
	}
	t.emit(hp.notice(Notice{Severity: "warning", Plugin: out.Plugin, Title: fmt.Sprintf(StopHookNotificationFormat, out.Plugin)}))
	return true, nil
}

// visibleText is the user-visible text of the assistant's reply (Stop's
// last_assistant_message).
func visibleText(reply []conversation.Message) string {
	var b strings.Builder
	for _, m := range reply {
		if m.Role != conversation.RoleAssistant || !m.Metadata.UserVisible {
			continue
		}
		for _, c := range m.Content {
			if c.Text != nil {
				b.WriteString(c.Text.Text)
			}
		}
	}
	return b.String()
}
