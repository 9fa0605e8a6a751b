package plugins

import (
	"encoding/json"
)

// Payload is the JSON a hook reads on stdin: goose's HookContext, field
// for field and in its order (absent fields are left out; matcher_context
// is always there, null when the event has no matcher target).
type Payload struct {
	Event          Event   `json:"event"`
	SessionID      string  `json:"session_id"`
	MatcherContext *string `json:"matcher_context"`
	ToolCallID     string  `json:"tool_call_id,omitempty"`
	ToolName       string  `json:"tool_name,omitempty"`
	// ToolInput is the call's arguments object (absent when the call had
	// none).
	ToolInput            json.RawMessage `json:"tool_input,omitempty"`
	Message              string          `json:"message,omitempty"`
	LastAssistantMessage string          `json:"last_assistant_message,omitempty"`
	WorkingDir           string          `json:"working_dir,omitempty"`
	// PreToolUseResult only: "allow" or "deny", whether a PreToolUse hook
	// ran to a decision, and on deny the plugin and its reason.
	Decision        string `json:"decision,omitempty"`
	PolicyEvaluated *bool  `json:"policy_evaluated,omitempty"`
	BlockedBy       string `json:"blocked_by,omitempty"`
	Reason          string `json:"reason,omitempty"`
	// Cause is "policy_denial" or "hook_failure" (PreToolUseResult).
	Cause string `json:"cause,omitempty"`

	// ToolResponse (the tool's result) and StopHookActive (a Stop after a
	// Stop hook blocked) reach Claude Code hooks only.
	ToolResponse   json.RawMessage `json:"-"`
	StopHookActive bool            `json:"-"`
}

// ForTool fills the tool fields: the tool's name is also the matcher
// target.
func (p Payload) ForTool(name string, args map[string]any) Payload {
	p.ToolName = name
	p.MatcherContext = &name
	if args != nil {
		if b, err := json.Marshal(args); err == nil {
			p.ToolInput = b
		}
	}
	return p
}

// WithMatcher sets the matcher target (a shell command, a file path).
func (p Payload) WithMatcher(s string) Payload {
	p.MatcherContext = &s
	return p
}

// WithMessage sets the prompt text, also the matcher target unless one is
// set (goose's with_message).
func (p Payload) WithMessage(s string) Payload {
	p.Message = s
	if p.MatcherContext == nil {
		p.MatcherContext = &s
	}
	return p
}

func (p Payload) target() string {
	if p.MatcherContext == nil {
		return ""
	}
	return *p.MatcherContext
}

// claudePayload is the payload of a Claude Code hook: goose's fields with
// Claude's after them, and tool_name as Claude names the tool (goose's
// name stays in matcher_context).
type claudePayload struct {
	Payload
	HookEventName  Event           `json:"hook_event_name"`
	CWD            string          `json:"cwd"`
	Prompt         string          `json:"prompt,omitempty"`
	ToolUseID      string          `json:"tool_use_id,omitempty"`
	ToolResponse   json.RawMessage `json:"tool_response,omitempty"`
	StopHookActive *bool           `json:"stop_hook_active,omitempty"`
}

func (p Payload) claude(cwd string) claudePayload {
	c := claudePayload{Payload: p, HookEventName: p.Event, CWD: cwd, ToolUseID: p.ToolCallID, ToolResponse: p.ToolResponse}
	if p.ToolName != "" {
		c.Payload.ToolName = claudeToolName(p.ToolName, p.ToolInput)
	}
	if p.Event == UserPromptSubmit {
		c.Prompt = p.Message
	}
	if p.Event == Stop {
		active := p.StopHookActive
		c.StopHookActive = &active
	}
	return c
}
