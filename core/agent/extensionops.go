package agent

import (
	"context"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/platform"
)

// Tools lists the session's tools; ext filters by extension key ("" all,
// the recipe's sub-recipe tools included).
func (svc Extensions) Tools(ctx context.Context, sessionID, ext string) ([]extension.Tool, error) {
	s, err := svc.a.readySession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	var out []extension.Tool
	for _, t := range s.mgr.Tools(ctx) {
		if ext == "" || t.Extension == ext || t.Extension == extension.Normalize(ext) {
			out = append(out, t)
		}
	}
	if ext == "" {
		out = append(out, s.subRecipeInfos()...)
	}
	return out, nil
}

// CallTool runs a tool directly, outside any turn and without permission
// checks (goosed's /agent/call_tool). A name none of the session's
// extensions offers is ErrToolNotFound ("Tool not found: <name>").
func (svc Extensions) CallTool(ctx context.Context, sessionID, name string, args map[string]any) (conversation.CallToolResult, error) {
	s, err := svc.a.readySession(ctx, sessionID)
	if err != nil {
		return conversation.CallToolResult{}, err
	}
	named := func(t extension.Tool) bool { return t.Name == name }
	if !slices.ContainsFunc(s.mgr.Tools(ctx), named) && !slices.ContainsFunc(s.subRecipeInfos(), named) {
		return conversation.CallToolResult{}, errkind.Wrapf(ErrToolNotFound, "Tool not found: %s", name)
	}
	return s.mgr.Call(ctx, "call_"+svc.a.opts.NewID(), name, args)
}

// ReadResource reads a resource from one of the session's extensions.
func (svc Extensions) ReadResource(ctx context.Context, sessionID, ext, uri string) (*mcp.ReadResourceResult, error) {
	s, err := svc.a.readySession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.mgr.ReadResource(ctx, ext, uri)
}

// ListResources lists one extension's resources.
func (svc Extensions) ListResources(ctx context.Context, sessionID, ext string) ([]*mcp.Resource, error) {
	s, err := svc.a.readySession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.mgr.ListResources(ctx, ext)
}

// ListPrompts lists the prompts of every extension.
func (svc Extensions) ListPrompts(ctx context.Context, sessionID string) ([]extension.Prompt, error) {
	s, err := svc.a.readySession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.mgr.ListPrompts(ctx)
}

// GetPrompt renders an extension prompt.
func (svc Extensions) GetPrompt(ctx context.Context, sessionID, ext, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	s, err := svc.a.readySession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.mgr.GetPrompt(ctx, ext, name, args)
}

// Todo returns the session's todo content (the todo platform extension's
// extension_data), for clients that show it as a plan.
func (svc Extensions) Todo(ctx context.Context, sessionID string) (string, error) {
	sess, err := svc.a.opts.Store.Get(ctx, sessionID, false)
	if err != nil {
		return "", err
	}
	return platform.TodoContent(sess.ExtensionData), nil
}

// Add connects an extension to a loaded session and persists
// the session's extension list.
func (svc Extensions) Add(ctx context.Context, sessionID string, cfg config.ExtensionConfig) error {
	if err := config.CheckAvailable(cfg); err != nil {
		return err
	}
	s, err := svc.a.readySession(ctx, sessionID)
	if err != nil {
		return err
	}
	if err := s.mgr.Add(ctx, cfg); err != nil {
		return err
	}
	return svc.a.saveSessionState(ctx, s)
}

// Remove disconnects an extension by name.
func (svc Extensions) Remove(ctx context.Context, sessionID, name string) error {
	s, err := svc.a.readySession(ctx, sessionID)
	if err != nil {
		return err
	}
	if err := s.mgr.Remove(name); err != nil {
		return fmt.Errorf("%w: %w", ErrUnknownExtension, err)
	}
	return svc.a.saveSessionState(ctx, s)
}

// List returns the session's connected extensions.
func (svc Extensions) List(sessionID string) ([]extension.Info, error) {
	s, err := svc.a.readySession(svc.a.bgCtx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.mgr.Extensions(), nil
}
