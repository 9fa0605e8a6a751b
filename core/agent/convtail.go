package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// A long session that was compacted keeps its older messages for the
// user (userVisible) but not for the model (agentVisible false). When
// such a session is closed, convStore marks where the part the model still
// sees begins (its tail: from the first agent-visible message on) instead
// of keeping the decoded history; the first turn after it is resumed
// reads only that tail (session.TailReader), after the store has checked
// that the messages before the mark are still the same rows. At 8,000
// messages that is what keeps a resumed session's prompt from reading and
// decoding ~9 MB of history it does not send. What needs the whole
// conversation (compaction, tool-pair summaries, a recipe retry, a
// provisional title) reads it first (turn.expand); every other read of the
// session is unchanged.

// tailMark is a session's session.TailMark and the revision it holds at:
// this process's appends move it on, any other write of its messages
// drops it.
type tailMark struct {
	session.TailMark
	rev           uint64
	prefixVisible int // user-visible messages before the tail
}

// Marks are made for prefixes of at least tailMinBytes (below it the whole
// history decodes in a few milliseconds) and kept for at most maxTailMarks
// closed sessions.
const (
	tailMinBytes = releaseMin
	maxTailMarks = 64
)

// tailProbe is what forget found to mark: the first tail message's id at
// revision rev ("" when there is nothing to mark).
type tailProbe struct {
	messageID     string
	rev           uint64
	prefixVisible int
}

// tailProbe looks at the entry of a session being closed (c.mu held): a
// valid whole conversation whose agent-invisible prefix is long, holds
// more user messages than naming looks at, and whose first tail message
// has an id is worth a mark; a valid tail entry keeps its mark.
func (c *convStore) tailProbe(id string, e *cachedConv) tailProbe {
	rev := c.revs.Revision(id)
	if e.rev != rev || e.tail || len(e.msgs) == 0 {
		return tailProbe{}
	}
	k := tailStart(e.msgs)
	if k == 0 || e.msgs[k].ID == nil || contentBytes(e.msgs[:k]) < tailMinBytes ||
		countNamingUsers(e.msgs[:k], namingUserMessages+1) <= namingUserMessages {
		return tailProbe{}
	}
	visible, _ := session.ConversationStats(e.msgs[:k])
	return tailProbe{messageID: *e.msgs[k].ID, rev: rev, prefixVisible: visible}
}

// tailStart is the index of the first agent-visible message, or of the
// last message when none is (the tail is never empty).
func tailStart(msgs []conversation.Message) int {
	if i := slices.IndexFunc(msgs, func(m conversation.Message) bool { return m.Metadata.AgentVisible }); i >= 0 {
		return i
	}
	return len(msgs) - 1
}

// countNamingUsers counts the messages maybeNameSession takes as the
// user's, stopping at limit.
func countNamingUsers(msgs []conversation.Message, limit int) int {
	n := 0
	for _, m := range msgs {
		if n >= limit {
			break
		}
		if m.Role == conversation.RoleUser && m.Metadata.UserVisible && !m.HasToolResponses() && strings.TrimSpace(m.AsText()) != "" {
			n++
		}
	}
	return n
}

// markTail asks the store for p's mark and keeps it while no other write
// came between.
func (c *convStore) markTail(id string, p tailProbe) {
	tr, ok := c.Store.(session.TailReader)
	if p.messageID == "" || !ok {
		return
	}
	m, err := tr.MarkTail(context.Background(), id, p.messageID)
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, open := c.cached[id]; open || c.revs.Revision(id) != p.rev {
		return
	}
	if len(c.marks) >= maxTailMarks {
		for k := range c.marks {
			delete(c.marks, k)
			break
		}
	}
	c.marks[id] = tailMark{TailMark: m, rev: p.rev, prefixVisible: p.prefixVisible}
}

// afterMark moves id's mark on past this process's append, or drops it
// after any other write (c.mu held).
func (c *convStore) afterMark(id string, before uint64, appended bool) {
	m, ok := c.marks[id]
	if !ok {
		return
	}
	if appended && m.rev == before && c.revs.Revision(id) == before+1 {
		m.rev = before + 1
		c.marks[id] = m
		return
	}
	delete(c.marks, id)
}

// turnView reads the conversation a turn starts from: the cached whole
// one when valid, else the tail from the session's mark when the store
// confirms it, else the whole one from the store. tail reports that the
// messages before the mark were left out.
func (c *convStore) turnView(ctx context.Context, id string) (sess session.Session, tail bool, err error) {
	rev := c.revs.Revision(id)
	c.mu.Lock()
	e, tracked := c.cached[id]
	if tracked && e.rev == rev && e.tail {
		msgs := slices.Clone(e.msgs)
		c.mu.Unlock()
		sess, err := c.revs.Row(ctx, id)
		sess.Conversation = msgs
		return sess, true, err
	}
	m, marked := c.marks[id]
	if marked && m.rev != rev {
		delete(c.marks, id) // written by other means than an append of ours
		marked = false
	}
	valid := tracked && e.rev == rev
	c.mu.Unlock()
	tr, ok := c.Store.(session.TailReader)
	if !valid && marked && m.rev == rev && ok {
		sess, ok, err := tr.GetTail(ctx, id, m.TailMark)
		if err != nil {
			return session.Session{}, false, err
		}
		if ok && len(sess.Conversation) > 0 && sess.Conversation[0].IDOrEmpty() == m.MessageID {
			c.mu.Lock()
			if e, open := c.cached[id]; open && c.revs.Revision(id) == rev {
				e.rev, e.msgs, e.tail, e.prefixVisible = rev, slices.Clone(sess.Conversation), true, m.prefixVisible
			}
			c.mu.Unlock()
			return sess, true, nil
		}
		c.mu.Lock()
		delete(c.marks, id)
		c.mu.Unlock()
	}
	sess, err = c.Get(ctx, id, true)
	return sess, false, err
}

// tailStats answers a read without messages of a marked session from its
// tail (the statistics of the rows before the mark are the mark's) when
// the store confirms the mark, and keeps the tail for the session's next
// turn when it is open: a resume then reads no message before the mark.
func (c *convStore) tailStats(ctx context.Context, id string, rev uint64) (session.Session, bool) {
	c.mu.Lock()
	m, marked := c.marks[id]
	c.mu.Unlock()
	tr, ok := c.Store.(session.TailReader)
	if !marked || m.rev != rev || !ok {
		return session.Session{}, false
	}
	sess, ok, err := tr.GetTail(ctx, id, m.TailMark)
	if err != nil { // the store's whole read says what is wrong
		return session.Session{}, false
	}
	c.mu.Lock()
	if !ok || len(sess.Conversation) == 0 || sess.Conversation[0].IDOrEmpty() != m.MessageID {
		delete(c.marks, id)
		c.mu.Unlock()
		return session.Session{}, false
	}
	if e, open := c.cached[id]; open && e.rev != rev && c.revs.Revision(id) == rev {
		e.rev, e.msgs, e.tail, e.prefixVisible = rev, slices.Clone(sess.Conversation), true, m.prefixVisible
	}
	c.mu.Unlock()
	count, last := session.ConversationStats(sess.Conversation)
	sess.Conversation, sess.MessageCount, sess.LastMessageAt = nil, count+m.prefixVisible, last
	return sess, true
}

// tailView is whether a turn's conversation starts at the session's tail
// mark: partial, the messages before it (all hidden from the model) were
// not read.
type tailView struct{ partial bool }

// expand replaces t's tail-only conversation by the whole one: the
// messages before the tail, read from the store, then the turn's own view
// of the tail. The loop's tool-call count and the conversation a recipe
// retry returns to gain the same messages.
func (v *tailView) expand(t *turn) error {
	if !v.partial {
		return nil
	}
	sess, err := t.a.opts.Store.Get(t.ctx, t.s.id, true)
	if err != nil {
		return fmt.Errorf("loading session: %w", err)
	}
	first := t.conv[0].IDOrEmpty()
	i := slices.IndexFunc(sess.Conversation, func(m conversation.Message) bool { return m.IDOrEmpty() == first })
	if i < 0 {
		return fmt.Errorf("loading session: message %s is no longer stored", first)
	}
	prefix := sess.Conversation[:i:i]
	t.conv = append(prefix, t.conv...)
	t.toolCallsBefore += countToolCalls(prefix)
	if t.initial != nil {
		t.initial = append(slices.Clone(prefix), t.initial...)
	}
	v.partial = false
	return nil
}
