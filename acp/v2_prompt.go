package acp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"

	"github.com/google/uuid"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp/jsonrpc"
	"github.com/goose-acp/goose-acp/core/agent"
)

// v2's prompt lifecycle: session/prompt answers as soon as the prompt is
// accepted, with the id of the user message it inserts; the session then
// reports the message (user_message), running, its output, and idle with
// the stop reason (or the error). A prompt sent while the session works
// is held and inserted when it is idle, in arrival order; session/cancel
// answers held prompts -32800 (so does $/cancel_request, for one).

type v2PromptResponse struct {
	MessageID string `json:"messageId"`
}

// orderedMethod is the connection's ordered methods: the ones that change a
// session's configuration, and for a v2 client session/prompt, up to the
// point where the prompt has its place in its session's queue.
func (s *Server) orderedMethod(method string) bool {
	return orderedMethods[method] || method == "session/prompt" && s.isV2()
}

// errHeldPromptCancelled answers a held prompt that session/cancel
// withdrew.
var errHeldPromptCancelled = &jsonrpc2.Error{Code: CodeRequestCancelled, Message: "Request cancelled"}

// v2Turns orders one session's prompts: one runs, the rest wait.
type v2Turns struct {
	mu      sync.Mutex
	running bool
	held    []chan error
}

// v2API answers what a v2 client gets in place of v1's handlers and sends
// what it sees instead of v1's frames: the prompt lifecycle (held prompts,
// foreground state), v2's session/update frames with each session's display
// terminals, session/resume's replay choice and tool_call/terminal cancel.
// It holds the connection's writer and context, the loaded sessions, the
// prompt area that runs a turn and the agent (bound once the server's
// options are complete); the handshake (initialize, auth) stays the
// Server's.
type v2API struct {
	frames frameWriter
	log    *slog.Logger
	// ctx is the connection's: a v2 turn outlives its session/prompt.
	ctx             context.Context
	loaded          *loadedSessions
	prompt          *promptAPI
	requireProvider func() error
	agent           *agent.Agent

	mu    sync.Mutex
	turns map[string]*v2Turns
	terms map[string]*v2Terminals
	// wg counts the v2 turns running.
	wg sync.WaitGroup
}

// turnsOf returns the session's prompt order.
func (a *v2API) turnsOf(sessionID string) *v2Turns {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.turns == nil {
		a.turns = map[string]*v2Turns{}
	}
	q := a.turns[sessionID]
	if q == nil {
		q = &v2Turns{}
		a.turns[sessionID] = q
	}
	return q
}

// terminalsOf returns the session's open display terminals.
func (a *v2API) terminalsOf(sessionID string) *v2Terminals {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.terms == nil {
		a.terms = map[string]*v2Terminals{}
	}
	t := a.terms[sessionID]
	if t == nil {
		t = &v2Terminals{}
		a.terms[sessionID] = t
	}
	return t
}

// acquire waits until the session is idle and this prompt may run.
func (q *v2Turns) acquire(ctx context.Context) error { return q.wait(ctx, q.enter()) }

// enter takes the prompt's place: the turn at once when the session is
// idle (nil), else the end of the queue (wait for it with wait).
func (q *v2Turns) enter() chan error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.running {
		q.running = true
		return nil
	}
	ch := make(chan error, 1)
	q.held = append(q.held, ch)
	return ch
}

// wait waits for the turn of a prompt enter queued.
func (q *v2Turns) wait(ctx context.Context, ch chan error) error {
	if ch == nil {
		return nil
	}
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		q.mu.Lock()
		defer q.mu.Unlock()
		for i, c := range q.held {
			if c == ch {
				q.held = append(q.held[:i], q.held[i+1:]...)
				return ctx.Err()
			}
		}
		// Handed the turn meanwhile: pass it on.
		if err := <-ch; err == nil {
			q.passOn()
		}
		return ctx.Err()
	}
}

// release ends the running prompt; the next held one runs.
func (q *v2Turns) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.passOn()
}

func (q *v2Turns) passOn() {
	if len(q.held) == 0 {
		q.running = false
		return
	}
	next := q.held[0]
	q.held = q.held[1:]
	next <- nil
}

// cancelHeld answers every held prompt -32800.
func (q *v2Turns) cancelHeld() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, c := range q.held {
		c <- errHeldPromptCancelled
	}
	q.held = nil
}

func (a *v2API) promptV2(ctx context.Context, req PromptRequest) (any, error) {
	as, err := a.loaded.lookup(req.SessionID)
	if err != nil {
		return nil, err
	}
	if len(req.Prompt) == 0 {
		return nil, invalidParams("prompt is empty")
	}
	if err := a.requireProvider(); err != nil {
		return nil, err
	}
	// A v2 session/prompt is an ordered method (orderedMethod): the next one
	// starts once this one has its place, so prompts sent back to back
	// run in the order they were sent.
	q := a.turnsOf(as.id)
	ch := q.enter()
	jsonrpc.Proceed(ctx)
	if err := q.wait(ctx, ch); err != nil {
		return nil, err
	}
	id := "msg_" + uuid.NewString()
	a.wg.Add(1)
	return followUp{v2PromptResponse{MessageID: id}, func() {
		a.send(as.id, map[string]any{"sessionUpdate": "user_message", "messageId": id, "content": req.Prompt}, true)
		a.sendState(as.id, "running")
		go func() {
			defer a.wg.Done()
			defer q.release()
			resp, err := a.prompt.runPrompt(a.ctx, req, id)
			a.finish(as.id, resp, err)
		}()
	}}, nil
}

// finish reports the end of foreground work: idle with the stop
// reason, or with the error a v1 prompt would have answered.
func (a *v2API) finish(sessionID string, resp PromptResponse, err error) {
	idle := map[string]any{"sessionUpdate": "state_update", "state": "idle", "stopReason": resp.StopReason}
	if err != nil {
		var e *jsonrpc2.Error
		if !errors.As(err, &e) {
			e = toRPCError(err)
		}
		idle["stopReason"], idle["error"] = "error", e
	}
	a.send(sessionID, idle, true)
}

// sendState reports the session's foreground state (running,
// requires_action) to a v2 client.
func (a *v2API) sendState(sessionID, state string) {
	a.send(sessionID, map[string]any{"sessionUpdate": "state_update", "state": state}, true)
}

// send writes one v2 session/update.
func (a *v2API) send(sessionID string, update map[string]any, flush bool) {
	frame, err := jsonMarshal(SessionNotificationV2{SessionID: sessionID, Update: update})
	if err == nil {
		frame, err = jsonMarshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
		}{"2.0", "session/update", frame})
	}
	if err == nil {
		err = a.frames.WriteFrame(frame, flush)
	}
	if err != nil {
		a.log.Debug("session/update not sent", "update", update["sessionUpdate"], "err", err)
	}
}

// SessionNotificationV2 is v2's session/update params.
type SessionNotificationV2 struct {
	SessionID string         `json:"sessionId"`
	Update    map[string]any `json:"update"`
}
