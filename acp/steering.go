package acp

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/errkind"
)

// Steering (_session/steering, the extension claude-agent-acp and
// codex-acp share; initialize advertises it as _meta.steering.supported):
// a client adds a message to the turn the session is running instead of
// queueing it behind the turn. The outcomes are theirs:
//
//   - injected: a turn is running; core reads the message before the
//     turn's next model request and the turn answers it before it ends
//     (agent.Inject). It is shown as the user's (user_message_chunk,
//     _meta.goose.steer) when the turn takes it in.
//   - promptRequired (reason noRunningTurn): no turn is running and the
//     client asked to keep the message (_meta.steering.idleBehavior
//     "promptRequired"); it sends it as a session/prompt itself.
//   - startedNewTurn: no turn was running, so the message started one,
//     as a session/prompt would, without a request to answer: the
//     message is shown as the user's, the turn's updates follow, and
//     session/cancel stops it.
//   - failed: the message could not be delivered for a reason the
//     client cannot fix (logged); refusals the client can fix are errors
//     (-32602 bad params, -32002 unknown session, -32000 sign in).

type steeringRequest struct {
	SessionID string         `json:"sessionId"`
	Prompt    []ContentBlock `json:"prompt"`
	Meta      Meta           `json:"_meta,omitempty"`
}

type steeringResponse struct {
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
}

// Steering outcomes.
const (
	SteerInjected       = "injected"
	SteerStartedNewTurn = "startedNewTurn"
	SteerFailed         = "failed"
	SteerPromptRequired = "promptRequired"
)

// idleBehavior reads _meta.steering.idleBehavior: "" (start a turn) or
// "promptRequired"; anything else is refused.
func idleBehavior(meta Meta) (string, error) {
	raw, ok := meta["steering"]
	if !ok || raw == nil {
		return "", nil
	}
	st, ok := raw.(map[string]any)
	if !ok {
		return "", invalidParams("steering _meta.steering must be an object")
	}
	switch v := st["idleBehavior"]; v {
	case nil:
		return "", nil
	case SteerPromptRequired:
		return SteerPromptRequired, nil
	}
	return "", invalidParams("unsupported steering idleBehavior")
}

func (p *promptAPI) steering(ctx context.Context, req steeringRequest) (steeringResponse, error) {
	if req.SessionID == "" {
		return steeringResponse{}, invalidParams("steering params require a non-empty sessionId")
	}
	if len(req.Prompt) == 0 {
		return steeringResponse{}, invalidParams("steering params require a non-empty prompt array")
	}
	idle, err := idleBehavior(req.Meta)
	if err != nil {
		return steeringResponse{}, err
	}
	as, err := p.loaded.lookup(req.SessionID)
	if err != nil {
		return steeringResponse{}, err
	}
	msg, err := p.promptMessage(ctx, as, req.Prompt)
	if err != nil {
		return steeringResponse{}, err
	}
	// A turn that ends between the two attempts, or starts between them,
	// is seen by the second.
	for range 3 {
		_, _, err := p.agent.Inject(as.id, msg.Content)
		switch {
		case err == nil:
			return steeringResponse{Outcome: SteerInjected}, nil
		case !errors.Is(err, agent.ErrNoActiveRun):
			return p.steeringFailed(as.id, err)
		case idle == SteerPromptRequired:
			return steeringResponse{Outcome: SteerPromptRequired, Reason: "noRunningTurn"}, nil
		}
		err = p.startSteeredTurn(ctx, as, req)
		if err == nil {
			return steeringResponse{Outcome: SteerStartedNewTurn}, nil
		}
		if !errors.Is(err, agent.ErrSessionBusy) {
			return p.steeringFailed(as.id, err)
		}
	}
	return p.steeringFailed(as.id, errors.New("the session's turn kept starting and ending"))
}

// steeringFailed is an error the client can act on as itself, anything
// else as the failed outcome.
func (p *promptAPI) steeringFailed(sessionID string, err error) (steeringResponse, error) {
	switch errkind.Of(err) {
	case errkind.Invalid, errkind.NotFound, errkind.NotReady, errkind.AuthRequired:
		return steeringResponse{}, err
	}
	p.log.Warn("steering not delivered", "session", sessionID, "err", err)
	return steeringResponse{Outcome: SteerFailed}, nil
}

// startSteeredTurn runs the message as a new turn in the background and
// returns once the agent has begun it (nil), or with why it did not
// (agent.ErrSessionBusy when a turn started meanwhile). The user's message
// goes out first, then the turn's updates.
func (p *promptAPI) startSteeredTurn(ctx context.Context, as *acpSession, req steeringRequest) error {
	id := "msg_" + uuid.NewString()
	started := make(chan struct{})
	ended := make(chan error, 1)
	live := context.WithoutCancel(ctx)
	go func() {
		_, err := p.runTurn(live, PromptRequest{SessionID: as.id, Prompt: req.Prompt, Meta: req.Meta}, id, func() {
			for _, b := range req.Prompt {
				if b.Type == "text" {
					u := chunk(UpdateUserMessageChunk, id, textBlock(b.Text))
					u.Meta = Meta{"goose": map[string]any{"messageId": id, "steer": true}}
					p.notify(live, as.id, u)
				}
			}
			close(started)
		})
		ended <- err
	}()
	select {
	case <-started:
		return nil
	case err := <-ended:
		if err == nil {
			return nil // the turn ran to its end at once
		}
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
