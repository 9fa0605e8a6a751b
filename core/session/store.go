package session

import (
	"context"
	"errors"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// Errors callers branch on; stores return them wrapped.
var (
	// ErrNotFound: the session id does not exist.
	ErrNotFound = errors.New("session not found")
	// ErrInvalidCursor: ListOptions.Cursor is not one List produced.
	ErrInvalidCursor = errors.New("session: invalid list cursor")
	// ErrInvalidMessage: the message cannot be stored (e.g. a role other
	// than user or assistant).
	ErrInvalidMessage = errors.New("session: invalid message")
	// ErrInvalidUpdate: an Update field holds something sessions.db cannot
	// keep (e.g. a recipe that is not JSON).
	ErrInvalidUpdate = errors.New("session: invalid update")
	// ErrInvalidImport: Import's input is not an exported session.
	ErrInvalidImport = errors.New("session: invalid import")
)

// DefaultListTypes are the session types List shows when ListOptions.Types
// is empty, as goose's list does.
var DefaultListTypes = []Type{TypeUser, TypeScheduled}

// Store keeps sessions and their conversations. Implementations are safe for
// concurrent use; each method is atomic.
type Store interface {
	Create(ctx context.Context, s NewSession) (Session, error)
	// Get returns the session; withMessages fills Conversation.
	Get(ctx context.Context, id string, withMessages bool) (Session, error)
	List(ctx context.Context, opts ListOptions) (Page, error)
	AppendMessage(ctx context.Context, id string, m conversation.Message) error
	ReplaceConversation(ctx context.Context, id string, msgs []conversation.Message) error
	Update(ctx context.Context, id string, u Update) error
	Delete(ctx context.Context, id string) error
	Search(ctx context.Context, query string, limit int) ([]SearchHit, error)
	// Fork copies a session (metadata and conversation) to a new id.
	Fork(ctx context.Context, id string) (Session, error)
	// Truncate deletes messages created at or after the timestamp (seconds).
	Truncate(ctx context.Context, id string, fromCreated int64) error
	Export(ctx context.Context, id string) ([]byte, error)
	Import(ctx context.Context, data []byte) (Session, error)
	Insights(ctx context.Context) (Insights, error)
	Close() error
}
