package ollama

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// chatRequest is the /api/chat request body.
type chatRequest struct {
	Model    string         `json:"model"`
	Messages []chatMessage  `json:"messages"`
	Tools    []chatTool     `json:"tools,omitempty"`
	Stream   bool           `json:"stream"`
	Think    *bool          `json:"think,omitempty"`
	Options  map[string]any `json:"options,omitempty"`
}

type chatMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	Thinking   string         `json:"thinking,omitempty"`
	Images     []string       `json:"images,omitempty"`
	ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
	ToolName   string         `json:"tool_name,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type chatToolCall struct {
	ID       string       `json:"id,omitempty"`
	Function chatFunction `json:"function"`
}

// chatFunction carries arguments raw: a JSON object on the wire (some
// compatible servers send a JSON string instead, which we also accept).
type chatFunction struct {
	Index     *int            `json:"index,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type chatTool struct {
	Type     string       `json:"type"`
	Function toolFunction `json:"function"`
}

// toolFunction passes the MCP input schema through untouched.
type toolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// imageFollows is goose's placeholder for a tool-result image sent in the
// next (user) message.
const imageFollows = "This tool result included an image that is uploaded in the next message."

func (p *Provider) chatRequest(cfg model.Config, req provider.Request) chatRequest {
	out := chatRequest{Model: cfg.ModelName, Stream: true, Think: cfg.Reasoning, Options: p.options(cfg)}
	if req.System != "" {
		out.Messages = append(out.Messages, chatMessage{Role: "system", Content: req.System})
	}
	out.Messages = append(out.Messages, formatMessages(req.Messages)...)
	for _, t := range req.Tools {
		out.Tools = append(out.Tools, chatTool{Type: "function", Function: toolFunction{
			Name: t.Name, Description: t.Description, Parameters: parameters(t.InputSchema)}})
	}
	return out
}

// options sets num_ctx from GOOSE_INPUT_LIMIT, else the model's context
// limit (goose's resolve_ollama_num_ctx), plus temperature and
// num_predict.
func (p *Provider) options(cfg model.Config) map[string]any {
	opts := map[string]any{}
	if v, ok := p.opts.Param("GOOSE_INPUT_LIMIT"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
			opts["num_ctx"] = n
		} else if err != nil {
			p.log.Warn("invalid GOOSE_INPUT_LIMIT value", "value", v)
		}
	}
	if _, ok := opts["num_ctx"]; !ok && cfg.ContextLimit != nil && *cfg.ContextLimit > 0 {
		opts["num_ctx"] = *cfg.ContextLimit
	}
	if cfg.Temperature != nil {
		opts["temperature"] = *cfg.Temperature
	}
	if cfg.MaxTokens != nil && *cfg.MaxTokens > 0 {
		opts["num_predict"] = *cfg.MaxTokens
	}
	if len(opts) == 0 {
		return nil
	}
	return opts
}

func parameters(schema json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(schema, &obj) != nil || len(obj) == 0 {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return schema
}

// formatMessages converts goose messages to Ollama chat messages: tool
// responses become "tool" messages (named after their call), tool-result
// images follow in a user message, UI-only items are dropped.
func formatMessages(msgs []conversation.Message) []chatMessage {
	names := map[string]string{}
	var out []chatMessage
	for _, m := range msgs {
		if m.Role == conversation.RoleAssistant {
			if cm, ok := assistantMessage(m, names); ok {
				out = append(out, cm)
			}
			continue
		}
		out = append(out, userMessages(m, names)...)
	}
	return out
}

func assistantMessage(m conversation.Message, names map[string]string) (chatMessage, bool) {
	var texts, thoughts []string
	var calls []chatToolCall
	for _, c := range m.Content {
		switch {
		case c.Text != nil && strings.TrimSpace(c.Text.Text) != "":
			texts = append(texts, c.Text.Text)
		case c.Thinking != nil && c.Thinking.Thinking != "":
			thoughts = append(thoughts, c.Thinking.Thinking)
		case c.ToolRequest != nil:
			calls = append(calls, toolCall(c.ToolRequest.ID, c.ToolRequest.ToolCall, names))
		case c.FrontendToolRequest != nil && c.FrontendToolRequest.ToolCall.IsOK():
			calls = append(calls, toolCall(c.FrontendToolRequest.ID, c.FrontendToolRequest.ToolCall, names))
		}
	}
	cm := chatMessage{Role: "assistant", Content: strings.Join(texts, "\n"), Thinking: strings.Join(thoughts, "\n"), ToolCalls: calls}
	return cm, cm.Content != "" || len(calls) > 0
}

// toolCall writes a call; one whose arguments failed to parse is sent as a
// placeholder so its error response still answers a call.
func toolCall(id string, call conversation.Result[conversation.ToolCall], names map[string]string) chatToolCall {
	name, args := "unparseable_tool_call", json.RawMessage("{}")
	if call.IsOK() {
		name = call.Value.Name
		if len(call.Value.Arguments) > 0 {
			args, _ = json.Marshal(call.Value.Arguments)
		}
	}
	names[id] = name
	return chatToolCall{ID: id, Function: chatFunction{Name: name, Arguments: args}}
}

func userMessages(m conversation.Message, names map[string]string) []chatMessage {
	var out []chatMessage
	var texts, images []string
	for _, c := range m.Content {
		switch {
		case c.ToolResponse != nil:
			out = append(out, toolMessages(c.ToolResponse, names)...)
		case c.Text != nil && strings.TrimSpace(c.Text.Text) != "":
			texts = append(texts, c.Text.Text)
		case c.Image != nil:
			images = append(images, c.Image.Data)
		}
	}
	if len(texts) > 0 || len(images) > 0 {
		out = append(out, chatMessage{Role: "user", Content: strings.Join(texts, "\n"), Images: images})
	}
	return out
}

func toolMessages(r *conversation.ToolResponse, names map[string]string) []chatMessage {
	msg := chatMessage{Role: "tool", ToolName: names[r.ID], ToolCallID: r.ID}
	if !r.ToolResult.IsOK() {
		msg.Content = "The tool call returned the following error:\n" + r.ToolResult.Error
		return []chatMessage{msg}
	}
	var texts, images []string
	for _, tc := range r.ToolResult.Value.Content {
		if !forAssistant(tc) {
			continue
		}
		switch {
		case tc.Type == "text":
			texts = append(texts, tc.Text)
		case tc.Type == "image":
			images = append(images, tc.Data)
		case tc.Type == "resource" && tc.Resource != nil && tc.Resource.Text != nil:
			texts = append(texts, *tc.Resource.Text)
		}
	}
	if len(images) > 0 {
		texts = append(texts, imageFollows)
	}
	msg.Content = strings.Join(texts, " ")
	out := []chatMessage{msg}
	if len(images) > 0 {
		out = append(out, chatMessage{Role: "user", Images: images})
	}
	return out
}

// forAssistant drops tool output meant for the user only.
func forAssistant(tc conversation.ToolContent) bool {
	if tc.Annotations == nil || len(tc.Annotations.Audience) == 0 {
		return true
	}
	for _, r := range tc.Annotations.Audience {
		if r == conversation.RoleAssistant {
			return true
		}
	}
	return false
}
