package config

import "github.com/goose-acp/goose-acp/core/unavailable"

// CheckAvailable refuses an extension goose-acp cannot run: one of goose's
// builtin extensions it does not ship (computercontroller, memory,
// tutorial, autovisualiser). The error wraps unavailable.ErrUnavailable
// and names the feature.
func CheckAvailable(cfg ExtensionConfig) error {
	if cfg.Type != ExtensionBuiltin {
		return nil
	}
	if f, ok := unavailable.Builtin(cfg.Name); ok {
		return f.Error()
	}
	return nil
}

// checkEnabling refuses to enable (write with enabled: true) an extension
// goose-acp cannot run, so config.yaml is left as it was; a disabled
// entry is written as goose writes it.
func checkEnabling(entry ExtensionEntry) error {
	if !entry.Enabled {
		return nil
	}
	return CheckAvailable(entry.Config)
}
