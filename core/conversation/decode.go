package conversation

import (
	"encoding/json"
	"fmt"
)

// UnmarshalJSON decodes any goose MessageContent, including the legacy
// reasoning form; conversationCompacted items decode to the zero Content,
// which Message drops.
//
// One cheap key scan finds the tag and the keys present, so the item is
// decoded once, into its variant. Anything the scan does not handle
// exactly (not an object, a non-string or escaped tag, escaped or
// case-folded keys) takes the general path, which reads the tag with
// encoding/json's own rules.
func (c *Content) UnmarshalJSON(b []byte) error {
	obj, ok := scanObject(b, tagKeyType)
	if !ok {
		return c.unmarshalSlow(b)
	}
	t := ContentType(obj.tag)
	*c = Content{Type: t}
	err := obj.keys.require(t)
	if _, decodesBody := requiredFields[t]; err != nil || !decodesBody {
		// Nothing below would look at the syntax: bad JSON must still
		// report the syntax error the general path gives.
		if !json.Valid(b) {
			return c.unmarshalSlow(b)
		}
		if err != nil {
			return err
		}
	}
	if t == TypeText {
		if text, ok := obj.plainText(b); ok {
			c.Text = &TextContent{Text: text}
			return nil
		}
	}
	return c.decodeVariant(b)
}

// unmarshalSlow reads the tag and the set of keys with full JSON decodes.
func (c *Content) unmarshalSlow(b []byte) error {
	var tag struct {
		Type ContentType `json:"type"`
	}
	if err := json.Unmarshal(b, &tag); err != nil {
		return err
	}
	*c = Content{Type: tag.Type}
	if err := requireFieldsSlow(b, tag.Type); err != nil {
		return err
	}
	return c.decodeVariant(b)
}

// decodeVariant decodes b into the variant of c.Type.
func (c *Content) decodeVariant(b []byte) error {
	switch c.Type {
	case TypeText:
		c.Text = new(TextContent)
		return json.Unmarshal(b, c.Text)
	case TypeImage:
		c.Image = new(ImageContent)
		return json.Unmarshal(b, c.Image)
	case TypeToolRequest:
		c.ToolRequest = new(ToolRequest)
		return json.Unmarshal(b, c.ToolRequest)
	case TypeToolResponse:
		c.ToolResponse = new(ToolResponse)
		return json.Unmarshal(b, c.ToolResponse)
	case TypeToolConfirmationRequest:
		c.ToolConfirmationRequest = new(ToolConfirmationRequest)
		return json.Unmarshal(b, c.ToolConfirmationRequest)
	case TypeActionRequired:
		c.ActionRequired = new(ActionRequired)
		return json.Unmarshal(b, c.ActionRequired)
	case TypeFrontendToolRequest:
		c.FrontendToolRequest = new(FrontendToolRequest)
		return json.Unmarshal(b, c.FrontendToolRequest)
	case TypeThinking:
		c.Thinking = new(ThinkingContent)
		return json.Unmarshal(b, c.Thinking)
	case TypeRedactedThinking:
		c.RedactedThinking = new(RedactedThinkingContent)
		return json.Unmarshal(b, c.RedactedThinking)
	case TypeSystemNotification:
		c.SystemNotification = new(SystemNotificationContent)
		return json.Unmarshal(b, c.SystemNotification)
	case TypeReasoning:
		var r struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		*c = Thinking(r.Text, "")
		return nil
	case typeConversationCompacted:
		*c = Content{}
		return nil
	default:
		return fmt.Errorf("conversation: unknown content type %q", c.Type)
	}
}

// requiredFields are the fields goose's serde needs for each variant (the
// "required" lists of the goosed OpenAPI components), in the order they
// are reported missing.
var requiredFields = map[ContentType][]string{
	TypeText:                    {"text"},
	TypeImage:                   {"data", "mimeType"},
	TypeToolRequest:             {"id", "toolCall"},
	TypeToolResponse:            {"id", "toolResult"},
	TypeToolConfirmationRequest: {"id", "toolName", "arguments"},
	TypeActionRequired:          {"data"},
	TypeFrontendToolRequest:     {"id", "toolCall"},
	TypeThinking:                {"thinking", "signature"},
	TypeRedactedThinking:        {"data"},
	TypeSystemNotification:      {"notificationType", "msg"},
	TypeReasoning:               {"text"},
}

// require reports the first required field of t missing from ks.
func (ks keySet) require(t ContentType) error {
	for _, f := range requiredFields[t] {
		if !ks.has(f) {
			return missingField(t, f)
		}
	}
	return nil
}

// requireFieldsSlow is require for input the key scan cannot read:
// it decodes the object's keys exactly (case-sensitive, unescaped).
func requireFieldsSlow(b []byte, t ContentType) error {
	fields := requiredFields[t]
	if len(fields) == 0 {
		return nil
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal(b, &present); err != nil {
		return err
	}
	for _, f := range fields {
		if _, ok := present[f]; !ok {
			return missingField(t, f)
		}
	}
	return nil
}

func missingField(t ContentType, f string) error {
	return fmt.Errorf("conversation: %s content is missing %q", t, f)
}
