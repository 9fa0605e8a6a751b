package acp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/developer"
)

// promptAPI answers session/prompt (and Desktop's steer): it turns a
// prompt into the user's message, runs the agent's turn, and turns the
// turn's events into session/updates, permission requests and
// elicitations; the developer tools it binds to the editor (prompt_tools.go)
// report through it. It holds the connection's client side (capabilities,
// session/update, the client's own methods) and the core services a turn
// needs.
type promptAPI struct {
	agent    *agent.Agent
	store    agent.SessionReader
	loaded   *loadedSessions
	options  *optionsAPI
	notes    *notifier
	caps     func() ClientCapabilities
	notify   func(ctx context.Context, sessionID string, u SessionUpdate)
	peer     Peer
	local    developer.FileIO
	authFail func(out agent.Outcome, err error) error
	log      *slog.Logger
}

func (p *promptAPI) methods() map[string]RequestHandler {
	return map[string]RequestHandler{
		"session/prompt":                typed(p.prompt),
		"_goose/unstable/session/steer": typed(p.unstableSteer),
		"_session/steering":             typed(p.steering),
	}
}

// gooseCapability reads a boolean of the client's _meta.goose.
func (p *promptAPI) gooseCapability(name string) bool { return gooseCapability(p.caps(), name) }

func (p *promptAPI) prompt(ctx context.Context, req PromptRequest) (PromptResponse, error) {
	return p.runPrompt(ctx, req, "")
}

// runPrompt runs one prompt's turn; messageID, when set, is the id the
// user message is stored with (v2 answers with it before the turn).
func (p *promptAPI) runPrompt(ctx context.Context, req PromptRequest, messageID string) (PromptResponse, error) {
	return p.runTurn(ctx, req, messageID, nil)
}

// runTurn is runPrompt; started, when set, is called once the agent has
// begun the turn (its run started), before any of the turn's updates.
func (p *promptAPI) runTurn(ctx context.Context, req PromptRequest, messageID string, started func()) (PromptResponse, error) {
	as, err := p.loaded.lookup(req.SessionID)
	if err != nil {
		return PromptResponse{}, err
	}
	turnCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	tc := as.beginTurn(cancel)
	as.term.begin()
	as.usage.reset()
	// Attachments are read under the turn: session/cancel stops a slow
	// read (an editor that never answers fs/read_text_file).
	msg, err := p.promptMessage(turnCtx, as, req.Prompt)
	if err != nil {
		as.endTurn(tc)
		return PromptResponse{}, err
	}
	if messageID != "" {
		msg = msg.WithID(messageID)
	}
	ran := false // a run started: its end is announced (unstable_steer.go)
	gate := newAuthGate(func(ev agent.Event) {
		if _, run := ev.(agent.RunEvent); run {
			if !ran && started != nil {
				started()
			}
			ran = true
		}
		p.handleEvent(turnCtx, as, ev)
	})
	out, err := p.agent.Reply(turnCtx, as.id, msg, gate.sink)
	if ran {
		p.sendActiveRun(context.WithoutCancel(ctx), as.id, "")
	}
	p.releaseHeld(ctx, as, "")
	p.notes.endCompaction(ctx, as, CompactionFailed)
	authErr := gate.settle(p.authFail, out, err)
	if errors.Is(err, agent.ErrSessionBusy) {
		as.endTurn(tc)
		return PromptResponse{}, err
	}
	var resp PromptResponse
	if err == nil {
		resp = p.finish(ctx, as, stopReason(out.StopReason))
	}
	// The turn stays cancellable until the response is built: a cancel
	// that arrived before the response turns it into "cancelled" even when
	// the model had just finished.
	cancelled := as.endTurn(tc)
	if cancelled || errors.Is(err, context.Canceled) || out.StopReason == agent.Cancelled {
		if err != nil {
			resp = p.finish(ctx, as, StopCancelled)
		}
		resp.StopReason = StopCancelled
		return resp, nil
	}
	if authErr != nil {
		return PromptResponse{}, authErr
	}
	if err != nil {
		return PromptResponse{}, fmt.Errorf("Error in agent response stream: %w", err)
	}
	return resp, nil
}

// turnCancel is one prompt's cancel and whether a cancel reached it.
type turnCancel struct {
	cancel    context.CancelFunc
	cancelled bool
}

// beginTurn registers a prompt's cancel; a second prompt while one runs
// is refused by the agent (agent.ErrSessionBusy, mapped in toRPCError).
func (as *acpSession) beginTurn(cancel context.CancelFunc) *turnCancel {
	as.mu.Lock()
	defer as.mu.Unlock()
	tc := &turnCancel{cancel: cancel}
	if as.turns == nil {
		as.turns = map[*turnCancel]struct{}{}
	}
	as.turns[tc] = struct{}{}
	return tc
}

// endTurn forgets the prompt and reports whether a cancel arrived during it.
func (as *acpSession) endTurn(tc *turnCancel) bool {
	as.mu.Lock()
	defer as.mu.Unlock()
	delete(as.turns, tc)
	return tc.cancelled
}

func stopReason(r agent.StopReason) string {
	switch r {
	case agent.MaxTurns:
		return StopMaxTurnRequests
	case agent.MaxTokens:
		return StopMaxTokens
	case agent.Refusal:
		return StopRefusal
	case agent.Cancelled:
		return StopCancelled
	}
	return StopEndTurn
}

// finish sends the closing usage_update and builds the response.
func (p *promptAPI) finish(ctx context.Context, as *acpSession, reason string) PromptResponse {
	resp := PromptResponse{StopReason: reason}
	sess, err := p.store.Get(context.WithoutCancel(ctx), as.id, false)
	if err != nil {
		return resp
	}
	p.notes.sendUsage(context.WithoutCancel(ctx), as, &sess)
	if sess.TotalTokens != nil {
		resp.Usage = &Usage{TotalTokens: *sess.TotalTokens, InputTokens: deref(sess.InputTokens), OutputTokens: deref(sess.OutputTokens)}
	}
	return resp
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// handleEvent turns one agent event into session/updates. It never blocks
// on the editor: approvals and elicitations are answered in goroutines.
func (p *promptAPI) handleEvent(ctx context.Context, as *acpSession, ev agent.Event) {
	// What the turn reports is sent even after a cancel: ACP wants the
	// pending updates (the cancelled calls' results, usage, a title) before
	// the cancelled response. Only in_progress marks follow the turn's ctx.
	live := context.WithoutCancel(ctx)
	switch e := ev.(type) {
	case agent.MessageEvent:
		p.handleMessage(ctx, as, e.Message)
	case agent.ToolProgressEvent:
		(&emitter{p: p, sessionID: as.id}).progress(ctx, e.ToolProgress)
	case agent.ProviderRetryEvent:
		p.notes.retryNotice(live, as.id, e)
	case agent.NotificationEvent:
		p.markInProgress(ctx, as, e.RequestID)
		if isDelegateProgress(e) && p.showsSubagents() {
			break // the client follows the subagent's own stream (subagents.go)
		}
		p.delegateProgress(ctx, as, e)
		p.sendToolNotification(live, as, e)
	case agent.UsageEvent:
		p.notes.sendUsageFrame(live, as, usageFrame{used: e.TotalTokens, size: e.ContextLimit})
		p.notes.gooseUsage(live, as.id, e)
	case agent.ModelChangeEvent:
		// A lead/worker switch: the model answering now is the event's.
		p.notify(live, as.id, SessionUpdate{SessionUpdate: UpdateConfigOption, ConfigOptions: p.options.optionsFor(as.id, e.Model)})
	case agent.TitleEvent:
		p.sendTitle(live, as.id, e.Title)
	case agent.NoticeEvent:
		agentNotices{plugins: p.agent.Plugins(), notes: p.notes, log: p.log}.event(live, as.id, e)
	case agent.ProgressEvent:
		// A thought, not a message: the note is no part of the answer.
		p.notify(live, as.id, chunk(UpdateAgentThoughtChunk, "", textBlock(e.Text+"\n")))
	case agent.RunEvent:
		p.sendActiveRun(live, as.id, e.RunID)
	case agent.SteerEvent:
		p.sendSteered(live, as.id, e.Message)
	case agent.SubagentEvent:
		p.subagentEvent(live, as, e)
	case agent.ElicitationCompleteEvent:
		p.elicitationComplete(live, e.ElicitationID)
	case agent.HistoryReplacedEvent:
		p.notes.endCompaction(live, as, CompactionCompleted)
	}
}

// sendTitle tells the editor a session's (generated) title, for sessions
// this connection has loaded.
func (p *promptAPI) sendTitle(ctx context.Context, sessionID, title string) {
	if _, err := p.loaded.lookup(sessionID); err != nil {
		return
	}
	p.notify(ctx, sessionID, SessionUpdate{SessionUpdate: UpdateSessionInfo, Title: &title, UpdatedAt: time.Now().UTC().Format(time.RFC3339)})
}

func (p *promptAPI) handleMessage(ctx context.Context, as *acpSession, m conversation.Message) {
	p.notes.trackCompaction(context.WithoutCancel(ctx), as, m)
	for _, c := range m.Content {
		if c.ActionRequired == nil {
			continue
		}
		switch d := c.ActionRequired.Data; d.ActionType {
		case conversation.ActionToolConfirmation:
			p.startPermission(ctx, as, d)
		case conversation.ActionElicitation:
			go p.elicit(ctx, as, d)
		}
	}
	for _, u := range as.translator.MessageUpdates(m, false) {
		switch u.SessionUpdate {
		case UpdateToolCall:
			announceTerminal(as, &u, p.wantsTerminalOutput() && !p.caps().Terminal)
		case UpdateToolCallUpdate:
			finalUpdate(as, &u, m)
		}
		p.notify(context.WithoutCancel(ctx), as.id, u)
		if u.SessionUpdate == UpdateToolCallUpdate {
			p.releaseHeld(ctx, as, u.ToolCallID)
		}
	}
	p.updatePlan(context.WithoutCancel(ctx), as, m)
}

// markInProgress sends status in_progress once for a running tool call.
func (p *promptAPI) markInProgress(ctx context.Context, as *acpSession, toolCallID string) {
	if toolCallID == "" {
		return
	}
	as.mu.Lock()
	if as.inProgress == nil {
		as.inProgress = map[string]bool{}
	}
	seen := as.inProgress[toolCallID]
	as.inProgress[toolCallID] = true
	as.mu.Unlock()
	if !seen {
		p.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: toolCallID, Status: "in_progress"})
	}
}
