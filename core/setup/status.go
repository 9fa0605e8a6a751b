package setup

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/registry"
)

// Errors that mean the user has to configure a provider. IsAuth matches
// them (and provider 401/403 answers); the ACP adapter answers them with
// -32000 so editors offer their sign-in flow.
var (
	// ErrNotConfigured: no provider is usable.
	ErrNotConfigured = errkind.New(errkind.AuthRequired, "no usable provider")
	// ErrUnknownProvider: a name that is neither built in nor custom.
	ErrUnknownProvider = errkind.New(errkind.NotFound, "unknown provider")
)

// ConfigureHint is the command that fixes a missing provider.
const ConfigureHint = "run `goose-acp configure` in a terminal"

// EnvKeys are the API keys that, found in the environment with no
// GOOSE_PROVIDER set, select their provider (first match wins): an editor
// that passes a key needs no configure and no authenticate.
var EnvKeys = []struct{ Key, Provider string }{
	{"OPENAI_API_KEY", "openai"},
	{"ANTHROPIC_API_KEY", "anthropic"},
	{"GOOGLE_API_KEY", "google"},
}

// Status is whether a provider is usable now, and if not, why.
type Status struct {
	Provider string
	Model    string
	// FromEnv: the provider was picked from an API key in the environment
	// (GOOSE_PROVIDER is unset).
	FromEnv bool
	// Err wraps ErrNotConfigured with a one-line, actionable reason; nil
	// when the provider is usable.
	Err error
}

// Usable reports whether a session can start.
func (st Status) Usable() bool { return st.Err == nil }

// Status re-reads config.yaml, the secret store and the environment and
// reports whether the configured provider (or one selected by an API key
// in the environment) can be built. It contacts no server.
func (s *Setup) Status() Status {
	reg := s.registry(nil)
	name, fromEnv := s.selected(reg)
	if name == "" {
		return Status{Err: notConfigured("no AI provider is configured: %s, or set %s in the agent's environment", ConfigureHint, envKeyList())}
	}
	st := Status{Provider: name, FromEnv: fromEnv}
	md, err := s.Lookup(name)
	if err != nil {
		st.Err = notConfigured("GOOSE_PROVIDER is %q, which is not a known provider: %s to pick one", name, ConfigureHint)
		return st
	}
	st.Model, _ = reg.Value("GOOSE_MODEL")
	if fromEnv || st.Model == "" {
		st.Model = md.DefaultModel
	}
	if key := s.missingKey(nil, md); key != "" {
		st.Err = notConfigured("%s needs %s: %s, or set %s in the agent's environment", md.DisplayName, key, ConfigureHint, key)
		return st
	}
	if _, err := reg.Create(name, model.Config{ModelName: st.Model}); err != nil {
		st.Err = notConfigured("%s is not usable (%v): %s", md.DisplayName, err, ConfigureHint)
	}
	return st
}

// selected is GOOSE_PROVIDER, else the provider of the first API key in
// the environment.
func (s *Setup) selected(reg *registry.Registry) (string, bool) {
	if name, ok := reg.Value("GOOSE_PROVIDER"); ok && strings.TrimSpace(name) != "" {
		return strings.TrimSpace(name), false
	}
	for _, k := range EnvKeys {
		if s.envSet(k.Key) {
			return k.Provider, true
		}
	}
	return "", false
}

// missingKey names the first setting the provider cannot run without: a
// required key with no default, or its API key when it has secret keys
// and none is set (goosed's is_configured).
func (s *Setup) missingKey(overlay map[string]string, md provider.Metadata) string {
	reg := s.registry(overlay)
	if cp, ok := s.custom(md.Name); ok {
		// A custom provider needs its api_key_env only (registry.Configured).
		needsAuth := (cp.RequiresAuth == nil || *cp.RequiresAuth) && cp.APIKeyEnv != ""
		if needsAuth && !s.isSet(reg, overlay, provider.ConfigKey{Name: cp.APIKeyEnv, Secret: true}) {
			return cp.APIKeyEnv
		}
		return ""
	}
	var firstSecret string
	secretSet := false
	for _, k := range md.ConfigKeys {
		set := s.isSet(reg, overlay, k)
		if k.Required && k.Default == nil && !set {
			return k.Name
		}
		if k.Secret {
			if firstSecret == "" {
				firstSecret = k.Name
			}
			secretSet = secretSet || set
		}
	}
	if firstSecret != "" && !secretSet {
		return firstSecret
	}
	return ""
}

func (s *Setup) isSet(reg *registry.Registry, overlay map[string]string, k provider.ConfigKey) bool {
	if overlay[k.Name] != "" || s.envSet(k.Name) {
		return true
	}
	if k.Secret {
		return s.secretSet(k.Name)
	}
	v, ok := reg.Value(k.Name)
	return ok && v != ""
}

// ProviderFor is the provider a session without an explicit one uses:
// GOOSE_PROVIDER, else the one an API key in the environment selects, with
// the model to use ("" means the provider's default). ok is false when
// neither is set.
func (s *Setup) ProviderFor() (name, modelName string, ok bool) {
	reg := s.registry(nil)
	name, fromEnv := s.selected(reg)
	if name == "" {
		return "", "", false
	}
	if !fromEnv {
		modelName, _ = reg.Value("GOOSE_MODEL")
	}
	return name, modelName, true
}

func notConfigured(format string, args ...any) error {
	return &reasonError{reason: fmt.Sprintf(format, args...)}
}

// reasonError is ErrNotConfigured with its reason; Error is the reason
// alone (one line, no repeated prefix).
type reasonError struct{ reason string }

func (e *reasonError) Error() string { return e.reason }

// ErrorKind is ErrNotConfigured's.
func (e *reasonError) ErrorKind() errkind.Kind { return errkind.AuthRequired }
func (e *reasonError) Is(target error) bool {
	return target == ErrNotConfigured
}

func envKeyList() string {
	keys := make([]string, len(EnvKeys))
	for i, k := range EnvKeys {
		keys[i] = k.Key
	}
	return strings.Join(keys[:len(keys)-1], ", ") + " or " + keys[len(keys)-1]
}

// IsAuth reports whether err means the user must configure or fix their
// provider credentials: no usable provider, a missing key, or the provider
// answering 401/403.
func IsAuth(err error) bool {
	return errors.Is(err, ErrNotConfigured) || errors.Is(err, registry.ErrNoProvider) ||
		errors.Is(err, registry.ErrMissingConfig) || provider.KindOf(err) == provider.KindAuth
}

// AuthReason is the one-line message for an IsAuth error: the provider's
// own words for a rejected key, with what to do about it.
func AuthReason(err error) string {
	var pe *provider.Error
	if errors.As(err, &pe) && pe.Kind == provider.KindAuth {
		return fmt.Sprintf("%s rejected the API key (%s): %s to enter a new one", pe.Provider, statusLine(pe), ConfigureHint)
	}
	var re *reasonError
	if errors.As(err, &re) {
		return re.reason
	}
	if name, key, ok := missingConfigKey(err); ok {
		return fmt.Sprintf("%s needs %s: %s, or set %s in the environment", name, key, ConfigureHint, key)
	}
	return firstLine(err.Error()) + ": " + ConfigureHint
}

// missingConfigKey reads the provider and key out of the registry's
// "<provider>: missing required config key <KEY>" error.
func missingConfigKey(err error) (name, key string, ok bool) {
	if !errors.Is(err, registry.ErrMissingConfig) {
		return "", "", false
	}
	msg := err.Error()
	marker := ": " + registry.ErrMissingConfig.Error() + " "
	i := strings.Index(msg, marker)
	if i < 0 {
		return "", "", false
	}
	fields := strings.Fields(msg[i+len(marker):])
	if len(fields) == 0 {
		return "", "", false
	}
	head := msg[:i]
	if j := strings.LastIndex(head, ": "); j >= 0 {
		head = head[j+2:]
	}
	return head, fields[0], true
}

func statusLine(pe *provider.Error) string {
	if pe.StatusCode != 0 {
		return fmt.Sprintf("status %d", pe.StatusCode)
	}
	return pe.Kind.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func sortByDisplayName(mds []provider.Metadata) {
	slices.SortStableFunc(mds, func(a, b provider.Metadata) int {
		return strings.Compare(strings.ToLower(a.DisplayName), strings.ToLower(b.DisplayName))
	})
}
