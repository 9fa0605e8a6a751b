package acp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// Translator turns goose messages into session/update payloads for one
// session. It remembers tool requests so responses can report locations.
type Translator struct {
	// WorkingDir is the session's working directory as it is now (the
	// agent's, which another face may move); it resolves relative paths in
	// tool arguments to absolute ones. nil: none.
	WorkingDir func() string
	// Tools returns what a tool declares about itself (kind, path and
	// line arguments); nil means toolinfo.Guess of the name.
	Tools func(name string) toolinfo.Info
	// Owner names a tool's extension (Desktop's tool card identity) and an
	// MCP App tool's ui:// resource; nil reads the extension from a
	// prefixed name.
	Owner    func(name string) (ext, appURI string)
	requests map[string]conversation.ToolCall
}

// workingDir is the session's working directory now ("" without one).
func (t *Translator) workingDir() string {
	if t.WorkingDir == nil {
		return ""
	}
	return t.WorkingDir()
}

// toolInfo returns the session's tool declarations as the agent lists
// them. The agent lists its tools before every model call, so by the time
// a tool request is translated the list is cached and this does no I/O.
func (s *Server) toolInfo(sessionID string) func(string) toolinfo.Info {
	if s.opts.Agent == nil {
		return nil
	}
	return func(name string) toolinfo.Info {
		return s.opts.Agent.Extensions().ToolInfo(context.Background(), sessionID, name)
	}
}

// CallInfo is what the tool of a translated tool call declares; false
// for a call this translator has not seen.
func (t *Translator) CallInfo(toolCallID string) (toolinfo.Info, bool) {
	call, ok := t.requests[toolCallID]
	if !ok {
		return toolinfo.Info{}, false
	}
	return t.info(call.Name), true
}

func (t *Translator) info(name string) toolinfo.Info {
	if t.Tools == nil {
		return toolinfo.Guess(name)
	}
	return t.Tools(name)
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
			if link, ok := replayedLink(c.Text); ok {
				out = append(out, chunk(UpdateUserMessageChunk, id, link))
				continue
			}
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
	return t.withGooseFrameMeta(out, m)
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
	info := t.info(call.Name)
	title := toolinfo.Title(call.Name, call.Arguments, info, t.workingDir())
	u.Title, u.Kind = &title, info.Kind
	u.RawInput = nonNilArgs(call.Arguments)
	u.Locations = t.locations(info, call.Arguments)
	u.ToolContent = commandContent(info, call.Arguments)
	return u
}

// commandContent shows the whole command a shell call runs, verbatim, as
// the call's content (clients that cut or hide titles still show it).
func commandContent(info toolinfo.Info, args map[string]any) []ToolCallContent {
	cmd, ok := args["command"].(string)
	if !ok || info.Kind != toolinfo.Execute || strings.TrimSpace(cmd) == "" {
		return nil
	}
	return []ToolCallContent{{Type: "content", Content: &ContentBlock{Type: "text", Text: toolinfo.CodeBlock("sh", cmd)}}}
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
		u.RawOutput = r.ToolResult.Error
		return u
	}
	res := r.ToolResult.Value
	u.Status = "completed"
	if res.IsError {
		u.Status = "failed"
	}
	u.ToolContent = toolContent(res.Content)
	u.RawOutput = rawOutput(res.Content)
	if agent.Declined(res) {
		// The call never ran: it ends failed (ACP has no "rejected"
		// status, and a client without one of its own would show it
		// pending forever). The refusal is the model's text, kept in
		// rawOutput; the content the user saw (the command, the diff)
		// is left as it was.
		u.Status, u.ToolContent = "failed", nil
	}
	if call, ok := t.requests[r.ID]; ok {
		u.Locations = t.locations(t.info(call.Name), call.Arguments)
	}
	return u
}

// rawOutput is the text the tool returned to the model (its text blocks
// not meant for the user only). Every finished call carries it: Zed keeps
// a user's turn on a refusal only when a completed tool call has
// rawOutput, and shows it when a call has no other content.
func rawOutput(blocks []conversation.ToolContent) string {
	var texts []string
	for _, b := range blocks {
		userOnly := b.Annotations != nil && len(b.Annotations.Audience) == 1 && b.Annotations.Audience[0] == conversation.RoleUser
		if b.Type == "text" && !userOnly {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
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

// locations is the file a call works on, from the path and line
// arguments its tool declares (none for tools that declare no path).
func (t *Translator) locations(info toolinfo.Info, args map[string]any) []ToolCallLocation {
	path, ok := info.PathOf(args)
	if !ok {
		return nil
	}
	if wd := t.workingDir(); !filepath.IsAbs(path) && wd != "" {
		path = filepath.Join(wd, path)
	}
	loc := ToolCallLocation{Path: path}
	if line, ok := info.LineOf(args); ok {
		loc.Line = row(line)
	}
	return []ToolCallLocation{loc}
}

// row is a 1-based line as ToolCallLocation.line. The ACP schema leaves
// its base unstated; Zed, which follows the agent with the cursor, reads
// it as a 0-based row (Point::new(line, …) in acp_thread's
// resolve_location), so a 1-based line would land one line below the edit.
func row(line int) *int {
	r := max(line-1, 0)
	return &r
}

// describe is used in logs.
func describe(u SessionUpdate) string {
	return fmt.Sprintf("%s %s", u.SessionUpdate, u.ToolCallID)
}
