package acp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/unavailable"
)

// Goose Desktop's per-session extension and tool methods, and its MCP
// Apps methods (goose-acp keeps no apps: the list is truly empty, the
// rest unavailable). Each is decode → core/agent → encode.

// sessionToolsAPI answers the methods on a session's extensions, tools
// and resources, through the agent. goose's older _goose/* methods work on
// sessions loaded on this connection only; the _goose/unstable ones load a
// stored session's extensions first.
type sessionToolsAPI struct {
	sessions   agent.Sessions
	extensions agent.Extensions
	loaded     *loadedSessions
}

func (a *sessionToolsAPI) methods() map[string]RequestHandler {
	const p = "_goose/unstable/"
	return map[string]RequestHandler{
		"_goose/extensions/add":         typed(a.addLoadedExtension),
		"_goose/extensions/remove":      typed(a.removeLoadedExtension),
		"_goose/tools":                  typed(a.loadedTools),
		"_goose/resource/read":          typed(a.readLoadedResource),
		p + "session/extensions/add":    typed(a.addExtension),
		p + "session/extensions/remove": typed(a.removeExtension),
		p + "session/extensions/list":   typed(a.listExtensions),
		p + "tools/list":                typed(a.tools),
		p + "tools/permissions/set":     typed(a.setPermissions),
		p + "tools/call":                typed(a.call),
		p + "resources/read":            typed(a.readResource),
		p + "apps/list":                 typed(a.apps),
	}
}

// appsFeature: MCP Apps (ui:// resources saved as standalone apps).
var appsFeature = unavailable.Feature{Name: "MCP Apps",
	Why: "goose-acp keeps no app library; apps served by an extension still render through resources/read"}

// ensureLoaded makes sure a stored session has live extensions, as
// goose's get_session_agent does, and returns its trimmed id.
func ensureLoaded(ctx context.Context, sessions agent.Sessions, id string) (string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", invalidParams("sessionId cannot be empty")
	}
	if err := sessions.EnsureLoaded(ctx, id); err != nil {
		return "", storeErr(err, id)
	}
	return id, nil
}

type sessionExtAddRequest struct {
	SessionID string         `json:"sessionId"`
	Extension GooseExtension `json:"extension"`
}

func (a *sessionToolsAPI) addExtension(ctx context.Context, req sessionExtAddRequest) (struct{}, error) {
	cfg, env, err := extensionFromWire(req.Extension)
	if err != nil {
		return struct{}{}, err
	}
	// A session extension's env values are the session's own: they go to
	// the process, never to the secret store or config.yaml.
	if len(env) > 0 {
		cfg.Envs = envValues(env)
	}
	id, err := ensureLoaded(ctx, a.sessions, req.SessionID)
	if err != nil {
		return struct{}{}, err
	}
	return struct{}{}, a.extensions.Add(ctx, id, cfg)
}

// sessionExtRemoveRequest names the extension by extensionKey (Desktop
// 1.5x) or by name (Desktop 1.44).
type sessionExtRemoveRequest struct {
	SessionID    string `json:"sessionId"`
	ExtensionKey string `json:"extensionKey"`
	Name         string `json:"name"`
}

func (a *sessionToolsAPI) removeExtension(ctx context.Context, req sessionExtRemoveRequest) (struct{}, error) {
	id, err := ensureLoaded(ctx, a.sessions, req.SessionID)
	if err != nil {
		return struct{}{}, err
	}
	key := strings.TrimSpace(req.ExtensionKey)
	if key == "" {
		key = strings.TrimSpace(req.Name)
	}
	if key == "" {
		return struct{}{}, invalidParams("extensionKey (or name) is required")
	}
	return struct{}{}, badName(a.extensions.Remove(ctx, id, key))
}

// sessionExtEntry is one session/extensions/list item in the one shape
// both Desktops parse: 1.5x's {extension, extensionKey} with the
// extension's own fields also at the top level, as 1.44 reads a plain
// GooseExtension.
type sessionExtEntry struct {
	Extension    GooseExtension `json:"extension"`
	ExtensionKey string         `json:"extensionKey"`
}

func (e sessionExtEntry) MarshalJSON() ([]byte, error) {
	flat, err := json.Marshal(e.Extension)
	if err != nil {
		return nil, err
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(flat, &out); err != nil {
		return nil, err
	}
	out["extension"] = flat
	if out["extensionKey"], err = json.Marshal(e.ExtensionKey); err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

type sessionExtListResponse struct {
	Extensions []sessionExtEntry `json:"extensions"`
}

// listExtensions lists the session's extensions that have a wire
// form (frontend and inline-Python ones have none in goose either).
func (a *sessionToolsAPI) listExtensions(ctx context.Context, req unstableSessionID) (sessionExtListResponse, error) {
	id, err := ensureLoaded(ctx, a.sessions, req.SessionID)
	if err != nil {
		return sessionExtListResponse{}, err
	}
	infos, err := a.extensions.List(id)
	if err != nil {
		return sessionExtListResponse{}, err
	}
	out := sessionExtListResponse{Extensions: []sessionExtEntry{}}
	for _, info := range infos {
		if g, ok := extensionToWire(info.Config); ok {
			out.Extensions = append(out.Extensions, sessionExtEntry{Extension: g, ExtensionKey: info.Key})
		}
	}
	return out, nil
}

type toolsListRequest struct {
	SessionID     string  `json:"sessionId"`
	ExtensionName *string `json:"extensionName"`
}

type toolListItem struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  []string        `json:"parameters"`
	Permission  *string         `json:"permission"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

type toolsListResponse struct {
	Tools []toolListItem `json:"tools"`
}

func (a *sessionToolsAPI) tools(ctx context.Context, req toolsListRequest) (toolsListResponse, error) {
	id, err := ensureLoaded(ctx, a.sessions, req.SessionID)
	if err != nil {
		return toolsListResponse{}, err
	}
	ext := ""
	if req.ExtensionName != nil {
		ext = *req.ExtensionName
	}
	tools, err := a.extensions.ListTools(ctx, id, ext)
	if err != nil {
		return toolsListResponse{}, err
	}
	out := toolsListResponse{Tools: make([]toolListItem, 0, len(tools))}
	for _, t := range tools {
		item := toolListItem{Name: t.Name, Description: t.Description, Parameters: t.Parameters, InputSchema: t.InputSchema}
		if len(item.InputSchema) == 0 {
			item.InputSchema = json.RawMessage(`{}`)
		}
		if t.Permission != permission.LevelNone {
			p := string(t.Permission)
			item.Permission = &p
		}
		out.Tools = append(out.Tools, item)
	}
	return out, nil
}

type toolPermissionsRequest struct {
	ToolPermissions []struct {
		ToolName   string `json:"toolName"`
		Permission string `json:"permission"`
	} `json:"toolPermissions"`
}

// setPermissions writes every entry to permission.yaml; a bad
// entry is refused before anything is written.
func (a *sessionToolsAPI) setPermissions(_ context.Context, req toolPermissionsRequest) (struct{}, error) {
	for _, e := range req.ToolPermissions {
		switch permission.Level(e.Permission) {
		case permission.LevelAlwaysAllow, permission.LevelAskBefore, permission.LevelNeverAllow:
		default:
			return struct{}{}, invalidParams("unknown permission %q for %s (always_allow, ask_before or never_allow)", e.Permission, e.ToolName)
		}
		if strings.TrimSpace(e.ToolName) == "" {
			return struct{}{}, invalidParams("toolName cannot be empty")
		}
	}
	for _, e := range req.ToolPermissions {
		if err := a.extensions.SetToolPermission(e.ToolName, permission.Level(e.Permission)); err != nil {
			return struct{}{}, err
		}
	}
	return struct{}{}, nil
}

type toolCallRequest struct {
	SessionID     string          `json:"sessionId"`
	ExtensionName string          `json:"extensionName"`
	Name          string          `json:"name"`
	Arguments     json.RawMessage `json:"arguments"`
}

type toolCallResponse struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent any               `json:"structuredContent,omitempty"`
	IsError           bool              `json:"isError"`
	Meta              map[string]any    `json:"_meta,omitempty"`
}

func (a *sessionToolsAPI) call(ctx context.Context, req toolCallRequest) (toolCallResponse, error) {
	var args map[string]any
	if raw := strings.TrimSpace(string(req.Arguments)); raw != "" && raw != "null" {
		if err := json.Unmarshal(req.Arguments, &args); err != nil {
			return toolCallResponse{}, invalidParams("tool arguments must be an object")
		}
	}
	id, err := ensureLoaded(ctx, a.sessions, req.SessionID)
	if err != nil {
		return toolCallResponse{}, err
	}
	res, err := a.extensions.CallAppTool(ctx, id, req.ExtensionName, req.Name, args)
	switch k := errkind.Of(err); {
	case err != nil && (k == errkind.NotFound || k == errkind.Conflict):
		// No such tool, or not now (the session is not in auto mode).
		return toolCallResponse{}, badName(err)
	case err != nil:
		// The tool could not run at all: the app reads it as an error
		// result, as a model would.
		text, _ := json.Marshal(map[string]string{"type": "text", "text": err.Error()})
		return toolCallResponse{Content: []json.RawMessage{text}, IsError: true}, nil
	}
	out := toolCallResponse{Content: []json.RawMessage{}, IsError: res.IsError, StructuredContent: res.StructuredContent, Meta: res.Meta}
	for _, c := range res.Content {
		b, err := json.Marshal(c)
		if err != nil {
			return toolCallResponse{}, err
		}
		out.Content = append(out.Content, b)
	}
	return out, nil
}

func (a *sessionToolsAPI) readResource(ctx context.Context, req resourceReadRequest) (any, error) {
	id, err := ensureLoaded(ctx, a.sessions, req.SessionID)
	if err != nil {
		return nil, err
	}
	res, err := a.extensions.ReadResource(ctx, id, req.ExtensionName, req.URI)
	if err != nil {
		return nil, err
	}
	return map[string]any{"result": res}, nil
}

type appsListResponse struct {
	Apps []any `json:"apps"`
}

// apps: goose-acp keeps no apps, so there are none to list.
func (a *sessionToolsAPI) apps(context.Context, struct{}) (appsListResponse, error) {
	return appsListResponse{Apps: []any{}}, nil
}

type extensionAddRequest struct {
	SessionID string          `json:"sessionId"`
	Config    json.RawMessage `json:"config"`
}

func (a *sessionToolsAPI) addLoadedExtension(ctx context.Context, req extensionAddRequest) (struct{}, error) {
	var cfg config.ExtensionConfig
	if err := json.Unmarshal(req.Config, &cfg); err != nil {
		return struct{}{}, invalidParams("bad config: %v", err)
	}
	if _, err := a.loaded.lookup(req.SessionID); err != nil {
		return struct{}{}, err
	}
	return struct{}{}, a.extensions.Add(ctx, req.SessionID, cfg)
}

type extensionRemoveRequest struct {
	SessionID string `json:"sessionId"`
	Name      string `json:"name"`
}

func (a *sessionToolsAPI) removeLoadedExtension(ctx context.Context, req extensionRemoveRequest) (struct{}, error) {
	if _, err := a.loaded.lookup(req.SessionID); err != nil {
		return struct{}{}, err
	}
	return struct{}{}, a.extensions.Remove(ctx, req.SessionID, req.Name)
}

func (a *sessionToolsAPI) loadedTools(ctx context.Context, req SessionIDRequest) (any, error) {
	if _, err := a.loaded.lookup(req.SessionID); err != nil {
		return nil, err
	}
	tools, err := a.extensions.Tools(ctx, req.SessionID, "")
	if err != nil {
		return nil, err
	}
	return map[string]any{"tools": tools}, nil
}

type resourceReadRequest struct {
	SessionID     string `json:"sessionId"`
	URI           string `json:"uri"`
	ExtensionName string `json:"extensionName"`
}

func (a *sessionToolsAPI) readLoadedResource(ctx context.Context, req resourceReadRequest) (any, error) {
	if _, err := a.loaded.lookup(req.SessionID); err != nil {
		return nil, err
	}
	res, err := a.extensions.ReadResource(ctx, req.SessionID, req.ExtensionName, req.URI)
	if err != nil {
		return nil, err
	}
	return map[string]any{"result": res}, nil
}
