package agent

import (
	"context"
	"errors"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension/platform"
)

// A session's platform extensions as switches: on for those it has, off
// for the others goose-acp runs (apps and code mode are not offered);
// turning one on adds it, off removes it, as it is changes nothing.
func TestExtensionSwitches(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, nil)
	h.start(StartOptions{Extensions: []config.ExtensionConfig{{Type: config.ExtensionPlatform, Name: platform.Summon}}})
	on := func() map[string]bool {
		ws, err := h.a.Extensions().Switches(h.id)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for _, w := range ws {
			m[w.Name] = w.On
		}
		return m
	}
	got := on()
	if !got[platform.Summon] || got[platform.Todo] || len(got) != 7 {
		t.Fatalf("switches %v", got)
	}
	if _, ok := got[platform.Apps]; ok {
		t.Fatal("apps offered")
	}
	if err := h.a.Extensions().SetSwitch(ctx, h.id, platform.Todo, true); err != nil {
		t.Fatal(err)
	}
	if err := h.a.Extensions().SetSwitch(ctx, h.id, platform.Summon, false); err != nil {
		t.Fatal(err)
	}
	if err := h.a.Extensions().SetSwitch(ctx, h.id, platform.Summon, false); err != nil {
		t.Fatal(err)
	}
	if got := on(); !got[platform.Todo] || got[platform.Summon] {
		t.Fatalf("after switching %v", got)
	}
	if err := h.a.Extensions().SetSwitch(ctx, h.id, platform.Apps, true); !errors.Is(err, ErrNoSuchSwitch) {
		t.Fatalf("apps: %v", err)
	}
}
