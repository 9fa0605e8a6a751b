package conversation

import (
	"encoding/json"
	"fmt"
)

// ContentType is the "type" tag of a MessageContent item.
type ContentType string

const (
	TypeText                    ContentType = "text"
	TypeImage                   ContentType = "image"
	TypeToolRequest             ContentType = "toolRequest"
	TypeToolResponse            ContentType = "toolResponse"
	TypeToolConfirmationRequest ContentType = "toolConfirmationRequest"
	TypeActionRequired          ContentType = "actionRequired"
	TypeFrontendToolRequest     ContentType = "frontendToolRequest"
	TypeThinking                ContentType = "thinking"
	TypeRedactedThinking        ContentType = "redactedThinking"
	TypeSystemNotification      ContentType = "systemNotification"
	// TypeReasoning is the 1.24-era variant; it is read as thinking with an
	// empty signature (as goose 1.33 does) and never written.
	TypeReasoning ContentType = "reasoning"
	// typeConversationCompacted items are dropped on read, as goose does.
	typeConversationCompacted ContentType = "conversationCompacted"
)

// Content is one MessageContent item: exactly one of the variant pointers is
// set, matching Type.
type Content struct {
	Type                    ContentType
	Text                    *TextContent
	Image                   *ImageContent
	ToolRequest             *ToolRequest
	ToolResponse            *ToolResponse
	ToolConfirmationRequest *ToolConfirmationRequest
	ActionRequired          *ActionRequired
	FrontendToolRequest     *FrontendToolRequest
	Thinking                *ThinkingContent
	RedactedThinking        *RedactedThinkingContent
	SystemNotification      *SystemNotificationContent
}

// TextContent is rmcp's TextContent.
type TextContent struct {
	Text        string          `json:"text"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Meta        map[string]any  `json:"_meta,omitempty"`
}

// ImageContent is rmcp's ImageContent: base64 data and its MIME type.
type ImageContent struct {
	Data        string          `json:"data"`
	MimeType    string          `json:"mimeType"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Meta        map[string]any  `json:"_meta,omitempty"`
}

// ToolCall is the value inside a tool request: the prefixed tool name and
// its JSON object arguments.
type ToolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// MarshalJSON omits absent arguments, as rmcp does for arguments: None.
// An empty (non-nil) map is written as {}.
func (tc ToolCall) MarshalJSON() ([]byte, error) {
	if tc.Arguments == nil {
		return Marshal(struct {
			Name string `json:"name"`
		}{tc.Name})
	}
	return Marshal(struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}{tc.Name, tc.Arguments})
}

// UnmarshalJSON wraps non-object arguments as {"value": …}, as goose does.
// Object (or absent) arguments decode in one pass.
func (tc *ToolCall) UnmarshalJSON(b []byte) error {
	var one struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	if err := json.Unmarshal(b, &one); err == nil {
		tc.Name, tc.Arguments = one.Name, one.Arguments
		return nil
	}
	return tc.unmarshalTwoPass(b)
}

// unmarshalTwoPass decodes the arguments on their own so that a
// non-object can be wrapped.
func (tc *ToolCall) unmarshalTwoPass(b []byte) error {
	var aux struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	tc.Name = aux.Name
	tc.Arguments = nil
	if len(aux.Arguments) == 0 || string(aux.Arguments) == "null" {
		return nil
	}
	if err := json.Unmarshal(aux.Arguments, &tc.Arguments); err == nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(aux.Arguments, &v); err != nil {
		return err
	}
	tc.Arguments = map[string]any{"value": v}
	return nil
}

// ToolRequest asks for a tool call. ToolCall holds either the call or the
// error the provider hit while parsing it (e.g. invalid JSON arguments).
type ToolRequest struct {
	ID       string           `json:"id"`
	ToolCall Result[ToolCall] `json:"toolCall"`
	Metadata map[string]any   `json:"metadata,omitempty"`
	Meta     map[string]any   `json:"_meta,omitempty"`
}

// ToolResponse answers the tool request with the same ID.
type ToolResponse struct {
	ID         string                 `json:"id"`
	ToolResult Result[CallToolResult] `json:"toolResult"`
	Metadata   map[string]any         `json:"metadata,omitempty"`
}

// ToolConfirmationRequest is the legacy approval request item.
type ToolConfirmationRequest struct {
	ID        string         `json:"id"`
	ToolName  string         `json:"toolName"`
	Arguments map[string]any `json:"arguments"`
	Prompt    *string        `json:"prompt,omitempty"`
}

// FrontendToolRequest asks the client to run one of its own tools.
type FrontendToolRequest struct {
	ID       string           `json:"id"`
	ToolCall Result[ToolCall] `json:"toolCall"`
}

// ThinkingContent is model reasoning with the provider's signature.
type ThinkingContent struct {
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

// RedactedThinkingContent is encrypted reasoning that must be echoed back.
type RedactedThinkingContent struct {
	Data string `json:"data"`
}

// NotificationType is a system notification's kind.
type NotificationType string

const (
	NotificationThinking         NotificationType = "thinkingMessage"
	NotificationInline           NotificationType = "inlineMessage"
	NotificationCreditsExhausted NotificationType = "creditsExhausted"
)

// SystemNotificationContent is a UI-only note from the agent.
type SystemNotificationContent struct {
	NotificationType NotificationType `json:"notificationType"`
	Msg              string           `json:"msg"`
	Data             json.RawMessage  `json:"data,omitempty"`
}

// Text returns a text item.
func Text(s string) Content { return Content{Type: TypeText, Text: &TextContent{Text: s}} }

// Image returns an image item.
func Image(data, mimeType string) Content {
	return Content{Type: TypeImage, Image: &ImageContent{Data: data, MimeType: mimeType}}
}

// ToolRequestContent returns a successful tool request item.
func ToolRequestContent(id, name string, args map[string]any) Content {
	return Content{Type: TypeToolRequest, ToolRequest: &ToolRequest{ID: id, ToolCall: Ok(ToolCall{Name: name, Arguments: args})}}
}

// ToolRequestError returns a tool request the provider could not parse.
func ToolRequestError(id, msg string) Content {
	return Content{Type: TypeToolRequest, ToolRequest: &ToolRequest{ID: id, ToolCall: Err[ToolCall](msg)}}
}

// ToolResponseContent returns a tool response item.
func ToolResponseContent(id string, r Result[CallToolResult]) Content {
	return Content{Type: TypeToolResponse, ToolResponse: &ToolResponse{ID: id, ToolResult: r}}
}

// Thinking returns a thinking item.
func Thinking(text, signature string) Content {
	return Content{Type: TypeThinking, Thinking: &ThinkingContent{Thinking: text, Signature: signature}}
}

// RedactedThinking returns a redacted-thinking item.
func RedactedThinking(data string) Content {
	return Content{Type: TypeRedactedThinking, RedactedThinking: &RedactedThinkingContent{Data: data}}
}

// SystemNotification returns a UI-only notification item.
func SystemNotification(kind NotificationType, msg string) Content {
	return Content{Type: TypeSystemNotification, SystemNotification: &SystemNotificationContent{NotificationType: kind, Msg: msg}}
}

// MarshalJSON writes the variant's fields with "type" first. A bare text
// item is quoted straight into a buffer of its exact size.
func (c Content) MarshalJSON() ([]byte, error) {
	if text, ok := c.plainText(); ok {
		return plainTextJSON(text), nil
	}
	v, err := c.variant()
	if err != nil {
		return nil, err
	}
	body, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	return withType(c.Type, body), nil
}

func (c Content) variant() (any, error) {
	var v any
	switch c.Type {
	case TypeText:
		v = c.Text
	case TypeImage:
		v = c.Image
	case TypeToolRequest:
		v = c.ToolRequest
	case TypeToolResponse:
		v = c.ToolResponse
	case TypeToolConfirmationRequest:
		v = c.ToolConfirmationRequest
	case TypeActionRequired:
		v = c.ActionRequired
	case TypeFrontendToolRequest:
		v = c.FrontendToolRequest
	case TypeThinking:
		v = c.Thinking
	case TypeRedactedThinking:
		v = c.RedactedThinking
	case TypeSystemNotification:
		v = c.SystemNotification
	default:
		return nil, fmt.Errorf("conversation: unknown content type %q", c.Type)
	}
	if isNilPtr(v) {
		return nil, fmt.Errorf("conversation: %s content has no value", c.Type)
	}
	return v, nil
}

// Clone returns a deep copy of c.
func (c Content) Clone() Content {
	b, err := Marshal(c)
	if err != nil {
		return c
	}
	var out Content
	if err := json.Unmarshal(b, &out); err != nil {
		return c
	}
	return out
}

// withType splices "type":<t> in front of an encoded JSON object. t is one
// of the known tags (variant checked it), so it needs no escaping.
func withType(t ContentType, body []byte) []byte {
	out := make([]byte, 0, len(body)+len(t)+12)
	out = append(out, `{"type":"`...)
	out = append(out, t...)
	out = append(out, '"')
	if len(body) > 2 {
		out = append(out, ',')
	}
	return append(out, body[1:]...)
}

func isNilPtr(v any) bool {
	switch p := v.(type) {
	case *TextContent:
		return p == nil
	case *ImageContent:
		return p == nil
	case *ToolRequest:
		return p == nil
	case *ToolResponse:
		return p == nil
	case *ToolConfirmationRequest:
		return p == nil
	case *ActionRequired:
		return p == nil
	case *FrontendToolRequest:
		return p == nil
	case *ThinkingContent:
		return p == nil
	case *RedactedThinkingContent:
		return p == nil
	case *SystemNotificationContent:
		return p == nil
	}
	return v == nil
}
