package conversation

import (
	"encoding/json"
	"errors"
)

// Result is goose's ToolResult wrapper: {"status":"success","value":…} or
// {"status":"error","error":"<message>"}.
type Result[T any] struct {
	Value *T
	Error string
}

// Ok wraps a successful value.
func Ok[T any](v T) Result[T] { return Result[T]{Value: &v} }

// Err wraps an error message.
func Err[T any](msg string) Result[T] { return Result[T]{Error: msg} }

// IsOK reports whether the result holds a value.
func (r Result[T]) IsOK() bool { return r.Value != nil }

// MarshalJSON writes the wrapper form.
func (r Result[T]) MarshalJSON() ([]byte, error) {
	if r.Value != nil {
		return Marshal(struct {
			Status string `json:"status"`
			Value  *T     `json:"value"`
		}{"success", r.Value})
	}
	return Marshal(struct {
		Status string `json:"status"`
		Error  string `json:"error"`
	}{"error", r.Error})
}

// UnmarshalJSON reads the wrapper form. The common case decodes in one
// pass straight into T; when that fails (e.g. an error result whose
// "value" does not fit T, which is ignored) the two-pass form decides.
func (r *Result[T]) UnmarshalJSON(b []byte) error {
	var one struct {
		Status string `json:"status"`
		Value  *T     `json:"value"`
		Error  string `json:"error"`
	}
	if err := json.Unmarshal(b, &one); err != nil {
		return r.unmarshalTwoPass(b)
	}
	*r = Result[T]{}
	switch one.Status {
	case "success":
		r.Value = one.Value
		if r.Value == nil {
			r.Value = new(T)
		}
		return nil
	case "error":
		r.Error = one.Error
		return nil
	}
	return errBadStatus
}

var errBadStatus = errors.New(`conversation: tool result status must be "success" or "error"`)

// unmarshalTwoPass reads the status first and decodes only the field it
// names.
func (r *Result[T]) unmarshalTwoPass(b []byte) error {
	var aux struct {
		Status string          `json:"status"`
		Value  json.RawMessage `json:"value"`
		Error  string          `json:"error"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*r = Result[T]{}
	switch aux.Status {
	case "success":
		r.Value = new(T)
		if len(aux.Value) == 0 {
			return nil
		}
		return json.Unmarshal(aux.Value, r.Value)
	case "error":
		r.Error = aux.Error
		return nil
	default:
		return errBadStatus
	}
}

// CallToolResult is MCP's tools/call result as goose stores it.
type CallToolResult struct {
	Content           []ToolContent  `json:"content"`
	StructuredContent any            `json:"structuredContent,omitempty"`
	IsError           bool           `json:"isError,omitempty"`
	Meta              map[string]any `json:"_meta,omitempty"`
}

// MarshalJSON writes an empty content list as [] and always writes isError:
// goose builds results with CallToolResult::success/error, which set it, so
// its stored results carry "isError":false and ours match them byte for byte.
func (r CallToolResult) MarshalJSON() ([]byte, error) {
	content := r.Content
	if content == nil {
		content = []ToolContent{}
	}
	return Marshal(struct {
		Content           []ToolContent  `json:"content"`
		StructuredContent any            `json:"structuredContent,omitempty"`
		IsError           bool           `json:"isError"`
		Meta              map[string]any `json:"_meta,omitempty"`
	}{content, r.StructuredContent, r.IsError, r.Meta})
}

// ToolContent is one MCP content block (text, image, audio, resource,
// resource_link). Only the fields of its Type are set.
type ToolContent struct {
	Type        string            `json:"type"`
	Text        string            `json:"text,omitempty"`
	Data        string            `json:"data,omitempty"`
	MimeType    string            `json:"mimeType,omitempty"`
	Resource    *ResourceContents `json:"resource,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Name        string            `json:"name,omitempty"`
	Title       string            `json:"title,omitempty"`
	Description string            `json:"description,omitempty"`
	Size        *int64            `json:"size,omitempty"`
	Annotations *Annotations      `json:"annotations,omitempty"`
	Meta        map[string]any    `json:"_meta,omitempty"`
}

// MarshalJSON keeps "text" present on text blocks even when empty.
func (c ToolContent) MarshalJSON() ([]byte, error) {
	type plain ToolContent
	if c.Type != "text" {
		return Marshal(plain(c))
	}
	return Marshal(struct {
		Type        string         `json:"type"`
		Text        string         `json:"text"`
		Annotations *Annotations   `json:"annotations,omitempty"`
		Meta        map[string]any `json:"_meta,omitempty"`
	}{c.Type, c.Text, c.Annotations, c.Meta})
}

// ResourceContents is an embedded resource's text or base64 blob.
type ResourceContents struct {
	URI      string         `json:"uri"`
	MimeType string         `json:"mimeType,omitempty"`
	Text     *string        `json:"text,omitempty"`
	Blob     *string        `json:"blob,omitempty"`
	Meta     map[string]any `json:"_meta,omitempty"`
}

// Annotations are MCP content annotations. Audience "assistant" marks output
// meant for the model only, "user" output meant for the user only.
type Annotations struct {
	Audience     []Role   `json:"audience,omitempty"`
	Priority     *float64 `json:"priority,omitempty"`
	LastModified string   `json:"lastModified,omitempty"`
}

// TextBlock returns an MCP text block.
func TextBlock(s string) ToolContent { return ToolContent{Type: "text", Text: s} }

// ImageBlock returns an MCP image block.
func ImageBlock(data, mimeType string) ToolContent {
	return ToolContent{Type: "image", Data: data, MimeType: mimeType}
}

// TextResult returns a successful tool result holding one text block.
func TextResult(s string) Result[CallToolResult] {
	return Ok(CallToolResult{Content: []ToolContent{TextBlock(s)}})
}

// ErrorResult returns a tool result the model reads as a failure
// (isError:true with the message as text), not a protocol error.
func ErrorResult(s string) Result[CallToolResult] {
	return Ok(CallToolResult{Content: []ToolContent{TextBlock(s)}, IsError: true})
}
