package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"strings"

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

// DefaultPlatformExtensions are enabled unless config.yaml disables them
// (todo is off by default since goose 1.54).
var DefaultPlatformExtensions = []string{"extensionmanager"}

// DefaultBuiltinExtensions are enabled unless config.yaml mentions them, as
// goose's ACP server defaults its builtins to ["developer"]: an editor
// agent without file and shell tools is of little use. analyze is on by
// default in goose 1.54, an extension of its own.
var DefaultBuiltinExtensions = []string{"analyze", "developer"}

// extensionConfigs reads the extensions a session starts with: config.yaml's
// extensions map and the defaults it does not mention.
type extensionConfigs struct {
	cfg      ConfigReader
	builtins map[string]extension.BuiltinFactory
	log      *slog.Logger
}

// configured reads config.yaml's extensions map: entries with
// enabled: true, sorted by key.
// An enabled extension goose-acp cannot run (one of goose's builtins it
// does not ship, enabled by goose itself) is left out with a warning:
// sessions start without it rather than fail on it.
func (x extensionConfigs) configured() []config.ExtensionConfig {
	all := x.read(true)
	out := all[:0:0]
	for _, c := range all {
		if err := config.CheckAvailable(c); err != nil {
			x.log.Warn("configured extension skipped", "extension", c.Name, "reason", err)
			continue
		}
		out = append(out, c)
	}
	return out
}

// catalog lists every configured extension, enabled or not, and
// the platform extensions config.yaml does not mention.
func (x extensionConfigs) catalog() []config.ExtensionConfig {
	return mergeConfigs(x.read(false), platform.Known())
}

// read decodes config.yaml's extensions map, entries sorted by key, then
// the defaults it does not mention. Each entry is decoded on its own:
// directly when it holds plain values (config.DecodeExtension), else as
// JSON, and then only when it is enabled or enabledOnly is false. The
// whole map's JSON round trip was ~20% of a fresh process's first
// session/new.
func (x extensionConfigs) read(enabledOnly bool) []config.ExtensionConfig {
	raw, ok := x.cfg.Get("extensions")
	if !ok || raw == nil {
		return x.defaultPlatforms(nil)
	}
	entries, ok := raw.(map[string]any)
	if !ok || !jsonable(raw) {
		// Not a JSON object (an EXTENSIONS variable holding a list, a
		// number YAML read as NaN): the reason JSON gives.
		var m map[string]json.RawMessage
		b, err := json.Marshal(raw)
		if err == nil {
			err = json.Unmarshal(b, &m)
			x.log.Warn("config extensions are not a map", "error", err)
		}
		return x.defaultPlatforms(nil)
	}
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	seen := make(map[string]bool, len(keys))
	var out []config.ExtensionConfig
	for _, k := range keys {
		seen[k] = true
		if e, ok := config.DecodeExtension(entries[k]); ok {
			if !enabledOnly || e.Enabled {
				out = append(out, e.Config)
			}
			continue
		}
		if enabledOnly && !enabledFlag(entries[k]) {
			continue
		}
		b, _ := json.Marshal(entries[k]) // jsonable above
		var cfg config.ExtensionConfig
		if err := json.Unmarshal(b, &cfg); err != nil {
			x.log.Warn("skipping bad extension config", "extension", k, "error", err)
			continue
		}
		out = append(out, cfg)
	}
	return append(out, x.defaultPlatforms(seen)...)
}

// enabledFlag is what decoding entry into struct{ Enabled bool
// `json:"enabled"` } gives: JSON matches the key without regard to case,
// the last match (keys in sorted order) holding a bool wins, and anything
// but an object leaves it false.
func enabledFlag(entry any) bool {
	m, ok := entry.(map[string]any)
	if !ok {
		return false
	}
	var keys []string
	for k := range m {
		if strings.EqualFold(k, "enabled") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	enabled := false
	for _, k := range keys {
		if b, ok := m[k].(bool); ok {
			enabled = b
		}
	}
	return enabled
}

// jsonable reports whether json.Marshal encodes v (config values are maps,
// lists, strings, bools and numbers; only a NaN or infinite number fails).
func jsonable(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if !jsonable(x) {
				return false
			}
		}
	case []any:
		for _, x := range t {
			if !jsonable(x) {
				return false
			}
		}
	case float64:
		return !math.IsNaN(t) && !math.IsInf(t, 0)
	case float32:
		return !math.IsNaN(float64(t)) && !math.IsInf(float64(t), 0)
	}
	return true
}

func (x extensionConfigs) defaultPlatforms(configured map[string]bool) []config.ExtensionConfig {
	var out []config.ExtensionConfig
	for _, name := range DefaultBuiltinExtensions {
		if _, ok := x.builtins[name]; ok && !configured[name] {
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

// forStart are the extensions a new session asks for: the configured
// ones when opts says so, the recipe's and opts' own.
func (x extensionConfigs) forStart(opts StartOptions) []config.ExtensionConfig {
	var cfgs []config.ExtensionConfig
	if opts.UseConfiguredExtensions {
		cfgs = x.configured()
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
