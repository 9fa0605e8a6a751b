package agent

import (
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
)

// The developer and analyze tools are on by default, like goose 1.54's,
// unless config.yaml mentions them (a user who disabled one keeps it off);
// todo is off by default since goose 1.54.
func TestDeveloperIsADefaultExtensionUnlessConfigured(t *testing.T) {
	builtins := map[string]extension.BuiltinFactory{"developer": nil, "analyze": nil}
	names := func(cfgs []config.ExtensionConfig) map[string]config.ExtensionType {
		out := map[string]config.ExtensionType{}
		for _, c := range cfgs {
			out[c.Name] = c.Type
		}
		return out
	}
	a := New(Options{Builtins: builtins, Config: mapConfig{}})
	got := names(a.exts.configured())
	if got["developer"] != config.ExtensionBuiltin || got["analyze"] != config.ExtensionBuiltin || got["extensionmanager"] != config.ExtensionPlatform || got["todo"] != "" {
		t.Fatalf("no config.yaml: extensions = %v, want builtin developer and analyze, platform extensionmanager, no todo", got)
	}

	off := mapConfig{"extensions": map[string]any{
		"developer": map[string]any{"enabled": false, "type": "platform", "name": "developer", "description": ""},
	}}
	if got := names(New(Options{Builtins: builtins, Config: off}).exts.configured()); got["developer"] != "" {
		t.Fatalf("developer disabled in config.yaml but enabled: %v", got)
	}

	if got := names(New(Options{Config: mapConfig{}}).exts.configured()); got["developer"] != "" {
		t.Fatalf("no developer builtin registered, yet it is a default: %v", got)
	}
}
