package acp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
)

// What goose puts in its frames' _meta beyond the ACP schema, which Goose
// Desktop reads (ui/desktop/src/acp/adapter): every message frame's
// _meta.goose {created, messageId} (the message's time orders an edited
// chat and truncates it; live and on replay), a tool call's
// _meta.goose.toolCall {toolName, extensionName} (the card's identity),
// an MCP App tool's completed call _meta.goose.mcpApp {resourceUri,
// extensionName, toolName} (Desktop renders the app's ui:// resource with
// the result), and an MCP notification during a call as a
// tool_call_update with _meta.toolNotification (progress, log lines,
// platform events).

// withGooseFrameMeta adds goose's _meta to the frames of message m.
func (t *Translator) withGooseFrameMeta(out []SessionUpdate, m conversation.Message) []SessionUpdate {
	names := map[string]string{}
	for _, c := range m.Content {
		if c.ToolRequest != nil && c.ToolRequest.ToolCall.IsOK() {
			names[c.ToolRequest.ID] = c.ToolRequest.ToolCall.Value.Name
		}
	}
	id := m.IDOrEmpty()
	for i := range out {
		u := &out[i]
		g := gooseMeta(u)
		g["created"] = m.Created
		if id != "" {
			g["messageId"] = id
		}
		if name, ok := names[u.ToolCallID]; ok && u.SessionUpdate == UpdateToolCall {
			g["toolCall"], _ = t.toolIdentity(name)
		}
		if call, ok := t.requests[u.ToolCallID]; ok && u.SessionUpdate == UpdateToolCallUpdate && u.Status == "completed" {
			if id, uri := t.toolIdentity(call.Name); uri != "" {
				g["mcpApp"] = map[string]any{"resourceUri": uri, "extensionName": id["extensionName"], "toolName": call.Name}
			}
		}
	}
	return out
}

// gooseMeta is u's _meta.goose, created when absent.
func gooseMeta(u *SessionUpdate) map[string]any {
	if u.Meta == nil {
		u.Meta = Meta{}
	}
	if g, ok := u.Meta["goose"].(map[string]any); ok {
		return g
	}
	g := map[string]any{}
	u.Meta["goose"] = g
	return g
}

// toolIdentity is goose's tool call identity: the tool's name as the model
// called it and the extension it belongs to (the session's tools say; a
// name they do not know, by its "<extension>__" prefix).
func (t *Translator) toolIdentity(name string) (id map[string]any, appURI string) {
	id = map[string]any{"toolName": name}
	ext := ""
	if t.Owner != nil {
		ext, appURI = t.Owner(name)
	}
	if ext == "" {
		if prefix, _, ok := strings.Cut(name, "__"); ok {
			ext = prefix
		}
	}
	if ext != "" {
		id["extensionName"] = ext
	}
	return id, appURI
}

// toolOwner names the extensions of the session's tools (the agent's tool
// list is cached between model calls, so this does no I/O).
func (p *promptAPI) toolOwner(sessionID string) func(string) (string, string) {
	if p.agent == nil {
		return nil
	}
	return func(name string) (string, string) {
		return p.agent.Extensions().ToolOwner(context.Background(), sessionID, name)
	}
}

// toolNotificationKinds maps MCP notification methods to goose's
// toolNotification types.
var toolNotificationKinds = map[string]string{
	"notifications/progress": "progress",
	"notifications/message":  "message",
	"platform_event":         "platform_event",
}

// sendToolNotification forwards an MCP notification of a running tool call
// as goose does: a tool_call_update in_progress carrying
// _meta.toolNotification {type, params}.
func (p *promptAPI) sendToolNotification(ctx context.Context, as *acpSession, e agent.NotificationEvent) {
	kind, ok := toolNotificationKinds[e.Method]
	if !ok || e.RequestID == "" {
		return
	}
	params := json.RawMessage(e.Params)
	if len(params) == 0 {
		params = json.RawMessage("null")
	}
	p.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: e.RequestID, Status: "in_progress",
		Meta: Meta{"toolNotification": map[string]any{"type": kind, "params": params}}})
}
