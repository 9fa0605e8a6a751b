package unavailable

import (
	"errors"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// Feature is one goose feature goose-acp does not have.
type Feature struct {
	// Name is how users know the feature ("Dictation").
	Name string
	// Why says what it needs that goose-acp does not ship, so a user
	// knows it is by design and where to get it.
	Why string
}

// ErrUnavailable is wrapped by every Feature.Error.
var ErrUnavailable = errkind.New(errkind.Unavailable, "not available in goose-acp")

// Message is "<Name> is not available in goose-acp: <Why>".
func (f Feature) Message() string {
	return f.Name + " is " + ErrUnavailable.Error() + ": " + f.Why
}

// Error is f's Message as an error wrapping ErrUnavailable.
func (f Feature) Error() error { return &featureError{f} }

type featureError struct{ f Feature }

func (e *featureError) Error() string { return e.f.Message() }
func (e *featureError) Unwrap() error { return ErrUnavailable }

// FeatureOf returns the feature behind err, if it wraps a Feature.Error.
func FeatureOf(err error) (Feature, bool) {
	var fe *featureError
	if errors.As(err, &fe) {
		return fe.f, true
	}
	return Feature{}, false
}

// The features. Texts are user-facing: they end up in Desktop's error toasts.
var (
	Dictation = Feature{"Dictation", "goose-acp ships no speech-to-text providers or local " +
		"Whisper models; type your message, or use goose Desktop with goose itself for voice input"}
	LocalInference = Feature{"Local inference", "goose-acp does not embed llama.cpp or download models; " +
		"run a local server such as Ollama and configure it as a provider"}
	LiveVoice     = Feature{"Live voice", "goose-acp has no realtime audio provider"}
	ProviderOAuth = Feature{"Provider sign-in (OAuth)", "goose-acp has no browser or device-code " +
		"sign-in flow; configure the provider's API key instead"}

	// goose's bundled builtin extensions goose-acp does not ship (Goose
	// Desktop writes them into config.yaml, disabled).
	ComputerController = Feature{"The computercontroller extension", "goose-acp does not ship goose's " +
		"computer controller (web scraping, automation scripts, document tools); the developer extension's shell covers scripts"}
	Memory = Feature{"The memory extension", "goose-acp does not ship goose's memory extension; " +
		"keep notes in a hints file such as .goosehints, which every session reads"}
	Tutorial       = Feature{"The tutorial extension", "goose-acp does not ship goose's tutorials"}
	AutoVisualiser = Feature{"The autovisualiser extension", "goose-acp does not ship goose's chart " +
		"and diagram renderer"}

	// goosed routes (httpapi.Unavailable).
	Tunnel       = Feature{"Remote-access tunnel", "goose-acp does not include goose's tunnel service"}
	ChatGateways = Feature{"Chat gateways", "goose-acp does not include goose's chat gateway service"}
	OpenRouter   = Feature{"OpenRouter setup flow", "goose-acp has no browser sign-up flow; set OPENROUTER_API_KEY instead"}
	Tetrate      = Feature{"Tetrate setup flow", "goose-acp has no browser sign-up flow; set TETRATE_API_KEY instead"}
	NanoGPT      = Feature{"NanoGPT setup flow", "goose-acp has no browser sign-up flow; configure the provider's API key instead"}
	MCPApps      = Feature{"MCP Apps", "goose-acp keeps no MCP Apps; they need goose Desktop's app windows"}
	MCPUIProxy   = Feature{"MCP-UI proxy", "goose-acp does not serve goose's MCP-UI proxy page"}
	Containers   = Feature{"Containers", "goose-acp runs extensions on the host, not in containers"}
	HTTPSampling = Feature{"MCP sampling over HTTP", "goose-acp answers an extension's sampling request inside the session's turn"}
)

// builtins are goose's builtin extensions goose-acp does not ship, by name.
var builtins = map[string]Feature{
	"computercontroller": ComputerController,
	"memory":             Memory,
	"tutorial":           Tutorial,
	"autovisualiser":     AutoVisualiser,
}

// Builtin reports whether name is one of goose's builtin extensions
// goose-acp does not ship, and which.
func Builtin(name string) (Feature, bool) {
	f, ok := builtins[name]
	return f, ok
}
