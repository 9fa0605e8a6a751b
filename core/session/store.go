package session

import (
	"context"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
)

// Errors callers branch on; stores return them wrapped.
var (
	// ErrNotFound: the session id does not exist.
	ErrNotFound = errkind.New(errkind.NotFound, "session not found")
	// ErrInvalidCursor: ListOptions.Cursor is not one List produced.
	ErrInvalidCursor = errkind.New(errkind.Invalid, "session: invalid list cursor")
	// ErrInvalidMessage: the message cannot be stored (e.g. a role other
	// than user or assistant).
	ErrInvalidMessage = errkind.New(errkind.Invalid, "session: invalid message")
	// ErrInvalidUpdate: an Update field holds something sessions.db cannot
	// keep (e.g. a recipe that is not JSON).
	ErrInvalidUpdate = errkind.New(errkind.Invalid, "session: invalid update")
	// ErrInvalidImport: Import's input is not an exported session.
	ErrInvalidImport = errkind.New(errkind.Invalid, "session: invalid import")
)

// DefaultListTypes are the session types List shows when ListOptions.Types
// is empty, as goose's list does.
var DefaultListTypes = []Type{TypeUser, TypeScheduled}

// MetadataSetter is a Store that changes one stored message's metadata in
// place (goose's update_message_metadata), as tool-pair summarization
// hides a summarized pair; updated_at stays. A message id the session does
// not have gives ErrNotFound.
type MetadataSetter interface {
	SetMessageMetadata(ctx context.Context, sessionID, messageID string, md conversation.Metadata) error
}

// Store keeps sessions and their conversations. Implementations are safe for
// concurrent use; each method is atomic. Unknown ids give errors wrapping
// ErrNotFound. Timestamps have second precision (sessions.db keeps no more).
type Store interface {
	// Create makes a session with goose's next "YYYYMMDD_N" id for the
	// current UTC day; SessionType defaults to user, goose_mode to "auto".
	Create(ctx context.Context, s NewSession) (Session, error)
	// Get returns the session with its user-visible message count and
	// LastMessageAt; withMessages fills Conversation (never nil then) and
	// computes both from it, as goose does.
	Get(ctx context.Context, id string, withMessages bool) (Session, error)
	// List pages sessions by updated_at DESC, id DESC, with MessageCount.
	List(ctx context.Context, opts ListOptions) (Page, error)
	// AppendMessage stores m (user or assistant role, else
	// ErrInvalidMessage) and touches updated_at.
	AppendMessage(ctx context.Context, id string, m conversation.Message) error
	// ReplaceConversation swaps the whole conversation; updated_at stays.
	ReplaceConversation(ctx context.Context, id string, msgs []conversation.Message) error
	// Update applies the non-nil fields of u and touches updated_at; an
	// empty Update changes nothing.
	Update(ctx context.Context, id string, u Update) error
	Delete(ctx context.Context, id string) error
	// Search finds sessions of DefaultListTypes whose user-visible text
	// contains query, compared with FoldText; hits come in List order, at
	// most limit of them (limit <= 0: all).
	Search(ctx context.Context, query string, limit int) ([]SearchHit, error)
	// Fork copies a session (metadata and conversation) to a new id.
	Fork(ctx context.Context, id string) (Session, error)
	// Truncate deletes messages created at or after the timestamp (seconds).
	Truncate(ctx context.Context, id string, fromCreated int64) error
	// Export is goose's export: the Session JSON with its conversation,
	// pretty-printed (MarshalExport).
	Export(ctx context.Context, id string) ([]byte, error)
	// Import stores an exported session under a new id with its messages;
	// bad input gives ErrInvalidImport and stores nothing.
	Import(ctx context.Context, data []byte) (Session, error)
	// Insights counts all sessions and sums their tokens (accumulated
	// total, else total), as goose's insights do.
	Insights(ctx context.Context) (Insights, error)
	Close() error
}
