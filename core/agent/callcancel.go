package agent

import (
	"context"
	"fmt"
	"sync"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// ErrToolCallNotRunning: CancelToolCall named no tool call that is running.
var ErrToolCallNotRunning = errkind.New(errkind.NotFound, "no such running tool call")

// runningCalls are the cancel functions of a session's running tool calls,
// by tool-call id: a client can stop one call (ACP v2's tool_call/cancel)
// while the turn goes on.
type runningCalls struct {
	mu      sync.Mutex
	cancels map[string]context.CancelFunc
}

// start derives a call's context from the turn's and registers its cancel;
// done unregisters it.
func (r *runningCalls) start(turnCtx context.Context, id string) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(turnCtx)
	r.mu.Lock()
	if r.cancels == nil {
		r.cancels = map[string]context.CancelFunc{}
	}
	r.cancels[id] = cancel
	r.mu.Unlock()
	return ctx, func() {
		r.mu.Lock()
		delete(r.cancels, id)
		r.mu.Unlock()
		cancel()
	}
}

func (r *runningCalls) cancel(id string) bool {
	r.mu.Lock()
	cancel, ok := r.cancels[id]
	r.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

// CancelToolCall stops one running tool call of the session's turn: the
// call's context ends, the tool returns goose's cancelled result, and the
// turn goes on to the model with it.
func (a *Agent) CancelToolCall(sessionID, toolCallID string) error {
	s, err := a.session(sessionID)
	if err != nil {
		return err
	}
	if !s.calls.cancel(toolCallID) {
		return fmt.Errorf("%w: %s", ErrToolCallNotRunning, toolCallID)
	}
	return nil
}
