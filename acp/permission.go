package acp

import (
	"context"
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// permissionOptions are goose's four choices with goose's optionIds and
// kinds (what clients and goose's own tests match on) and names for
// people, which editors print on the buttons. "Allow once" comes first:
// autonomous clients (VS Code's ACP Client with auto-approve, scripts)
// take the first option of an allow kind, and that must grant this call
// only; a standing rule in permission.yaml comes only from a user who
// picked "Always allow".
var permissionOptions = []PermissionOption{
	{OptionID: "allow_once", Name: "Allow once", Kind: "allow_once"},
	{OptionID: "allow_always", Name: "Always allow", Kind: "allow_always"},
	{OptionID: "reject_once", Name: "Reject", Kind: "reject_once"},
	{OptionID: "reject_always", Name: "Always reject", Kind: "reject_always"},
}

// decisionFor maps the editor's answer to the agent's decision. A
// "cancelled" outcome is the editor cancelling the turn (ACP: a client
// answers it only while it cancels the prompt), so the turn ends; a
// failed request or an unknown option refuses this call only.
func decisionFor(resp RequestPermissionResponse, err error) permission.Decision {
	if err != nil {
		return permission.DenyOnce
	}
	if resp.Outcome.Outcome == "cancelled" {
		return permission.Cancel
	}
	switch resp.Outcome.OptionID {
	case "allow_once":
		return permission.AllowOnce
	case "allow_always":
		return permission.AlwaysAllow
	case "reject_once":
		return permission.DenyOnce
	case "reject_always":
		return permission.AlwaysDeny
	}
	return permission.DenyOnce
}

// keepPreview remembers what the permission request showed (the command,
// the diff), so a refused call's final update still shows the change
// that was refused.
func (as *acpSession) keepPreview(toolCallID string, content []ToolCallContent) {
	as.mu.Lock()
	defer as.mu.Unlock()
	if as.previews == nil {
		as.previews = map[string][]ToolCallContent{}
	}
	as.previews[toolCallID] = content
}

// takePreview returns (and forgets) a call's permission preview; ok is
// false when the call was not asked about or was allowed.
func (as *acpSession) takePreview(toolCallID string) (c []ToolCallContent, ok bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	c, ok = as.previews[toolCallID]
	delete(as.previews, toolCallID)
	return c, ok
}

// startPermission asks the editor in the background and hands the answer
// to the agent; the ask is cancelled with the turn.
func (p *promptAPI) startPermission(ctx context.Context, as *acpSession, d conversation.ActionData) {
	permCtx, cancel := context.WithCancel(ctx)
	as.mu.Lock()
	if as.permissions == nil {
		as.permissions = map[string]context.CancelFunc{}
	}
	as.permissions[d.ID] = cancel
	as.mu.Unlock()
	go func() {
		defer cancel()
		// A subagent's request is asked here, on its parent (subagents.go).
		askCtx, meta, answered := p.childAsk(permCtx, as, d.ID)
		defer answered()
		req := RequestPermissionRequest{SessionID: as.id, ToolCall: p.permissionToolCall(permCtx, as, d), Options: permissionOptions, Meta: meta}
		as.keepPreview(d.ID, req.ToolCall.Content)
		var resp RequestPermissionResponse
		err := p.peer.Call(askCtx, "session/request_permission", req, &resp)
		decision := decisionFor(resp, err)
		if err != nil {
			p.log.Debug("permission request ended without an answer", "tool", d.ToolName, "err", err)
		}
		if permCtx.Err() != nil {
			// The turn was cancelled meanwhile: whatever the editor
			// answered, the call is not run.
			decision = permission.Cancel
		}
		if decision.Allows() {
			// Only a call that never runs keeps its preview: its final
			// update shows again what the user refused (finalUpdate).
			as.takePreview(d.ID)
		}
		if err := p.agent.Confirm(as.id, d.ID, decision); err != nil {
			p.log.Debug("confirmation not delivered", "tool", d.ToolName, "err", err)
		}
		as.mu.Lock()
		delete(as.permissions, d.ID)
		as.mu.Unlock()
	}()
}

// permissionToolCall shows what is being approved: the security prompt if
// any, and the whole-file diff of a write or edit.
func (p *promptAPI) permissionToolCall(ctx context.Context, as *acpSession, d conversation.ActionData) ToolCallUpdate {
	call := conversation.ToolCall{Name: d.ToolName, Arguments: d.Arguments}
	info := as.translator.info(d.ToolName)
	title := toolinfo.Title(call.Name, call.Arguments, info, as.translator.workingDir())
	tc := ToolCallUpdate{ToolCallID: d.ID, Title: &title, Kind: info.Kind, Status: "pending", RawInput: nonNilArgs(d.Arguments)}
	if d.Prompt != nil && *d.Prompt != "" {
		tc.Content = append(tc.Content, ToolCallContent{Type: "content", Content: &ContentBlock{Type: "text", Text: *d.Prompt}})
	}
	tc.Content = append(tc.Content, commandContent(info, d.Arguments)...)
	tc.Locations = as.translator.locations(info, d.Arguments)
	if len(tc.Locations) > 0 {
		if diff := p.proposedDiff(ctx, as, info, d.Arguments, tc.Locations[0].Path); diff != nil {
			tc.Content = append(tc.Content, *diff)
		}
	}
	return tc
}

// elicit forwards an MCP server's question to the editor when it takes
// the question's mode (elicitation.go); otherwise it declines at once so
// the tool is not left waiting out its timeout.
func (p *promptAPI) elicit(ctx context.Context, as *acpSession, d conversation.ActionData) {
	action, content := "decline", json.RawMessage(nil)
	if req, ok := elicitationFor(as.id, elicitationModesOf(p.caps()), d); ok {
		askCtx, meta, answered := p.childAsk(ctx, as, d.ID)
		defer answered()
		req.Meta = meta
		var resp ElicitationResponse
		if err := p.peer.Call(askCtx, "elicitation/create", req, &resp); err != nil {
			action = "cancel"
		} else {
			action = resp.Action
			if resp.Content != nil {
				content, _ = json.Marshal(resp.Content)
			}
		}
	}
	if err := p.agent.SubmitElicitation(as.id, d.ID, action, content); err != nil {
		p.log.Debug("elicitation answer not delivered", "err", err)
	}
}
