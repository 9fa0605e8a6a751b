package agent

import (
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
)

// The developer tools are on by default, like goose's ACP server, unless
// config.yaml mentions developer (a user who disabled it keeps it off).
func TestDeveloperIsADefaultExtensionUnlessConfigured(t *testing.T) {
	builtins := map[string]extension.BuiltinFactory{"developer": nil}
	names := func(cfgs []config.ExtensionConfig) map[string]config.ExtensionType {
		out := map[string]config.ExtensionType{}
		for _, c := range cfgs {
			out[c.Name] = c.Type
		}
		return out
	}
	a := New(Options{Builtins: builtins, Config: mapConfig{}})
	got := names(a.exts.configured())
	if got["developer"] != config.ExtensionBuiltin || got["todo"] != config.ExtensionPlatform {
		t.Fatalf("no config.yaml: extensions = %v, want builtin developer and platform todo", got)
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
