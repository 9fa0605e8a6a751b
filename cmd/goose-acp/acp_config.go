package main

import (
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/config"
)

// acpConfig adapts config.Config to the ACP adapter's _goose/config methods.
type acpConfig struct{ cfg *config.Config }

func (c acpConfig) Get(key string) (any, bool) {
	v, err := c.cfg.Get(key)
	return v, err == nil
}

func (c acpConfig) Set(key string, value any) error { return c.cfg.Set(key, value) }

func (c acpConfig) Delete(key string) error { return c.cfg.Delete(key) }

// ExtensionsJSON lists config.yaml's extensions in goose's JSON shape.
func (c acpConfig) ExtensionsJSON() (any, []string) {
	entries, errs := c.cfg.Extensions()
	out := make([]json.RawMessage, 0, len(entries))
	for _, e := range entries {
		if b, err := json.Marshal(e); err == nil {
			out = append(out, b)
		}
	}
	var warnings []string
	for _, err := range errs {
		warnings = append(warnings, err.Error())
	}
	return out, warnings
}
