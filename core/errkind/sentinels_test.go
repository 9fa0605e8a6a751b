package errkind_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/registry"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
	"github.com/goose-acp/goose-acp/core/setup"
	"github.com/goose-acp/goose-acp/core/sources"
	"github.com/goose-acp/goose-acp/core/unavailable"
)

// Every core sentinel a face branches on carries the kind its faces'
// tables answer for it.
func TestCoreSentinelKinds(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want errkind.Kind
	}{
		{"session.ErrNotFound", session.ErrNotFound, errkind.NotFound},
		{"session.ErrInvalidCursor", session.ErrInvalidCursor, errkind.Invalid},
		{"session.ErrInvalidMessage", session.ErrInvalidMessage, errkind.Invalid},
		{"session.ErrInvalidUpdate", session.ErrInvalidUpdate, errkind.Invalid},
		{"session.ErrInvalidImport", session.ErrInvalidImport, errkind.Invalid},
		{"sqlite.ErrSchemaTooNew", sqlite.ErrSchemaTooNew, errkind.TooNew},
		{"config.ErrNotFound", config.ErrNotFound, errkind.NotFound},
		{"config.ErrInvalidPreference", config.ErrInvalidPreference, errkind.Invalid},
		{"schedule.ErrJobExists", schedule.ErrJobExists, errkind.Conflict},
		{"schedule.ErrJobNotFound", schedule.ErrJobNotFound, errkind.NotFound},
		{"schedule.ErrInvalidCron", schedule.ErrInvalidCron, errkind.Invalid},
		{"schedule.ErrJobRunning", schedule.ErrJobRunning, errkind.Busy},
		{"schedule.ErrNotRunning", schedule.ErrNotRunning, errkind.Conflict},
		{"schedule.ErrRecipe", schedule.ErrRecipe, errkind.Invalid},
		{"schedule.ErrClosed", schedule.ErrClosed, errkind.Unavailable},
		{"schedule.ErrInvalidID", schedule.ErrInvalidID, errkind.Invalid},
		{"recipe.ErrNotFound", recipe.ErrNotFound, errkind.NotFound},
		{"recipe.ErrInvalid", recipe.ErrInvalid, errkind.Invalid},
		{"recipe.ErrDecode", recipe.ErrDecode, errkind.Invalid},
		{"recipe.ErrNoPromptOrInstructions", recipe.ErrNoPromptOrInstructions, errkind.Invalid},
		{"agent.ErrSessionBusy", agent.ErrSessionBusy, errkind.Busy},
		{"agent.ErrSessionNotLoaded", agent.ErrSessionNotLoaded, errkind.NotReady},
		{"agent.ErrNoProvider", agent.ErrNoProvider, errkind.AuthRequired},
		{"agent.ErrNoPendingRequest", agent.ErrNoPendingRequest, errkind.NotFound},
		{"agent.ErrAgentClosed", agent.ErrAgentClosed, errkind.Unavailable},
		{"agent.ErrUnknownExtension", agent.ErrUnknownExtension, errkind.NotFound},
		{"agent.ErrRecipeApply", agent.ErrRecipeApply, errkind.NotReady},
		{"agent.ErrNoRecipe", agent.ErrNoRecipe, errkind.NotFound},
		{"agent.ErrInvalidSessionName", agent.ErrInvalidSessionName, errkind.Invalid},
		{"agent.ErrNotADirectory", agent.ErrNotADirectory, errkind.Invalid},
		{"agent.ErrThinkingEffort", agent.ErrThinkingEffort, errkind.Invalid},
		{"agent.ErrUnknownTemplate", agent.ErrUnknownTemplate, errkind.NotFound},
		{"agent.ErrInvalidTemplate", agent.ErrInvalidTemplate, errkind.Invalid},
		{"agent.ErrPromptKeyRequired", agent.ErrPromptKeyRequired, errkind.Invalid},
		{"agent.ErrNoActiveRun", agent.ErrNoActiveRun, errkind.Conflict},
		{"agent.ErrRunMismatch", agent.ErrRunMismatch, errkind.Conflict},
		{"agent.ErrToolNotFound", agent.ErrToolNotFound, errkind.NotFound},
		{"agent.ErrAppToolNotAuto", agent.ErrAppToolNotAuto, errkind.Conflict},
		{"agent.ErrNoPermissionStore", agent.ErrNoPermissionStore, errkind.Unavailable},
		{"agent.ErrElicitationTimeout", agent.ErrElicitationTimeout, errkind.Timeout},
		{"agent.ErrInvalidResponseSchema", agent.ErrInvalidResponseSchema, errkind.Invalid},
		{"registry.ErrCustomNotFound", registry.ErrCustomNotFound, errkind.NotFound},
		{"registry.ErrInvalidEngine", registry.ErrInvalidEngine, errkind.Invalid},
		{"registry.ErrInvalidCustom", registry.ErrInvalidCustom, errkind.Invalid},
		{"registry.ErrUnknownProvider", registry.ErrUnknownProvider, errkind.NotFound},
		{"registry.ErrNoProvider", registry.ErrNoProvider, errkind.AuthRequired},
		{"registry.ErrMissingConfig", registry.ErrMissingConfig, errkind.AuthRequired},
		{"setup.ErrNotConfigured", setup.ErrNotConfigured, errkind.AuthRequired},
		{"setup.ErrUnknownProvider", setup.ErrUnknownProvider, errkind.NotFound},
		{"setup.ErrInvalidSecretID", setup.ErrInvalidSecretID, errkind.Invalid},
		{"setup.ErrInvalidField", setup.ErrInvalidField, errkind.Invalid},
		{"setup.ErrNoModelList", setup.ErrNoModelList, errkind.Unavailable},
		{"sources.ErrInvalid", sources.ErrInvalid, errkind.Invalid},
		{"unavailable.ErrUnavailable", unavailable.ErrUnavailable, errkind.Unavailable},
		{"unavailable.Dictation.Error()", unavailable.Dictation.Error(), errkind.Unavailable},
		{"permission.ErrInvalidMode", permission.ErrInvalidMode, errkind.Invalid},
		{"permission.ErrInvalidDecision", permission.ErrInvalidDecision, errkind.Invalid},
		{"extension.ErrToolNotFound", extension.ErrToolNotFound, errkind.NotFound},
		{"extension.ErrExtensionNotFound", extension.ErrExtensionNotFound, errkind.NotFound},
		{"extension.ErrClosed", extension.ErrClosed, errkind.Unavailable},
		{"extension.ErrTimeout", extension.ErrTimeout, errkind.Timeout},
	}
	for _, c := range cases {
		if got := errkind.Of(c.err); got != c.want {
			t.Errorf("%s: kind %v, want %v", c.name, got, c.want)
		}
		// Core wraps its sentinels with context; the kind survives.
		if got := errkind.Of(fmt.Errorf("%w: 42", c.err)); got != c.want {
			t.Errorf("%s wrapped: kind %v, want %v", c.name, got, c.want)
		}
	}
}

// A provider's rejected key is AuthRequired whatever wraps it; its other
// failures keep the kind of what they wrap (Internal, or Cancelled).
func TestProviderErrorKinds(t *testing.T) {
	auth := &provider.Error{Kind: provider.KindAuth, Provider: "openai", StatusCode: 401, Message: "bad key"}
	if got := errkind.Of(fmt.Errorf("turn: %w", auth)); got != errkind.AuthRequired {
		t.Errorf("auth: %v", got)
	}
	server := &provider.Error{Kind: provider.KindServer, Provider: "openai", StatusCode: 500, Message: "boom"}
	if got := errkind.Of(server); got != errkind.Internal {
		t.Errorf("server: %v", got)
	}
	if !errors.Is(auth, auth) || errkind.Detail(auth) != auth.Error() {
		t.Errorf("detail of a provider error: %q", errkind.Detail(auth))
	}
}
