package anthropic

import "github.com/goose-acp/goose-acp/core/provider"

// DefaultModel and DefaultFastModel are goose's anthropic defaults.
const (
	DefaultModel     = "claude-sonnet-4-5"
	DefaultFastModel = "claude-haiku-4-5"
)

// KnownModels are the models goose lists for anthropic; all have a
// 200 000-token context window.
var KnownModels = []string{
	"claude-opus-4-6",
	"claude-sonnet-4-6",
	"claude-sonnet-4-5",
	"claude-sonnet-4-5-20250929",
	"claude-haiku-4-5",
	"claude-haiku-4-5-20251001",
	"claude-opus-4-5",
	"claude-opus-4-5-20251101",
	"claude-sonnet-4-0",
	"claude-sonnet-4-20250514",
	"claude-opus-4-0",
	"claude-opus-4-20250514",
}

// DocURL is goose's model documentation link for anthropic.
const DocURL = "https://docs.anthropic.com/en/docs/about-claude/models"

// Metadata is goose's anthropic provider metadata.
func Metadata() provider.Metadata {
	models := make([]provider.ModelInfo, len(KnownModels))
	for i, m := range KnownModels {
		models[i] = provider.ModelInfo{Name: m, ContextLimit: 200_000}
	}
	host := DefaultHost
	return provider.Metadata{
		Name:         Name,
		DisplayName:  "Anthropic",
		Description:  "Claude and other models from Anthropic",
		DefaultModel: DefaultModel,
		KnownModels:  models,
		ModelDocLink: DocURL,
		ConfigKeys: []provider.ConfigKey{
			{Name: "ANTHROPIC_API_KEY", Required: true, Secret: true},
			{Name: "ANTHROPIC_HOST", Required: true, Secret: false, Default: &host},
		},
	}
}
