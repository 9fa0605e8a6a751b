package acp

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// Translator turns goose messages into session/update payloads for one
// session. It remembers tool requests so responses can report locations.
type Translator struct {
	// WorkingDir resolves relative paths in tool arguments to absolute ones.
	WorkingDir string
	requests   map[string]conversation.ToolCall
}

// MessageUpdates returns the updates for one (partial) message as it
// streams; replay also emits user chunks.
func (t *Translator) MessageUpdates(m conversation.Message, replay bool) []SessionUpdate {
	var out []SessionUpdate
	id := m.IDOrEmpty()
	for _, c := range m.Content {
		switch {
		case c.Text != nil && m.Role == conversation.RoleAssistant:
			out = append(out, chunk(UpdateAgentMessageChunk, id, textBlock(c.Text.Text)))
		case c.Text != nil && replay && !isToolResponseOnly(m):
			out = append(out, chunk(UpdateUserMessageChunk, id, textBlock(c.Text.Text)))
		case c.Image != nil && (m.Role == conversation.RoleAssistant || replay):
			kind := UpdateAgentMessageChunk
			if m.Role == conversation.RoleUser {
				kind = UpdateUserMessageChunk
			}
			out = append(out, chunk(kind, id, ContentBlock{Type: "image", Data: c.Image.Data, MimeType: c.Image.MimeType}))
		case c.Thinking != nil && c.Thinking.Thinking != "":
			out = append(out, chunk(UpdateAgentThoughtChunk, id, textBlock(c.Thinking.Thinking)))
		case c.ToolRequest != nil:
			out = append(out, t.toolCall(c.ToolRequest))
		case c.ToolResponse != nil:
			out = append(out, t.toolResult(c.ToolResponse))
		}
	}
	return out
}

func isToolResponseOnly(m conversation.Message) bool {
	return m.HasToolResponses() && !m.HasToolRequests()
}

func chunk(kind, messageID string, b ContentBlock) SessionUpdate {
	u := SessionUpdate{SessionUpdate: kind, Content: &b, MessageID: messageID}
	if messageID != "" {
		u.Meta = Meta{"goose": map[string]any{"messageId": messageID}}
	}
	return u
}

func textBlock(s string) ContentBlock { return ContentBlock{Type: "text", Text: s} }

func (t *Translator) toolCall(r *conversation.ToolRequest) SessionUpdate {
	u := SessionUpdate{SessionUpdate: UpdateToolCall, ToolCallID: r.ID, Status: "pending"}
	if !r.ToolCall.IsOK() {
		title := "error"
		u.Title, u.Kind = &title, "other"
		return u
	}
	call := *r.ToolCall.Value
	if t.requests == nil {
		t.requests = map[string]conversation.ToolCall{}
	}
	t.requests[r.ID] = call
	title := ToolTitle(call)
	u.Title, u.Kind = &title, ToolKind(call.Name)
	u.RawInput = nonNilArgs(call.Arguments)
	u.Locations = t.locations(call)
	return u
}

func nonNilArgs(a map[string]any) map[string]any {
	if a == nil {
		return map[string]any{}
	}
	return a
}

func (t *Translator) toolResult(r *conversation.ToolResponse) SessionUpdate {
	u := SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: r.ID}
	if !r.ToolResult.IsOK() {
		u.Status = "failed"
		u.ToolContent = []ToolCallContent{{Type: "content", Content: &ContentBlock{Type: "text", Text: r.ToolResult.Error}}}
		return u
	}
	res := r.ToolResult.Value
	u.Status = "completed"
	if res.IsError {
		u.Status = "failed"
	}
	u.ToolContent = toolContent(res.Content)
	if call, ok := t.requests[r.ID]; ok {
		u.Locations = t.locations(call)
	}
	return u
}

// toolContent maps MCP result blocks to ACP tool-call content, skipping
// blocks meant for the assistant only.
func toolContent(blocks []conversation.ToolContent) []ToolCallContent {
	out := []ToolCallContent{}
	for _, b := range blocks {
		if b.Annotations != nil && len(b.Annotations.Audience) == 1 && b.Annotations.Audience[0] == conversation.RoleAssistant {
			continue
		}
		var cb *ContentBlock
		switch b.Type {
		case "text":
			cb = &ContentBlock{Type: "text", Text: b.Text}
		case "image":
			cb = &ContentBlock{Type: "image", Data: b.Data, MimeType: b.MimeType}
		case "resource":
			if b.Resource != nil {
				cb = &ContentBlock{Type: "resource", Resource: &EmbeddedResource{URI: b.Resource.URI, MimeType: b.Resource.MimeType, Text: b.Resource.Text, Blob: b.Resource.Blob}}
			}
		}
		if cb != nil {
			out = append(out, ToolCallContent{Type: "content", Content: cb})
		}
	}
	return out
}

// ToolTitle is goose's tool-call title: "<extension>: <tool> · <detail>",
// lowercase, the detail being the first line of the first of path, file,
// command, query, url, uri, name, pattern or source, cut to 57 characters
// plus "…" when over 60.
func ToolTitle(call conversation.ToolCall) string {
	title := strings.ReplaceAll(call.Name, "_", " ")
	if ext, tool, ok := strings.Cut(call.Name, "__"); ok {
		title = strings.ReplaceAll(ext, "_", " ") + ": " + strings.ReplaceAll(tool, "_", " ")
	}
	title = strings.ToLower(title)
	if d := toolDetail(call.Arguments); d != "" {
		title += " · " + d
	}
	return title
}

func toolDetail(args map[string]any) string {
	for _, k := range []string{"path", "file", "command", "query", "url", "uri", "name", "pattern", "source"} {
		s, ok := args[k].(string)
		if !ok {
			continue
		}
		s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
		if s == "" {
			continue
		}
		if utf8.RuneCountInString(s) > 60 {
			s = string([]rune(s)[:57]) + "…"
		}
		return s
	}
	return ""
}

// ToolKind classifies a prefixed tool name into an ACP ToolKind.
func ToolKind(name string) string {
	_, tool, ok := strings.Cut(name, "__")
	if !ok {
		tool = name
	}
	switch tool {
	case "read", "view", "tree", "read_image", "read_resource", "list_resources":
		return "read"
	case "write", "edit", "text_editor", "str_replace", "insert", "image_processor":
		return "edit"
	case "shell":
		return "execute"
	case "analyze", "search", "grep", "glob", "find", "search_available_extensions":
		return "search"
	case "fetch", "web_fetch":
		return "fetch"
	case "todo_write":
		return "think"
	}
	return "other"
}

// locations derives file locations for developer file tools.
func (t *Translator) locations(call conversation.ToolCall) []ToolCallLocation {
	path, _ := call.Arguments["path"].(string)
	if path == "" || !strings.HasPrefix(call.Name, "developer__") {
		return nil
	}
	if !filepath.IsAbs(path) && t.WorkingDir != "" {
		path = filepath.Join(t.WorkingDir, path)
	}
	loc := ToolCallLocation{Path: path}
	if n, ok := call.Arguments["line"].(float64); ok && n >= 1 {
		line := int(n)
		loc.Line = &line
	} else if r, ok := call.Arguments["view_range"].([]any); ok && len(r) > 0 {
		if n, ok := r[0].(float64); ok && n >= 1 {
			line := int(n)
			loc.Line = &line
		}
	}
	return []ToolCallLocation{loc}
}

// describe is used in logs.
func describe(u SessionUpdate) string {
	return fmt.Sprintf("%s %s", u.SessionUpdate, u.ToolCallID)
}
