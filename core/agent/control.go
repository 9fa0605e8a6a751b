package agent

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/permission"
)

// Mode returns the session's goose mode.
func (a *Agent) Mode(sessionID string) (permission.Mode, error) {
	s, err := a.session(sessionID)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode, nil
}

// SetModel switches the session's provider and model (persisted). An
// empty providerName keeps the current provider.
func (a *Agent) SetModel(ctx context.Context, sessionID, providerName, modelName string) error {
	s, err := a.session(sessionID)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if providerName == "" {
		providerName = s.providerName
	}
	s.mu.Unlock()
	if err := a.setProvider(ctx, s, providerName, model.Config{ModelName: modelName}); err != nil {
		return err
	}
	return a.saveSessionState(ctx, s)
}

// Model returns the session's provider name and model config.
func (a *Agent) Model(sessionID string) (string, model.Config, error) {
	s, err := a.session(sessionID)
	if err != nil {
		return "", model.Config{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.providerName, s.model, s.providerErr
}

// Tools lists the session's tools; ext filters by extension key ("" all,
// the recipe's sub-recipe tools included).
func (a *Agent) Tools(ctx context.Context, sessionID, ext string) ([]extension.Tool, error) {
	s, err := a.readySession(ctx, sessionID)
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
// checks (goosed's /agent/call_tool).
func (a *Agent) CallTool(ctx context.Context, sessionID, name string, args map[string]any) (conversation.CallToolResult, error) {
	s, err := a.readySession(ctx, sessionID)
	if err != nil {
		return conversation.CallToolResult{}, err
	}
	return s.mgr.Call(ctx, "call_"+a.opts.NewID(), name, args)
}

// ReadResource reads a resource from one of the session's extensions.
func (a *Agent) ReadResource(ctx context.Context, sessionID, ext, uri string) (*mcp.ReadResourceResult, error) {
	s, err := a.readySession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.mgr.ReadResource(ctx, ext, uri)
}

// ListResources lists one extension's resources.
func (a *Agent) ListResources(ctx context.Context, sessionID, ext string) ([]*mcp.Resource, error) {
	s, err := a.readySession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.mgr.ListResources(ctx, ext)
}

// ListPrompts lists the prompts of every extension.
func (a *Agent) ListPrompts(ctx context.Context, sessionID string) ([]extension.Prompt, error) {
	s, err := a.readySession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.mgr.ListPrompts(ctx)
}

// GetPrompt renders an extension prompt.
func (a *Agent) GetPrompt(ctx context.Context, sessionID, ext, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	s, err := a.readySession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.mgr.GetPrompt(ctx, ext, name, args)
}

// Todo returns the session's todo content (the todo platform extension's
// extension_data), for clients that show it as a plan.
func (a *Agent) Todo(ctx context.Context, sessionID string) (string, error) {
	sess, err := a.opts.Store.Get(ctx, sessionID, false)
	if err != nil {
		return "", err
	}
	return platform.TodoContent(sess.ExtensionData), nil
}
