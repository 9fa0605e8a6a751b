package model

// Config is goose's ModelConfig, stored as sessions.model_config_json and
// returned in Session JSON with snake_case names.
type Config struct {
	ModelName     string         `json:"model_name"`
	ContextLimit  *int           `json:"context_limit"`
	Temperature   *float64       `json:"temperature"`
	MaxTokens     *int           `json:"max_tokens"`
	Toolshim      bool           `json:"toolshim"`
	ToolshimModel *string        `json:"toolshim_model"`
	RequestParams map[string]any `json:"request_params,omitempty"`
	Reasoning     *bool          `json:"reasoning,omitempty"`
}

// DefaultContextLimit is goose's fallback when nothing else is known.
const DefaultContextLimit = 128_000

// Limit returns the configured context limit or DefaultContextLimit.
func (c Config) Limit() int {
	if c.ContextLimit != nil && *c.ContextLimit > 0 {
		return *c.ContextLimit
	}
	return DefaultContextLimit
}
