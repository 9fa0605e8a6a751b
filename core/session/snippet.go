package session

import (
	"encoding/json"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// SnippetMaxChars bounds a last-message snippet (goose's
// LAST_MESSAGE_SNIPPET_MAX_CHARS).
const SnippetMaxChars = 128

// Snippet is m's user-visible text as one line: whitespace collapsed, at
// most 128 characters, a cut one ending in "…"; "" when m shows the user
// no text (tool calls and results, thinking, images, text meant for the
// assistant only).
func Snippet(m conversation.Message) string {
	if !m.Metadata.UserVisible {
		return ""
	}
	var parts []string
	for _, c := range m.Content {
		if c.Text == nil || assistantOnly(c.Text.Annotations) {
			continue
		}
		parts = append(parts, c.Text.Text)
	}
	text := strings.Join(strings.Fields(strings.Join(parts, "\n")), " ")
	r := []rune(text)
	if len(r) <= SnippetMaxChars {
		return text
	}
	return strings.TrimRight(string(r[:SnippetMaxChars]), " \t\n") + "…"
}

// assistantOnly: text annotated for the assistant's audience only
// (goose's filter_for_audience(User) drops it).
func assistantOnly(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	var a conversation.Annotations
	if json.Unmarshal(raw, &a) != nil || len(a.Audience) == 0 {
		return false
	}
	for _, r := range a.Audience {
		if r == conversation.RoleUser {
			return false
		}
	}
	return true
}
