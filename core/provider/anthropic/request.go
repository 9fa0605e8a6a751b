package anthropic

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// defaultMaxTokens is goose's max_output_tokens() fallback.
const defaultMaxTokens = 4096

// wireRequest is the Messages API request body, fields in goose's order.
type wireRequest struct {
	Model        string          `json:"model"`
	Messages     []wireMessage   `json:"messages"`
	MaxTokens    int             `json:"max_tokens"`
	System       []wireBlock     `json:"system,omitempty"`
	Tools        []wireTool      `json:"tools,omitempty"`
	Temperature  *float64        `json:"temperature,omitempty"`
	Thinking     *wireThinking   `json:"thinking,omitempty"`
	OutputConfig *wireOutputConf `json:"output_config,omitempty"`
	Stream       bool            `json:"stream"`
}

type wireMessage struct {
	Role    string      `json:"role"`
	Content []wireBlock `json:"content"`
}

// wireBlock is any content block; only the fields of its type are set.
type wireBlock struct {
	Type         string        `json:"type"`
	Text         *string       `json:"text,omitempty"`
	ID           string        `json:"id,omitempty"`
	Name         string        `json:"name,omitempty"`
	Input        any           `json:"input,omitempty"`
	ToolUseID    string        `json:"tool_use_id,omitempty"`
	Content      any           `json:"content,omitempty"`
	IsError      bool          `json:"is_error,omitempty"`
	Thinking     *string       `json:"thinking,omitempty"`
	Signature    string        `json:"signature,omitempty"`
	Data         string        `json:"data,omitempty"`
	Source       *imageSource  `json:"source,omitempty"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type cacheControl struct {
	Type string `json:"type"`
}

var ephemeral = &cacheControl{Type: "ephemeral"}

type wireTool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

// requestBody builds the JSON body goose would send for req.
func (p *Provider) requestBody(cfg model.Config, req provider.Request) wireRequest {
	maxTokens := defaultMaxTokens
	if cfg.MaxTokens != nil && *cfg.MaxTokens > 0 {
		maxTokens = *cfg.MaxTokens
	}
	th := resolveThinking(cfg, p.opts.Param)
	body := wireRequest{
		Model:       cfg.ModelName,
		Messages:    formatMessages(req.Messages, formatOptions{thinkingDisabled: th.historyDisabled, preserveUnsigned: th.preserveUnsigned}),
		MaxTokens:   maxTokens,
		Tools:       formatTools(req.Tools),
		Temperature: cfg.Temperature,
		Stream:      true,
	}
	if req.System != "" {
		body.System = []wireBlock{{Type: "text", Text: &req.System, CacheControl: ephemeral}}
	}
	body.Thinking, body.OutputConfig = th.config(maxTokens)
	return body
}

type formatOptions struct {
	thinkingDisabled bool
	preserveUnsigned bool
}

// formatMessages converts goose messages to Anthropic messages as goose's
// format_messages does, then marks the last two user messages for caching.
func formatMessages(msgs []conversation.Message, o formatOptions) []wireMessage {
	out := make([]wireMessage, 0, len(msgs))
	for _, m := range msgs {
		var blocks []wireBlock
		for _, c := range m.Content {
			if b, ok := formatContent(c, o); ok {
				blocks = append(blocks, b)
			}
		}
		if len(blocks) > 0 {
			out = append(out, wireMessage{Role: string(m.Role), Content: blocks})
		}
	}
	if len(out) == 0 {
		ignore := "Ignore"
		out = append(out, wireMessage{Role: "user", Content: []wireBlock{{Type: "text", Text: &ignore}}})
	}
	marked := 0
	for i := len(out) - 1; i >= 0 && marked < 2; i-- {
		if out[i].Role != string(conversation.RoleUser) {
			continue
		}
		out[i].Content[len(out[i].Content)-1].CacheControl = ephemeral
		marked++
	}
	return out
}

// formatContent converts one item; false means the item is not sent.
func formatContent(c conversation.Content, o formatOptions) (wireBlock, bool) {
	switch {
	case c.Text != nil:
		if strings.TrimSpace(c.Text.Text) == "" {
			return wireBlock{}, false
		}
		t := c.Text.Text
		return wireBlock{Type: "text", Text: &t}, true
	case c.ToolRequest != nil:
		return toolUseBlock(c.ToolRequest.ID, c.ToolRequest.ToolCall), true
	case c.FrontendToolRequest != nil:
		if !c.FrontendToolRequest.ToolCall.IsOK() {
			return wireBlock{}, false
		}
		return toolUseBlock(c.FrontendToolRequest.ID, c.FrontendToolRequest.ToolCall), true
	case c.ToolResponse != nil:
		return toolResultBlock(c.ToolResponse), true
	case c.Thinking != nil:
		return thinkingBlock(c.Thinking, o)
	case c.RedactedThinking != nil:
		if o.thinkingDisabled {
			return wireBlock{}, false
		}
		return wireBlock{Type: "redacted_thinking", Data: c.RedactedThinking.Data}, true
	case c.Image != nil:
		return wireBlock{Type: "image", Source: &imageSource{Type: "base64", MediaType: c.Image.MimeType, Data: c.Image.Data}}, true
	}
	// Confirmations, action-required items and system notifications are
	// UI-only.
	return wireBlock{}, false
}

// toolUseBlock writes a tool call; a call that failed to parse becomes a
// placeholder so its tool_result still has a tool_use to answer.
func toolUseBlock(id string, call conversation.Result[conversation.ToolCall]) wireBlock {
	if !call.IsOK() {
		return wireBlock{Type: "tool_use", ID: id, Name: "unparseable_tool_call", Input: map[string]any{}}
	}
	args := call.Value.Arguments
	if args == nil {
		args = map[string]any{}
	}
	return wireBlock{Type: "tool_use", ID: id, Name: call.Value.Name, Input: args}
}

func toolResultBlock(r *conversation.ToolResponse) wireBlock {
	if !r.ToolResult.IsOK() {
		return wireBlock{Type: "tool_result", ToolUseID: r.ID, Content: "Error: " + r.ToolResult.Error, IsError: true}
	}
	var texts []string
	for _, tc := range r.ToolResult.Value.Content {
		switch {
		case tc.Type == "text":
			texts = append(texts, tc.Text)
		case tc.Type == "resource" && tc.Resource != nil && tc.Resource.Text != nil && *tc.Resource.Text != "":
			texts = append(texts, *tc.Resource.Text)
		}
	}
	return wireBlock{Type: "tool_result", ToolUseID: r.ID, Content: strings.Join(texts, "\n")}
}

// thinkingBlock echoes signed thinking; unsigned thinking is dropped unless
// preserved, and nothing is sent while thinking is off (Anthropic rejects
// thinking blocks without a thinking config).
func thinkingBlock(t *conversation.ThinkingContent, o formatOptions) (wireBlock, bool) {
	if o.thinkingDisabled {
		return wireBlock{}, false
	}
	text := t.Thinking
	if t.Signature != "" {
		return wireBlock{Type: "thinking", Thinking: &text, Signature: t.Signature}, true
	}
	if o.preserveUnsigned && text != "" {
		return wireBlock{Type: "thinking", Thinking: &text}, true
	}
	return wireBlock{}, false
}

// formatTools dedups tools by name, defaults empty schemas to
// {"type":"object"} and caches the whole tool list via its last entry.
func formatTools(tools []provider.Tool) []wireTool {
	seen := make(map[string]bool, len(tools))
	var out []wireTool
	for _, t := range tools {
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		out = append(out, wireTool{Name: t.Name, Description: t.Description, InputSchema: inputSchema(t.InputSchema)})
	}
	if len(out) > 0 {
		out[len(out)-1].CacheControl = ephemeral
	}
	return out
}

func inputSchema(raw json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &obj) != nil || len(obj) == 0 {
		return json.RawMessage(`{"type":"object"}`)
	}
	return raw
}
