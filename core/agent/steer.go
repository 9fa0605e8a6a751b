package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
)

// Steering: a client adds user input to the turn that is running instead
// of starting another (goose's _goose/unstable/session/steer). Each turn
// has a run id, announced by RunEvent; input steered into it is stored
// and shown before the turn's next provider call, so the model reads it
// on its next step.

// RunEvent announces the run id of the turn that just started.
type RunEvent struct{ RunID string }

// SteerEvent reports steered input the turn has just taken in (stored
// already); clients show it as the user's.
type SteerEvent struct{ Message conversation.Message }

func (RunEvent) isEvent()   {}
func (SteerEvent) isEvent() {}

// Errors of Steer.
var (
	// ErrNoActiveRun: the session runs no turn to steer.
	ErrNoActiveRun = errkind.New(errkind.Conflict, "no active run")
	// ErrRunMismatch: the turn running is not the one the client named.
	ErrRunMismatch = errkind.New(errkind.Conflict, "the active run is not the expected run")
)

// steerQueue holds a session's active run id and the input steered into it.
type steerQueue struct {
	mu      sync.Mutex
	runID   string
	pending []conversation.Message
}

func (q *steerQueue) begin(runID string) {
	q.mu.Lock()
	q.runID, q.pending = runID, nil
	q.mu.Unlock()
}

// end closes the run; input steered too late to be read is returned.
func (q *steerQueue) end() []conversation.Message {
	q.mu.Lock()
	defer q.mu.Unlock()
	left := q.pending
	q.runID, q.pending = "", nil
	return left
}

// closeIfIdle ends the run unless input was steered into it since the
// turn last looked: a turn about to end calls it, so input steered after
// it is refused (ErrNoActiveRun) rather than left unanswered.
func (q *steerQueue) closeIfIdle() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) > 0 {
		return false
	}
	q.runID = ""
	return true
}

func (q *steerQueue) take() []conversation.Message {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.pending
	q.pending = nil
	return out
}

// ActiveRun is the run id of the session's running turn ("" when idle).
func (a *Agent) ActiveRun(sessionID string) string {
	s, err := a.session(sessionID)
	if err != nil {
		return ""
	}
	s.steer.mu.Lock()
	defer s.steer.mu.Unlock()
	return s.steer.runID
}

// Steer queues user content into the running turn expectedRunID and
// returns the run id and the id the queued message will carry.
func (a *Agent) Steer(sessionID, expectedRunID string, content []conversation.Content) (string, string, error) {
	return a.steer(sessionID, &expectedRunID, content)
}

// Inject queues user content into whichever turn the session is running
// (ACP's _session/steering): the model reads it before its next request
// in that turn, which goes on until it has answered it. ErrNoActiveRun
// when the session runs no turn, or its turn has already taken its last
// step: the content is then not kept, the client starts a turn with it.
func (a *Agent) Inject(sessionID string, content []conversation.Content) (runID, messageID string, err error) {
	return a.steer(sessionID, nil, content)
}

// steer queues content into the running turn (the one expected, when
// expectedRunID is set).
func (a *Agent) steer(sessionID string, expectedRunID *string, content []conversation.Content) (string, string, error) {
	s, err := a.session(sessionID)
	if err != nil {
		return "", "", err
	}
	if len(content) == 0 {
		return "", "", errors.New("prompt cannot be empty")
	}
	m := conversation.Message{Role: conversation.RoleUser, Created: a.now().Unix(), Content: content,
		Metadata: conversation.Metadata{UserVisible: true, AgentVisible: true}}.WithID(a.msgID())
	q := &s.steer
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case q.runID == "":
		return "", "", fmt.Errorf("%w for session %s", ErrNoActiveRun, sessionID)
	case expectedRunID != nil && q.runID != *expectedRunID:
		return "", "", fmt.Errorf("%w (active: %s, expected: %s)", ErrRunMismatch, q.runID, *expectedRunID)
	}
	q.pending = append(q.pending, m)
	return q.runID, *m.ID, nil
}

// takeSteered stores and shows the input steered into this turn; it
// reports whether there was any (a turn the model was ending goes on).
func (t *turn) takeSteered() (bool, error) {
	msgs := t.s.steer.take()
	for _, m := range msgs {
		(hookPoints{t}).steerHooks(m)
		if err := t.persist(m); err != nil {
			return false, err
		}
		t.emit(SteerEvent{Message: m})
	}
	return len(msgs) > 0, nil
}

// beginRun gives the turn its run id and announces it.
func (t *turn) beginRun() {
	id := "run_" + t.a.opts.NewID()
	t.s.steer.begin(id)
	t.emit(RunEvent{RunID: id})
}

// endRun closes the run. Input steered after the model's last step is
// still stored, so the user's words are kept for the next turn.
func (t *turn) endRun() {
	for _, m := range t.s.steer.end() {
		if err := t.a.opts.Store.AppendMessage(context.WithoutCancel(t.ctx), t.s.id, m); err != nil {
			t.a.log.Warn("steered input not stored", "session", t.s.id, "error", err)
		}
	}
}
