package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/google/uuid"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// StoredMessage is one row of sessions.db's messages table, in the form both
// stores keep it so that they read back identically.
type StoredMessage struct {
	MessageID   string
	Role        string
	ContentJSON string
	Created     int64
	// MetadataJSON is nil for a NULL column.
	MetadataJSON *string
}

// EncodeMessage turns m into its row. A message without an id gets
// goose's "msg_<session>_<uuid>".
func EncodeMessage(sessionID string, m conversation.Message) (StoredMessage, error) {
	if err := ValidateMessage(m); err != nil {
		return StoredMessage{}, err
	}
	contentJSON, err := conversation.MarshalContents(m.Content)
	if err != nil {
		return StoredMessage{}, fmt.Errorf("%w: content: %v", ErrInvalidMessage, err)
	}
	return encodeWithContent(sessionID, m, ownedString(contentJSON))
}

// EncodeMessageHead is EncodeMessage without building content_json: the
// row with an empty ContentJSON and the length content_json has, for a
// store that writes the content itself (conversation.WriteContents) so a
// huge prompt is never encoded whole.
func EncodeMessageHead(sessionID string, m conversation.Message) (StoredMessage, int, error) {
	if err := ValidateMessage(m); err != nil {
		return StoredMessage{}, 0, err
	}
	n, err := conversation.ContentsJSONLen(m.Content)
	if err != nil {
		return StoredMessage{}, 0, fmt.Errorf("%w: content: %v", ErrInvalidMessage, err)
	}
	row, err := encodeWithContent(sessionID, m, "")
	return row, n, err
}

// encodeWithContent builds m's row around its already encoded content.
func encodeWithContent(sessionID string, m conversation.Message, contentJSON string) (StoredMessage, error) {
	metadataJSON, err := marshalNoEscape(m.Metadata)
	if err != nil {
		return StoredMessage{}, fmt.Errorf("%w: metadata: %v", ErrInvalidMessage, err)
	}
	id := m.IDOrEmpty()
	if m.ID == nil {
		id = "msg_" + sessionID + "_" + uuid.NewString()
	}
	md := string(metadataJSON)
	return StoredMessage{MessageID: id, Role: string(m.Role), ContentJSON: contentJSON,
		Created: m.Created, MetadataJSON: &md}, nil
}

// EncodeMetadata is m's metadata_json as EncodeMessage writes it.
func EncodeMetadata(md conversation.Metadata) (string, error) {
	b, err := marshalNoEscape(md)
	if err != nil {
		return "", fmt.Errorf("%w: metadata: %v", ErrInvalidMessage, err)
	}
	return string(b), nil
}

// ownedString returns b as a string without copying it: a 31 MB prompt's
// row must not exist twice. b is never used again after the call.
func ownedString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Decode reads a row back. ok is false for rows goose skips: roles other
// than user and assistant. A content_json that does not parse is an error
// the caller logs and skips, so one bad row cannot hide a session.
func (r StoredMessage) Decode() (m conversation.Message, ok bool, err error) {
	role := conversation.Role(r.Role)
	if role != conversation.RoleUser && role != conversation.RoleAssistant {
		return conversation.Message{}, false, nil
	}
	content, ok := decodeTextOnly(r.ContentJSON)
	if !ok {
		if err := json.Unmarshal([]byte(r.ContentJSON), &content); err != nil {
			return conversation.Message{}, false, fmt.Errorf("message %s: content_json: %w", r.MessageID, err)
		}
	}
	kept := content // usually every item is kept: no second slice
	if len(content) == 0 || slices.ContainsFunc(content, untyped) {
		kept = make([]conversation.Content, 0, len(content))
		for _, c := range content {
			if !untyped(c) {
				kept = append(kept, c)
			}
		}
	}
	m = conversation.Message{Role: role, Created: r.Created, Content: kept, Metadata: decodeMetadata(r.MetadataJSON)}
	if r.MessageID != "" {
		id := r.MessageID
		m.ID = &id
	}
	return m, true, nil
}

// untyped reports an item that decoded to no type (conversationCompacted
// and the like), which goose drops.
func untyped(c conversation.Content) bool { return c.Type == "" }

// decodeMetadata treats NULL or invalid metadata as visible to everyone, and
// a missing flag as true, as goose does.
func decodeMetadata(s *string) conversation.Metadata {
	md := conversation.VisibleToAll()
	if s == nil {
		return md
	}
	if known, ok := storedMetadata()[*s]; ok { // what EncodeMessage writes: no JSON parse
		return known
	}
	var aux struct {
		UserVisible  *bool                      `json:"userVisible"`
		AgentVisible *bool                      `json:"agentVisible"`
		TurnContext  bool                       `json:"turnContext"`
		Usage        *conversation.MessageUsage `json:"usage"`
	}
	if err := json.Unmarshal([]byte(*s), &aux); err != nil {
		return md
	}
	md.TurnContext = aux.TurnContext
	if aux.UserVisible != nil {
		md.UserVisible = *aux.UserVisible
	}
	if aux.AgentVisible != nil {
		md.AgentVisible = *aux.AgentVisible
	}
	md.Usage = aux.Usage
	return md
}

// decodeTextOnly is a fast path for the commonest content_json, a list of
// bare text items ({"type":"text","text":…} and nothing else): one decoding
// pass instead of the general variant decoder's several. Anything else
// (other types, annotations, _meta, bad JSON) reports false and takes the
// general path.
func decodeTextOnly(s string) ([]conversation.Content, bool) {
	if text, ok := decodeSingleText(s); ok {
		return []conversation.Content{conversation.Text(text)}, true
	}
	var items []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&items); err != nil || dec.More() {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	out := make([]conversation.Content, len(items))
	for i, it := range items {
		if it.Type != string(conversation.TypeText) || it.Text == nil {
			return nil, false
		}
		out[i] = conversation.Text(*it.Text)
	}
	return out, true
}

// singleTextPrefix and singleTextSuffix frame the content EncodeMessage
// writes for a one-text message.
const (
	singleTextPrefix = `[{"type":"text","text":`
	singleTextSuffix = `}]`
)

// decodeSingleText reads exactly [{"type":"text","text":"…"}] (no spaces,
// as EncodeMessage writes it) by decoding only the string literal.
func decodeSingleText(s string) (string, bool) {
	body, ok := strings.CutPrefix(s, singleTextPrefix)
	if !ok {
		return "", false
	}
	lit, ok := strings.CutSuffix(body, singleTextSuffix)
	if !ok || len(lit) < 2 || lit[0] != '"' || stringLiteralEnd(lit) != len(lit) {
		return "", false
	}
	if inner := lit[1 : len(lit)-1]; plainJSONString(inner) {
		return inner, true // nothing to unescape
	}
	var text string
	if err := json.Unmarshal([]byte(lit), &text); err != nil {
		return "", false
	}
	return text, true
}

// plainJSONString reports whether s, the inside of a JSON string literal,
// decodes to itself: no escapes, no control characters, valid UTF-8.
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' || c < 0x20 {
			return false
		}
	}
	return utf8.ValidString(s)
}

// stringLiteralEnd returns the index just past the JSON string literal that
// starts s (s[0] is '"'), or -1.
func stringLiteralEnd(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// storedMetadata maps the four metadata_json texts EncodeMessage (and goose)
// write to their values, so loading a long conversation skips most parses.
// Built on first use: it encodes with encoding/json, which a fresh
// process's start-up does not need.
var storedMetadata = sync.OnceValue(func() map[string]conversation.Metadata {
	out := map[string]conversation.Metadata{}
	for _, u := range []bool{false, true} {
		for _, a := range []bool{false, true} {
			md := conversation.Metadata{UserVisible: u, AgentVisible: a}
			b, _ := marshalNoEscape(md)
			out[string(b)] = md
		}
	}
	return out
})

// marshalNoEscape is json.Marshal without HTML escaping, as serde writes.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
