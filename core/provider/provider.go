package provider

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
)

// Tool is a tool schema offered to the model (MCP Tool shape).
type Tool struct {
	Name        string           `json:"name"`
	Description string           `json:"description,omitempty"`
	InputSchema json.RawMessage  `json:"inputSchema"`
	Annotations *ToolAnnotations `json:"annotations,omitempty"`
}

// ToolAnnotations are MCP tool hints; ReadOnlyHint drives smart approval.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Request is one completion request. Messages are already filtered to the
// agent-visible ones and repaired.
type Request struct {
	System   string
	Messages []conversation.Message
	Tools    []Tool
	// Model overrides the provider's configured model when non-zero.
	Model *model.Config
}

// Usage is goose's token usage; nil counts mean "not reported".
type Usage struct {
	InputTokens  *int `json:"input_tokens"`
	OutputTokens *int `json:"output_tokens"`
	TotalTokens  *int `json:"total_tokens"`
}

// ProviderUsage is usage tagged with the model that produced it.
type ProviderUsage struct {
	Model string `json:"model"`
	Usage Usage  `json:"usage"`
}

// Chunk is one streamed item: a partial message (all chunks of one reply share
// the message ID, so they merge), usage, or both.
type Chunk struct {
	Message *conversation.Message
	Usage   *ProviderUsage
}

// ConfigKey describes a configuration key a provider needs.
type ConfigKey struct {
	Name     string  `json:"name"`
	Required bool    `json:"required"`
	Secret   bool    `json:"secret"`
	Default  *string `json:"default,omitempty"`
	OAuth    bool    `json:"oauth_flow,omitempty"`
}

// ModelInfo is a known model and its context limit.
type ModelInfo struct {
	Name         string `json:"name"`
	ContextLimit int    `json:"context_limit"`
}

// Metadata is what goosed returns for a provider from /config/providers.
type Metadata struct {
	Name         string      `json:"name"`
	DisplayName  string      `json:"display_name"`
	Description  string      `json:"description"`
	DefaultModel string      `json:"default_model"`
	KnownModels  []ModelInfo `json:"known_models"`
	ModelDocLink string      `json:"model_doc_link"`
	ConfigKeys   []ConfigKey `json:"config_keys"`
}

// ThinkingEfforts are the thinking levels a thinking model can be set to
// (goose's request_params.thinking_effort), from none to the most.
var ThinkingEfforts = []string{"off", "low", "medium", "high", "max"}

// ThinkingEffortParam is the model config request param naming the effort.
const ThinkingEffortParam = "thinking_effort"

// Thinker is a Provider whose model's thinking effort can be chosen.
type Thinker interface {
	// ThinkingEffort is the current effort (one of ThinkingEfforts);
	// false when the model does not think.
	ThinkingEffort() (string, bool)
}

// ThinkerOf is p, or the provider it wraps (retry, idle watch: Unwrap),
// as a Thinker.
func ThinkerOf(p Provider) (Thinker, bool) {
	for p != nil {
		if t, ok := p.(Thinker); ok {
			return t, true
		}
		u, ok := p.(interface{ Unwrap() Provider })
		if !ok {
			return nil, false
		}
		p = u.Unwrap()
	}
	return nil, false
}

// Provider streams completions from one LLM service.
//
// Stream yields chunks as they arrive and stops at the first error; errors
// are classified with the types in errors.go. Cancelling ctx stops the
// stream promptly. Complete is for short internal calls (titles, summaries,
// the smart-approve check).
type Provider interface {
	Metadata() Metadata
	ModelConfig() model.Config
	Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error]
	Complete(ctx context.Context, req Request) (conversation.Message, ProviderUsage, error)
	FetchModels(ctx context.Context) ([]string, error)
}
