package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
)

// Texts goose shows in the reply stream.
const (
	MaxTurnsText       = "I've reached the maximum number of actions I can do without user input. Would you like me to continue?"
	ErrorTextFormat    = "Ran into this error: %s.\n\nPlease retry if you think this is a transient or recoverable error."
	DeclinedResponse   = "The user has declined to run this tool. DO NOT attempt to call this tool again. If there are no alternative methods to proceed, clearly explain the situation and STOP."
	ChatModeSkipped    = "Let the user know the tool call was skipped in goose chat mode. DO NOT apologize for skipping the tool call. DO NOT say sorry. Provide an explanation of what the tool call would do, structured as a plan for the user. Again, DO NOT apologize. **Example Plan:**\n 1. **Identify Task Scope** - Determine the purpose and expected outcome.\n 2. **Outline Steps** - Break down the steps.\n If needed, adjust the explanation based on user preferences or questions."
	CancelledToolText  = "Tool call cancelled by the user."
	ChatModePromptText = "Right now you are in the chat only mode, no access to any tool use and system."
)

// turn is one Reply in progress.
type turn struct {
	a    *Agent
	s    *sessionState
	ctx  context.Context
	sink func(Event)
	q    *eventQueue

	conv conversation.Conversation
	// tail says whether conv starts at the session's tail mark
	// (convtail.go).
	tail tailView
	// title is the session's name as loadConversation read it (ok false
	// before), for maybeNameSession.
	title struct {
		name          string
		userSet, read bool
	}
	prov         provider.Provider
	mode         permission.Mode
	wd           string
	tools        []extension.Tool
	toolIndex    map[string]extension.Tool
	toolsVersion int64
	hintsVersion int64
	system       string
	recoveries   int
	// started is when the turn began (its <turn-context> current time);
	// lastTurnContext the block last appended in this turn ("" once the
	// conversation was replaced, so the next call appends a fresh one).
	started         time.Time
	lastTurnContext string
	// pairs summarizes old tool calls; toolCallsBefore counts the tool
	// calls stored before the turn.
	pairs           toolPairs
	toolCallsBefore int
	// initial is the conversation at the start of the loop; a recipe
	// retry resets the agent's view to it.
	initial []conversation.Message
	retries int
	// stopBlocks counts the Stop hook's denials in this turn.
	stopBlocks int
}

func (t *turn) post(ev Event) bool { return t.q.push(ev) }

func (t *turn) emit(ev Event) { t.sink(ev) }

func (t *turn) emitQueued() {
	for _, ev := range t.q.drain() {
		t.emit(ev)
	}
}

// Reply runs one user message through goose's loop, calling sink (from
// this goroutine, in order) for every event. It returns when the turn is
// over: StopReason Cancelled when ctx was cancelled, EndTurn when the model
// finished. Go errors are for turns that could not start (unknown session,
// ErrSessionBusy, no provider, storage failures).
func (a *Agent) Reply(ctx context.Context, sessionID string, msg conversation.Message, sink func(Event)) (Outcome, error) {
	s, err := a.session(sessionID)
	if err != nil {
		return Outcome{}, err
	}
	if sink == nil {
		sink = func(Event) {}
	}
	if handled, err := a.elicitationResponse(ctx, s, msg); handled {
		return Outcome{StopReason: EndTurn}, err
	}
	if !s.busy.CompareAndSwap(false, true) {
		return Outcome{}, ErrSessionBusy
	}
	defer s.busy.Store(false)
	prov, perr, mode, wd := s.snapshot()
	t := &turn{a: a, s: s, ctx: ctx, sink: sink, q: newEventQueue(), prov: prov, mode: mode, wd: wd, toolsVersion: -1, started: a.now()}
	t.pairs.t = t
	// The provider's retries are the turn's events, sent from this
	// goroutine (the stream's retry waits run in it) before each wait.
	t.ctx = provider.WithRetryObserver(ctx, func(n provider.RetryNotice) {
		t.emit(ProviderRetryEvent{Provider: n.Provider, Attempt: n.Attempt, Max: n.Max, Delay: n.Delay, Err: n.Err})
	})
	s.mu.Lock()
	s.turn = t
	s.mu.Unlock()
	t.beginRun()
	defer func() {
		t.endRun()
		s.mu.Lock()
		s.turn = nil
		s.mu.Unlock()
		for _, ev := range t.q.close() {
			t.emit(ev)
		}
	}()
	if prov == nil {
		if _, _, ok := parseCommand(msg); !ok {
			return Outcome{}, perr
		}
	}
	if _, _, isCommand := parseCommand(msg); isCommand {
		// Prompt and skill commands come from extensions.
		if err := t.awaitExtensions(); err != nil {
			return Outcome{StopReason: Cancelled}, nil
		}
	}
	hookContext := (hookPoints{t}).hookContext((hookPoints{t}).promptHooks(msg))
	handled, input, out, err := t.command(msg)
	if handled || err != nil {
		return out, err
	}
	input = append(input, hookContext...)
	if prov == nil {
		return Outcome{}, perr
	}
	return t.start(input)
}

// elicitationResponse handles a user message answering an elicitation:
// it wakes the waiting tool call, stores the message and starts no turn.
// The stored copy is agent-invisible: it lands between the running turn's
// tool request and its response, where the model must not see a user
// message (goose stores the turn only at its end, so it has no such gap).
func (a *Agent) elicitationResponse(ctx context.Context, s *sessionState, msg conversation.Message) (bool, error) {
	for _, c := range msg.Content {
		if c.ActionRequired == nil || c.ActionRequired.Data.ActionType != conversation.ActionElicitationResponse {
			continue
		}
		d := c.ActionRequired.Data
		err := a.SubmitElicitation(s.id, d.ID, ElicitAccept, d.UserData)
		msg.Metadata.AgentVisible = false
		if msg.ID == nil {
			msg = msg.WithID(a.msgID())
		}
		if perr := a.opts.Store.AppendMessage(ctx, s.id, msg); perr != nil {
			err = errors.Join(err, perr)
		}
		return true, err
	}
	return false, nil
}

func (t *turn) start(input []conversation.Message) (Outcome, error) {
	for _, m := range input {
		if m.ID == nil {
			m = m.WithID(t.a.msgID())
		}
		if err := t.a.opts.Store.AppendMessage(t.ctx, t.s.id, m); err != nil {
			return Outcome{}, fmt.Errorf("saving user message: %w", err)
		}
		if m.Role == conversation.RoleUser {
			t.beginCheckpoints(*m.ID)
		}
	}
	if err := t.loadConversation(); err != nil {
		return Outcome{}, err
	}
	if t.needsAutoCompaction() {
		if out, ok := t.autoCompact(); !ok {
			return out, nil
		}
	}
	t.maybeNameSession()
	// Only now are the tools needed: the message was stored and the
	// history loaded while the extensions were still connecting.
	if err := t.awaitExtensions(); err != nil {
		return Outcome{StopReason: Cancelled}, nil
	}
	return t.loop()
}

func (t *turn) loop() (Outcome, error) {
	t.initial = append([]conversation.Message(nil), t.conv...)
	t.toolCallsBefore = countToolCalls(t.conv)
	maxTurns := t.s.maxTurns
	for turns := 1; ; turns++ {
		if t.ctx.Err() != nil {
			return Outcome{StopReason: Cancelled}, nil
		}
		if out, ok := t.s.finalOutput(); ok {
			res, again, err := t.finish(out)
			if again {
				continue
			}
			return res, err
		}
		if turns > maxTurns {
			t.emit(MessageEvent{Message: t.assistantText(MaxTurnsText)})
			return Outcome{StopReason: MaxTurns}, nil
		}
		if _, err := t.takeSteered(); err != nil {
			return Outcome{}, err
		}
		t.subdirHintsTurn()
		t.refreshTools()
		if err := t.addTurnContext(turns - 1); err != nil {
			return Outcome{}, err
		}
		pairs := t.pairs.start(countToolCalls(t.conv) - t.toolCallsBefore)
		reply, err := t.stream()
		if perr := t.pairs.apply(pairs); perr != nil {
			return Outcome{}, perr
		}
		if err != nil {
			out, retry := t.streamFailed(reply, err)
			if retry {
				continue
			}
			return out, nil
		}
		t.recoveries = 0
		if err := t.persist(reply...); err != nil {
			return Outcome{}, err
		}
		reqs := toolRequests(reply)
		if len(reqs) == 0 {
			if t.s.final != nil && !t.s.final.called() {
				if err := t.persistAndEmit(t.userText(FinalOutputContinuation)); err != nil {
					return Outcome{}, err
				}
				continue
			}
			if out, ok := t.s.finalOutput(); ok {
				res, again, err := t.finish(out)
				if again {
					continue
				}
				return res, err
			}
			if steered, err := t.takeSteered(); err != nil {
				return Outcome{}, err
			} else if steered {
				continue
			}
			if again, err := (hookPoints{t}).stopHook(visibleText(reply)); err != nil {
				return Outcome{}, err
			} else if again {
				turns-- // goose does not count a Stop hook's re-prompt
				continue
			}
			res, again := t.endOrRetry()
			if again || !t.s.steer.closeIfIdle() {
				continue // input steered in the meantime is answered too
			}
			return res, nil
		}
		resp, cancelled := t.handleTools(reqs)
		if err := t.persistAndEmit(resp); err != nil {
			return Outcome{}, err
		}
		if cancelled {
			return Outcome{StopReason: Cancelled}, nil
		}
	}
}

// finish emits and stores the collected final output, then runs the
// recipe's retry checks on it (again: the turn starts over).
func (t *turn) finish(out string) (Outcome, bool, error) {
	t.s.final.consume()
	if err := t.persistAndEmit(t.assistantText(out)); err != nil {
		return Outcome{}, false, err
	}
	if again, err := (hookPoints{t}).stopHook(out); err != nil || again {
		return Outcome{}, again, err
	}
	res, again := t.endOrRetry()
	return res, again, nil
}

// endOrRetry ends a turn the model finished, unless the recipe's retry
// checks fail and send it round again.
func (t *turn) endOrRetry() (Outcome, bool) {
	switch t.recipeRetry() {
	case retryAgain:
		return Outcome{}, true
	case retryExhausted:
		return Outcome{StopReason: EndTurn, RetriesExhausted: true}, false
	}
	return Outcome{StopReason: EndTurn}, false
}

// streamFailed handles a provider failure: cancellation keeps the partial
// text, a context-length error compacts and retries, anything else is
// reported as goose reports it.
func (t *turn) streamFailed(partial []conversation.Message, err error) (Outcome, bool) {
	if t.ctx.Err() != nil {
		_ = t.persist(withoutToolRequests(partial)...)
		return Outcome{StopReason: Cancelled}, false
	}
	if provider.IsContextLength(err) && t.recoveries < maxRecoveries {
		t.recoveries++
		if t.recoverCompact() {
			return Outcome{}, true
		}
		return Outcome{StopReason: Error, Err: err}, false
	}
	_ = t.persist(withoutToolRequests(partial)...)
	t.emit(MessageEvent{Message: t.assistantText(fmt.Sprintf(ErrorTextFormat, err))})
	return Outcome{StopReason: stopReasonOf(err), Err: err}, false
}

func stopReasonOf(err error) StopReason {
	if provider.KindOf(err) == provider.KindRefusal {
		return Refusal
	}
	return Error
}

// maxRecoveries bounds back-to-back context-length compactions so a
// provider that always overflows cannot loop forever.
const maxRecoveries = 2

func (t *turn) persist(msgs ...conversation.Message) error {
	// A cancelled ctx must not lose the partial turn, so store with a
	// context that outlives it.
	ctx := context.WithoutCancel(t.ctx)
	for _, m := range msgs {
		if len(m.Content) == 0 {
			continue
		}
		if err := t.a.opts.Store.AppendMessage(ctx, t.s.id, m); err != nil {
			return fmt.Errorf("saving message: %w", err)
		}
		t.conv = append(t.conv, m)
	}
	return nil
}

func (t *turn) persistAndEmit(m conversation.Message) error {
	if err := t.persist(m); err != nil {
		return err
	}
	t.emit(MessageEvent{Message: m})
	return nil
}

func (t *turn) assistantText(s string) conversation.Message {
	return conversation.AssistantText(t.a.now().Unix(), s).WithID(t.a.msgID())
}

func (t *turn) userText(s string) conversation.Message {
	return conversation.UserText(t.a.now().Unix(), s).WithID(t.a.msgID())
}

func toolRequests(msgs []conversation.Message) []*conversation.ToolRequest {
	var out []*conversation.ToolRequest
	for _, m := range msgs {
		out = append(out, m.ToolRequests()...)
	}
	return out
}

func withoutToolRequests(msgs []conversation.Message) []conversation.Message {
	out := make([]conversation.Message, 0, len(msgs))
	for _, m := range msgs {
		c := make([]conversation.Content, 0, len(m.Content))
		for _, x := range m.Content {
			if x.ToolRequest == nil {
				c = append(c, x)
			}
		}
		m.Content = c
		out = append(out, m)
	}
	return out
}
