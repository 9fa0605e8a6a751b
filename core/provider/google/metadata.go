package google

import "github.com/goose-acp/goose-acp/core/provider"

// Goose's google defaults.
const (
	Name             = "google"
	DefaultHost      = "https://generativelanguage.googleapis.com"
	DefaultModel     = "gemini-2.5-pro"
	DefaultFastModel = "gemini-2.5-flash"
	DocURL           = "https://ai.google.dev/gemini-api/docs/models"
)

// KnownModels are the models goose lists for google.
var KnownModels = []string{
	"gemini-3-pro-preview",
	"gemini-3-pro-image-preview",
	"gemini-2.5-pro",
	"gemini-2.5-pro-preview-tts",
	"gemini-2.5-flash",
	"gemini-2.5-flash-preview-09-2025",
	"gemini-2.5-flash-image",
	"gemini-2.5-flash-image-preview",
	"gemini-2.5-flash-native-audio-preview-09-2025",
	"gemini-2.5-flash-preview-tts",
	"gemini-2.5-flash-lite",
	"gemini-2.5-flash-lite-preview-09-2025",
	"gemini-2.0-flash",
	"gemini-2.0-flash-001",
	"gemini-2.0-flash-exp",
	"gemini-2.0-flash-preview-image-generation",
	"gemini-2.0-flash-live-001",
	"gemini-2.0-flash-lite",
	"gemini-2.0-flash-lite-001",
}

// contextLimit follows goose's table: gemini-2.5 and later have a 1M
// window, older models the 128k default.
func contextLimit(name string) int {
	for _, p := range []string{"gemini-2.5", "gemini-3"} {
		if len(name) >= len(p) && name[:len(p)] == p {
			return 1_000_000
		}
	}
	return 128_000
}

// Metadata is goose's google provider metadata.
func Metadata() provider.Metadata {
	models := make([]provider.ModelInfo, len(KnownModels))
	for i, m := range KnownModels {
		models[i] = provider.ModelInfo{Name: m, ContextLimit: contextLimit(m)}
	}
	host := DefaultHost
	return provider.Metadata{
		Name:         Name,
		DisplayName:  "Google Gemini",
		Description:  "Gemini models from Google AI",
		DefaultModel: DefaultModel,
		KnownModels:  models,
		ModelDocLink: DocURL,
		ConfigKeys: []provider.ConfigKey{
			{Name: "GOOGLE_API_KEY", Required: true, Secret: true},
			{Name: "GOOGLE_HOST", Default: &host},
		},
	}
}
