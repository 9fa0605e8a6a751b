package platform

import (
	"context"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// TestPlatformToolsDeclareTheirKinds: the kinds the editor shows for the
// platform tools come from their own declarations (toolinfo.Guess no
// longer knows these names).
func TestPlatformToolsDeclareTheirKinds(t *testing.T) {
	m, _, _ := setup(t, nil)
	ctx := context.Background()
	if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: ExtensionManager}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"todo__todo_write": toolinfo.Think, "extensionmanager__search_available_extensions": toolinfo.Search,
		"extensionmanager__manage_extensions": toolinfo.Other, "extensionmanager__list_resources": toolinfo.Read,
		"extensionmanager__read_resource": toolinfo.Read,
	}
	seen := 0
	for _, tool := range m.Tools(ctx) {
		if kind, ok := want[tool.Name]; ok {
			seen++
			if tool.Info.Kind != kind {
				t.Errorf("%s: kind %q, want %q", tool.Name, tool.Info.Kind, kind)
			}
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of the %d tools", seen, len(want))
	}
}
