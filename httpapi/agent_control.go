package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/permission"
)

type updateProviderRequest struct {
	Provider      string         `json:"provider"`
	SessionID     string         `json:"session_id"`
	Model         *string        `json:"model"`
	ContextLimit  *int           `json:"context_limit"`
	RequestParams map[string]any `json:"request_params"`
}

func (q updateProviderRequest) check() error {
	return required("provider", q.Provider, "session_id", q.SessionID)
}

// agentUpdateProvider swaps the session's provider and model (model
// defaults to GOOSE_MODEL, then the provider's default); errors are
// text/plain as in goosed.
func (a *agentAPI) agentUpdateProvider(r *http.Request, q updateProviderRequest) (reply, error) {
	modelName := ""
	if q.Model != nil {
		modelName = *q.Model
	}
	if modelName == "" && a.cfg != nil {
		modelName, _ = a.cfg.GetString("GOOSE_MODEL")
	}
	if modelName == "" && a.setup != nil {
		if m, err := a.setup.Lookup(q.Provider); err == nil {
			modelName = m.DefaultModel
		}
	}
	if modelName == "" {
		return reply{}, textError(http.StatusBadRequest, "No model specified")
	}
	if err := a.sessions.Hold(r.Context(), q.SessionID, a.hold); err != nil {
		return reply{}, textError(http.StatusFailedDependency, "Failed to get session agent: %s", err)
	}
	if err := a.sessions.SetModel(r.Context(), q.SessionID, q.Provider, modelName); err != nil {
		return reply{}, textError(http.StatusBadRequest, "Failed to create provider: %s", err)
	}
	return noBody(http.StatusOK), nil
}

type updateSessionRequest struct {
	SessionID string  `json:"session_id"`
	GooseMode *string `json:"goose_mode"`
}

func (q updateSessionRequest) check() error { return required("session_id", q.SessionID) }

// agentUpdateSession sets the session's goose mode, loaded or not.
func (a *agentAPI) agentUpdateSession(r *http.Request, q updateSessionRequest) (reply, error) {
	if q.GooseMode == nil {
		return noBody(http.StatusOK), nil
	}
	mode := *q.GooseMode
	if _, err := permission.ParseMode(mode); err != nil {
		return reply{}, textError(http.StatusBadRequest, "Invalid goose_mode: %s", mode)
	}
	err := a.sessions.SetMode(r.Context(), q.SessionID, mode)
	switch {
	case errkind.Is(err, errkind.NotFound):
		return reply{}, textError(http.StatusBadRequest, "Session not found: %s", q.SessionID)
	case err != nil:
		return reply{}, textError(http.StatusInternalServerError, "%s", err)
	}
	return noBody(http.StatusOK), nil
}

// agentUpdateFromSession re-applies the session's recipe (with its user
// values) by reloading the session's agent state; a session without one
// is only loaded.
func (a *agentAPI) agentUpdateFromSession(r *http.Request, q sessionIDRequest) (reply, error) {
	sess, err := a.store.Get(r.Context(), q.SessionID, false)
	if err != nil {
		return reply{}, errorf(http.StatusFailedDependency, "%w", err)
	}
	if len(sess.Recipe) == 0 || string(sess.Recipe) == "null" {
		if err := a.sessions.Hold(r.Context(), q.SessionID, a.hold); err != nil {
			return reply{}, errNoAgent(err)
		}
		return noBody(http.StatusOK), nil
	}
	if _, err := a.reload(r.Context(), q.SessionID); err != nil {
		return reply{}, errorf(http.StatusFailedDependency, "%w", err)
	}
	return noBody(http.StatusOK), nil
}

type updateWorkingDirRequest struct {
	SessionID  string `json:"session_id"`
	WorkingDir string `json:"working_dir"`
}

func (q updateWorkingDirRequest) check() error {
	return required("session_id", q.SessionID, "working_dir", q.WorkingDir)
}

// agentUpdateWorkingDir moves the session to an existing directory,
// loaded or not.
func (a *agentAPI) agentUpdateWorkingDir(r *http.Request, q updateWorkingDirRequest) (reply, error) {
	dir := strings.TrimSpace(q.WorkingDir)
	err := a.sessions.UpdateWorkingDir(r.Context(), q.SessionID, dir)
	if errkind.Is(err, errkind.Invalid) || (err != nil && dir == "") {
		return reply{}, badRequest("Directory does not exist: %s", q.WorkingDir)
	}
	if err != nil {
		return reply{}, err
	}
	return noBody(http.StatusOK), nil
}

type callToolRequest struct {
	SessionID string         `json:"session_id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

func (q callToolRequest) check() error { return required("session_id", q.SessionID, "name", q.Name) }

// agentCallTool runs a tool directly (MCP Apps) → rmcp CallToolResult.
func (a *agentAPI) agentCallTool(r *http.Request, q callToolRequest) (reply, error) {
	if err := a.sessions.Hold(r.Context(), q.SessionID, a.hold); err != nil {
		return reply{}, errNoAgent(err)
	}
	if q.Arguments == nil {
		q.Arguments = map[string]any{}
	}
	res, err := a.extensions.CallTool(r.Context(), q.SessionID, q.Name, q.Arguments)
	switch {
	case errors.Is(err, agent.ErrToolNotFound): // 404 "Tool not found: <name>"
		return reply{}, err
	case err != nil:
		return reply{}, errorf(http.StatusInternalServerError, "%w", err)
	}
	if res.Content == nil {
		res.Content = []conversation.ToolContent{}
	}
	return ok(res), nil
}

type readResourceRequest struct {
	SessionID     string `json:"session_id"`
	ExtensionName string `json:"extension_name"`
	URI           string `json:"uri"`
}

func (q readResourceRequest) check() error {
	return required("session_id", q.SessionID, "extension_name", q.ExtensionName, "uri", q.URI)
}

type readResourceResponse struct {
	URI      string         `json:"uri"`
	Text     string         `json:"text"`
	MimeType *string        `json:"mimeType"`
	Meta     map[string]any `json:"_meta"`
}

// agentReadResource reads the first text content of an MCP resource.
func (a *agentAPI) agentReadResource(r *http.Request, q readResourceRequest) (reply, error) {
	if err := a.sessions.Hold(r.Context(), q.SessionID, a.hold); err != nil {
		return reply{}, errNoAgent(err)
	}
	res, err := a.extensions.ReadResource(r.Context(), q.SessionID, q.ExtensionName, q.URI)
	if err != nil {
		return reply{}, notFound("Failed to read resource: %w", err)
	}
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		out := readResourceResponse{URI: c.URI, Text: c.Text}
		if c.MIMEType != "" {
			out.MimeType = &c.MIMEType
		}
		if len(c.Meta) > 0 {
			out.Meta = c.Meta
		}
		return ok(out), nil
	}
	return reply{}, notFound("Resource has no content: %s", q.URI)
}
