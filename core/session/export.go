package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// MarshalExport renders a session (with its conversation) as goose's export
// does: serde_json's pretty printer, two-space indent, no HTML escaping.
func MarshalExport(s Session) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("session: export %s: %w", s.ID, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalExport parses an exported session. Like goose it accepts the
// legacy "description" key for the name, and it rejects messages whose role
// goose cannot store.
func UnmarshalExport(data []byte) (Session, error) {
	var aux struct {
		Session
		Description      *string      `json:"description"`
		Usage            *exportUsage `json:"usage"`
		AccumulatedUsage *exportUsage `json:"accumulated_usage"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return Session{}, fmt.Errorf("%w: %v", ErrInvalidImport, err)
	}
	s := aux.Session
	if s.Name == "" && aux.Description != nil {
		s.Name = *aux.Description
	}
	aux.Usage.fill(&s.TotalTokens, &s.InputTokens, &s.OutputTokens, &s.CacheReadTokens, &s.CacheWriteTokens)
	aux.AccumulatedUsage.fill(&s.AccumulatedTotalTokens, &s.AccumulatedInputTokens, &s.AccumulatedOutputTokens,
		&s.AccumulatedCacheReadTokens, &s.AccumulatedCacheWriteTokens)
	for i, m := range s.Conversation {
		if err := ValidateMessage(m); err != nil {
			return Session{}, fmt.Errorf("%w: message %d: %v", ErrInvalidImport, i, err)
		}
	}
	if s.SessionType == "" {
		s.SessionType = TypeUser
	}
	return s, nil
}

// ValidateMessage rejects messages sessions.db cannot hold: goose stores only
// user and assistant turns.
func ValidateMessage(m conversation.Message) error {
	if !slices.Contains([]conversation.Role{conversation.RoleUser, conversation.RoleAssistant}, m.Role) {
		return fmt.Errorf("%w: role %q is neither user nor assistant", ErrInvalidMessage, m.Role)
	}
	return nil
}

// exportUsage is goose 1.54's Usage object: its export nests the token
// counters under "usage" and "accumulated_usage" instead of goosed 1.33's
// flat fields.
type exportUsage struct {
	Input      *int `json:"input_tokens"`
	Output     *int `json:"output_tokens"`
	Total      *int `json:"total_tokens"`
	CacheRead  *int `json:"cache_read_input_tokens"`
	CacheWrite *int `json:"cache_write_input_tokens"`
}

// fill sets each flat counter the export left out from u.
func (u *exportUsage) fill(total, input, output, cacheRead, cacheWrite **int) {
	if u == nil {
		return
	}
	for _, p := range []struct{ dst, src **int }{
		{total, &u.Total}, {input, &u.Input}, {output, &u.Output},
		{cacheRead, &u.CacheRead}, {cacheWrite, &u.CacheWrite},
	} {
		if *p.dst == nil {
			*p.dst = *p.src
		}
	}
}
