package config

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/goose-acp/goose-acp/core/errkind"
	"go.yaml.in/yaml/v3"
)

// extensionsKey is the top-level config.yaml map of extensions.
const extensionsKey = "extensions"

// ExtensionEntry is one value of the extensions: map: the ExtensionConfig
// fields flattened beside "enabled", as goose writes them.
type ExtensionEntry struct {
	Enabled bool
	Config  ExtensionConfig
}

// MarshalJSON writes {"enabled":…, <ExtensionConfig fields>}.
func (e ExtensionEntry) MarshalJSON() ([]byte, error) {
	cfg, err := json.Marshal(e.Config)
	if err != nil {
		return nil, err
	}
	enabled, _ := json.Marshal(e.Enabled)
	out := append([]byte(`{"enabled":`), enabled...)
	if len(cfg) > 2 {
		out = append(out, ',')
	}
	return append(out, cfg[1:]...), nil
}

// UnmarshalJSON reads the flattened form; "enabled" defaults to false.
func (e *ExtensionEntry) UnmarshalJSON(b []byte) error {
	var en struct {
		Enabled *bool `json:"enabled"`
	}
	if err := json.Unmarshal(b, &en); err != nil {
		return err
	}
	var cfg ExtensionConfig
	if err := json.Unmarshal(b, &cfg); err != nil {
		return err
	}
	*e = ExtensionEntry{Config: cfg}
	if en.Enabled != nil {
		e.Enabled = *en.Enabled
	}
	return nil
}

// Extensions returns the merged extensions: map by key. Entries that do not
// parse are skipped, logged and returned as errors, as goose skips them.
func (c *Config) Extensions() (map[string]ExtensionEntry, []error) {
	values, err := c.load()
	if err != nil {
		return nil, []error{err}
	}
	out := map[string]ExtensionEntry{}
	raw, _ := values[extensionsKey].(map[string]any)
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs []error
	for _, key := range keys {
		entry, err := parseEntry(raw[key])
		if err != nil {
			err = fmt.Errorf("config: extension %q skipped: %w", key, err)
			c.log.Warn("skipping extension entry that does not parse", "key", key, "error", err)
			errs = append(errs, err)
			continue
		}
		out[key] = entry
	}
	return out, errs
}

// parseEntry reads one JSON-shaped entry as json.Unmarshal of its
// json.Marshal does: directly for plain entries (decodeEntry), else
// through JSON, which also gives the error of an entry that does not
// parse.
func parseEntry(v any) (ExtensionEntry, error) {
	if e, ok := decodeEntry(v); ok {
		return e, nil
	}
	return parseEntryJSON(v)
}

// DecodeExtension is one value of config.yaml's extensions map (its
// enabled flag and config) read directly, as json.Unmarshal of its
// json.Marshal gives them; false when v is not of the plain shapes read
// directly: decode it through JSON then.
func DecodeExtension(v any) (ExtensionEntry, bool) { return decodeEntry(v) }

// parseEntryJSON is parseEntry through a JSON round trip.
func parseEntryJSON(v any) (ExtensionEntry, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return ExtensionEntry{}, err
	}
	var e ExtensionEntry
	err = json.Unmarshal(b, &e)
	return e, err
}

// Extension returns the entry stored under key.
func (c *Config) Extension(key string) (ExtensionEntry, error) {
	values, err := c.load()
	if err != nil {
		return ExtensionEntry{}, err
	}
	raw, _ := values[extensionsKey].(map[string]any)
	v, ok := raw[key]
	if !ok {
		return ExtensionEntry{}, errkind.Wrapf(ErrNotFound, "Extension '%s' not found", key)
	}
	return parseEntry(v)
}

// SetExtension writes entry under extensions.<name_to_key(name)> in the
// user file, replacing any entry with that key.
func (c *Config) SetExtension(entry ExtensionEntry) error {
	key := entry.Config.Key()
	if key == "" {
		return errkind.Errorf(errkind.Invalid, "extension name %q gives an empty config key", entry.Config.Name)
	}
	if err := checkEnabling(entry); err != nil {
		return err
	}
	node, err := valueNode(entry)
	if err != nil {
		return fmt.Errorf("config: extension %s: %w", key, err)
	}
	return c.edit(func(root *yaml.Node) {
		setKey(extensionsMap(root), key, node)
	})
}

// AddExtensionWithEnvSecrets writes entry as SetExtension does after
// storing a stdio extension's env values in the secret store: each name
// joins the entry's env_keys once, in order, and its value never reaches
// config.yaml (goose's goose_extension_to_config, how its ACP API adds an
// extension). A name given twice keeps its last value; nothing is written
// for an entry SetExtension would refuse.
func (c *Config) AddExtensionWithEnvSecrets(entry ExtensionEntry, env []KeyValue) error {
	if entry.Config.Key() == "" || checkEnabling(entry) != nil {
		return c.SetExtension(entry) // its refusal
	}
	values := map[string]any{}
	for _, kv := range env {
		if !slices.Contains(entry.Config.EnvKeys, kv.Key) {
			entry.Config.EnvKeys = append(entry.Config.EnvKeys, kv.Key)
		}
		values[kv.Key] = kv.Value
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if err := c.Secrets().Set(k, values[k]); err != nil {
			return fmt.Errorf("Failed to save extension env secrets: %w", err)
		}
	}
	return c.SetExtension(entry)
}

// RemoveExtension deletes extensions.<key> from the user file.
func (c *Config) RemoveExtension(key string) error {
	return c.edit(func(root *yaml.Node) {
		if i := mapIndex(root, extensionsKey); i >= 0 && root.Content[i+1].Kind == yaml.MappingNode {
			deleteKey(root.Content[i+1], key)
		}
	})
}

// extensionsMap returns the extensions: mapping node, creating it (or
// replacing a non-mapping value) as needed.
func extensionsMap(root *yaml.Node) *yaml.Node {
	if i := mapIndex(root, extensionsKey); i >= 0 {
		if n := root.Content[i+1]; n.Kind == yaml.MappingNode {
			n.Style = 0
			return n
		}
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	setKey(root, extensionsKey, m)
	return m
}
