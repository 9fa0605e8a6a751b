package config_test

import (
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension/platform"
)

// Every platform extension goose-acp registers migrates to the same
// config values directly as through JSON (config's entrydirect.go).
func TestPlatformDefinitionsMigrateAsThroughJSON(t *testing.T) {
	var defs []config.PlatformExtension
	for _, k := range platform.Known() {
		defs = append(defs, config.PlatformExtension{Name: k.Name, DisplayName: k.DisplayName, Description: k.Description, DefaultEnabled: platform.DefaultEnabled(k.Name)})
	}
	if len(defs) == 0 {
		t.Fatal("no platform extensions")
	}
	config.CheckMigrationMatchesJSON(t, defs)
}
