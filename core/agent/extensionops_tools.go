package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/permission"
)

// ListedTool is a session's tool as goose 1.54 lists it for Desktop: its
// parameter names and the permission goose would apply.
type ListedTool struct {
	extension.Tool
	Parameters []string
	// Permission is LevelNone when goose would not ask (auto mode and no
	// permission.yaml entry).
	Permission permission.Level
	// UserLevel is the tool's permission.yaml user level alone (what
	// goosed lists), LevelNone when it has none.
	UserLevel permission.Level
}

// ListTools lists a loaded session's tools sorted by name (ext filters by
// extension). The permission is the tool's permission.yaml user level,
// else in smart_approve its smart level, in approve mode ask_before.
func (svc Extensions) ListTools(ctx context.Context, sessionID, ext string) ([]ListedTool, error) {
	tools, err := svc.Tools(ctx, sessionID, ext)
	if err != nil {
		return nil, err
	}
	mode, err := svc.a.Sessions().Mode(sessionID)
	if err != nil {
		return nil, err
	}
	out := make([]ListedTool, 0, len(tools))
	for _, t := range tools {
		out = append(out, ListedTool{Tool: t, Parameters: ParameterNames(t.InputSchema), Permission: svc.toolPermission(mode, t),
			UserLevel: svc.userLevel(t)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// toolPermission is the tool's user level, else in smart_approve its
// smart level, in approve mode ask_before.
func (svc Extensions) toolPermission(mode permission.Mode, t extension.Tool) permission.Level {
	if l := svc.userLevel(t); l != permission.LevelNone {
		return l
	}
	switch mode {
	case permission.ModeSmartApprove:
		if svc.a.opts.Permissions != nil {
			return storedLevel(svc.a.opts.Permissions.Smart, t)
		}
	case permission.ModeApprove:
		return permission.LevelAskBefore
	}
	return permission.LevelNone
}

// userLevel is the tool's permission.yaml user level.
func (svc Extensions) userLevel(t extension.Tool) permission.Level {
	if svc.a.opts.Permissions == nil {
		return permission.LevelNone
	}
	return storedLevel(svc.a.opts.Permissions.User, t)
}

// storedLevel reads a tool's level under its public name, else under the
// prefixed name rules saved before goose 1.54 carry.
func storedLevel(lookup func(string) permission.Level, t extension.Tool) permission.Level {
	if l := lookup(t.Name); l != permission.LevelNone || t.Local == "" {
		return l
	}
	return lookup(t.PrefixedName())
}

// ErrNoPermissionStore: the agent was built without permission.yaml.
var ErrNoPermissionStore = errkind.New(errkind.Unavailable, "tool permissions are not available (no permission store)")

// SetToolPermission writes a tool's user level to permission.yaml.
func (svc Extensions) SetToolPermission(tool string, l permission.Level) error {
	switch l {
	case permission.LevelAlwaysAllow, permission.LevelAskBefore, permission.LevelNeverAllow:
	default:
		return fmt.Errorf("unknown permission level %q", l)
	}
	if svc.a.opts.Permissions == nil {
		return ErrNoPermissionStore
	}
	return svc.a.opts.Permissions.SetUser(tool, l)
}

// ErrAppToolNotAuto: goose runs tools for app clients only in auto mode
// (no approval can be asked outside a turn).
var ErrAppToolNotAuto = errkind.New(errkind.Conflict, "app tool calls require auto mode")

// ErrToolNotFound: no tool of that name in that extension.
var ErrToolNotFound = errkind.New(errkind.NotFound, "tool not found")

// CallAppTool runs one tool of a loaded session outside a turn, as a
// client app asks (goose's dispatch_app_tool_call): only in auto mode,
// only a tool the named extension owns. A tool failure is a result with
// IsError, never an error.
func (svc Extensions) CallAppTool(ctx context.Context, sessionID, ext, name string, args map[string]any) (conversation.CallToolResult, error) {
	tools, err := svc.Tools(ctx, sessionID, ext)
	if err != nil {
		return conversation.CallToolResult{}, err
	}
	found := false
	for _, t := range tools {
		if t.Name == name || t.Local == name {
			found, name = true, t.Name
			break
		}
	}
	if !found {
		// Desktop 1.44 names the tool "<extension>__<tool>" even where
		// goose 1.54 made it bare (developer__shell for shell).
		if t, ok := extension.Resolve(tools, name); ok {
			found, name = true, t.Name
		}
	}
	if !found {
		return conversation.CallToolResult{}, ErrToolNotFound
	}
	mode, err := svc.a.Sessions().Mode(sessionID)
	if err != nil {
		return conversation.CallToolResult{}, err
	}
	if mode != permission.ModeAuto {
		return conversation.CallToolResult{}, ErrAppToolNotAuto
	}
	return svc.CallTool(ctx, sessionID, name, args)
}

// ParameterNames lists the property names of a tool's JSON input schema,
// sorted (goose's get_parameter_names).
func ParameterNames(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	out := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
