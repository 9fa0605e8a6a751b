package openai

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// DefaultMaxTokens is goose's max_output_tokens() when the model config
// sets none.
const DefaultMaxTokens = 4096

// Texts goose puts in place of content OpenAI cannot take.
const (
	toolImagePlaceholder      = "This tool result included an image that is uploaded in the next message."
	assistantImagePlaceholder = "[Image content removed - not supported in assistant messages]"
)

// wireMessage is one Chat Completions message. Content is a string, a
// list of parts, or null; it is omitted when nil unless the assistant
// message carries tool calls (strict servers need "content": null).
type wireMessage struct {
	Role             string         `json:"role"`
	Content          any            `json:"content,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
	nullContent      bool
}

func (m wireMessage) MarshalJSON() ([]byte, error) {
	type plain wireMessage
	if !m.nullContent || m.Content != nil {
		return json.Marshal(plain(m))
	}
	return json.Marshal(struct {
		Role             string         `json:"role"`
		Content          any            `json:"content"`
		ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
		ReasoningContent string         `json:"reasoning_content,omitempty"`
	}{m.Role, nil, m.ToolCalls, m.ReasoningContent})
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

type wireTool struct {
	Type     string           `json:"type"`
	Function wireToolFunction `json:"function"`
}

type wireToolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// wireRequest is the Chat Completions body, fields in goose's order.
type wireRequest struct {
	Model               string         `json:"model"`
	Messages            []wireMessage  `json:"messages"`
	ReasoningEffort     string         `json:"reasoning_effort,omitempty"`
	Tools               []wireTool     `json:"tools,omitempty"`
	Temperature         *float64       `json:"temperature,omitempty"`
	MaxTokens           *int           `json:"max_tokens,omitempty"`
	MaxCompletionTokens *int           `json:"max_completion_tokens,omitempty"`
	Stream              bool           `json:"stream,omitempty"`
	StreamOptions       *streamOptions `json:"stream_options,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// requestOptions are the per-service quirks of request building.
type requestOptions struct {
	// maxTokensOnly sends max_tokens even for reasoning models (groq,
	// mistral, deepseek, … reject max_completion_tokens).
	maxTokensOnly bool
	// noStreamOptions omits stream_options (mistral rejects it).
	noStreamOptions bool
	streaming       bool
}

// ErrO1Mini is goose's refusal of o1-mini, which cannot call tools.
var ErrO1Mini = fmt.Errorf("o1-mini model is not currently supported since goose uses tool calling and o1-mini does not support it. Please use o1 or o3 models instead.")

// ReasoningEffort splits goose's effort suffix off reasoning-model names
// (o1/o2/o3/o4/gpt-5 families): "o3-high" → ("o3", "high"); a reasoning
// model without suffix gets "medium"; other models get "".
func ReasoningEffort(modelName string) (base, effort string) {
	reasoning := false
	for _, p := range []string{"o1", "o2", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(modelName, p) {
			reasoning = true
		}
	}
	if !reasoning {
		return modelName, ""
	}
	if i := strings.LastIndexByte(modelName, '-'); i >= 0 {
		switch suffix := modelName[i+1:]; suffix {
		case "low", "medium", "high":
			return modelName[:i], suffix
		}
	}
	return modelName, "medium"
}

// buildRequest renders goose's create_request for one call.
func buildRequest(cfg model.Config, req provider.Request, o requestOptions) (*wireRequest, error) {
	if strings.HasPrefix(cfg.ModelName, "o1-mini") {
		return nil, ErrO1Mini
	}
	name, effort := ReasoningEffort(cfg.ModelName)
	reasoning := effort != ""
	sysRole := "system"
	if reasoning {
		sysRole = "developer"
	}
	tools, err := formatTools(req.Tools)
	if err != nil {
		return nil, err
	}
	w := &wireRequest{
		Model:           name,
		Messages:        append([]wireMessage{{Role: sysRole, Content: req.System}}, formatMessages(req.Messages)...),
		ReasoningEffort: effort,
		Tools:           tools,
	}
	if !reasoning {
		w.Temperature = cfg.Temperature
	}
	maxTokens := DefaultMaxTokens
	if cfg.MaxTokens != nil {
		maxTokens = *cfg.MaxTokens
	}
	if reasoning && !o.maxTokensOnly {
		w.MaxCompletionTokens = &maxTokens
	} else {
		w.MaxTokens = &maxTokens
	}
	if o.streaming {
		w.Stream = true
		if !o.noStreamOptions {
			w.StreamOptions = &streamOptions{IncludeUsage: true}
		}
	}
	return w, nil
}

// formatTools renders tool schemas, rejecting duplicate names and patching
// object schemas to carry type, properties and required as goose does.
func formatTools(tools []provider.Tool) ([]wireTool, error) {
	seen := make(map[string]bool, len(tools))
	out := make([]wireTool, 0, len(tools))
	for _, t := range tools {
		if seen[t.Name] {
			return nil, fmt.Errorf("Duplicate tool name: %s", t.Name)
		}
		seen[t.Name] = true
		out = append(out, wireTool{Type: "function", Function: wireToolFunction{
			Name: t.Name, Description: t.Description, Parameters: patchSchema(t.InputSchema),
		}})
	}
	return out, nil
}

func patchSchema(raw json.RawMessage) json.RawMessage {
	var schema any
	if len(raw) == 0 || json.Unmarshal(raw, &schema) != nil {
		return json.RawMessage(`{"properties":{},"required":[],"type":"object"}`)
	}
	obj, ok := schema.(map[string]any)
	if !ok {
		return raw
	}
	ensureObjectSchema(obj)
	b, err := json.Marshal(obj)
	if err != nil {
		return raw
	}
	return b
}

func ensureObjectSchema(s map[string]any) {
	if t, ok := s["type"]; ok && t != "object" {
		return
	}
	if _, ok := s["properties"]; !ok {
		s["properties"] = map[string]any{}
	}
	if _, ok := s["required"]; !ok {
		s["required"] = []any{}
	}
	if _, ok := s["type"]; !ok {
		s["type"] = "object"
	}
	props, _ := s["properties"].(map[string]any)
	for _, p := range props {
		if po, ok := p.(map[string]any); ok && po["type"] == "object" {
			ensureObjectSchema(po)
		}
	}
}

var invalidNameChars = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// SanitizeFunctionName replaces characters OpenAI rejects with "_".
func SanitizeFunctionName(name string) string {
	return invalidNameChars.ReplaceAllString(name, "_")
}

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
			extra = appendToolCall(&main, extra, c.ToolRequest.ID, c.ToolRequest.ToolCall)
		case c.FrontendToolRequest != nil:
			extra = appendToolCall(&main, extra, c.FrontendToolRequest.ID, c.FrontendToolRequest.ToolCall)
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
		main.Content = strings.Join(texts, "\n")
	}
	if m.Role == conversation.RoleAssistant && len(main.ToolCalls) > 0 && main.Content == nil {
		main.nullContent = true
	}
	main.ReasoningContent = reasoning.String()
	if main.Content != nil || len(main.ToolCalls) > 0 {
		return append([]wireMessage{main}, extra...)
	}
	return extra
}

func appendToolCall(main *wireMessage, extra []wireMessage, id string, call conversation.Result[conversation.ToolCall]) []wireMessage {
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
		Function: wireFunction{Name: SanitizeFunctionName(call.Value.Name), Arguments: args}})
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
	empty := m.Content == nil || m.Content == ""
	return m.Role == "assistant" && len(m.ToolCalls) > 0 && empty && m.ReasoningContent == reasoning
}
