package anthropic

import (
	"encoding/json"
	"slices"

	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// marshalRequest encodes w as the body sent: a huge text block or tool
// result (a 31 MB prompt, a long command output) is not handed to
// encoding/json, which would hold it about three more times, but quoted
// as the body is sent (core/provider/jsonbody). The bytes are
// json.Marshal(w)'s.
func marshalRequest(w wireRequest) (*jsonbody.Body, error) {
	var big jsonbody.Taken
	wire := w
	wire.Messages = slices.Clone(w.Messages)
	for i, m := range wire.Messages {
		var blocks []wireBlock
		for j, b := range m.Content {
			text, ok := hugeText(b)
			if !ok {
				continue
			}
			if blocks == nil { // the request's own blocks are left as they were
				blocks = slices.Clone(m.Content)
				wire.Messages[i].Content = blocks
			}
			token := big.Take(text)
			if b.Type == "text" {
				blocks[j].Text = &token
			} else {
				blocks[j].Content = token
			}
		}
	}
	return jsonbody.Encode(&big, func() ([]byte, error) { return json.Marshal(wire) }, func() ([]byte, error) { return json.Marshal(w) })
}

// hugeText is a text block's text or a tool result's text content when
// it is huge.
func hugeText(b wireBlock) (string, bool) {
	switch {
	case b.Type == "text" && b.Text != nil && len(*b.Text) >= jsonbody.MinText:
		return *b.Text, true
	case b.Type == "tool_result":
		if s, ok := b.Content.(string); ok && len(s) >= jsonbody.MinText {
			return s, true
		}
	}
	return "", false
}
