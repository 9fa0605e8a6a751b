package acp

import (
	"context"
	"encoding/json"
)

// v2's session methods answer through v1's handlers (the same core
// operations) and reshape the results: configuration is config options
// only (configId), resume replays when asked (replayFrom), prompts follow
// v2's lifecycle (v2_prompt.go). session/list, close and delete keep v1's
// shapes and handlers.

type v2ConfigOption struct {
	ConfigID     string              `json:"configId"`
	Name         string              `json:"name"`
	Description  string              `json:"description,omitempty"`
	Category     string              `json:"category,omitempty"`
	Type         string              `json:"type"`
	CurrentValue string              `json:"currentValue"`
	Options      []ConfigOptionValue `json:"options"`
}

type v2NewSessionResponse struct {
	SessionID     string           `json:"sessionId"`
	ConfigOptions []v2ConfigOption `json:"configOptions"`
	Meta          Meta             `json:"_meta,omitempty"`
}

type v2ResumeSessionResponse struct {
	ConfigOptions []v2ConfigOption `json:"configOptions"`
	Meta          Meta             `json:"_meta,omitempty"`
}

type v2SetConfigOptionResponse struct {
	ConfigOptions []v2ConfigOption `json:"configOptions"`
}

// v2ResumeRequest is session/resume's v2 params: v1's plus replayFrom.
type v2ResumeRequest struct {
	LoadSessionRequest
	ReplayFrom *struct {
		Type string `json:"type"`
	} `json:"replayFrom,omitempty"`
}

type v2CancelToolCallRequest struct {
	SessionID  string `json:"sessionId"`
	ToolCallID string `json:"toolCallId"`
}

type v2CancelTerminalRequest struct {
	SessionID  string `json:"sessionId"`
	TerminalID string `json:"terminalId"`
}

// v2ConfigOptions keeps the options v2 can carry (a select needs a value
// to choose) under v2's names.
func v2ConfigOptions(opts []ConfigOption) []v2ConfigOption {
	out := []v2ConfigOption{}
	for _, o := range opts {
		if o.Type == "select" && len(o.Options) == 0 {
			continue
		}
		out = append(out, v2ConfigOption{ConfigID: o.ID, Name: o.Name, Description: o.Description, Category: o.Category,
			Type: o.Type, CurrentValue: o.CurrentValue, Options: o.Options})
	}
	return out
}

// methods are the handlers a v2 client gets in place of v1's (v1 is
// v1's table): each answers through v1's handler and reshapes.
func (a *v2API) methods(v1 map[string]RequestHandler) map[string]RequestHandler {
	return map[string]RequestHandler{
		"session/new": reshape(v1["session/new"], func(r NewSessionResponse) any {
			return v2NewSessionResponse{SessionID: r.SessionID, ConfigOptions: v2ConfigOptions(r.ConfigOptions), Meta: r.Meta}
		}),
		"session/resume": resumeV2(v1["session/load"], v1["session/resume"]),
		"session/set_config_option": reshape(v1["session/set_config_option"], func(r SetConfigOptionResponse) any {
			return v2SetConfigOptionResponse{v2ConfigOptions(r.ConfigOptions)}
		}),
		"session/prompt":   typed(a.promptV2),
		"tool_call/cancel": typed(a.cancelToolCall),
		"terminal/cancel":  typed(a.cancelTerminal),
	}
}

// v2Handshake are v2's methods that need nothing Options.Open builds.
func (s *Server) v2Handshake() map[string]RequestHandler {
	return map[string]RequestHandler{
		"auth/login":  typed(s.authenticate),
		"auth/logout": typed(s.logout),
	}
}

// reshape answers with h and converts its result (also inside a
// followUp) with f.
func reshape[R any](h RequestHandler, f func(R) any) RequestHandler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		res, err := h(ctx, raw)
		if err != nil {
			return nil, err
		}
		switch r := res.(type) {
		case R:
			return f(r), nil
		case followUp:
			if inner, ok := r.result.(R); ok {
				r.result = f(inner)
			}
			return r, nil
		}
		return res, nil
	}
}

// resumeV2 is v2's session/resume: with replayFrom (the history from its
// start, the draft's one cursor) it replays like v1's session/load, else
// it resumes without replay.
func resumeV2(load, resume RequestHandler) RequestHandler {
	toV2 := func(r SessionSetupResponse) any {
		return v2ResumeSessionResponse{ConfigOptions: v2ConfigOptions(r.ConfigOptions), Meta: r.Meta}
	}
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var req v2ResumeRequest
		if err := json.Unmarshal(raw, &req); err != nil {
			return nil, invalidParams("%v", err)
		}
		h := resume
		if req.ReplayFrom != nil {
			if req.ReplayFrom.Type != "start" {
				return nil, invalidParams("replayFrom type %q is not supported (only \"start\")", req.ReplayFrom.Type)
			}
			h = load
		}
		return reshape(h, toV2)(ctx, raw)
	}
}

// cancelToolCall stops one running tool call; the turn goes on, and
// the call's final tool_call_update confirms it.
func (a *v2API) cancelToolCall(_ context.Context, req v2CancelToolCallRequest) (struct{}, error) {
	if _, err := a.loaded.lookup(req.SessionID); err != nil {
		return struct{}{}, err
	}
	return struct{}{}, a.agent.CancelToolCall(req.SessionID, req.ToolCallID)
}

// cancelTerminal stops a display terminal's command. Each terminal this
// adapter shows is its shell call's own (terminal id = tool call id), so
// stopping it cancels that call; a terminal_update with exitStatus
// follows.
func (a *v2API) cancelTerminal(_ context.Context, req v2CancelTerminalRequest) (struct{}, error) {
	if _, err := a.loaded.lookup(req.SessionID); err != nil {
		return struct{}{}, err
	}
	return struct{}{}, a.agent.CancelToolCall(req.SessionID, req.TerminalID)
}

// logout ends this connection's signed-in state. The provider's stored
// credentials stay (they are goose's configuration, shared with goose and
// other editors): requests that need a provider answer -32000 until
// auth/login checks the configuration again.
func (s *Server) logout(_ context.Context, _ struct{}) (struct{}, error) {
	s.loggedOut.Store(true)
	return struct{}{}, nil
}
