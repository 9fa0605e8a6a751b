package acp

import (
	"context"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// Steering (_goose/unstable/session/steer): Desktop learns the running
// turn's run id from session_info_update _meta.goose.activeRunId (a
// string when a turn starts, null when it ends; session/info carries it
// too) and adds input to that turn with session/steer. The steered
// message is later shown as a user_message_chunk with the id steer
// answered.

// sendActiveRun announces a turn's run id, or its end (runID ""), to a
// client that asked for goose's own notifications
// (_meta.goose.customNotifications, as Goose Desktop does). Others never
// get this title-less session_info_update: clients such as VS Code's ACP
// Client read a session_info_update without a title as "title cleared".
func (p *promptAPI) sendActiveRun(ctx context.Context, sessionID, runID string) {
	if !p.gooseCapability("customNotifications") {
		return
	}
	var v any
	if runID != "" {
		v = runID
	}
	p.notify(ctx, sessionID, SessionUpdate{SessionUpdate: UpdateSessionInfo, Meta: Meta{"goose": map[string]any{"activeRunId": v}}})
}

type steerRequest struct {
	SessionID     string         `json:"sessionId"`
	Prompt        []ContentBlock `json:"prompt"`
	ExpectedRunID string         `json:"expectedRunId"`
}

type steerResponse struct {
	RunID     string `json:"runId"`
	MessageID string `json:"messageId"`
}

func (p *promptAPI) unstableSteer(ctx context.Context, req steerRequest) (steerResponse, error) {
	as, err := p.loaded.lookup(req.SessionID)
	if err != nil {
		return steerResponse{}, err
	}
	if len(req.Prompt) == 0 {
		return steerResponse{}, invalidParams("prompt cannot be empty")
	}
	msg, err := p.promptMessage(ctx, as, req.Prompt)
	if err != nil {
		return steerResponse{}, err
	}
	runID, msgID, err := p.agent.Steer(as.id, req.ExpectedRunID, msg.Content)
	if err != nil {
		return steerResponse{}, err
	}
	return steerResponse{RunID: runID, MessageID: msgID}, nil
}

// sendSteered shows steered input as the user's, marked _meta.goose.steer
// and carrying the id session/steer answered.
func (p *promptAPI) sendSteered(ctx context.Context, sessionID string, m conversation.Message) {
	id := m.IDOrEmpty()
	for _, c := range m.Content {
		if c.Text == nil {
			continue
		}
		u := chunk(UpdateUserMessageChunk, id, textBlock(c.Text.Text))
		u.Meta = Meta{"goose": map[string]any{"messageId": id, "steer": true}}
		p.notify(ctx, sessionID, u)
	}
}
