package platform

import (
	"context"
	"strings"
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
	for _, c := range []config.ExtensionConfig{{Type: config.ExtensionPlatform, Name: ExtensionManager}, {Type: config.ExtensionBuiltin, Name: "res"}} {
		if err := m.Add(ctx, c); err != nil {
			t.Fatal(err)
		}
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

// TestResourceToolsOnlyWithResources: goose 1.54 offers list_resources and
// read_resource only while some extension of the session serves
// resources; they come and go with that extension.
func TestResourceToolsOnlyWithResources(t *testing.T) {
	m, _, _ := setup(t, nil)
	ctx := context.Background()
	if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: ExtensionManager}); err != nil {
		t.Fatal(err)
	}
	names := func() string {
		var out []string
		for _, tool := range m.Tools(ctx) {
			if tool.Extension == ExtensionManager {
				out = append(out, tool.Name)
			}
		}
		return strings.Join(out, ",")
	}
	const base = "extensionmanager__manage_extensions,extensionmanager__search_available_extensions"
	if got := names(); got != base {
		t.Fatalf("without resources: %s", got)
	}
	if _, err := m.Call(ctx, "c", "extensionmanager__list_resources", nil); err == nil {
		t.Fatal("list_resources ran although it is not offered")
	}
	if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "res"}); err != nil {
		t.Fatal(err)
	}
	if got := names(); got != "extensionmanager__list_resources,extensionmanager__manage_extensions,extensionmanager__read_resource,extensionmanager__search_available_extensions" {
		t.Fatalf("with resources: %s", got)
	}
	if err := m.Remove("res"); err != nil {
		t.Fatal(err)
	}
	if got := names(); got != base {
		t.Fatalf("after the resource extension left: %s", got)
	}
}
