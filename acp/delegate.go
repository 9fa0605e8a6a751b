package acp

import (
	"context"
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/extension/platform"
)

// delegateProgress shows a running subagent inside its delegate tool
// call: each progress notification carries the subagent's whole progress
// text (core renders it), which replaces the tool call's content.
func (s *Server) delegateProgress(ctx context.Context, as *acpSession, e agent.NotificationEvent) {
	if e.Extension != platform.Summon || e.Method != "notifications/progress" || e.RequestID == "" {
		return
	}
	var p struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(e.Params, &p) != nil || p.Message == "" {
		return
	}
	s.notify(ctx, as.id, SessionUpdate{
		SessionUpdate: UpdateToolCallUpdate, ToolCallID: e.RequestID, Status: "in_progress",
		ToolContent: []ToolCallContent{{Type: "content", Content: &ContentBlock{Type: "text", Text: p.Message}}},
	})
}
