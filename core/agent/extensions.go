package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/session"
)

// EnabledExtensionsKey is goose's extension_data key for the session's
// extensions.
const EnabledExtensionsKey = "enabled_extensions.v0"

type enabledExtensions struct {
	Extensions []config.ExtensionConfig `json:"extensions"`
}

// DefaultPlatformExtensions are enabled unless config.yaml disables them.
var DefaultPlatformExtensions = []string{"todo", "extensionmanager"}

// DefaultBuiltinExtensions are enabled unless config.yaml mentions them, as
// goose's ACP server defaults its builtins to ["developer"]: an editor
// agent without file and shell tools is of little use.
var DefaultBuiltinExtensions = []string{"developer"}

// configuredExtensions reads config.yaml's extensions map: entries with
// enabled: true, sorted by key.
func (a *Agent) configuredExtensions() []config.ExtensionConfig {
	return a.readExtensions(true)
}

// extensionCatalog lists every configured extension, enabled or not, and
// the platform extensions config.yaml does not mention.
func (a *Agent) extensionCatalog() []config.ExtensionConfig {
	return mergeConfigs(a.readExtensions(false), platform.Known())
}

func (a *Agent) readExtensions(enabledOnly bool) []config.ExtensionConfig {
	raw, ok := a.opts.Config.Get("extensions")
	if !ok || raw == nil {
		return a.defaultPlatforms(nil)
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return a.defaultPlatforms(nil)
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(b, &entries); err != nil {
		a.log.Warn("config extensions are not a map", "error", err)
		return a.defaultPlatforms(nil)
	}
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	seen := map[string]bool{}
	var out []config.ExtensionConfig
	for _, k := range keys {
		seen[k] = true
		var flag struct {
			Enabled bool `json:"enabled"`
		}
		_ = json.Unmarshal(entries[k], &flag)
		if enabledOnly && !flag.Enabled {
			continue
		}
		var cfg config.ExtensionConfig
		if err := json.Unmarshal(entries[k], &cfg); err != nil {
			a.log.Warn("skipping bad extension config", "extension", k, "error", err)
			continue
		}
		out = append(out, cfg)
	}
	return append(out, a.defaultPlatforms(seen)...)
}

func (a *Agent) defaultPlatforms(configured map[string]bool) []config.ExtensionConfig {
	var out []config.ExtensionConfig
	for _, name := range DefaultBuiltinExtensions {
		if _, ok := a.opts.Builtins[name]; ok && !configured[name] {
			out = append(out, config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: name})
		}
	}
	for _, name := range DefaultPlatformExtensions {
		if !configured[name] {
			out = append(out, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: name})
		}
	}
	return out
}

func (a *Agent) startExtensions(opts StartOptions) []config.ExtensionConfig {
	var cfgs []config.ExtensionConfig
	if opts.UseConfiguredExtensions {
		cfgs = a.configuredExtensions()
	}
	if opts.Recipe != nil {
		cfgs = mergeConfigs(cfgs, opts.Recipe.Extensions)
	}
	return mergeConfigs(cfgs, opts.Extensions)
}

// mergeConfigs appends extra configs whose names are not already present.
func mergeConfigs(base, extra []config.ExtensionConfig) []config.ExtensionConfig {
	have := map[string]bool{}
	for _, c := range base {
		have[c.Name] = true
	}
	for _, c := range extra {
		if !have[c.Name] {
			base = append(base, c)
			have[c.Name] = true
		}
	}
	return base
}

func savedExtensions(d session.ExtensionData) ([]config.ExtensionConfig, bool) {
	raw, ok := d[EnabledExtensionsKey]
	if !ok {
		return nil, false
	}
	var st enabledExtensions
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, false
	}
	return st.Extensions, true
}

// saveSessionState persists the extension list, mode, provider and model.
// While the session's extensions are still connecting in the background
// the stored list is left as it is: the connect saves the whole list when
// it is done, and a half-connected one written meanwhile (an editor sets
// its saved model right after session/new) could land after it.
func (a *Agent) saveSessionState(ctx context.Context, s *sessionState) error {
	return a.saveState(ctx, s, s.connect.isReady())
}

func (a *Agent) saveState(ctx context.Context, s *sessionState, withExtensions bool) error {
	sess, err := a.sessionRow(ctx, s.id) // its extension data, not its message statistics
	if err != nil {
		return err
	}
	data := session.ExtensionData{}
	for k, v := range sess.ExtensionData {
		data[k] = v
	}
	if withExtensions {
		cfgs := s.mgr.Configs()
		if cfgs == nil {
			cfgs = []config.ExtensionConfig{}
		}
		raw, err := json.Marshal(enabledExtensions{Extensions: cfgs})
		if err != nil {
			return fmt.Errorf("encoding extensions: %w", err)
		}
		data[EnabledExtensionsKey] = raw
	}
	s.mu.Lock()
	mode := string(s.mode)
	u := session.Update{ExtensionData: data, GooseMode: &mode}
	if s.provider != nil {
		name, mc := s.providerName, s.model
		u.ProviderName, u.ModelConfig = &name, &mc
	}
	s.mu.Unlock()
	return a.opts.Store.Update(ctx, s.id, u)
}

// AddExtension connects an extension to a loaded session and persists
// the session's extension list.
func (a *Agent) AddExtension(ctx context.Context, sessionID string, cfg config.ExtensionConfig) error {
	s, err := a.readySession(ctx, sessionID)
	if err != nil {
		return err
	}
	if err := s.mgr.Add(ctx, cfg); err != nil {
		return err
	}
	return a.saveSessionState(ctx, s)
}

// RemoveExtension disconnects an extension by name.
func (a *Agent) RemoveExtension(ctx context.Context, sessionID, name string) error {
	s, err := a.readySession(ctx, sessionID)
	if err != nil {
		return err
	}
	if err := s.mgr.Remove(name); err != nil {
		return fmt.Errorf("%w: %w", ErrUnknownExtension, err)
	}
	return a.saveSessionState(ctx, s)
}

// Extensions returns the session's connected extensions.
func (a *Agent) Extensions(sessionID string) ([]extension.Info, error) {
	s, err := a.readySession(a.bgCtx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.mgr.Extensions(), nil
}
