package acp

import (
	"context"
)

// versionedPeer is the client end for either version. To a v2 client a
// permission request names its subject instead of carrying the tool call,
// and while the agent waits on the user (a permission, an elicitation)
// the session reports requires_action, then running again.
type versionedPeer struct {
	s    *Server
	peer Peer
}

type v2PermissionRequest struct {
	SessionID string             `json:"sessionId"`
	Title     string             `json:"title"`
	Subject   v2PermissionAbout  `json:"subject"`
	Options   []PermissionOption `json:"options"`
}

type v2PermissionAbout struct {
	Type     string         `json:"type"`
	ToolCall map[string]any `json:"toolCall"`
}

func (p versionedPeer) Call(ctx context.Context, method string, params, result any) error {
	if !p.s.isV2() {
		return p.peer.Call(ctx, method, params, result)
	}
	var sessionID string
	switch r := params.(type) {
	case RequestPermissionRequest:
		sessionID = r.SessionID
		params = v2Permission(r)
	case ElicitationRequest:
		sessionID = r.SessionID
	}
	if sessionID == "" {
		return p.peer.Call(ctx, method, params, result)
	}
	p.s.v2.sendState(sessionID, "requires_action")
	err := p.peer.Call(ctx, method, params, result)
	if ctx.Err() == nil {
		p.s.v2.sendState(sessionID, "running")
	}
	return err
}

func (p versionedPeer) Notify(ctx context.Context, method string, params any) error {
	return p.peer.Notify(ctx, method, params)
}

// v2Permission is v1's permission request as v2 asks it: titled, about a
// tool call given as its upsert.
func v2Permission(r RequestPermissionRequest) v2PermissionRequest {
	title := "Allow this tool call?"
	if r.ToolCall.Title != nil && *r.ToolCall.Title != "" {
		title = *r.ToolCall.Title
	}
	u := SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: r.ToolCall.ToolCallID, Title: r.ToolCall.Title,
		Kind: r.ToolCall.Kind, Status: r.ToolCall.Status, ToolContent: r.ToolCall.Content, Locations: r.ToolCall.Locations,
		RawInput: r.ToolCall.RawInput}
	call := v2ToolCall(u, false)[0]
	delete(call, "sessionUpdate")
	return v2PermissionRequest{SessionID: r.SessionID, Title: title, Subject: v2PermissionAbout{Type: "tool_call", ToolCall: call}, Options: r.Options}
}
