package httpapi

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
)

type chatRequest struct {
	UserMessage          *conversation.Message   `json:"user_message"`
	SessionID            string                  `json:"session_id"`
	OverrideConversation *[]conversation.Message `json:"override_conversation"`
	// ConversationSoFar is 1.24's name for override_conversation.
	ConversationSoFar *[]conversation.Message `json:"conversation_so_far"`
	RecipeName        *string                 `json:"recipe_name"`
	RecipeVersion     *string                 `json:"recipe_version"`
}

func (q chatRequest) check() error {
	if q.UserMessage == nil {
		return errors.New("missing field `user_message`")
	}
	return required("session_id", q.SessionID)
}

// legacyReply is POST /reply (desktop ≤ 1.27): one SSE response per turn,
// `data:` frames only, a JSON Ping every 500 ms (the first at once), Finish
// at the end; the client hanging up cancels the turn.
func (a *chatAPI) legacyReply(w http.ResponseWriter, r *http.Request, q chatRequest) {
	if q.OverrideConversation == nil {
		q.OverrideConversation = q.ConversationSoFar
	}
	ctx, cancel := context.WithCancel(a.ctx)
	defer cancel()
	stop := context.AfterFunc(r.Context(), cancel)
	defer stop()

	sse := startSSE(w)
	events := make(chan wireEvent, 16)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(events)
		a.runLegacyTurn(ctx, q, func(ev wireEvent) bool {
			select {
			case events <- ev:
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()
	defer wg.Wait()
	a.pumpLegacy(ctx, cancel, sse, events)
}

// pumpLegacy writes events and pings until the turn ends; a failed write
// means the client hung up and cancels the turn.
func (a *chatAPI) pumpLegacy(ctx context.Context, cancel context.CancelFunc, sse *sseWriter, events <-chan wireEvent) {
	ping := time.NewTicker(a.ping)
	defer ping.Stop()
	pingFrame := sseData(pingEvent().json())
	if sse.write(pingFrame) != nil {
		cancel()
		return
	}
	for {
		select {
		case <-ping.C:
			if sse.write(pingFrame) != nil {
				a.out.log.Info("client hung up")
				cancel()
				return
			}
		case ev, ok := <-events:
			if !ok {
				return
			}
			if sse.write(sseData(ev.json())) != nil {
				a.out.log.Info("client hung up")
				cancel()
				return
			}
		case <-ctx.Done():
			// Drain so the turn goroutine can finish storing its messages.
			for range events {
			}
			return
		}
	}
}

// runLegacyTurn runs the turn, sending events through send. A turn that
// cannot start sends only an Error; otherwise Finish always ends it.
func (a *chatAPI) runLegacyTurn(ctx context.Context, q chatRequest, send func(wireEvent) bool) {
	id := q.SessionID
	if err := a.sessions.Hold(ctx, id, a.hold); err != nil {
		send(errorEvent("Failed to get session agent: " + err.Error()))
		return
	}
	if _, err := a.store.Get(ctx, id, false); err != nil {
		send(errorEvent("Failed to read session: " + err.Error()))
		return
	}
	if q.OverrideConversation != nil {
		if err := a.sessions.ReplaceConversation(ctx, id, *q.OverrideConversation); err != nil {
			a.out.log.Warn("replacing conversation", "session", id, "error", err)
		}
	}
	tk := &tokens{store: a.store, id: id}
	tk.refresh(ctx)
	_, err := a.agent.Reply(ctx, id, *q.UserMessage, func(ev agent.Event) {
		if we, ok := tk.translate(ctx, ev); ok {
			send(we)
		}
	})
	if err != nil {
		send(errorEvent(err.Error()))
		return
	}
	tk.refresh(context.WithoutCancel(ctx))
	send(finishEvent(tk.state))
}
