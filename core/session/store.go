package session

import (
	"context"
	"errors"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// ErrNotFound is returned (wrapped) when a session id does not exist.
var ErrNotFound = errors.New("session not found")

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
