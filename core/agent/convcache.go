package agent

import (
	"cmp"
	"context"
	"errors"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// convStore keeps the decoded conversation of each loaded session, so a
// turn of an 8,000-message session does not read and decode the whole
// history from sessions.db again (goose reloads it every turn; the cache
// gives the same messages). It is valid while the store's revision of
// the session is the one it was read or written at: the agent's own
// appends and replacements update it in place, any other write through
// the store (truncate, delete, another component's append) invalidates
// it, and a changed user-visible message count (another process writing
// the same sessions.db) makes the next read decode again.
type convStore struct {
	session.Store
	revs session.Revisioner

	mu     sync.Mutex
	cached map[string]*cachedConv // only sessions the agent has loaded
	// marks are where the tails of closed long sessions begin (convtail.go).
	marks map[string]tailMark
}

type cachedConv struct {
	rev  uint64
	msgs []conversation.Message
	// tail: msgs holds only the messages from the session's tail mark
	// on (a turn's view, convtail.go); reads of the whole conversation
	// miss it. prefixVisible counts the user-visible messages before it.
	tail          bool
	prefixVisible int
}

// newConvStore wraps st when it counts revisions; other stores are used
// as they are (every read decodes).
func newConvStore(st session.Store) session.Store {
	r, ok := st.(session.Revisioner)
	if !ok {
		return st
	}
	c := &convStore{Store: st, revs: r, cached: map[string]*cachedConv{}, marks: map[string]tailMark{}}
	if ut, ok := st.(session.UsageTotaler); ok {
		return usageConvStore{c, ut}
	}
	return c
}

// usageConvStore keeps the wrapped store's usage ledger visible.
type usageConvStore struct {
	*convStore
	session.UsageTotaler
}

// track starts caching id's conversation: from its next full read, or,
// when emptyAt is set (a session just created), as empty at that
// revision, so a new session's first turn does not read back the prompt
// it has just stored (a 31 MB prompt was read and decoded again).
// forget drops it when the session is closed.
func (c *convStore) track(id string, emptyAt *uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.cached[id]; ok {
		return
	}
	e := &cachedConv{rev: ^uint64(0)}
	if emptyAt != nil {
		e.rev, e.msgs = *emptyAt, []conversation.Message{}
	}
	c.cached[id] = e
}

// freshRevision is the revision at which a session created just now has
// no messages, or nil without a cache.
func (a *Agent) freshRevision(id string) *uint64 {
	c := a.convCache()
	if c == nil {
		return nil
	}
	rev := c.revs.Revision(id)
	return &rev
}

func (c *convStore) forget(id string) {
	c.mu.Lock()
	var big bool
	var probe tailProbe
	if e, ok := c.cached[id]; ok {
		_, marked := c.marks[id]
		big = marked || contentBytes(e.msgs) >= releaseMin
		probe = c.tailProbe(id, e)
	}
	delete(c.cached, id)
	c.mu.Unlock()
	c.markTail(id, probe)
	if big {
		releaseMemory()
	}
}

// releaseMin is the conversation size from which closing a session hands
// the freed memory back to the OS at once (about 1,000 ordinary messages;
// a 2,000-message session closed at 61 MiB RSS without the release, 45
// with it).
const releaseMin = 1 << 20

// releaseMemory collects and returns freed memory to the OS. Go returns
// it by itself only slowly, and only down to about twice the heap still
// live at the last collection: a long session's conversation (8,000
// messages are ~8 MB of text, collected while the session was open) left
// the process ~40 MiB larger than its live heap after the session closed.
// Measured on BenchmarkLongSession8k (medians of 5): RSS after the
// closes 78 -> 45 MiB; a close of such a session takes ~4 ms longer (one
// full collection of the ~10 MB heap left, then the release), and the
// next turn, which grows the heap again, still measured faster than
// before this round (its decode allocates less).
var releaseMemory = debug.FreeOSMemory

// contentBytes is a lower bound of the memory msgs hold: their texts and
// images, and the message and content structs (tool calls and results
// are counted as structs only).
func contentBytes(msgs []conversation.Message) int {
	n := 0
	for _, m := range msgs {
		n += 64 + 96*len(m.Content)
		for _, c := range m.Content {
			switch {
			case c.Text != nil:
				n += len(c.Text.Text)
			case c.Image != nil:
				n += len(c.Image.Data)
			}
		}
	}
	return n
}

// Get answers a read of a tracked session from the cache when it is still
// valid: only the session row is read then, and the message count and
// last message time come from the cached messages (sessions.db would
// read every message row for them). The caller gets its own copy of the
// message slice.
func (c *convStore) Get(ctx context.Context, id string, withMessages bool) (session.Session, error) {
	rev := c.revs.Revision(id)
	c.mu.Lock()
	e, tracked := c.cached[id]
	hit := tracked && e.rev == rev && (!e.tail || !withMessages)
	var msgs []conversation.Message
	var count int
	var last *time.Time
	if hit {
		count, last = session.ConversationStats(e.msgs)
		if e.tail {
			count += e.prefixVisible // the newest message is in the tail
		}
		if withMessages {
			msgs = append(make([]conversation.Message, 0, len(e.msgs)), e.msgs...)
		}
	}
	c.mu.Unlock()
	if hit {
		sess, err := c.revs.Row(ctx, id)
		sess.Conversation, sess.MessageCount, sess.LastMessageAt = msgs, count, last
		return sess, err
	}
	if !withMessages {
		if sess, ok := c.tailStats(ctx, id, rev); ok {
			return sess, nil
		}
		return c.Store.Get(ctx, id, false)
	}
	sess, err := c.Store.Get(ctx, id, true)
	if err != nil || !tracked {
		return sess, err
	}
	c.mu.Lock()
	if e, ok := c.cached[id]; ok {
		e.rev, e.msgs, e.tail = rev, slices.Clone(sess.Conversation), false
	}
	c.mu.Unlock()
	return sess, nil
}

// AppendMessage appends m to the cached conversation when this append was
// the only write since the cache was last valid and m sorts last in
// goose's order (created_timestamp, then row id); otherwise the next read
// decodes again.
func (c *convStore) AppendMessage(ctx context.Context, id string, m conversation.Message) error {
	before := c.revs.Revision(id)
	err := c.Store.AppendMessage(ctx, id, m)
	c.after(id, before, err == nil && m.ID != nil, true, func(e *cachedConv) bool {
		if n := len(e.msgs); n > 0 && e.msgs[n-1].Created > m.Created {
			return false
		}
		e.msgs = append(slices.Clip(e.msgs), m)
		return true
	})
	return err
}

// ReplaceConversation caches msgs in goose's order (same rule).
func (c *convStore) ReplaceConversation(ctx context.Context, id string, msgs []conversation.Message) error {
	before := c.revs.Revision(id)
	err := c.Store.ReplaceConversation(ctx, id, msgs)
	ok := err == nil && !slices.ContainsFunc(msgs, func(m conversation.Message) bool { return m.ID == nil })
	c.after(id, before, ok, false, func(e *cachedConv) bool {
		e.msgs, e.tail = slices.Clone(msgs), false
		slices.SortStableFunc(e.msgs, func(x, y conversation.Message) int { return cmp.Compare(x.Created, y.Created) })
		return true
	})
	return err
}

// SetMessageMetadata sets one message's metadata in the wrapped store
// (session.MetadataSetter; an error saying so when the store cannot) and in
// the cached conversation.
func (c *convStore) SetMessageMetadata(ctx context.Context, id, messageID string, md conversation.Metadata) error {
	ms, ok := c.Store.(session.MetadataSetter)
	if !ok {
		return errMetadataUnsupported
	}
	before := c.revs.Revision(id)
	err := ms.SetMessageMetadata(ctx, id, messageID, md)
	c.after(id, before, err == nil, false, func(e *cachedConv) bool {
		for i := range e.msgs {
			if e.msgs[i].IDOrEmpty() == messageID {
				e.msgs = slices.Clone(e.msgs)
				e.msgs[i].Metadata = md
				return true
			}
		}
		return false
	})
	return err
}

// errMetadataUnsupported: the store has no SetMessageMetadata.
var errMetadataUnsupported = errors.New("the session store cannot set message metadata")

// after applies a write to the cache entry, or invalidates it when the
// write failed, stored something the cache cannot mirror, or another
// write came between. A tail mark outlives appends only (appended: the
// write was one).
func (c *convStore) after(id string, before uint64, ok, appended bool, apply func(*cachedConv) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.afterMark(id, before, ok && appended)
	e, tracked := c.cached[id]
	if !tracked {
		return
	}
	if ok && e.rev == before && c.revs.Revision(id) == before+1 && apply(e) {
		e.rev = before + 1
		return
	}
	e.rev, e.msgs = ^uint64(0), nil
}

// convCache is the agent's convStore, nil when the store has no revisions.
func (a *Agent) convCache() *convStore {
	switch st := a.opts.Store.(type) {
	case *convStore:
		return st
	case usageConvStore:
		return st.convStore
	}
	return nil
}

// sessionRow reads a session without its message statistics when the
// store can (resume needs its settings, not a scan of every message row;
// load reads the whole session afterwards).
func (a *Agent) sessionRow(ctx context.Context, id string) (session.Session, error) {
	if c := a.convCache(); c != nil {
		return c.revs.Row(ctx, id)
	}
	return a.opts.Store.Get(ctx, id, false)
}
