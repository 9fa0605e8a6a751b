package acp

import (
	"context"
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/session"
)

// delegateProgress shows a running subagent inside its delegate tool
// call: each progress notification carries the subagent's whole progress
// text (core renders it), which replaces the tool call's content.
func (p *promptAPI) delegateProgress(ctx context.Context, as *acpSession, e agent.NotificationEvent) {
	if !isDelegateProgress(e) {
		return
	}
	var progress struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(e.Params, &progress) != nil || progress.Message == "" {
		return
	}
	p.notify(ctx, as.id, SessionUpdate{
		SessionUpdate: UpdateToolCallUpdate, ToolCallID: e.RequestID, Status: "in_progress",
		ToolContent: []ToolCallContent{{Type: "content", Content: &ContentBlock{Type: "text", Text: progress.Message}}},
	})
}

// isDelegateProgress: e is a running delegate's progress notification.
func isDelegateProgress(e agent.NotificationEvent) bool {
	return e.Extension == platform.Summon && e.Method == "notifications/progress" && e.RequestID != ""
}

// listedTypes are the sessions session/list shows: goose's default list
// plus delegated subagents, which carry their parent in _meta.
var listedTypes = append(append([]session.Type(nil), session.DefaultListTypes...), session.TypeSubAgent)

// listMeta is a listed session's _meta; a subagent names its parent
// (parentSessionId), so an editor can nest it under the delegating chat.
func listMeta(ss session.Session) Meta {
	m := Meta{"messageCount": ss.MessageCount, "userSetName": ss.UserSetName, "sessionType": ss.SessionType}
	if p := agent.ParentSessionID(ss); p != "" {
		m["parentSessionId"] = p
	}
	desktopMeta(m, ss)
	return m
}

// listed drops subagent sessions with no recorded parent (sub-recipe
// runs), which goose's list never showed.
func listed(ss session.Session) bool {
	return ss.SessionType != session.TypeSubAgent || agent.ParentSessionID(ss) != ""
}
