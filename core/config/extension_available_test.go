package config

import (
	"errors"
	"os"
	"testing"

	"github.com/goose-acp/goose-acp/core/unavailable"
)

// goose's builtins goose-acp does not ship may be written disabled (as
// Desktop's bundled sync does) but never enabled; a refusal leaves the
// file as it was.
func TestUnavailableBuiltinsAreNeverEnabled(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), "GOOSE_PROVIDER: anthropic\n")
	c := e.open(t)
	memory := ExtensionConfig{Type: ExtensionBuiltin, Name: "memory"}
	if err := c.SetExtension(ExtensionEntry{Enabled: false, Config: memory}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(e.paths.ConfigFile())
	err := c.SetExtensionEnabled("memory", true)
	if f, ok := unavailable.FeatureOf(err); !ok || f != unavailable.Memory || !errors.Is(err, unavailable.ErrUnavailable) {
		t.Fatalf("enabling memory: %v", err)
	}
	err = c.SetExtension(ExtensionEntry{Enabled: true, Config: ExtensionConfig{Type: ExtensionBuiltin, Name: "autovisualiser"}})
	if f, ok := unavailable.FeatureOf(err); !ok || f != unavailable.AutoVisualiser {
		t.Fatalf("adding autovisualiser enabled: %v", err)
	}
	if after, _ := os.ReadFile(e.paths.ConfigFile()); string(after) != string(before) {
		t.Fatalf("config.yaml changed by a refusal:\n%s\nwas\n%s", after, before)
	}
	for _, ok := range []ExtensionConfig{{Type: ExtensionBuiltin, Name: "developer"}, {Type: ExtensionStdio, Name: "memory", Cmd: "x"}} {
		if err := CheckAvailable(ok); err != nil {
			t.Errorf("CheckAvailable(%+v) = %v", ok, err)
		}
	}
}
