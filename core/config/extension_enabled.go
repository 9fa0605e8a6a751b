package config

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"
)

// SetExtensionEnabled sets extensions.<key>.enabled in the user file and
// keeps the rest of the entry as it is; a key that is not configured is
// ErrNotFound (goose's set_extension_enabled answers false).
func (c *Config) SetExtensionEnabled(key string, enabled bool) error {
	entry, err := c.Extension(key)
	if err != nil {
		return err
	}
	entry.Enabled = enabled
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

// EnabledExtensions are config.yaml's enabled extensions in key order
// (entries that do not parse are left out, as Extensions reports).
func (c *Config) EnabledExtensions() []ExtensionConfig {
	entries, _ := c.Extensions()
	keys := make([]string, 0, len(entries))
	for k, e := range entries {
		if e.Enabled {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	out := make([]ExtensionConfig, 0, len(keys))
	for _, k := range keys {
		out = append(out, entries[k].Config)
	}
	return out
}
