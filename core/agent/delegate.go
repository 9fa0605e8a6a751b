package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// MaxParallelDelegates bounds the subagents running at once in this
// process; further delegate calls wait for a slot (or their cancellation).
const MaxParallelDelegates = 4

// DelegateSessionName is the name goose gives a delegated session.
const DelegateSessionName = "Delegated task"

// SubagentParentKey is the extension_data key where subagents delegated
// before sessions.db v17 recorded their parent; the parent now lives in the
// parent_session_id column, as in goose 1.54, and the key is only read.
const SubagentParentKey = "subagent.v0"

// summaryResponseSchema is the final output goose forces on delegates.
const summaryResponseSchema = `{"type":"object","properties":{"summary":{"type":"string"}},"required":["summary"]}`

// ErrNestedDelegation is goose's refusal to delegate from a subagent.
var ErrNestedDelegation = errors.New("Delegated tasks cannot spawn further delegations")

// delegateSlots bounds concurrent subagents (MaxParallelDelegates).
var delegateSlots = struct {
	once sync.Once
	ch   chan struct{}
}{}

func acquireDelegateSlot(ctx context.Context) (func(), error) {
	delegateSlots.once.Do(func() { delegateSlots.ch = make(chan struct{}, MaxParallelDelegates) })
	select {
	case delegateSlots.ch <- struct{}{}:
		return func() { <-delegateSlots.ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// hooks adapts the agent to platform.AgentHooks.
type hooks struct{ a *Agent }

func (h hooks) SubRecipes(sessionID string) []recipe.SubRecipe {
	s, err := h.a.session(sessionID)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.recipe == nil {
		return nil
	}
	out := make([]recipe.SubRecipe, 0, len(s.recipe.SubRecipes))
	for _, t := range s.subRecipes {
		out = append(out, t.sub)
	}
	if len(out) == 0 {
		out = append(out, s.recipe.SubRecipes...)
	}
	return out
}

func (h hooks) Delegate(ctx context.Context, parentID, callID string, p platform.DelegateParams) (string, error) {
	res := h.a.sub.runDelegate(ctx, parentID, callID, p)
	text := ""
	for _, c := range res.Content {
		text += c.Text
	}
	if res.IsError {
		return "", errors.New(text)
	}
	return text, nil
}

func (h hooks) Complete(ctx context.Context, sessionID, system, user string) (string, error) {
	s, err := h.a.session(sessionID)
	if err != nil {
		return "", err
	}
	prov, perr, _, _ := s.snapshot()
	if prov == nil {
		return "", perr
	}
	reply, _, err := prov.Complete(ctx, provider.Request{System: system, Messages: []conversation.Message{conversation.UserText(h.a.now().Unix(), user)}})
	if err != nil {
		return "", err
	}
	return reply.AsText(), nil
}

// runDelegate runs summon's delegate for the parent's tool call callID:
// a sub_agent child session in Auto mode that must end with a {summary}
// final output. Its tool calls stream to the parent as progress
// notifications of callID. The result is goose's "Subagent <id>
// completed: <output>" text, or an error result saying why it failed.
func (sa subagents) runDelegate(ctx context.Context, parentID, callID string, p platform.DelegateParams) conversation.CallToolResult {
	fail := func(err error) conversation.CallToolResult {
		return conversation.CallToolResult{IsError: true, Content: []conversation.ToolContent{conversation.TextBlock("Error: " + err.Error())}}
	}
	if err := p.Validate(); err != nil {
		return fail(err)
	}
	parent, err := sa.a.session(parentID)
	if err != nil {
		return fail(err)
	}
	stored, err := sa.a.opts.Store.Get(ctx, parentID, false)
	if err != nil {
		return fail(fmt.Errorf("Failed to get session: %w", err))
	}
	if stored.SessionType == session.TypeSubAgent {
		return fail(ErrNestedDelegation)
	}
	release, err := acquireDelegateSlot(ctx)
	if err != nil {
		return conversation.CallToolResult{IsError: true, Content: []conversation.ToolContent{conversation.TextBlock(CancelledToolText)}}
	}
	defer release()
	child, err := sa.startDelegate(ctx, parent, p)
	if err != nil {
		return fail(err)
	}
	return sa.driveDelegate(ctx, parent, child, callID)
}

// startDelegate builds the recipe, resolves the configuration and starts
// the child session (not yet running).
func (sa subagents) startDelegate(ctx context.Context, parent *sessionState, p platform.DelegateParams) (*delegateChild, error) {
	_, _, _, wd := parent.snapshot()
	r, err := sa.delegateRecipe(parent, wd, p)
	if err != nil {
		return nil, err
	}
	parent.mu.Lock()
	parentRecipe, builtins := parent.recipe, parent.builtins
	parent.mu.Unlock()
	prov, err := sa.buildSubagentProvider(ctx, parent, p, r)
	if err != nil {
		return nil, err
	}
	childDir := wd
	if p.WorkingDir != nil {
		if childDir, err = resolveWorkingDir(wd, *p.WorkingDir); err != nil {
			return nil, fmt.Errorf("Failed to resolve subagent config: %w", err)
		}
	}
	schema := r.ResponseSchema
	if len(schema) == 0 {
		schema = []byte(summaryResponseSchema)
	}
	auto := "auto"
	maxTurns := sa.subagentMaxTurns(p, r, parentRecipe)
	sess, _, err := sa.a.StartSession(ctx, StartOptions{
		WorkingDir: childDir, Type: session.TypeSubAgent, Name: DelegateSessionName, Mode: &auto,
		Extensions: sa.subagentExtensions(parent, p.Extensions), Builtins: builtins, MaxTurns: maxTurns,
		Recipe:  &Recipe{Title: r.Title, Instructions: r.Instructions, ResponseSchema: schema, MaxTurns: maxTurns},
		inherit: prov, checkpoints: parent.checkpoints.Shared(), ElicitURL: parent.elicitURL,
	})
	if err != nil {
		return nil, fmt.Errorf("Failed to create subagent session: %w", err)
	}
	if err := sa.linkParent(ctx, sess, parent.id); err != nil {
		_ = sa.a.CloseSession(sess.ID)
		return nil, fmt.Errorf("Failed to link subagent to parent session: %w", err)
	}
	task := r.Prompt
	if task == "" {
		task = "Begin."
	}
	return &delegateChild{id: sess.ID, task: task, title: r.Title, wd: childDir}, nil
}

type delegateChild struct{ id, task, title, wd string }

// linkParent records the parent in the child's parent_session_id, as
// goose's delegate does.
func (sa subagents) linkParent(ctx context.Context, sess *session.Session, parentID string) error {
	return sa.a.opts.Store.Update(ctx, sess.ID, session.Update{ParentSessionID: &parentID})
}

// ParentSessionID returns the parent of a delegated session, if any: the
// parent_session_id column, else the extension_data key children delegated
// before the column existed carry.
func ParentSessionID(s session.Session) string {
	if s.ParentSessionID != nil {
		return *s.ParentSessionID
	}
	var v struct {
		ParentSessionID string `json:"parent_session_id"`
	}
	if raw, ok := s.ExtensionData[SubagentParentKey]; ok {
		_ = json.Unmarshal(raw, &v)
	}
	return v.ParentSessionID
}

// driveDelegate runs the child to its end under ctx (the parent's turn),
// forwarding its progress, and always closes it.
func (sa subagents) driveDelegate(ctx context.Context, parent *sessionState, child *delegateChild, callID string) conversation.CallToolResult {
	defer sa.a.CloseSession(child.id)
	parent.addChild(child.id)
	defer parent.removeChild(child.id)
	_, _, _, wd := parent.snapshot()
	prog := newDelegateProgress(child.id, child.task, callID, wd, func(tool string) toolinfo.Info {
		if cs, err := sa.a.session(child.id); err == nil {
			if t, ok := cs.mgr.Tool(ctx, tool); ok {
				return t.Info
			}
		}
		return toolinfo.Guess(tool)
	})
	parent.outOfBand(prog.event())
	parent.outOfBand(SubagentEvent{SessionID: child.id, CallID: callID,
		Start: &SubagentStart{Title: child.title, Task: child.task, WorkingDir: child.wd}})
	msg := conversation.UserText(sa.a.now().Unix(), fmt.Sprintf("Subagent ID: %s\n\n%s", child.id, child.task))
	out, err := sa.a.Reply(ctx, child.id, msg, func(ev Event) {
		parent.outOfBand(SubagentEvent{SessionID: child.id, CallID: callID, Event: ev})
		me, ok := ev.(MessageEvent)
		if !ok {
			return
		}
		if needsClient(me.Message) {
			parent.outOfBand(ev)
		}
		if prog.observe(me.Message) {
			parent.outOfBand(prog.event())
		}
	})
	end := out
	if err != nil {
		end = Outcome{StopReason: Error, Err: err}
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		end = Outcome{StopReason: Cancelled}
	}
	parent.outOfBand(SubagentEvent{SessionID: child.id, CallID: callID, End: &end})
	res := sa.delegateOutcome(context.WithoutCancel(ctx), child.id, out, err, ctx.Err() != nil)
	res.Meta = map[string]any{"subagent_session_id": child.id, "foreground_subagent": true}
	return res
}

// delegateOutcome is goose's SubagentOutcome as the parent reads it.
func (sa subagents) delegateOutcome(ctx context.Context, id string, out Outcome, err error, cancelled bool) conversation.CallToolResult {
	sess, gerr := sa.a.opts.Store.Get(ctx, id, true)
	if gerr == nil {
		if output, ok := finalOutputOf(sess.Conversation); ok {
			return conversation.CallToolResult{Content: []conversation.ToolContent{conversation.TextBlock(fmt.Sprintf("Subagent %s completed: %s", id, output))}}
		}
	}
	if cancelled || out.StopReason == Cancelled {
		return conversation.CallToolResult{IsError: true, Content: []conversation.ToolContent{conversation.TextBlock(CancelledToolText)}}
	}
	reason := ""
	switch {
	case err != nil:
		reason = err.Error()
	case out.Err != nil:
		reason = out.Err.Error()
	case gerr != nil:
		reason = gerr.Error()
	default:
		reason = failureReason(sess.Conversation, out.StopReason == MaxTurns)
	}
	return conversation.CallToolResult{IsError: true, Content: []conversation.ToolContent{conversation.TextBlock(fmt.Sprintf("Subagent %s failed: %s", id, reason))}}
}

// finalOutputOf finds the output collected by a successful final_output
// call: the assistant text stored after its "collected" response.
func finalOutputOf(conv []conversation.Message) (string, bool) {
	collected := -1
	for i, m := range conv {
		for _, c := range m.Content {
			if r := c.ToolResponse; r != nil && r.ToolResult.IsOK() && !r.ToolResult.Value.IsError &&
				len(r.ToolResult.Value.Content) == 1 && r.ToolResult.Value.Content[0].Text == FinalOutputCollected {
				collected = i
			}
		}
	}
	if collected < 0 {
		return "", false
	}
	for _, m := range conv[collected+1:] {
		if m.Role == conversation.RoleAssistant && strings.TrimSpace(m.AsText()) != "" {
			return m.AsText(), true
		}
	}
	return "", false
}

// failureReason is goose's failure_reason: how the subagent stopped.
func failureReason(conv []conversation.Message, maxTurns bool) string {
	last := ""
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Role == conversation.RoleAssistant && strings.TrimSpace(conv[i].AsText()) != "" {
			last = conv[i].AsText()
			break
		}
	}
	switch {
	case maxTurns && last != "":
		return "max turns reached; last response: " + last
	case maxTurns:
		return "max turns reached"
	case last == "":
		return "stopped without final output"
	}
	return last
}

// delegate runs summon's delegate tool. The loop runs it itself rather
// than through the extension's MCP call, whose timeout (300 s by default)
// would cut a long subagent short.
func (t *turn) delegate(ctx context.Context, c permission.Call) toolResult {
	var p platform.DelegateParams
	raw, _ := json.Marshal(c.Args)
	if err := json.Unmarshal(raw, &p); err != nil {
		return conversation.ErrorResult("Error: Invalid parameters: " + err.Error())
	}
	return conversation.Ok(t.a.sub.runDelegate(ctx, t.s.id, c.ID, p))
}
