package agent

import (
	"context"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// ToolInfo returns what the session's tool of this name declares about
// itself (its kind and argument roles); a tool the session does not list,
// such as one from a replayed history whose extension is gone, gets
// toolinfo.Guess of its name.
func (svc Extensions) ToolInfo(ctx context.Context, sessionID, name string) toolinfo.Info {
	tools, err := svc.Tools(ctx, sessionID, "")
	if err == nil {
		if t, ok := extension.Resolve(tools, name); ok {
			return infoOf(t)
		}
	}
	return toolinfo.Guess(name)
}

// ToolOwner is the key of the extension whose tool name is (resolved as a
// call would be) and, for an MCP App tool, its ui:// resource; "" for a
// tool the session does not have.
func (svc Extensions) ToolOwner(ctx context.Context, sessionID, name string) (ext, appURI string) {
	tools, err := svc.Tools(ctx, sessionID, "")
	if err != nil {
		return "", ""
	}
	if t, ok := extension.Resolve(tools, name); ok {
		return t.Extension, t.AppURI
	}
	return "", ""
}

// tool is the tool this turn offers under name, or the one an older or
// mangled name refers to ("developer__shell" for shell; see
// extension.Resolve).
func (t *turn) tool(name string) (extension.Tool, bool) {
	if tool, ok := t.toolIndex[name]; ok {
		return tool, true
	}
	return extension.Resolve(t.tools, name)
}

// toolInfo is the Info of a tool this turn offers, or the guess for a
// name it does not (a model may call a tool that does not exist).
func (t *turn) toolInfo(name string) toolinfo.Info {
	if tool, ok := t.tool(name); ok {
		return infoOf(tool)
	}
	return toolinfo.Guess(name)
}

// toolInfoFunc resolves a tool name to what the tool declares, against
// tools.
func toolInfoFunc(tools []extension.Tool) func(string) toolinfo.Info {
	return func(name string) toolinfo.Info {
		if tool, ok := extension.Resolve(tools, name); ok {
			return infoOf(tool)
		}
		return toolinfo.Guess(name)
	}
}

// frontend reports whether name is a tool the client runs.
func (t *turn) frontend(name string) bool {
	tool, ok := t.tool(name)
	return ok && tool.Frontend
}

// infoOf is a listed tool's Info; core's own tools (sub-recipes,
// final_output) declare none and get the guess.
func infoOf(t extension.Tool) toolinfo.Info {
	if t.Info.Kind == "" {
		return toolinfo.Guess(t.Name)
	}
	return t.Info
}
