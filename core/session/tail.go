package session

import "context"

// TailReader is a Store that can read a conversation from one message on,
// once it has checked that the messages before that one are still the
// ones it saw when it marked them. A long session whose older part the
// model no longer sees (compacted: agentVisible false) is then continued
// without reading and decoding that part again (core/agent's turn).
type TailReader interface {
	// MarkTail records where the tail that starts at messageID begins
	// and what comes before it (ErrNotFound when no single message of
	// the session has that id).
	MarkTail(ctx context.Context, id, messageID string) (TailMark, error)
	// GetTail reads the session without its message statistics and,
	// as its Conversation, the messages from the mark on in goose's
	// order. ok is false, and nothing is read, when the marked message
	// is gone or moved or the messages before it are no longer the same
	// rows (any added, removed or re-inserted). A row rewritten in place
	// (same row id; goose's metadata update) is not seen: a caller drops
	// its mark when it writes one itself.
	GetTail(ctx context.Context, id string, m TailMark) (s Session, ok bool, err error)
}

// TailMark is where a conversation's tail begins, as a TailReader checks
// it later: the first tail message, its place in goose's order, and the
// number and largest row id of the rows before it.
type TailMark struct {
	MessageID string
	Row       int64 // the store's row id of MessageID
	Created   int64 // its created_timestamp
	Before    int   // rows before it in goose's order
	BeforeMax int64 // their largest row id (0: none)
}
