package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/setup"
)

// agentAPI answers /agent/*: a session's live agent state (start, resume,
// restart, stop, provider, mode, working dir, extensions, tools,
// resources) through the agent.
type agentAPI struct {
	// agent starts, resumes and closes sessions.
	agent    *agent.Agent
	sessions agent.Sessions
	// hold is REST's hold on the sessions it loads (/agent/stop lets go).
	hold       agent.Holder
	extensions agent.Extensions
	store      agent.SessionReader
	cfg        *config.Config
	setup      *setup.Setup
	library    *recipe.Library
	// buses: stopping a session's agent cancels its requests.
	buses *buses
}

func (a *agentAPI) routes() []route {
	return []route{
		{"POST", "/agent/start", 0, withBody(a.agentStart), nil},
		{"POST", "/agent/resume", 0, withBody(a.agentResume), nil},
		{"POST", "/agent/restart", 0, withBody(a.agentRestart), nil},
		{"POST", "/agent/stop", 0, withBody(a.agentStop), nil},
		{"GET", "/agent/tools", 0, noInput(a.agentTools), nil},
		{"POST", "/agent/add_extension", 0, withBody(a.agentAddExtension), nil},
		{"POST", "/agent/remove_extension", 0, withBody(a.agentRemoveExtension), nil},
		{"POST", "/agent/update_provider", 0, withBody(a.agentUpdateProvider), nil},
		{"POST", "/agent/update_session", 0, withBody(a.agentUpdateSession), nil},
		{"POST", "/agent/update_from_session", 0, withBody(a.agentUpdateFromSession), nil},
		{"POST", "/agent/update_working_dir", 0, withBody(a.agentUpdateWorkingDir), nil},
		{"POST", "/agent/call_tool", 0, withBody(a.agentCallTool), nil},
		{"POST", "/agent/read_resource", 0, withBody(a.agentReadResource), nil},
		{"GET", "/agent/list_apps", 0, noInput(a.agentListApps), nil},
	}
}

// DefaultSessionName is the name goosed gives a new desktop session.
const DefaultSessionName = "New Chat"

type startAgentRequest struct {
	WorkingDir         string                    `json:"working_dir"`
	Recipe             json.RawMessage           `json:"recipe"`
	RecipeID           *string                   `json:"recipe_id"`
	RecipeDeeplink     *string                   `json:"recipe_deeplink"`
	ExtensionOverrides *[]config.ExtensionConfig `json:"extension_overrides"`
}

func (q startAgentRequest) check() error { return required("working_dir", q.WorkingDir) }

// agentStart creates a session (type user, "New Chat") running the
// request's recipe, if any, loads its extensions and answers the Session
// without conversation.
func (a *agentAPI) agentStart(r *http.Request, q startAgentRequest) (reply, error) {
	rec, err := a.requestRecipe(q)
	if err != nil {
		return reply{}, err
	}
	// The agent gives a new session the current GOOSE_MODE.
	opts := agent.StartOptions{WorkingDir: q.WorkingDir, Type: session.TypeUser, UseConfiguredExtensions: true}
	if q.ExtensionOverrides != nil {
		opts.UseConfiguredExtensions = false
		opts.Extensions = *q.ExtensionOverrides
	}
	if rec != nil {
		opts.UseRecipe(rec, nil)
		if q.RecipeID != nil && *q.RecipeID != "" {
			// A saved recipe's sub-recipes sit next to it.
			opts.Recipe.Dir = a.library.Dir
		}
	}
	opts.Holder = a.hold
	sess, _, err := a.agent.StartSession(r.Context(), opts)
	if err != nil {
		return reply{}, errorf(http.StatusInternalServerError, "Failed to create session: %w", err)
	}
	sess.Conversation = nil
	return ok(sess), nil
}

// requestRecipe reads the recipe of a start request (inline, deeplink or
// a saved recipe id).
func (a *agentAPI) requestRecipe(q startAgentRequest) (*recipe.Recipe, error) {
	switch {
	case len(q.Recipe) > 0 && string(q.Recipe) != "null":
		rec, err := recipe.FromJSON(q.Recipe)
		if err != nil {
			return nil, badRequest("Invalid recipe: %w", err)
		}
		return rec, nil
	case q.RecipeDeeplink != nil && *q.RecipeDeeplink != "":
		rec, err := recipe.Decode(*q.RecipeDeeplink)
		if err != nil {
			return nil, badRequest("Invalid recipe deeplink: %w", err)
		}
		return rec, nil
	case q.RecipeID != nil && *q.RecipeID != "":
		saved, err := a.library.Find(*q.RecipeID)
		if err != nil {
			return nil, err
		}
		return saved.Recipe, nil
	}
	return nil, nil
}

type sessionIDRequest struct {
	SessionID string `json:"session_id"`
}

func (q sessionIDRequest) check() error { return required("session_id", q.SessionID) }

type resumeAgentRequest struct {
	SessionID              string `json:"session_id"`
	LoadModelAndExtensions *bool  `json:"load_model_and_extensions"`
}

func (q resumeAgentRequest) check() error {
	if q.LoadModelAndExtensions == nil {
		return errors.New("missing field `load_model_and_extensions`")
	}
	return required("session_id", q.SessionID)
}

type resumeAgentResponse struct {
	Session          session.Session    `json:"session"`
	ExtensionResults []extension.Result `json:"extension_results,omitempty"`
}

// agentResume loads a session with its conversation and, when asked,
// its provider and extensions.
func (a *agentAPI) agentResume(r *http.Request, q resumeAgentRequest) (reply, error) {
	if _, err := a.store.Get(r.Context(), q.SessionID, false); err != nil {
		return reply{}, notFound("Session not found: %s", q.SessionID)
	}
	var results []extension.Result
	if *q.LoadModelAndExtensions {
		loaded := a.sessions.IsLoaded(q.SessionID)
		_, res, err := a.agent.ResumeSession(r.Context(), q.SessionID, agent.StartOptions{UseConfiguredExtensions: true, Holder: a.hold})
		if err != nil {
			return reply{}, errorf(http.StatusInternalServerError, "Failed to resume session: %w", err)
		}
		if !loaded {
			results = res
		}
	}
	sess, err := a.store.Get(r.Context(), q.SessionID, true)
	if err != nil {
		return reply{}, err
	}
	if *q.LoadModelAndExtensions {
		// Project plugins waiting for the user's consent, as goosed's
		// Desktop shows extension failures.
		results = append(results, a.agent.Plugins().Results(q.SessionID)...)
	}
	return ok(resumeAgentResponse{Session: sess, ExtensionResults: results}), nil
}

// agentRestart drops the session's agent state and loads it again.
func (a *agentAPI) agentRestart(r *http.Request, q sessionIDRequest) (reply, error) {
	results, err := a.reload(r.Context(), q.SessionID)
	if err != nil {
		return reply{}, err
	}
	if results == nil {
		results = []extension.Result{}
	}
	return ok(map[string]any{"extension_results": results}), nil
}

// reload is Sessions().Reload with goosed's statuses.
func (a *agentAPI) reload(ctx context.Context, id string) ([]extension.Result, error) {
	results, err := a.sessions.Reload(ctx, id)
	switch errkind.Of(err) {
	case errkind.NotFound:
		return nil, err
	case errkind.NotReady: // the session's recipe no longer renders
		return nil, errorf(http.StatusFailedDependency, "Failed to apply recipe: %s", errkind.Detail(err))
	}
	if err != nil {
		return nil, errorf(http.StatusInternalServerError, "Failed to restart agent: %w", err)
	}
	return results, nil
}

func (a *agentAPI) agentStop(r *http.Request, q sessionIDRequest) (reply, error) {
	if b, ok := a.buses.existing(q.SessionID); ok {
		b.cancelAll()
	}
	// Stopping lets go of REST's hold: an editor that has the session
	// open keeps it.
	if _, err := a.sessions.Release(q.SessionID, a.hold); err != nil {
		return reply{}, notFound("No agent for session %s", q.SessionID)
	}
	return noBody(http.StatusOK), nil
}

// toolInfo is goosed's ToolInfo.
type toolInfo struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  []string        `json:"parameters"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	Permission  *string         `json:"permission"`
}

// agentTools lists the session's tools sorted by name, with their
// parameter names and permission.yaml level (core's ListTools, the ACP
// face's tool list).
func (a *agentAPI) agentTools(r *http.Request) (reply, error) {
	id := r.URL.Query().Get("session_id")
	if id == "" {
		return reply{}, badRequest("Failed to deserialize query string: missing field `session_id`")
	}
	if err := a.sessions.Hold(r.Context(), id, a.hold); err != nil {
		return reply{}, errNoAgent(err)
	}
	tools, err := a.extensions.ListTools(r.Context(), id, r.URL.Query().Get("extension_name"))
	if err != nil {
		return reply{}, errorf(http.StatusFailedDependency, "%w", err)
	}
	out := make([]toolInfo, 0, len(tools))
	for _, t := range tools {
		ti := toolInfo{Name: t.Name, Description: t.Description, Parameters: t.Parameters, InputSchema: t.InputSchema}
		if t.UserLevel != permission.LevelNone {
			v := string(t.UserLevel)
			ti.Permission = &v
		}
		out = append(out, ti)
	}
	return ok(out), nil
}

// errNoAgent is goosed's 424 when a session's agent cannot be loaded.
func errNoAgent(err error) error {
	return errorf(http.StatusFailedDependency, "Failed to get session agent: %w", err)
}

type addExtensionRequest struct {
	SessionID string                  `json:"session_id"`
	Config    *config.ExtensionConfig `json:"config"`
}

func (q addExtensionRequest) check() error {
	if q.Config == nil {
		return errors.New("missing field `config`")
	}
	return required("session_id", q.SessionID)
}

func (a *agentAPI) agentAddExtension(r *http.Request, q addExtensionRequest) (reply, error) {
	if err := a.sessions.Hold(r.Context(), q.SessionID, a.hold); err != nil {
		return reply{}, errNoAgent(err)
	}
	if err := a.extensions.Add(r.Context(), q.SessionID, *q.Config); err != nil {
		return reply{}, errorf(http.StatusInternalServerError, "Failed to add extension: %w", err)
	}
	return noBody(http.StatusOK), nil
}

type removeExtensionRequest struct {
	Name      string `json:"name"`
	SessionID string `json:"session_id"`
}

func (q removeExtensionRequest) check() error {
	return required("name", q.Name, "session_id", q.SessionID)
}

func (a *agentAPI) agentRemoveExtension(r *http.Request, q removeExtensionRequest) (reply, error) {
	if err := a.sessions.Hold(r.Context(), q.SessionID, a.hold); err != nil {
		return reply{}, errNoAgent(err)
	}
	if err := a.extensions.Remove(r.Context(), q.SessionID, q.Name); err != nil {
		return reply{}, errorf(http.StatusInternalServerError, "Failed to remove extension: %w", err)
	}
	return noBody(http.StatusOK), nil
}

// agentListApps: goose-acp keeps no MCP Apps store (import/export answer
// 501), so the list is truly empty.
func (a *agentAPI) agentListApps(*http.Request) (reply, error) {
	return ok(map[string]any{"apps": []any{}}), nil
}
