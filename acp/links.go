package acp

import (
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// metaKeyLink is the _meta entry of a user text item that stands for a
// prompt's resource_link: the text is what the model got (the file's
// content or a note), the entry is the link the user sent, so a reopened
// thread shows the mention as a link, as the live one did.
const metaKeyLink = "goose-acp/resourceLink"

// linkText is the user message item for a resource_link block.
func linkText(text string, b ContentBlock) conversation.Content {
	c := conversation.Text(text)
	link := ContentBlock{Type: "resource_link", URI: b.URI, Name: b.Name, Title: b.Title,
		Description: b.Description, MimeType: b.MimeType, Size: b.Size}
	c.Text.Meta = map[string]any{metaKeyLink: link}
	return c
}

// replayedLink is the resource_link a stored user text item stands for.
func replayedLink(t *conversation.TextContent) (ContentBlock, bool) {
	raw, ok := t.Meta[metaKeyLink]
	if !ok {
		return ContentBlock{}, false
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return ContentBlock{}, false
	}
	var link ContentBlock
	if json.Unmarshal(b, &link) != nil || link.Type != "resource_link" || link.URI == "" {
		return ContentBlock{}, false
	}
	return link, true
}
