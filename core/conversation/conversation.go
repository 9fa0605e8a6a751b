package conversation

import (
	"slices"
)

// Conversation is an ordered message list with goose's streaming merge.
type Conversation []Message

// Push appends m, merging it into the last message when both carry the
// same non-nil id, as goose's Conversation::push does for streamed chunks:
// a single text chunk extends the last text item; a single thinking chunk
// extends the last thinking item while that one is unsigned or has the same
// signature (the chunk's signature, if any, is adopted); anything else is
// appended to the last message's content. Items already in c are never
// mutated in place, so chunks handed to other readers stay as they were.
func (c *Conversation) Push(m Message) {
	m.Content = slices.Clone(m.Content)
	n := len(*c)
	if n == 0 || m.ID == nil || (*c)[n-1].ID == nil || *(*c)[n-1].ID != *m.ID {
		*c = append(*c, m)
		return
	}
	last := &(*c)[n-1]
	if merged, ok := mergeChunk(last.Content, m.Content); ok {
		last.Content = merged
		return
	}
	last.Content = append(slices.Clip(last.Content), m.Content...)
}

// mergeChunk folds a one-item text or thinking chunk into the last item.
func mergeChunk(content, chunk []Content) ([]Content, bool) {
	if len(content) == 0 || len(chunk) != 1 {
		return nil, false
	}
	prev, next := content[len(content)-1], chunk[0]
	switch {
	case prev.Text != nil && next.Text != nil:
		t := *prev.Text
		t.Text += next.Text.Text
		prev.Text = &t
	case prev.Thinking != nil && next.Thinking != nil &&
		(prev.Thinking.Signature == "" || prev.Thinking.Signature == next.Thinking.Signature):
		t := *prev.Thinking
		t.Thinking += next.Thinking.Thinking
		if next.Thinking.Signature != "" {
			t.Signature = next.Thinking.Signature
		}
		prev.Thinking = &t
	default:
		return nil, false
	}
	out := slices.Clone(content)
	out[len(out)-1] = prev
	return out, true
}

// Extend pushes each message in order.
func (c *Conversation) Extend(msgs ...Message) {
	for _, m := range msgs {
		c.Push(m)
	}
}

// Messages returns the messages as a plain slice.
func (c Conversation) Messages() []Message { return c }

// Last returns the last message, if any.
func (c Conversation) Last() (Message, bool) {
	if len(c) == 0 {
		return Message{}, false
	}
	return c[len(c)-1], true
}

// Filter returns the messages whose metadata satisfies keep.
func (c Conversation) Filter(keep func(Metadata) bool) []Message {
	var out []Message
	for _, m := range c {
		if keep(m.Metadata) {
			out = append(out, m)
		}
	}
	return out
}

// WithoutTurnContext drops the agent's per-turn <turn-context> messages
// (Metadata.TurnContext).
func (c Conversation) WithoutTurnContext() []Message {
	out := make([]Message, 0, len(c))
	for _, m := range c {
		if !m.Metadata.TurnContext {
			out = append(out, m)
		}
	}
	return out
}

// AgentVisible returns the messages a provider may see.
func (c Conversation) AgentVisible() []Message {
	return c.Filter(func(md Metadata) bool { return md.AgentVisible })
}

// UserVisible returns the messages a UI shows.
func (c Conversation) UserVisible() []Message {
	return c.Filter(func(md Metadata) bool { return md.UserVisible })
}

// Fix returns the repaired conversation and the issues fixed; see Fix.
func (c Conversation) Fix() (Conversation, []string) {
	fixed, issues := Fix(c)
	return fixed, issues
}

// Valid reports whether the conversation needs no repair, with the issues
// repair would fix (goose's Conversation::new validation).
func (c Conversation) Valid() (bool, []string) {
	_, issues := Fix(c)
	return len(issues) == 0, issues
}
