package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/permission"
)

// chatAPI answers both chat protocols: POST /reply (one SSE stream per
// turn) and the session event buses (POST /sessions/{id}/reply, GET
// /sessions/{id}/events, cancel), and tool confirmations.
type chatAPI struct {
	// agent runs the turns.
	agent    *agent.Agent
	sessions agent.Sessions
	// hold is REST's hold on the sessions it loads.
	hold  agent.Holder
	store agent.SessionReader
	buses *buses
	// ctx ends with the server; turns counts the turns running under it.
	ctx   context.Context
	turns *sync.WaitGroup
	ping  time.Duration
	out   writer
}

func (a *chatAPI) routes() []route {
	return []route{
		{"POST", "/reply", ReplyBodyLimit, nil, streamBody(a.out, a.legacyReply)},
		{"POST", "/sessions/{id}/reply", ReplyBodyLimit, withBody(a.sessionReply), nil},
		{"GET", "/sessions/{id}/events", 0, nil, http.HandlerFunc(a.sessionEvents)},
		{"POST", "/sessions/{id}/cancel", 0, withBody(a.sessionCancel), nil},
		{"POST", "/action-required/tool-confirmation", 0, withBody(a.toolConfirmation), nil},
	}
}

// tokens tracks a session's TokenState during a turn.
type tokens struct {
	store agent.SessionReader
	id    string
	state TokenState
}

func (t *tokens) refresh(ctx context.Context) {
	if sess, err := t.store.Get(ctx, t.id, false); err == nil {
		t.state = tokenStateOf(sess)
	}
}

// translate turns an agent event into goosed's MessageEvent; usage events
// only update the token state.
func (t *tokens) translate(ctx context.Context, ev agent.Event) (wireEvent, bool) {
	switch e := ev.(type) {
	case agent.MessageEvent:
		return messageEvent(e.Message, t.state), true
	case agent.NoticeEvent:
		// goosed shows it as goose does: an inline system notification.
		return messageEvent(e.Message, t.state), true
	case agent.NotificationEvent:
		return notificationEvent(e), true
	case agent.HistoryReplacedEvent:
		return updateConversationEvent(e.Conversation), true
	case agent.UsageEvent:
		t.refresh(ctx)
	}
	return wireEvent{}, false
}

// hasElicitationResponse reports a user message answering an elicitation.
func hasElicitationResponse(m conversation.Message) bool {
	for _, c := range m.Content {
		if c.ActionRequired != nil && c.ActionRequired.Data.ActionType == conversation.ActionElicitationResponse {
			return true
		}
	}
	return false
}

type sessionReplyRequest struct {
	RequestID            string                  `json:"request_id"`
	UserMessage          *conversation.Message   `json:"user_message"`
	OverrideConversation *[]conversation.Message `json:"override_conversation"`
}

func (q sessionReplyRequest) check() error {
	if q.UserMessage == nil {
		return errors.New("missing field `user_message`")
	}
	return required("request_id", q.RequestID)
}

// sessionReply submits a turn; its events go to the session's bus.
func (a *chatAPI) sessionReply(r *http.Request, q sessionReplyRequest) (reply, error) {
	id := r.PathValue("id")
	if _, err := uuid.Parse(q.RequestID); err != nil {
		return reply{}, badRequest("request_id must be a valid UUID")
	}
	if _, err := a.store.Get(r.Context(), id, false); err != nil {
		return reply{}, notFound("Session %s not found", id)
	}
	answer := ok(map[string]string{"request_id": q.RequestID})
	if hasElicitationResponse(*q.UserMessage) {
		if err := a.sessions.Hold(r.Context(), id, a.hold); err != nil {
			return reply{}, errNoAgent(err)
		}
		if _, err := a.agent.Reply(r.Context(), id, *q.UserMessage, nil); err != nil {
			return reply{}, errorf(http.StatusInternalServerError, "%w", err)
		}
		return answer, nil
	}
	b := a.buses.get(id)
	ctx, ok := b.register(a.ctx, q.RequestID)
	if !ok {
		return reply{}, badRequest("Session already has an active request. Cancel it first.")
	}
	a.turns.Add(1)
	go func() {
		defer a.turns.Done()
		defer b.done(q.RequestID)
		a.runBusTurn(ctx, b, id, q.RequestID, *q.UserMessage, q.OverrideConversation)
	}()
	return answer, nil
}

// runBusTurn runs one turn, publishing every event and a final Finish; a
// turn that cannot start publishes only an Error.
func (a *chatAPI) runBusTurn(ctx context.Context, b *eventBus, id, requestID string, msg conversation.Message, override *[]conversation.Message) {
	b.turn.Lock()
	defer b.turn.Unlock()
	publish := func(ev wireEvent) { b.publish(requestID, ev) }
	if err := a.sessions.Hold(ctx, id, a.hold); err != nil {
		publish(errorEvent("Failed to get session agent: " + err.Error()))
		return
	}
	if override != nil {
		if err := a.sessions.ReplaceConversation(ctx, id, *override); err != nil {
			a.out.log.Warn("replacing conversation", "session", id, "error", err)
		}
	}
	tk := &tokens{store: a.store, id: id}
	tk.refresh(ctx)
	_, err := a.agent.Reply(ctx, id, msg, func(ev agent.Event) {
		if we, ok := tk.translate(ctx, ev); ok {
			publish(we)
		}
	})
	if err != nil {
		publish(errorEvent(err.Error()))
		return
	}
	tk.refresh(context.WithoutCancel(ctx))
	publish(finishEvent(tk.state))
}

// sessionEvents is the long-lived per-session SSE stream: ActiveRequests
// (no id), replay after Last-Event-ID, live events, comment pings.
func (a *chatAPI) sessionEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, err := a.store.Get(r.Context(), id, false); err != nil {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	var lastID uint64
	hasLast := false
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			lastID, hasLast = n, true
		}
	}
	b := a.buses.get(id)
	sub := b.subscribe(lastID, hasLast)
	sse := startSSE(w)
	if sub.tooFar {
		_ = sse.write([]byte("id: 0\n" + string(sseData(errorEvent(TooFarBehindText).busJSON("")))))
		return
	}
	if sub.closedUp {
		return
	}
	defer b.unsubscribe(sub.sub)
	if len(sub.active) > 0 {
		if sse.write(sseData(activeRequestsEvent(sub.active).busJSON(""))) != nil {
			return
		}
	}
	var last uint64
	for _, e := range sub.replay {
		if sse.writeNoFlush(e.frame) != nil {
			return
		}
		last = e.seq
	}
	if sse.flush() != nil {
		return
	}
	a.streamLive(r.Context(), sse, b, sub.sub, last)
}

// streamLive forwards live events and pings until the client leaves, the
// bus is dropped, a lagged catch-up finds events evicted, or the server
// closes. lastSeq skips events a catch-up already wrote.
func (a *chatAPI) streamLive(ctx context.Context, sse *sseWriter, b *eventBus, sub *subscriber, lastSeq uint64) {
	ping := time.NewTicker(a.ping)
	defer ping.Stop()
	var n uint64
	buf := make([]byte, 0, 64)
	// goosed's heartbeat interval ticks at once: ": ping 0" follows the
	// replay immediately.
	sendPing := func() error {
		buf = append(buf[:0], ": ping "...)
		buf = strconv.AppendUint(buf, n, 10)
		buf = append(buf, "\n\n"...)
		n++
		return sse.write(buf)
	}
	if sendPing() != nil {
		return
	}
	write := func(e busEvent) error {
		if e.seq <= lastSeq {
			return nil
		}
		lastSeq = e.seq
		return sse.writeNoFlush(e.frame)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.ctx.Done():
			return
		case <-ping.C:
			if sendPing() != nil {
				return
			}
		case <-sub.wake:
			// Drain what is queued, then take the rest from the ring.
			for drained := false; !drained; {
				select {
				case e, ok := <-sub.ch:
					if !ok || write(e) != nil {
						return
					}
				default:
					drained = true
				}
			}
			missed, ok := b.catchUp(sub, lastSeq)
			if !ok {
				a.out.log.Warn("event subscriber fell behind the replay buffer; closing so the client reloads")
				return
			}
			for _, e := range missed {
				if write(e) != nil {
					return
				}
			}
			if sse.flush() != nil {
				return
			}
		case e, ok := <-sub.ch:
			if !ok || write(e) != nil {
				return
			}
			// Write what is already queued before one flush.
			for more := true; more; {
				select {
				case e, ok := <-sub.ch:
					if !ok {
						_ = sse.flush()
						return
					}
					if write(e) != nil {
						return
					}
				default:
					more = false
				}
			}
			if sse.flush() != nil {
				return
			}
		}
	}
}

type cancelRequest struct {
	RequestID string `json:"request_id"`
}

func (q cancelRequest) check() error { return required("request_id", q.RequestID) }

// sessionCancel cancels a request: 404 when the session has no bus, 200
// otherwise (even for an unknown id); Finish is still published.
func (a *chatAPI) sessionCancel(r *http.Request, q cancelRequest) (reply, error) {
	b, ok := a.buses.existing(r.PathValue("id"))
	if !ok {
		return noBody(http.StatusNotFound), nil
	}
	b.cancel(q.RequestID)
	return noBody(http.StatusOK), nil
}

type confirmRequest struct {
	ID            string `json:"id"`
	Action        string `json:"action"`
	SessionID     string `json:"sessionId"`
	PrincipalType string `json:"principalType"`
}

func (q confirmRequest) check() error {
	return required("id", q.ID, "action", q.Action, "sessionId", q.SessionID)
}

// toolConfirmation delivers the user's decision to the waiting tool call.
func (a *chatAPI) toolConfirmation(r *http.Request, q confirmRequest) (reply, error) {
	d, err := permission.ParseDecision(q.Action)
	if err != nil {
		return reply{}, errorf(http.StatusUnprocessableEntity, "Failed to deserialize the JSON body into the target type: action: %w", err)
	}
	if q.PrincipalType != "" && q.PrincipalType != "Tool" && q.PrincipalType != "Extension" {
		return reply{}, errorf(http.StatusUnprocessableEntity, "Failed to deserialize the JSON body into the target type: principalType: unknown variant %q", q.PrincipalType)
	}
	if err := a.agent.Confirm(q.SessionID, q.ID, d); err != nil {
		// goosed answers 200 whether or not a tool was waiting.
		a.out.log.Warn("tool confirmation not delivered", "session", q.SessionID, "id", q.ID, "error", err)
	}
	return ok(map[string]any{}), nil
}
