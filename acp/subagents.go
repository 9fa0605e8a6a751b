package acp

import (
	"context"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// Subagents as child sessions (ACP's unstable subagents, in the shape of
// the SDK 2.4.0 schema): to a client that advertised
// clientCapabilities.subagents, a delegate's subagent is a session of its
// own it can follow. On the parent, subagent_update announces the child
// (title, the task as description, running, cancel allowed, its working
// dir, _meta.goose.toolCallId naming the delegate call) before any of its
// traffic and reports its end (idle with the stop reason); the child's
// stream starts with the task as a session_message from the parent, then
// carries the child's own updates. A child's request for the user (an
// approval, an elicitation) is asked through the parent session, so an
// editor that only shows the parent never hangs on it: it names the child
// in _meta.goose.subagentSessionId, and the child is requires_action until
// it is answered. session/cancel with the child's id stops that child
// only (the delegate call is cancelled; the parent's turn goes on). Other
// clients keep the delegate tool call with its progress lines.

// askDeadline bounds how long a subagent's end waits for the requests it
// had open at the client to be withdrawn.
const askDeadline = 5 * time.Second

// showsSubagents reports whether the client advertised subagents.
func (p *promptAPI) showsSubagents() bool {
	c := p.caps().Subagents
	return c != nil && string(*c) != "null"
}

// subagentViews are a session's running subagents as the client sees them.
type subagentViews struct {
	mu   sync.Mutex
	m    map[string]*subagentView // by child session id
	asks map[string]*subagentView // by the id of a request the child made
}

// subagentView is one running child.
type subagentView struct {
	id, callID string
	translator *Translator
	// open are its requests asked through the parent and not yet
	// answered: each one's cancel and its done channel.
	open map[string]openAsk
}

type openAsk struct {
	cancel context.CancelFunc
	done   chan struct{}
}

func (v *subagentViews) add(sv *subagentView) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m, v.asks = map[string]*subagentView{}, map[string]*subagentView{}
	}
	v.m[sv.id] = sv
}

func (v *subagentViews) get(id string) *subagentView {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.m[id]
}

// remove forgets the child and returns its requests still open.
func (v *subagentViews) remove(id string) (*subagentView, []openAsk) {
	v.mu.Lock()
	defer v.mu.Unlock()
	sv := v.m[id]
	if sv == nil {
		return nil, nil
	}
	delete(v.m, id)
	var open []openAsk
	for askID, a := range sv.open {
		open = append(open, a)
		delete(v.asks, askID)
	}
	return sv, open
}

// subagentEvent shows one SubagentEvent to a client that follows
// subagents.
func (p *promptAPI) subagentEvent(ctx context.Context, as *acpSession, e agent.SubagentEvent) {
	if !p.showsSubagents() {
		return
	}
	switch {
	case e.Start != nil:
		p.subagentStarted(ctx, as, e)
	case e.End != nil:
		p.subagentEnded(ctx, as, e.SessionID, *e.End)
	default:
		p.subagentUpdate(ctx, as, e)
	}
}

func (p *promptAPI) subagentStarted(ctx context.Context, as *acpSession, e agent.SubagentEvent) {
	wd := e.Start.WorkingDir
	sv := &subagentView{id: e.SessionID, callID: e.CallID, open: map[string]openAsk{},
		translator: &Translator{WorkingDir: func() string { return wd }, Tools: p.toolInfo(e.SessionID)}}
	as.subagents.add(sv)
	title, task := e.Start.Title, e.Start.Task
	p.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateSubagent, ChildSessionID: sv.id, Title: &title, Description: &task,
		State: &SubagentState{State: "running"}, Capabilities: &SubagentAllowance{Cancel: &struct{}{}}, CWD: wd,
		Meta: Meta{"goose": map[string]any{"toolCallId": e.CallID}}})
	p.notify(ctx, sv.id, SessionUpdate{SessionUpdate: UpdateSessionMessage, MessageID: e.CallID,
		SenderSessionID: as.id, RecipientSessionID: sv.id, Blocks: []ContentBlock{textBlock(task)}})
}

// subagentUpdate sends the child's own event on the child's stream.
func (p *promptAPI) subagentUpdate(ctx context.Context, as *acpSession, e agent.SubagentEvent) {
	sv := as.subagents.get(e.SessionID)
	if sv == nil {
		return
	}
	switch ev := e.Event.(type) {
	case agent.MessageEvent:
		for _, c := range ev.Message.Content {
			if c.ActionRequired != nil {
				as.subagents.mu.Lock()
				as.subagents.asks[c.ActionRequired.Data.ID] = sv
				as.subagents.mu.Unlock()
			}
		}
		for _, u := range sv.translator.MessageUpdates(ev.Message, false) {
			p.notify(ctx, sv.id, u)
		}
	case agent.ToolProgressEvent:
		if ev.Kind == extension.ProgressStarted {
			p.notify(ctx, sv.id, SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: ev.ToolCallID, Status: "in_progress"})
		}
	}
}

// subagentEnded withdraws what the child still asks the client, then
// reports how it stopped.
func (p *promptAPI) subagentEnded(ctx context.Context, as *acpSession, id string, out agent.Outcome) {
	sv, open := as.subagents.remove(id)
	if sv == nil {
		return
	}
	deadline := time.After(askDeadline)
	for _, a := range open {
		a.cancel()
	}
	for _, a := range open {
		select {
		case <-a.done:
		case <-deadline:
		}
	}
	state := &SubagentState{State: "idle", StopReason: stopReason(out.StopReason)}
	if out.StopReason == agent.Error {
		state.StopReason = "error"
		if out.Err != nil {
			state.Error = &RPCError{Code: -32603, Message: out.Err.Error()}
		}
	}
	p.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateSubagent, ChildSessionID: sv.id, State: state})
}

// childAsk prepares asking the client, through the session as, for the
// request actionID: when a subagent made it, the child is reported
// requires_action, the request's _meta names it, and done reports it
// running again once answered; the returned context is withdrawn when
// the child ends. Otherwise it returns ctx, no _meta and a no-op done.
func (p *promptAPI) childAsk(ctx context.Context, as *acpSession, actionID string) (context.Context, Meta, func()) {
	as.subagents.mu.Lock()
	sv := as.subagents.asks[actionID]
	if sv == nil {
		as.subagents.mu.Unlock()
		return ctx, nil, func() {}
	}
	askCtx, cancel := context.WithCancel(ctx)
	a := openAsk{cancel: cancel, done: make(chan struct{})}
	sv.open[actionID] = a
	first := len(sv.open) == 1
	as.subagents.mu.Unlock()
	live := context.WithoutCancel(ctx)
	if first {
		p.notify(live, as.id, SessionUpdate{SessionUpdate: UpdateSubagent, ChildSessionID: sv.id, State: &SubagentState{State: "requires_action"}})
	}
	return askCtx, Meta{"goose": map[string]any{"subagentSessionId": sv.id}}, func() {
		as.subagents.mu.Lock()
		_, still := as.subagents.asks[actionID]
		delete(as.subagents.asks, actionID)
		delete(sv.open, actionID)
		last := still && len(sv.open) == 0
		as.subagents.mu.Unlock()
		if last {
			p.notify(live, as.id, SessionUpdate{SessionUpdate: UpdateSubagent, ChildSessionID: sv.id, State: &SubagentState{State: "running"}})
		}
		cancel()
		close(a.done)
	}
}

// cancelSubagent stops the running subagent id (session/cancel with a
// child's id): its delegate call is cancelled, its parent's turn goes on.
// False when no session of this connection runs such a subagent.
func (p *promptAPI) cancelSubagent(id string) bool {
	for _, parent := range p.loaded.ids() {
		as := p.loaded.get(parent)
		if as == nil {
			continue
		}
		if sv := as.subagents.get(id); sv != nil {
			if err := p.agent.CancelToolCall(as.id, sv.callID); err != nil {
				p.log.Debug("subagent not cancelled", "session", id, "err", err)
			}
			return true
		}
	}
	return false
}

// toolInfo is what a session's tools declare about themselves.
func (p *promptAPI) toolInfo(sessionID string) func(string) toolinfo.Info {
	if p.agent == nil {
		return nil
	}
	return func(name string) toolinfo.Info {
		return p.agent.Extensions().ToolInfo(context.Background(), sessionID, name)
	}
}
