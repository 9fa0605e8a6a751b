package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/session"
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
func (s *Server) agentUpdateProvider(w http.ResponseWriter, r *http.Request) {
	var q updateProviderRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	modelName := ""
	if q.Model != nil {
		modelName = *q.Model
	}
	if modelName == "" && s.opts.Config != nil {
		modelName, _ = s.opts.Config.GetString("GOOSE_MODEL")
	}
	if modelName == "" {
		if m, ok := s.findProvider(q.Provider); ok {
			modelName = m.DefaultModel
		}
	}
	if modelName == "" {
		writeText(w, http.StatusBadRequest, "No model specified")
		return
	}
	if err := s.loadAgent(r.Context(), q.SessionID); err != nil {
		writeText(w, http.StatusFailedDependency, "Failed to get session agent: "+err.Error())
		return
	}
	if err := s.opts.Agent.SetModel(r.Context(), q.SessionID, q.Provider, modelName); err != nil {
		writeText(w, http.StatusBadRequest, "Failed to create provider: "+err.Error())
		return
	}
	writeEmpty(w, http.StatusOK)
}

type updateSessionRequest struct {
	SessionID string  `json:"session_id"`
	GooseMode *string `json:"goose_mode"`
}

func (q updateSessionRequest) check() error { return required("session_id", q.SessionID) }

// agentUpdateSession sets the session's goose mode.
func (s *Server) agentUpdateSession(w http.ResponseWriter, r *http.Request) {
	var q updateSessionRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if q.GooseMode == nil {
		writeEmpty(w, http.StatusOK)
		return
	}
	mode := *q.GooseMode
	if _, err := permission.ParseMode(mode); err != nil {
		writeText(w, http.StatusBadRequest, "Invalid goose_mode: "+mode)
		return
	}
	if _, err := s.opts.Store.Get(r.Context(), q.SessionID, false); err != nil {
		writeText(w, http.StatusBadRequest, "Session not found: "+q.SessionID)
		return
	}
	var err error
	if _, _, merr := s.opts.Agent.Model(q.SessionID); merr == nil || !isNotLoaded(merr) {
		err = s.opts.Agent.SetMode(q.SessionID, mode)
	} else {
		err = s.opts.Store.Update(r.Context(), q.SessionID, session.Update{GooseMode: &mode})
	}
	if err != nil {
		writeText(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeEmpty(w, http.StatusOK)
}

// agentUpdateFromSession re-applies the session's recipe (with its user
// values) by reloading the session's agent state.
func (s *Server) agentUpdateFromSession(w http.ResponseWriter, r *http.Request) {
	var q sessionIDRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	sess, err := s.opts.Store.Get(r.Context(), q.SessionID, false)
	if err != nil {
		s.writeError(w, r, errorf(http.StatusFailedDependency, "%w", err))
		return
	}
	if len(sess.Recipe) == 0 || string(sess.Recipe) == "null" {
		if err := s.loadAgent(r.Context(), q.SessionID); err != nil {
			s.writeError(w, r, errorf(http.StatusFailedDependency, "Failed to get session agent: %w", err))
			return
		}
		writeEmpty(w, http.StatusOK)
		return
	}
	if _, err := s.reload(r.Context(), q.SessionID); err != nil {
		s.writeError(w, r, errorf(http.StatusFailedDependency, "%w", err))
		return
	}
	writeEmpty(w, http.StatusOK)
}

type updateWorkingDirRequest struct {
	SessionID  string `json:"session_id"`
	WorkingDir string `json:"working_dir"`
}

func (q updateWorkingDirRequest) check() error {
	return required("session_id", q.SessionID, "working_dir", q.WorkingDir)
}

func (s *Server) agentUpdateWorkingDir(w http.ResponseWriter, r *http.Request) {
	var q updateWorkingDirRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	dir := strings.TrimSpace(q.WorkingDir)
	if dir == "" || !workingDirExists(dir) {
		s.writeError(w, r, badRequest("Directory does not exist: %s", q.WorkingDir))
		return
	}
	if _, err := s.opts.Store.Get(r.Context(), q.SessionID, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	var err error
	if _, _, merr := s.opts.Agent.Model(q.SessionID); isNotLoaded(merr) {
		err = s.opts.Store.Update(r.Context(), q.SessionID, session.Update{WorkingDir: &dir})
	} else {
		err = s.opts.Agent.UpdateWorkingDir(r.Context(), q.SessionID, dir)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEmpty(w, http.StatusOK)
}

type callToolRequest struct {
	SessionID string         `json:"session_id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

func (q callToolRequest) check() error { return required("session_id", q.SessionID, "name", q.Name) }

// agentCallTool runs a tool directly (MCP Apps) → rmcp CallToolResult.
func (s *Server) agentCallTool(w http.ResponseWriter, r *http.Request) {
	var q callToolRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.loadAgent(r.Context(), q.SessionID); err != nil {
		s.writeError(w, r, errorf(http.StatusFailedDependency, "Failed to get session agent: %w", err))
		return
	}
	if !s.hasTool(r, q.SessionID, q.Name) {
		s.writeError(w, r, notFound("Tool not found: %s", q.Name))
		return
	}
	if q.Arguments == nil {
		q.Arguments = map[string]any{}
	}
	res, err := s.opts.Agent.CallTool(r.Context(), q.SessionID, q.Name, q.Arguments)
	if err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
		return
	}
	if res.Content == nil {
		res.Content = []conversation.ToolContent{}
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) hasTool(r *http.Request, id, name string) bool {
	tools, err := s.opts.Agent.Tools(r.Context(), id, "")
	if err != nil {
		return false
	}
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
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
func (s *Server) agentReadResource(w http.ResponseWriter, r *http.Request) {
	var q readResourceRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.loadAgent(r.Context(), q.SessionID); err != nil {
		s.writeError(w, r, errorf(http.StatusFailedDependency, "Failed to get session agent: %w", err))
		return
	}
	res, err := s.opts.Agent.ReadResource(r.Context(), q.SessionID, q.ExtensionName, q.URI)
	if err != nil {
		s.writeError(w, r, notFound("Failed to read resource: %w", err))
		return
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
		writeJSON(w, http.StatusOK, out)
		return
	}
	s.writeError(w, r, notFound("Resource has no content: %s", q.URI))
}

func isNotLoaded(err error) bool { return errors.Is(err, agent.ErrSessionNotLoaded) }
