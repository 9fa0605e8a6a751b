package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"sort"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

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

// agentStart creates a session (type user, "New Chat"), loads its
// extensions and answers the Session without conversation.
func (s *Server) agentStart(w http.ResponseWriter, r *http.Request) {
	var q startAgentRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	rec, err := s.requestRecipe(q)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	opts := agent.StartOptions{WorkingDir: q.WorkingDir, Type: session.TypeUser, UseConfiguredExtensions: true}
	// A new session takes the current GOOSE_MODE (a fresh session row
	// already says "auto", which would win inside the agent).
	if s.opts.Config != nil {
		if mode, err := s.opts.Config.GetString("GOOSE_MODE"); err == nil && mode != "" {
			opts.Mode = &mode
		}
	}
	if q.ExtensionOverrides != nil {
		opts.UseConfiguredExtensions = false
		opts.Extensions = *q.ExtensionOverrides
	}
	if rec != nil {
		applyRecipe(&opts, rec)
		if q.RecipeID != nil && *q.RecipeID != "" {
			// A saved recipe's sub-recipes sit next to it.
			opts.Recipe.Dir = s.recipesDir()
		}
		opts.Extensions = append(opts.Extensions, rec.Extensions...)
	}
	sess, _, err := s.opts.Agent.StartSession(r.Context(), opts)
	if err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "Failed to create session: %w", err))
		return
	}
	name := DefaultSessionName
	u := session.Update{Name: &name}
	if rec != nil {
		u.Recipe = mustJSON(rec)
	}
	if err := s.opts.Store.Update(r.Context(), sess.ID, u); err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := s.opts.Store.Get(r.Context(), sess.ID, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// requestRecipe reads the recipe of a start request (inline, deeplink or
// a saved recipe id).
func (s *Server) requestRecipe(q startAgentRequest) (*recipe.Recipe, error) {
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
		saved, err := s.findSavedRecipe(*q.RecipeID)
		if err != nil {
			return nil, err
		}
		return saved.Recipe, nil
	}
	return nil, nil
}

// applyRecipe sets the recipe and its settings.temperature on opts.
func applyRecipe(opts *agent.StartOptions, r *recipe.Recipe) {
	opts.Recipe = agentRecipe(r)
	if r.Settings != nil && r.Settings.Temperature != nil {
		opts.Temperature = r.Settings.Temperature
	}
}

// agentRecipe is what the loop needs from a recipe.
func agentRecipe(r *recipe.Recipe) *agent.Recipe {
	out := &agent.Recipe{Title: r.Title, Extensions: r.Extensions}
	if r.Instructions != nil {
		out.Instructions = *r.Instructions
	}
	if r.Response != nil {
		out.ResponseSchema = r.Response.JSONSchema
	}
	if r.Settings != nil && r.Settings.MaxTurns != nil {
		out.MaxTurns = *r.Settings.MaxTurns
	}
	out.SubRecipes = r.SubRecipes
	return out
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
func (s *Server) agentResume(w http.ResponseWriter, r *http.Request) {
	var q resumeAgentRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, err := s.opts.Store.Get(r.Context(), q.SessionID, false); err != nil {
		s.writeError(w, r, notFound("Session not found: %s", q.SessionID))
		return
	}
	var results []extension.Result
	if *q.LoadModelAndExtensions {
		if _, _, err := s.opts.Agent.Model(q.SessionID); errors.Is(err, agent.ErrSessionNotLoaded) {
			_, res, err := s.opts.Agent.ResumeSession(r.Context(), q.SessionID, agent.StartOptions{UseConfiguredExtensions: true})
			if err != nil {
				s.writeError(w, r, errorf(http.StatusInternalServerError, "Failed to resume session: %w", err))
				return
			}
			results = res
		}
	}
	sess, err := s.opts.Store.Get(r.Context(), q.SessionID, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, resumeAgentResponse{Session: sess, ExtensionResults: results})
}

// agentRestart drops the session's agent state and loads it again.
func (s *Server) agentRestart(w http.ResponseWriter, r *http.Request) {
	var q sessionIDRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	results, err := s.reload(r.Context(), q.SessionID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if results == nil {
		results = []extension.Result{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"extension_results": results})
}

// reload closes and resumes a session, re-applying its stored recipe.
func (s *Server) reload(ctx context.Context, id string) ([]extension.Result, error) {
	sess, err := s.opts.Store.Get(ctx, id, false)
	if err != nil {
		return nil, err
	}
	opts := agent.StartOptions{UseConfiguredExtensions: true}
	if len(sess.Recipe) > 0 && string(sess.Recipe) != "null" {
		rec, err := renderRecipe(sess.Recipe, sess.UserRecipeValues, sess.WorkingDir)
		if err != nil {
			return nil, errorf(http.StatusFailedDependency, "Failed to apply recipe: %w", err)
		}
		applyRecipe(&opts, rec)
	}
	_ = s.opts.Agent.CloseSession(id)
	_, results, err := s.opts.Agent.ResumeSession(ctx, id, opts)
	if err != nil {
		return nil, errorf(http.StatusInternalServerError, "Failed to restart agent: %w", err)
	}
	return results, nil
}

func (s *Server) agentStop(w http.ResponseWriter, r *http.Request) {
	var q sessionIDRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if b, ok := s.existingBus(q.SessionID); ok {
		b.cancelAll()
	}
	if err := s.opts.Agent.CloseSession(q.SessionID); err != nil {
		s.writeError(w, r, notFound("No agent for session %s", q.SessionID))
		return
	}
	writeEmpty(w, http.StatusOK)
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
// parameter names and permission.yaml level.
func (s *Server) agentTools(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("session_id")
	if id == "" {
		s.writeError(w, r, badRequest("Failed to deserialize query string: missing field `session_id`"))
		return
	}
	if err := s.loadAgent(r.Context(), id); err != nil {
		s.writeError(w, r, errorf(http.StatusFailedDependency, "Failed to get session agent: %w", err))
		return
	}
	tools, err := s.opts.Agent.Tools(r.Context(), id, r.URL.Query().Get("extension_name"))
	if err != nil {
		s.writeError(w, r, errorf(http.StatusFailedDependency, "%w", err))
		return
	}
	out := make([]toolInfo, 0, len(tools))
	for _, t := range tools {
		ti := toolInfo{Name: t.Name, Description: t.Description, Parameters: schemaParams(t.InputSchema), InputSchema: t.InputSchema}
		if s.opts.Permissions != nil {
			if l, ok := s.opts.Permissions.User(t.Name); ok {
				v := string(l)
				ti.Permission = &v
			}
		}
		out = append(out, ti)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	writeJSON(w, http.StatusOK, out)
}

// schemaParams lists the property names of a JSON schema, sorted.
func schemaParams(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	return append([]string{}, sortedKeys(s.Properties)...)
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

func (s *Server) agentAddExtension(w http.ResponseWriter, r *http.Request) {
	var q addExtensionRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.loadAgent(r.Context(), q.SessionID); err != nil {
		s.writeError(w, r, errorf(http.StatusFailedDependency, "Failed to get session agent: %w", err))
		return
	}
	if err := s.opts.Agent.AddExtension(r.Context(), q.SessionID, *q.Config); err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "Failed to add extension: %w", err))
		return
	}
	writeEmpty(w, http.StatusOK)
}

type removeExtensionRequest struct {
	Name      string `json:"name"`
	SessionID string `json:"session_id"`
}

func (q removeExtensionRequest) check() error {
	return required("name", q.Name, "session_id", q.SessionID)
}

func (s *Server) agentRemoveExtension(w http.ResponseWriter, r *http.Request) {
	var q removeExtensionRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.loadAgent(r.Context(), q.SessionID); err != nil {
		s.writeError(w, r, errorf(http.StatusFailedDependency, "Failed to get session agent: %w", err))
		return
	}
	if err := s.opts.Agent.RemoveExtension(r.Context(), q.SessionID, q.Name); err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "Failed to remove extension: %w", err))
		return
	}
	writeEmpty(w, http.StatusOK)
}

func (s *Server) agentListApps(w http.ResponseWriter, r *http.Request) {
	// goose-acp keeps no MCP Apps store (import/export answer 501), so
	// the list is truly empty.
	writeJSON(w, http.StatusOK, map[string]any{"apps": []any{}})
}

// workingDirExists validates /agent/update_working_dir's directory.
func workingDirExists(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}
