package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/permission"
)

// waitSet holds blocking waits correlated by id; several may be pending.
type waitSet[T any] struct {
	mu sync.Mutex
	m  map[string]chan T
}

func (w *waitSet[T]) init() { w.m = map[string]chan T{} }

// add registers id before the request is announced, so an answer can
// never arrive before its waiter.
func (w *waitSet[T]) add(id string) chan T {
	ch := make(chan T, 1)
	w.mu.Lock()
	w.m[id] = ch
	w.mu.Unlock()
	return ch
}

func (w *waitSet[T]) remove(id string) {
	w.mu.Lock()
	delete(w.m, id)
	w.mu.Unlock()
}

func (w *waitSet[T]) deliver(id string, v T) error {
	w.mu.Lock()
	ch, ok := w.m[id]
	delete(w.m, id)
	w.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %s", ErrNoPendingRequest, id)
	}
	ch <- v
	return nil
}

// wait blocks until the answer or ctx is done.
func wait[T any](ctx context.Context, w *waitSet[T], id string, ch chan T) (T, error) {
	select {
	case v := <-ch:
		return v, nil
	case <-ctx.Done():
		w.remove(id)
		var zero T
		return zero, ctx.Err()
	}
}

type frontendResult = conversation.Result[conversation.CallToolResult]

// Confirm answers a pending tool confirmation (requestID is the tool
// request id).
func (a *Agent) Confirm(sessionID, requestID string, d permission.Decision) error {
	s, err := a.session(sessionID)
	if err != nil {
		return err
	}
	if _, err := permission.ParseDecision(string(d)); err != nil {
		return err
	}
	err = s.confirms.deliver(requestID, d)
	if errors.Is(err, ErrNoPendingRequest) {
		// A sub-recipe session's confirmation, answered with our id.
		for _, c := range a.sub.childSessions(s) {
			if a.Confirm(c.id, requestID, d) == nil {
				return nil
			}
		}
	}
	return err
}

// SubmitFrontendToolResult delivers the client's result for a frontend
// tool request.
func (a *Agent) SubmitFrontendToolResult(sessionID, requestID string, r conversation.Result[conversation.CallToolResult]) error {
	s, err := a.session(sessionID)
	if err != nil {
		return err
	}
	return s.frontends.deliver(requestID, r)
}

// Elicitation actions.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// SubmitElicitation answers a pending elicitation. content is the form
// data for "accept" (a JSON object, or empty).
func (a *Agent) SubmitElicitation(sessionID, requestID, action string, content json.RawMessage) error {
	s, err := a.session(sessionID)
	if err != nil {
		return err
	}
	resp := extension.ElicitResponse{Action: action}
	switch action {
	case ElicitAccept:
		if len(content) > 0 && string(content) != "null" {
			if err := json.Unmarshal(content, &resp.Content); err != nil {
				return fmt.Errorf("elicitation content must be a JSON object: %w", err)
			}
		}
	case ElicitDecline, ElicitCancel:
	default:
		return fmt.Errorf("invalid elicitation action %q", action)
	}
	err = s.elicits.deliver(requestID, resp)
	if errors.Is(err, ErrNoPendingRequest) {
		for _, c := range a.sub.childSessions(s) {
			if a.SubmitElicitation(c.id, requestID, action, content) == nil {
				return nil
			}
		}
	}
	return err
}
