package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

// Session search limits (goosed's search_sessions).
const (
	defaultSearchLimit = 10
	maxSearchLimit     = 50
	maxSessionName     = 200
)

// listSessions answers every user and scheduled session, newest first,
// without conversations.
func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	sessions := []session.Session{}
	opts := session.ListOptions{}
	for {
		page, err := s.opts.Store.List(r.Context(), opts)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		sessions = append(sessions, page.Sessions...)
		if page.NextCursor == "" {
			break
		}
		opts.Cursor = page.NextCursor
	}
	for i := range sessions {
		sessions[i].Conversation = nil
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": sessions})
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request) {
	sess, err := s.opts.Store.Get(r.Context(), r.PathValue("session_id"), true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, sess)
}

// deleteSession cancels the session's requests, drops its bus, unloads
// its agent state and deletes it.
func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("session_id")
	if _, err := s.opts.Store.Get(r.Context(), id, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.dropBus(id)
	_ = s.opts.Agent.CloseSession(id)
	if err := s.opts.Store.Delete(r.Context(), id); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEmpty(w, http.StatusOK)
}

// exportSession answers the session JSON (with conversation) as text.
func (s *Server) exportSession(w http.ResponseWriter, r *http.Request) {
	b, err := s.opts.Store.Export(r.Context(), r.PathValue("session_id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// goosed answers Json(String): a JSON string holding the export.
	writeJSON(w, http.StatusOK, string(b))
}

type importRequest struct {
	JSON string `json:"json"`
}

func (q importRequest) check() error { return required("json", q.JSON) }

func (s *Server) importSession(w http.ResponseWriter, r *http.Request) {
	var q importRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	sess, err := s.opts.Store.Import(r.Context(), []byte(q.JSON))
	if err != nil {
		s.writeError(w, r, badRequest("%w", err))
		return
	}
	writeJSON(w, http.StatusOK, sess)
}

func (s *Server) sessionInsights(w http.ResponseWriter, r *http.Request) {
	ins, err := s.opts.Store.Insights(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ins)
}

// searchSessions is goosed's full-text search: limit 10 by default, at most
// 50, optional RFC 3339 date bounds on updated_at.
func (s *Server) searchSessions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	query := q.Get("query")
	if query == "" {
		s.writeError(w, r, badRequest("Search query cannot be empty"))
		return
	}
	limit := defaultSearchLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			s.writeError(w, r, badRequest("Invalid limit: %s", v))
			return
		}
		limit = min(n, maxSearchLimit)
	}
	after, err := parseDateParam(q.Get("after_date"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	before, err := parseDateParam(q.Get("before_date"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	hits, err := s.opts.Store.Search(r.Context(), query, 0)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := []session.Session{}
	for _, h := range hits {
		if len(out) == limit {
			break
		}
		if (after != nil && h.Session.UpdatedAt.Before(*after)) || (before != nil && h.Session.UpdatedAt.After(*before)) {
			continue
		}
		h.Session.Conversation = nil
		out = append(out, h.Session)
	}
	writeJSON(w, http.StatusOK, out)
}

func parseDateParam(v string) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, badRequest("Invalid date format: %s", v)
	}
	return &t, nil
}

type renameRequest struct {
	Name *string `json:"name"`
}

func (q renameRequest) check() error {
	if q.Name == nil {
		return errors.New("missing field `name`")
	}
	return nil
}

func (s *Server) renameSession(w http.ResponseWriter, r *http.Request) {
	var q renameRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	name := *q.Name
	if name == "" {
		s.writeError(w, r, badRequest("Session name cannot be empty"))
		return
	}
	if utf8.RuneCountInString(name) > maxSessionName {
		s.writeError(w, r, badRequest("Session name too long (max %d characters)", maxSessionName))
		return
	}
	set := true
	if err := s.opts.Store.Update(r.Context(), r.PathValue("session_id"), session.Update{Name: &name, UserSetName: &set}); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEmpty(w, http.StatusOK)
}

type forkRequest struct {
	Timestamp *int64 `json:"timestamp"`
	Truncate  bool   `json:"truncate"`
	Copy      bool   `json:"copy"`
}

// forkSession optionally copies the session, then optionally drops the
// messages created at or after timestamp → {sessionId}.
func (s *Server) forkSession(w http.ResponseWriter, r *http.Request) {
	var q forkRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if q.Truncate && q.Timestamp == nil {
		s.writeError(w, r, badRequest("timestamp is required when truncate is true"))
		return
	}
	id := r.PathValue("session_id")
	if _, err := s.opts.Store.Get(r.Context(), id, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	target := id
	if q.Copy {
		forked, err := s.opts.Store.Fork(r.Context(), id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		target = forked.ID
	}
	if q.Truncate {
		if err := s.opts.Store.Truncate(r.Context(), target, *q.Timestamp); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"sessionId": target})
}

// sessionExtensions answers the session's saved extensions, else the
// enabled ones of config.yaml.
func (s *Server) sessionExtensions(w http.ResponseWriter, r *http.Request) {
	sess, err := s.opts.Store.Get(r.Context(), r.PathValue("session_id"), false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	exts := []config.ExtensionConfig{}
	if raw, ok := sess.ExtensionData[agent.EnabledExtensionsKey]; ok {
		var saved struct {
			Extensions []config.ExtensionConfig `json:"extensions"`
		}
		if err := json.Unmarshal(raw, &saved); err != nil {
			s.writeError(w, r, fmt.Errorf("reading saved extensions: %w", err))
			return
		}
		exts = append(exts, saved.Extensions...)
	} else if s.opts.Config != nil {
		exts = append(exts, enabledConfigExtensions(s.opts.Config)...)
	}
	writeJSON(w, http.StatusOK, map[string]any{"extensions": exts})
}

type userRecipeValuesRequest struct {
	UserRecipeValues map[string]string `json:"userRecipeValues"`
}

func (q userRecipeValuesRequest) check() error {
	if q.UserRecipeValues == nil {
		return errors.New("missing field `userRecipeValues`")
	}
	return nil
}

// userRecipeValues stores recipe parameter values and answers the recipe
// rendered with them.
func (s *Server) userRecipeValues(w http.ResponseWriter, r *http.Request) {
	var q userRecipeValuesRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("session_id")
	sess, err := s.opts.Store.Get(r.Context(), id, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(sess.Recipe) == 0 || string(sess.Recipe) == "null" {
		s.writeError(w, r, notFound("Session %s has no recipe", id))
		return
	}
	if err := s.opts.Store.Update(r.Context(), id, session.Update{UserRecipeValues: q.UserRecipeValues}); err != nil {
		s.writeError(w, r, err)
		return
	}
	rendered, err := renderRecipe(sess.Recipe, q.UserRecipeValues, sess.WorkingDir)
	if err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "Failed to render recipe: %w", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"recipe": rendered})
}

// renderRecipe applies user values to a stored recipe.
func renderRecipe(raw json.RawMessage, values map[string]string, dir string) (*recipe.Recipe, error) {
	params := make([]recipe.Param, 0, len(values))
	for k, v := range values {
		params = append(params, recipe.Param{Key: k, Value: v})
	}
	return recipe.Build(string(raw), dir, params, nil)
}

// enabledConfigExtensions lists config.yaml's enabled extensions by key.
func enabledConfigExtensions(c *config.Config) []config.ExtensionConfig {
	entries, _ := c.Extensions()
	keys := sortedKeys(entries)
	out := []config.ExtensionConfig{}
	for _, k := range keys {
		if entries[k].Enabled {
			out = append(out, entries[k].Config)
		}
	}
	return out
}
