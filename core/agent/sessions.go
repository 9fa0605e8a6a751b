package agent

import (
	"context"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/goose-acp/goose-acp/core/checkpoint"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/session"
)

// SessionReader is the read half of session.Store: what faces may query
// directly (lists, searches, exports). Everything that changes a session
// goes through Sessions.
type SessionReader interface {
	Get(ctx context.Context, id string, withMessages bool) (session.Session, error)
	List(ctx context.Context, opts session.ListOptions) (session.Page, error)
	Search(ctx context.Context, query string, limit int) ([]session.SearchHit, error)
	Export(ctx context.Context, id string) ([]byte, error)
	Insights(ctx context.Context) (session.Insights, error)
}

var _ SessionReader = session.Store(nil)

// Errors of the session operations, for faces to map.
var (
	// ErrInvalidSessionName: a rename to a blank or too long name.
	ErrInvalidSessionName = errkind.New(errkind.Invalid, "invalid session name")
	// ErrNoRecipe: the session was not started from a recipe.
	ErrNoRecipe = errkind.New(errkind.NotFound, "session has no recipe")
	// ErrNotADirectory: a working directory that does not exist.
	ErrNotADirectory = errkind.New(errkind.Invalid, "not an existing directory")
)

// MaxSessionNameLength is goosed's limit on a user-set name (characters).
const MaxSessionNameLength = 200

var _ SessionReader = Sessions{}

// Get reads a stored session (with its messages when asked).
func (svc Sessions) Get(ctx context.Context, id string, withMessages bool) (session.Session, error) {
	return svc.a.opts.Store.Get(ctx, id, withMessages)
}

// List lists stored sessions.
func (svc Sessions) List(ctx context.Context, opts session.ListOptions) (session.Page, error) {
	return svc.a.opts.Store.List(ctx, opts)
}

// Search finds stored messages.
func (svc Sessions) Search(ctx context.Context, query string, limit int) ([]session.SearchHit, error) {
	return svc.a.opts.Store.Search(ctx, query, limit)
}

// Export returns a stored session as goose's export JSON.
func (svc Sessions) Export(ctx context.Context, id string) ([]byte, error) {
	return svc.a.opts.Store.Export(ctx, id)
}

// Insights aggregates the store's sessions.
func (svc Sessions) Insights(ctx context.Context) (session.Insights, error) {
	return svc.a.opts.Store.Insights(ctx)
}

// exists reports session.ErrNotFound (wrapped) for an unknown id.
func (svc Sessions) exists(ctx context.Context, id string) error {
	_, err := svc.a.opts.Store.Get(ctx, id, false)
	return err
}

// loaded returns the live state of a loaded session, or nil.
func (a *Agent) loaded(id string) *sessionState {
	s, err := a.session(id)
	if err != nil {
		return nil
	}
	return s
}

// liveOrStored returns the live state of a loaded session, or nil for a
// stored one that is not loaded (session.ErrNotFound when neither).
func (svc Sessions) liveOrStored(ctx context.Context, id string) (*sessionState, error) {
	if s := svc.a.loaded(id); s != nil {
		return s, nil
	}
	return nil, svc.exists(ctx, id)
}

// IsLoaded reports whether the session has live state (extensions,
// provider) in this agent.
func (svc Sessions) IsLoaded(id string) bool { return svc.a.loaded(id) != nil }

// EnsureLoaded loads a stored session with its saved (or the configured)
// extensions unless it is loaded already, as goosed's get_agent does.
func (svc Sessions) EnsureLoaded(ctx context.Context, id string) error {
	if svc.IsLoaded(id) {
		return nil
	}
	_, _, err := svc.a.ResumeSession(ctx, id, StartOptions{UseConfiguredExtensions: true})
	return err
}

// Delete unloads the session (stopping its extensions) and deletes
// it with its messages.
func (svc Sessions) Delete(ctx context.Context, id string) error {
	if err := svc.exists(ctx, id); err != nil {
		return err
	}
	_ = svc.a.CloseSession(id)
	if err := svc.a.opts.Store.Delete(ctx, id); err != nil {
		return err
	}
	if err := checkpoint.Remove(svc.a.opts.DataDir, id); err != nil {
		svc.a.log.Warn("removing the deleted session's checkpoints", "session", id, "err", err)
	}
	return nil
}

// ForkOptions say how Fork derives a session.
type ForkOptions struct {
	// Copy forks into a new session; otherwise the session itself is
	// changed (a plain truncate).
	Copy bool
	// TruncateAt, when set, drops the messages created at or after this
	// Unix second from the target.
	TruncateAt *int64
}

// Fork copies and/or truncates a session and returns the target as
// stored. A truncated loaded session sees the shorter conversation on its
// next turn (each turn reads the stored conversation).
func (svc Sessions) Fork(ctx context.Context, id string, opts ForkOptions) (session.Session, error) {
	if err := svc.exists(ctx, id); err != nil {
		return session.Session{}, err
	}
	target := id
	if opts.Copy {
		forked, err := svc.a.opts.Store.Fork(ctx, id)
		if err != nil {
			return session.Session{}, err
		}
		target = forked.ID
	}
	if opts.TruncateAt != nil {
		if err := svc.a.opts.Store.Truncate(ctx, target, *opts.TruncateAt); err != nil {
			return session.Session{}, err
		}
	}
	return svc.a.opts.Store.Get(ctx, target, false)
}

// Rename gives the session a user-set name (goosed's limits: not
// blank, at most MaxSessionNameLength characters), which the session's
// generated title never replaces, and announces it as a TitleEvent to the
// session's holders, so every client that has it open shows it.
func (svc Sessions) Rename(ctx context.Context, id, name string) error {
	if name == "" {
		return errkind.Wrapf(ErrInvalidSessionName, "Session name cannot be empty")
	}
	if utf8.RuneCountInString(name) > MaxSessionNameLength {
		return errkind.Wrapf(ErrInvalidSessionName, "Session name too long (max %d characters)", MaxSessionNameLength)
	}
	set := true
	if err := svc.a.opts.Store.Update(ctx, id, session.Update{Name: &name, UserSetName: &set}); err != nil {
		return err
	}
	if s, err := svc.a.session(id); err == nil {
		s.toHolders(TitleEvent{Title: name})
	}
	return nil
}

// SetMode changes the session's goose mode (persisted). It emits nothing;
// faces notify their clients.
func (svc Sessions) SetMode(ctx context.Context, sessionID, mode string) error {
	m, err := permission.ParseMode(mode)
	if err != nil {
		return err
	}
	s, err := svc.liveOrStored(ctx, sessionID)
	if err != nil {
		return err
	}
	if s != nil {
		s.mu.Lock()
		s.mode = m
		s.mu.Unlock()
	}
	return svc.a.opts.Store.Update(ctx, sessionID, session.Update{GooseMode: &mode})
}

// UpdateWorkingDir moves the session to an existing directory (persisted;
// a loaded session's new tool calls see it through _meta).
func (svc Sessions) UpdateWorkingDir(ctx context.Context, sessionID, dir string) error {
	if strings.TrimSpace(dir) == "" {
		return fmt.Errorf("working dir must not be empty")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%w: %s", ErrNotADirectory, dir)
	}
	s, err := svc.liveOrStored(ctx, sessionID)
	if err != nil {
		return err
	}
	if s != nil {
		s.mu.Lock()
		s.workingDir = dir
		s.mu.Unlock()
		s.mgr.SetWorkingDir(dir)
	}
	return svc.a.opts.Store.Update(ctx, sessionID, session.Update{WorkingDir: &dir})
}

// WorkingDir is the session's working directory as it is now: a loaded
// session's live one (UpdateWorkingDir from any face moves it), else the
// stored one. Faces read it here rather than keep a copy.
func (svc Sessions) WorkingDir(ctx context.Context, id string) (string, error) {
	if s := svc.a.loaded(id); s != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.workingDir, nil
	}
	sess, err := svc.a.opts.Store.Get(ctx, id, false)
	return sess.WorkingDir, err
}

// Import stores an exported session under a new id.
func (svc Sessions) Import(ctx context.Context, data []byte) (session.Session, error) {
	return svc.a.opts.Store.Import(ctx, data)
}

// ReplaceConversation swaps the stored conversation (goosed's
// override_conversation) before the next turn.
func (svc Sessions) ReplaceConversation(ctx context.Context, sessionID string, msgs []conversation.Message) error {
	return svc.a.opts.Store.ReplaceConversation(ctx, sessionID, msgs)
}
