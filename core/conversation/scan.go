package conversation

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// scanned is what one pass over an object's top-level keys found.
type scanned struct {
	tag  string // value of the tag key; "" when absent
	keys keySet // required-field names present
	// other is set when the object holds more than the tag and
	// required-field keys, or a "text" that is repeated or not a string.
	other bool
	// text is the last "text" value, raw.
	text []byte
	// end is the index just past the object's closing brace.
	end int
}

// keySet holds the required-field names (see requiredFields) seen in an
// object, one bit each; other keys are not recorded.
type keySet uint16

const (
	keyText keySet = 1 << iota
	keyData
	keyMimeType
	keyID
	keyToolCall
	keyToolResult
	keyToolName
	keyArguments
	keyThinking
	keySignature
	keyNotificationType
	keyMsg
)

// keyBits maps each required-field name to its bit. Looking it up with
// keyBits[string(k)] does not allocate.
var keyBits = map[string]keySet{
	"text": keyText, "data": keyData, "mimeType": keyMimeType, "id": keyID,
	"toolCall": keyToolCall, "toolResult": keyToolResult, "toolName": keyToolName,
	"arguments": keyArguments, "thinking": keyThinking, "signature": keySignature,
	"notificationType": keyNotificationType, "msg": keyMsg,
}

func (ks keySet) has(name string) bool {
	bit := keyBits[name]
	return bit != 0 && ks&bit != 0
}

// knownTags interns the content and action tags so scanning them does not
// allocate; keyed lookups with string(bytes) do not allocate either.
var knownTags = func() map[string]string {
	out := map[string]string{}
	for _, t := range []ContentType{TypeText, TypeImage, TypeToolRequest, TypeToolResponse,
		TypeToolConfirmationRequest, TypeActionRequired, TypeFrontendToolRequest, TypeThinking,
		TypeRedactedThinking, TypeSystemNotification, TypeReasoning, typeConversationCompacted} {
		out[string(t)] = string(t)
	}
	for _, t := range []ActionType{ActionToolConfirmation, ActionElicitation, ActionElicitationResponse} {
		out[string(t)] = string(t)
	}
	return out
}()

var (
	tagKeyType       = []byte("type")
	tagKeyActionType = []byte("actionType")
)

// scanObject reads the top-level keys of the JSON object b without decoding
// values, returning the value of tagKey and the required-field keys
// present. ok is false whenever the result might differ from what
// encoding/json would decode (not an object, escaped keys, a key that
// matches tagKey only case-insensitively, a non-string, escaped or unknown
// tag): the caller then falls back to full decoding. Syntax is not checked
// beyond what finding the keys needs; the decode that follows checks it.
func scanObject(b, tagKey []byte) (s scanned, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return s, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		s.end = i + 1
		return s, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return s, false
		}
		end, escaped := stringEnd(b, i)
		if end < 0 || escaped {
			return s, false
		}
		key := b[i+1 : end-1]
		if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
			return s, false
		}
		i = skipSpace(b, i+1)
		switch {
		case bytes.Equal(key, tagKey):
			if i >= len(b) || b[i] != '"' {
				return s, false
			}
			vend, vesc := stringEnd(b, i)
			if vend < 0 || vesc {
				return s, false
			}
			// An unknown tag is an error or an odd encoding (invalid
			// UTF-8 reads as U+FFFD): the full decode words it.
			if s.tag, ok = knownTags[string(b[i+1:vend-1])]; !ok {
				return s, false
			}
			i = vend
		case bytes.EqualFold(key, tagKey):
			return s, false
		default:
			bit := keyBits[string(key)]
			s.keys |= bit
			s.other = s.other || bit == 0
			start := i
			if i = skipValue(b, i); i < 0 {
				return s, false
			}
			if bit == keyText {
				// A repeated or non-string text needs the full decode:
				// an earlier value, though overwritten, is still
				// checked there.
				s.other = s.other || s.text != nil || b[start] != '"'
				s.text = b[start:i]
			}
		}
		if i = skipSpace(b, i); i >= len(b) {
			return s, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			s.end = i + 1
			return s, true
		default:
			return s, false
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string literal starting at
// b[i] == '"' (or -1), and whether it holds any escape.
func stringEnd(b []byte, i int) (end int, escaped bool) {
	j := i + 1
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return -1, escaped
		}
		bs := bytes.IndexByte(b[j:j+q], '\\')
		if bs < 0 {
			return j + q + 1, escaped
		}
		escaped = true
		j += bs + 2 // skip the backslash and the character it escapes
		if j > len(b) {
			return -1, escaped
		}
	}
}

// skipValue returns the index just past the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		end, _ := stringEnd(b, i)
		return end
	case '{', '[':
		return skipComposite(b, i)
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\n', '\r', '\t':
			return i
		}
		i++
	}
	return i
}

// skipComposite skips a balanced object or array, stepping over strings.
func skipComposite(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			end, _ := stringEnd(b, i)
			if end < 0 {
				return -1
			}
			i = end
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return -1
}

// plainText returns the text of an item that is exactly {"type":…,
// "text":"…"} (any spacing, nothing after it), reading only the string
// literal; false means decode the item in full.
func (s scanned) plainText(b []byte) (string, bool) {
	if s.keys != keyText || s.other || len(s.text) < 2 || s.text[0] != '"' || skipSpace(b, s.end) != len(b) {
		return "", false
	}
	inner := s.text[1 : len(s.text)-1]
	if plainJSONString(inner) {
		return string(inner), true
	}
	var text string
	if err := json.Unmarshal(s.text, &text); err != nil {
		return "", false
	}
	return text, true
}

// plainJSONString reports whether s, the inside of a JSON string literal,
// decodes to itself: no escapes, no control characters, valid UTF-8.
func plainJSONString(s []byte) bool {
	for _, c := range s {
		if c == '\\' || c < 0x20 {
			return false
		}
	}
	return utf8.Valid(s)
}
