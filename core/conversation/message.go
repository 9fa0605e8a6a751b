package conversation

import (
	"encoding/json"
	"strings"
)

// Role is who said a message. goose stores only user and assistant turns;
// tool responses travel in user messages.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Metadata says who may see a message. Compaction hides old messages from the
// agent but keeps them for the user; summaries do the opposite.
type Metadata struct {
	UserVisible  bool `json:"userVisible"`
	AgentVisible bool `json:"agentVisible"`
	// TurnContext marks the agent's per-turn <turn-context> message
	// (goose 1.54's turn_context flag).
	TurnContext bool `json:"turnContext,omitempty"`
	// Usage is the provider call that produced an assistant reply
	// (goose's MessageUsage); Desktop shows it per reply.
	Usage *MessageUsage `json:"usage,omitempty"`
}

// MessageUsage is goose's per-reply usage, in its stored form.
type MessageUsage struct {
	InputTokens        *int   `json:"inputTokens,omitempty"`
	OutputTokens       *int   `json:"outputTokens,omitempty"`
	TotalTokens        *int   `json:"totalTokens,omitempty"`
	ElapsedMs          *int64 `json:"elapsedMs,omitempty"`
	TimeToFirstTokenMs *int64 `json:"timeToFirstTokenMs,omitempty"`
	IsCompaction       bool   `json:"isCompaction,omitempty"`
}

// VisibleToAll is the metadata of an ordinary message.
func VisibleToAll() Metadata { return Metadata{UserVisible: true, AgentVisible: true} }

// Message is goose's Message with its exact JSON casing:
// {"id":…|null,"role":…,"created":<unix seconds>,"content":[…],"metadata":{…}}.
type Message struct {
	// ID is nil when the message has none; it then marshals as null.
	ID       *string   `json:"id"`
	Role     Role      `json:"role"`
	Created  int64     `json:"created"`
	Content  []Content `json:"content"`
	Metadata Metadata  `json:"metadata"`
}

// UnmarshalJSON accepts goose's stored forms: absent metadata means visible to
// all; conversationCompacted items are dropped by Content's decoder.
func (m *Message) UnmarshalJSON(b []byte) error {
	type plain Message
	aux := struct {
		*plain
		Metadata *Metadata `json:"metadata"`
	}{plain: (*plain)(m)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	if aux.Metadata != nil {
		m.Metadata = *aux.Metadata
	} else {
		m.Metadata = VisibleToAll()
	}
	m.Content = dropSkipped(m.Content)
	if m.Content == nil {
		m.Content = []Content{}
	}
	return nil
}

// MarshalJSON writes an empty content list as [] rather than null.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	p := plain(m)
	if p.Content == nil {
		p.Content = []Content{}
	}
	return Marshal(p)
}

// NewMessage returns a visible message with no content.
func NewMessage(role Role, created int64) Message {
	return Message{Role: role, Created: created, Content: []Content{}, Metadata: VisibleToAll()}
}

// UserText returns a visible user message holding one text item.
func UserText(created int64, text string) Message {
	return NewMessage(RoleUser, created).WithText(text)
}

// AssistantText returns a visible assistant message holding one text item.
func AssistantText(created int64, text string) Message {
	return NewMessage(RoleAssistant, created).WithText(text)
}

// WithID returns m with its id set.
func (m Message) WithID(id string) Message { m.ID = &id; return m }

// With returns m with c appended.
func (m Message) With(c ...Content) Message {
	m.Content = append(append([]Content(nil), m.Content...), c...)
	return m
}

// WithText returns m with a text item appended.
func (m Message) WithText(text string) Message { return m.With(Text(text)) }

// WithMetadata returns m with its visibility replaced.
func (m Message) WithMetadata(md Metadata) Message { m.Metadata = md; return m }

// IDOrEmpty returns the id or "".
func (m Message) IDOrEmpty() string {
	if m.ID == nil {
		return ""
	}
	return *m.ID
}

// AsText concatenates the message's text items with newlines, as goose's
// as_concat_text does.
func (m Message) AsText() string {
	var parts []string
	for _, c := range m.Content {
		if c.Text != nil {
			parts = append(parts, c.Text.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ToolRequests returns the tool requests the message carries.
func (m Message) ToolRequests() []*ToolRequest {
	var out []*ToolRequest
	for _, c := range m.Content {
		if c.ToolRequest != nil {
			out = append(out, c.ToolRequest)
		}
	}
	return out
}

// ToolResponses returns the tool responses the message carries.
func (m Message) ToolResponses() []*ToolResponse {
	var out []*ToolResponse
	for _, c := range m.Content {
		if c.ToolResponse != nil {
			out = append(out, c.ToolResponse)
		}
	}
	return out
}

// HasToolRequests reports whether the message asks for any tool call.
func (m Message) HasToolRequests() bool { return len(m.ToolRequests()) > 0 }

// HasToolResponses reports whether the message answers any tool call.
func (m Message) HasToolResponses() bool { return len(m.ToolResponses()) > 0 }

// Clone returns a deep copy of m (content items are copied by JSON
// round-trip only where they hold maps; see Content.Clone).
func (m Message) Clone() Message {
	out := m
	if m.ID != nil {
		id := *m.ID
		out.ID = &id
	}
	out.Content = make([]Content, len(m.Content))
	for i, c := range m.Content {
		out.Content[i] = c.Clone()
	}
	return out
}

func dropSkipped(cs []Content) []Content {
	out := cs[:0]
	for _, c := range cs {
		if c.Type != "" {
			out = append(out, c)
		}
	}
	return out
}

// AgentOnly is the metadata of a message only the model sees (summaries,
// compaction continuations).
func AgentOnly() Metadata { return Metadata{AgentVisible: true} }

// UserOnly is the metadata of a message only the UI shows.
func UserOnly() Metadata { return Metadata{UserVisible: true} }

// Invisible is the metadata of a message kept only for the record.
func Invisible() Metadata { return Metadata{} }
