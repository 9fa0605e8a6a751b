package provider

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// ToolRequest builds the tool-request content for a streamed call: parsed
// arguments on success ("" means {}), or an error item with goose's text
// that the model sees on its next turn when the JSON is invalid.
func ToolRequest(id, name, rawArgs string) conversation.Content {
	args, err := ParseToolArguments(rawArgs)
	if err != nil {
		return conversation.ToolRequestError(id,
			fmt.Sprintf("Could not interpret tool use parameters for id %s: %v", id, err))
	}
	return conversation.ToolRequestContent(id, name, args)
}

// ParseToolArguments parses a tool call's JSON arguments as goose's
// safely_parse_json does: as-is first, then with raw control characters
// escaped (models often emit literal newlines inside strings). A non-object
// value is wrapped as {"value": …}.
func ParseToolArguments(raw string) (map[string]any, error) {
	if strings.TrimSpace(raw) == "" {
		return map[string]any{}, nil
	}
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		if err2 := json.Unmarshal([]byte(escapeControlChars(raw)), &v); err2 != nil {
			return nil, err
		}
	}
	switch t := v.(type) {
	case map[string]any:
		return t, nil
	case nil:
		return map[string]any{}, nil
	}
	return map[string]any{"value": v}, nil
}

// escapeControlChars escapes literal U+0000–U+001F characters, leaving
// quotes and backslashes alone (goose's json_escape_control_chars_in_string).
func escapeControlChars(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
