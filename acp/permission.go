package acp

import (
	"context"
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// permissionOptions are goose's four choices; optionId and name are the kind.
var permissionOptions = []PermissionOption{
	{OptionID: "allow_always", Name: "allow_always", Kind: "allow_always"},
	{OptionID: "allow_once", Name: "allow_once", Kind: "allow_once"},
	{OptionID: "reject_once", Name: "reject_once", Kind: "reject_once"},
	{OptionID: "reject_always", Name: "reject_always", Kind: "reject_always"},
}

// decisionFor maps the editor's answer to the agent's decision; anything
// but a known option (cancelled, errors, unknown ids) cancels the call.
func decisionFor(resp RequestPermissionResponse, err error) permission.Decision {
	if err != nil || resp.Outcome.Outcome != "selected" {
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
	return permission.Cancel
}

func allowed(d permission.Decision) bool {
	return d == permission.AllowOnce || d == permission.AlwaysAllow
}

// markDenied remembers a tool call the user refused (or that was cancelled)
// so its result is reported failed: the agent answers it with a plain
// "declined" text result, but for the editor the call did not happen.
func (as *acpSession) markDenied(toolCallID string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	if as.denied == nil {
		as.denied = map[string]bool{}
	}
	as.denied[toolCallID] = true
}

// wasDenied reports (and forgets) a refused tool call.
func (as *acpSession) wasDenied(toolCallID string) bool {
	as.mu.Lock()
	defer as.mu.Unlock()
	d := as.denied[toolCallID]
	delete(as.denied, toolCallID)
	return d
}

// startPermission asks the editor in the background and hands the answer
// to the agent; the ask is cancelled with the turn.
func (s *Server) startPermission(ctx context.Context, as *acpSession, d conversation.ActionData) {
	permCtx, cancel := context.WithCancel(ctx)
	as.mu.Lock()
	if as.permissions == nil {
		as.permissions = map[string]context.CancelFunc{}
	}
	as.permissions[d.ID] = cancel
	as.mu.Unlock()
	go func() {
		defer cancel()
		req := RequestPermissionRequest{SessionID: as.id, ToolCall: permissionToolCall(as, d), Options: permissionOptions}
		var resp RequestPermissionResponse
		err := s.peer.Call(permCtx, "session/request_permission", req, &resp)
		decision := decisionFor(resp, err)
		if err != nil {
			s.log.Debug("permission request ended without an answer", "tool", d.ToolName, "err", err)
		}
		if !allowed(decision) {
			as.markDenied(d.ID)
		}
		if err := s.opts.Agent.Confirm(as.id, d.ID, decision); err != nil {
			s.log.Debug("confirmation not delivered", "tool", d.ToolName, "err", err)
		}
		as.mu.Lock()
		delete(as.permissions, d.ID)
		as.mu.Unlock()
	}()
}

// permissionToolCall shows what is being approved: the security prompt if
// any, and the diff of a write or edit.
func permissionToolCall(as *acpSession, d conversation.ActionData) ToolCallUpdate {
	call := conversation.ToolCall{Name: d.ToolName, Arguments: d.Arguments}
	title := ToolTitle(call)
	info := as.translator.info(d.ToolName)
	tc := ToolCallUpdate{ToolCallID: d.ID, Title: &title, Kind: info.Kind, Status: "pending", RawInput: nonNilArgs(d.Arguments)}
	if d.Prompt != nil && *d.Prompt != "" {
		tc.Content = append(tc.Content, ToolCallContent{Type: "content", Content: &ContentBlock{Type: "text", Text: *d.Prompt}})
	}
	tc.Locations = as.translator.locations(info, d.Arguments)
	if diff := proposedDiff(info, d.Arguments, tc.Locations); diff != nil {
		tc.Content = append(tc.Content, *diff)
	}
	return tc
}

// proposedDiff previews the file change an edit's arguments propose, from
// the before/after or content arguments its tool declares.
func proposedDiff(info toolinfo.Info, args map[string]any, locs []ToolCallLocation) *ToolCallContent {
	if len(locs) == 0 {
		return nil
	}
	c, ok := info.ChangeOf(args)
	if !ok {
		return nil
	}
	return &ToolCallContent{Type: "diff", Path: locs[0].Path, OldText: c.Before, NewText: &c.After}
}

// elicit forwards an MCP server's question to the editor when it supports
// elicitation; otherwise it declines at once so the tool is not left
// waiting out its timeout.
func (s *Server) elicit(ctx context.Context, as *acpSession, d conversation.ActionData) {
	action, content := "decline", json.RawMessage(nil)
	if s.caps.Elicitation != nil {
		var schema any
		_ = json.Unmarshal(d.RequestedSchema, &schema)
		req := ElicitationRequest{SessionID: as.id, Mode: "form", Message: d.Message, RequestedSchema: schema}
		var resp ElicitationResponse
		if err := s.peer.Call(ctx, "elicitation/create", req, &resp); err != nil {
			action = "cancel"
		} else {
			action = resp.Action
			if resp.Content != nil {
				content, _ = json.Marshal(resp.Content)
			}
		}
	}
	if err := s.opts.Agent.SubmitElicitation(as.id, d.ID, action, content); err != nil {
		s.log.Debug("elicitation answer not delivered", "err", err)
	}
}
