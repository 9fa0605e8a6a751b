package openai

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

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
// list of parts, or jsonNull; it is omitted when nil, and jsonNull (an
// assistant message that only calls tools: strict servers need
// "content": null) writes null.
type wireMessage struct {
	Role             string         `json:"role"`
	Content          any            `json:"content,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
}

// jsonNull is a content that is written as null. wireMessage has no
// MarshalJSON of its own, so a huge text is encoded once, straight into
// the request, not into a message's bytes that are then copied.
type jsonNull struct{}

func (jsonNull) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
	extra    map[string]any
}

// MarshalJSON appends extra fields after the standard ones.
func (c wireToolCall) MarshalJSON() ([]byte, error) {
	type plain wireToolCall
	b, err := json.Marshal(plain(c))
	if err != nil || len(c.extra) == 0 {
		return b, err
	}
	x, err := json.Marshal(c.extra)
	if err != nil {
		return nil, err
	}
	return append(append(b[:len(b)-1], ','), x[1:]...), nil
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

var invalidNameChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9_-]`) })

// SanitizeFunctionName replaces characters OpenAI rejects with "_".
func SanitizeFunctionName(name string) string {
	return invalidNameChars().ReplaceAllString(name, "_")
}
