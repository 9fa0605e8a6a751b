package acp

import (
	"bytes"
	"encoding/json"
)

// jsonMarshal encodes without HTML escaping so text reads as the model wrote it.
func jsonMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// marshalWithText encodes v and guarantees a "text" member (omitempty drops
// an empty one, but ACP requires it on text blocks).
func marshalWithText(v any, text string) ([]byte, error) {
	b, err := jsonMarshal(v)
	if err != nil || text != "" {
		return b, err
	}
	return append([]byte(`{"text":"",`), b[1:]...), nil
}

// MarshalJSON writes tool-call content (or a session message's blocks) as
// the "content" array; chunk updates use "content" for their single block.
func (u SessionUpdate) MarshalJSON() ([]byte, error) {
	type plain SessionUpdate
	b, err := jsonMarshal(plain(u))
	if err != nil || (u.ToolContent == nil && u.Blocks == nil) {
		return b, err
	}
	var tc []byte
	if u.ToolContent != nil {
		tc, err = jsonMarshal(u.ToolContent)
	} else {
		tc, err = jsonMarshal(u.Blocks)
	}
	if err != nil {
		return nil, err
	}
	out := append([]byte(`{"content":`), tc...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	return append(out, b[1:]...), nil
}

// UnmarshalJSON reads "content" as a block or an array by update kind.
func (u *SessionUpdate) UnmarshalJSON(data []byte) error {
	type plain SessionUpdate
	var aux struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*u = SessionUpdate(aux.plain)
	u.Content = nil
	if len(aux.Content) == 0 || string(aux.Content) == "null" {
		return nil
	}
	if aux.Content[0] == '[' {
		return json.Unmarshal(aux.Content, &u.ToolContent)
	}
	u.Content = new(ContentBlock)
	return json.Unmarshal(aux.Content, u.Content)
}
