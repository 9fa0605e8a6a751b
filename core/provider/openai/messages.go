package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// formatMessages renders goose's format_messages: one wire message per
// message plus role "tool" messages for tool results (and user image
// messages following image tool results), then re-merges split
// assistant/tool pairs.
func formatMessages(msgs []conversation.Message) []wireMessage {
	var out []wireMessage
	for _, m := range msgs {
		out = append(out, formatMessage(m)...)
	}
	return mergeSplitToolCalls(out)
}

func formatMessage(m conversation.Message) []wireMessage {
	main := wireMessage{Role: string(m.Role)}
	var extra []wireMessage
	var parts []contentPart
	var texts []string
	var reasoning strings.Builder
	for _, c := range m.Content {
		switch {
		case c.Text != nil && c.Text.Text != "":
			if img, ok := imageFromPath(c.Text.Text, m.Role); ok {
				parts = append(parts, contentPart{Type: "text", Text: c.Text.Text}, img)
			} else {
				texts = append(texts, c.Text.Text)
			}
		case c.Thinking != nil:
			reasoning.WriteString(c.Thinking.Thinking)
		case c.ToolRequest != nil:
			extra = appendToolCall(&main, extra, c.ToolRequest.ID, c.ToolRequest.ToolCall, c.ToolRequest.Metadata)
		case c.FrontendToolRequest != nil:
			extra = appendToolCall(&main, extra, c.FrontendToolRequest.ID, c.FrontendToolRequest.ToolCall, nil)
		case c.ToolResponse != nil:
			extra = append(extra, toolResultMessages(c.ToolResponse)...)
		case c.Image != nil:
			if m.Role == conversation.RoleUser {
				parts = append(parts, imagePart(c.Image.MimeType, c.Image.Data))
			} else {
				parts = append(parts, contentPart{Type: "text", Text: assistantImagePlaceholder})
			}
		}
	}
	switch {
	case len(parts) > 0:
		// goose drops a message's texts when it also holds images; we
		// keep them as text parts first so the model sees both.
		all := make([]contentPart, 0, len(texts)+len(parts))
		for _, t := range texts {
			all = append(all, contentPart{Type: "text", Text: t})
		}
		main.Content = append(all, parts...)
	case len(texts) > 0:
		main.Content = joinTexts(texts)
	}
	if m.Role == conversation.RoleAssistant && len(main.ToolCalls) > 0 && main.Content == nil {
		main.Content = jsonNull{}
	}
	main.ReasoningContent = reasoning.String()
	if main.Content != nil || len(main.ToolCalls) > 0 {
		return append([]wireMessage{main}, extra...)
	}
	return extra
}

// appendToolCall adds a call to the assistant message; metadata the
// provider attached to it (e.g. Gemini's extra_content thought signature)
// is echoed back as extra fields of the call, as goose does.
func appendToolCall(main *wireMessage, extra []wireMessage, id string, call conversation.Result[conversation.ToolCall],
	metadata map[string]any) []wireMessage {
	if call.Value == nil {
		return append(extra, wireMessage{Role: "tool", Content: "Error: " + call.Error, ToolCallID: id})
	}
	args := "{}"
	if call.Value.Arguments != nil {
		if b, err := json.Marshal(call.Value.Arguments); err == nil {
			args = string(b)
		}
	}
	main.ToolCalls = append(main.ToolCalls, wireToolCall{ID: id, Type: "function",
		Function: wireFunction{Name: SanitizeFunctionName(call.Value.Name), Arguments: args}, extra: metadata})
	return extra
}

func toolResultMessages(tr *conversation.ToolResponse) []wireMessage {
	if tr.ToolResult.Value == nil {
		return []wireMessage{{Role: "tool", ToolCallID: tr.ID,
			Content: "The tool call returned the following error:\n" + tr.ToolResult.Error}}
	}
	var texts []string
	var images []wireMessage
	for _, b := range tr.ToolResult.Value.Content {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "image":
			texts = append(texts, toolImagePlaceholder)
			images = append(images, wireMessage{Role: "user", Content: []contentPart{imagePart(b.MimeType, b.Data)}})
		case "resource":
			texts = append(texts, resourceText(b.Resource))
		default:
			texts = append(texts, "")
		}
	}
	return append([]wireMessage{{Role: "tool", ToolCallID: tr.ID, Content: strings.Join(texts, " ")}}, images...)
}

// resourceText is goose's extract_text_from_resource: the text, or a note
// for binary blobs.
func resourceText(r *conversation.ResourceContents) string {
	if r == nil {
		return ""
	}
	if r.Text != nil {
		return *r.Text
	}
	return fmt.Sprintf("[Binary content (%s) - %s]", r.MimeType, r.URI)
}

func imagePart(mime, data string) contentPart {
	return contentPart{Type: "image_url", ImageURL: &imageURL{URL: "data:" + mime + ";base64," + data}}
}

// mergeSplitToolCalls folds asst(TC1)/tool1/asst(TC2)/tool2 sequences —
// one reply split per tool call — back into asst(TC1,TC2)/tool1/tool2.
func mergeSplitToolCalls(ms []wireMessage) []wireMessage {
	for i := 0; i < len(ms); i++ {
		if ms[i].Role != "assistant" || len(ms[i].ToolCalls) == 0 {
			continue
		}
		var calls []wireToolCall
		var results []wireMessage
		scan := i + 1
		for scan+1 < len(ms) && ms[scan].Role == "tool" && isSplitCall(ms[scan+1], ms[i].ReasoningContent) {
			results = append(results, ms[scan])
			calls = append(calls, ms[scan+1].ToolCalls...)
			scan += 2
		}
		if len(calls) == 0 {
			continue
		}
		ms[i].ToolCalls = append(ms[i].ToolCalls, calls...)
		rest := append(results, ms[scan:]...)
		ms = append(ms[:i+1], rest...)
		i += len(results)
	}
	return ms
}

func isSplitCall(m wireMessage, reasoning string) bool {
	empty := m.Content == nil || m.Content == "" || m.Content == any(jsonNull{})
	return m.Role == "assistant" && len(m.ToolCalls) > 0 && empty && m.ReasoningContent == reasoning
}
