package acp

import (
	"context"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/session"
)

// ACP's unstable session/set_title, session/archive and session/unarchive
// (sessionCapabilities.title and .archive): the same core operations as
// Goose Desktop's rename and archive. A title the client sets is the
// session's user-set name, which its generated title never replaces;
// core announces it to the session's holders, so every connection that
// has the session open gets a session_info_update with it, this one
// before the answer. Archiving closes the session as session/close does and hides it
// from session/list's default (archived "exclude").

// sessionTitlesAPI answers the client-set title and the archive state of
// any stored session, loaded on this connection or not.
type sessionTitlesAPI struct {
	sessions agent.Sessions
	loaded   *loadedSessions
}

func (a *sessionTitlesAPI) methods() map[string]RequestHandler {
	return map[string]RequestHandler{
		"session/set_title": typed(a.setTitle),
		"session/archive":   typed(a.archive),
		"session/unarchive": typed(a.unarchive),
	}
}

type setTitleRequest struct {
	SessionID string  `json:"sessionId"`
	Title     *string `json:"title"`
	Meta      Meta    `json:"_meta,omitempty"`
}

type setTitleResponse struct {
	Title string `json:"title"`
}

// setTitle stores the title with its white space collapsed (a title is
// one line); an empty one is refused, as is one over core's length limit.
func (a *sessionTitlesAPI) setTitle(ctx context.Context, req setTitleRequest) (setTitleResponse, error) {
	if req.SessionID == "" {
		return setTitleResponse{}, invalidParams("sessionId is required")
	}
	if req.Title == nil {
		return setTitleResponse{}, invalidParams("title is required")
	}
	title := strings.Join(strings.Fields(*req.Title), " ")
	if title == "" {
		return setTitleResponse{}, invalidParams("title cannot be empty")
	}
	if err := a.sessions.Rename(ctx, req.SessionID, title); err != nil {
		return setTitleResponse{}, storeErr(err, req.SessionID)
	}
	return setTitleResponse{Title: title}, nil
}

// archive ends the session's work on this connection as session/close
// does, then archives it (again: archiving an archived session succeeds).
func (a *sessionTitlesAPI) archive(ctx context.Context, req SessionIDRequest) (struct{}, error) {
	if req.SessionID == "" {
		return struct{}{}, invalidParams("sessionId is required")
	}
	a.loaded.drop(req.SessionID)
	return struct{}{}, storeErr(a.sessions.Archive(ctx, req.SessionID), req.SessionID)
}

// unarchive lists the session again; it does not load it.
func (a *sessionTitlesAPI) unarchive(ctx context.Context, req SessionIDRequest) (struct{}, error) {
	if req.SessionID == "" {
		return struct{}{}, invalidParams("sessionId is required")
	}
	return struct{}{}, storeErr(a.sessions.Unarchive(ctx, req.SessionID), req.SessionID)
}

// archiveFilter reads session/list's archived filter: "exclude" (the
// default) hides archived sessions, "include" lists them too, "only"
// lists nothing else; any other value is refused, as the schema asks.
// ok is false when the client did not send it.
func archiveFilter(v *string) (f session.ArchiveFilter, ok bool, err error) {
	if v == nil {
		return 0, false, nil
	}
	switch *v {
	case "exclude":
		return session.ArchivedHidden, true, nil
	case "include":
		return session.ArchivedIncluded, true, nil
	case "only":
		return session.ArchivedOnly, true, nil
	}
	return 0, false, invalidParams("archived must be exclude, include or only, not %q", *v)
}

// archivedOf is SessionInfo.archived, which a listed session always
// carries since initialize advertises sessionCapabilities.archive.
func archivedOf(ss session.Session) *bool {
	archived := ss.ArchivedAt != nil && !ss.ArchivedAt.IsZero()
	return &archived
}
