package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/session"
)

// sessionsAPI answers /sessions/*: stored sessions through the store
// (read-only) and the agent (every change).
type sessionsAPI struct {
	sessions agent.Sessions
	recipes  agent.Recipes
	store    agent.SessionReader
	cfg      *config.Config
	// buses are dropped with their session.
	buses *buses
}

func (a *sessionsAPI) routes() []route {
	return []route{
		{"GET", "/sessions", 0, noInput(a.listSessions), nil},
		{"GET", "/sessions/search", 0, noInput(a.searchSessions), nil},
		{"GET", "/sessions/insights", 0, noInput(a.sessionInsights), nil},
		{"POST", "/sessions/import", ImportBodyLimit, withBody(a.importSession), nil},
		{"GET", "/sessions/{session_id}", 0, noInput(a.getSession), nil},
		{"DELETE", "/sessions/{session_id}", 0, noInput(a.deleteSession), nil},
		{"GET", "/sessions/{session_id}/export", 0, noInput(a.exportSession), nil},
		{"PUT", "/sessions/{session_id}/name", 0, withBody(a.renameSession), nil},
		{"POST", "/sessions/{session_id}/fork", 0, withBody(a.forkSession), nil},
		{"GET", "/sessions/{session_id}/extensions", 0, noInput(a.sessionExtensions), nil},
		{"PUT", "/sessions/{session_id}/user_recipe_values", 0, withBody(a.userRecipeValues), nil},
	}
}

// Session search limits (goosed's search_sessions).
const (
	defaultSearchLimit = 10
	maxSearchLimit     = 50
)

// listSessions answers every user and scheduled session, newest first,
// without conversations.
func (a *sessionsAPI) listSessions(r *http.Request) (reply, error) {
	sessions := []session.Session{}
	opts := session.ListOptions{}
	for {
		page, err := a.store.List(r.Context(), opts)
		if err != nil {
			return reply{}, err
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
	return ok(map[string]any{"sessions": sessions}), nil
}

func (a *sessionsAPI) getSession(r *http.Request) (reply, error) {
	sess, err := a.store.Get(r.Context(), r.PathValue("session_id"), true)
	if err != nil {
		return reply{}, err
	}
	return ok(sess), nil
}

// deleteSession cancels the session's requests, drops its bus, then lets
// the agent unload and delete it.
func (a *sessionsAPI) deleteSession(r *http.Request) (reply, error) {
	id := r.PathValue("session_id")
	if _, err := a.store.Get(r.Context(), id, false); err != nil {
		return reply{}, err
	}
	a.buses.drop(id)
	if err := a.sessions.Delete(r.Context(), id); err != nil {
		return reply{}, err
	}
	return noBody(http.StatusOK), nil
}

// exportSession answers the session JSON (with conversation) as a JSON
// string, as goosed's Json(String).
func (a *sessionsAPI) exportSession(r *http.Request) (reply, error) {
	b, err := a.store.Export(r.Context(), r.PathValue("session_id"))
	if err != nil {
		return reply{}, err
	}
	return ok(string(b)), nil
}

type importRequest struct {
	JSON string `json:"json"`
}

func (q importRequest) check() error { return required("json", q.JSON) }

func (a *sessionsAPI) importSession(r *http.Request, q importRequest) (reply, error) {
	sess, err := a.sessions.Import(r.Context(), []byte(q.JSON))
	if err != nil {
		return reply{}, err
	}
	return ok(sess), nil
}

func (a *sessionsAPI) sessionInsights(r *http.Request) (reply, error) {
	ins, err := a.store.Insights(r.Context())
	if err != nil {
		return reply{}, err
	}
	return ok(ins), nil
}

// searchSessions is goosed's full-text search: limit 10 by default, at most
// 50, optional RFC 3339 date bounds on updated_at.
func (a *sessionsAPI) searchSessions(r *http.Request) (reply, error) {
	q := r.URL.Query()
	query := q.Get("query")
	if query == "" {
		return reply{}, badRequest("Search query cannot be empty")
	}
	limit := defaultSearchLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return reply{}, badRequest("Invalid limit: %s", v)
		}
		limit = min(n, maxSearchLimit)
	}
	after, err := parseDateParam(q.Get("after_date"))
	if err != nil {
		return reply{}, err
	}
	before, err := parseDateParam(q.Get("before_date"))
	if err != nil {
		return reply{}, err
	}
	hits, err := a.store.Search(r.Context(), query, 0)
	if err != nil {
		return reply{}, err
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
	return ok(out), nil
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

func (a *sessionsAPI) renameSession(r *http.Request, q renameRequest) (reply, error) {
	if err := a.sessions.Rename(r.Context(), r.PathValue("session_id"), *q.Name); err != nil {
		return reply{}, err
	}
	return noBody(http.StatusOK), nil
}

type forkRequest struct {
	Timestamp *int64 `json:"timestamp"`
	Truncate  bool   `json:"truncate"`
	Copy      bool   `json:"copy"`
}

// forkSession optionally copies the session, then optionally drops the
// messages created at or after timestamp → {sessionId}.
func (a *sessionsAPI) forkSession(r *http.Request, q forkRequest) (reply, error) {
	if q.Truncate && q.Timestamp == nil {
		return reply{}, badRequest("timestamp is required when truncate is true")
	}
	opts := agent.ForkOptions{Copy: q.Copy}
	if q.Truncate {
		opts.TruncateAt = q.Timestamp
	}
	target, err := a.sessions.Fork(r.Context(), r.PathValue("session_id"), opts)
	if err != nil {
		return reply{}, err
	}
	return ok(map[string]string{"sessionId": target.ID}), nil
}

// sessionExtensions answers the session's saved extensions, else the
// enabled ones of config.yaml.
func (a *sessionsAPI) sessionExtensions(r *http.Request) (reply, error) {
	exts, saved, err := a.sessions.SavedExtensions(r.Context(), r.PathValue("session_id"))
	if err != nil {
		return reply{}, err
	}
	if !saved && a.cfg != nil {
		exts = a.cfg.EnabledExtensions()
	}
	if exts == nil {
		exts = []config.ExtensionConfig{}
	}
	return ok(map[string]any{"extensions": exts}), nil
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
func (a *sessionsAPI) userRecipeValues(r *http.Request, q userRecipeValuesRequest) (reply, error) {
	rendered, err := a.recipes.SetValues(r.Context(), r.PathValue("session_id"), q.UserRecipeValues)
	if err != nil {
		return reply{}, err
	}
	return ok(map[string]any{"recipe": rendered}), nil
}
