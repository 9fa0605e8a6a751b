package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestUnstablePromptsOnDisk(t *testing.T) {
	h := newSettingsHome(t, "")
	c := h.serve(t)
	var list struct {
		Prompts []promptEntryWire `json:"prompts"`
	}
	if err := json.Unmarshal(c.callUnstable(t, 1, "_goose/unstable/config/prompts/list", map[string]any{}), &list); err != nil {
		t.Fatal(err)
	}
	var sys *promptEntryWire
	for i := range list.Prompts {
		if list.Prompts[i].Name == "system.md" {
			sys = &list.Prompts[i]
		}
	}
	if sys == nil || sys.IsCustomized || sys.UserContent != nil || sys.DefaultContent == "" {
		t.Fatalf("system.md in list: %+v", list.Prompts)
	}
	got := c.callUnstable(t, 2, "_goose/unstable/config/prompts/save", map[string]any{"name": "system.md", "content": "Be brief. {{.Extensions}}"})
	if !jsonEqual(string(got), `{"message":"Saved prompt: system.md"}`) {
		t.Errorf("save = %s", got)
	}
	file := filepath.Join(h.paths.Config, "prompts", "system.md")
	if b, err := os.ReadFile(file); err != nil || string(b) != "Be brief. {{.Extensions}}" {
		t.Errorf("prompts/system.md = %q, %v", b, err)
	}
	var p promptWire
	if err := json.Unmarshal(c.callUnstable(t, 3, "_goose/unstable/config/prompts/get", map[string]any{"name": "system.md"}), &p); err != nil {
		t.Fatal(err)
	}
	if p.Content != "Be brief. {{.Extensions}}" || !p.IsCustomized || p.DefaultContent != sys.DefaultContent {
		t.Errorf("get after save: %+v", p)
	}
	// A template that does not parse is refused and the override stays.
	r := c.callRaw(t, 4, "_goose/unstable/config/prompts/save", map[string]any{"name": "system.md", "content": "{{.Broken"})
	if r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("broken template: %+v", r)
	}
	if b, _ := os.ReadFile(file); string(b) != "Be brief. {{.Extensions}}" {
		t.Errorf("refused save changed the file: %q", b)
	}
	got = c.callUnstable(t, 5, "_goose/unstable/config/prompts/reset", map[string]any{"name": "system.md"})
	if !jsonEqual(string(got), `{"message":"Reset prompt to default: system.md"}`) {
		t.Errorf("reset = %s", got)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("override still on disk after reset: %v", err)
	}
	r = c.callRaw(t, 6, "_goose/unstable/config/prompts/get", map[string]any{"name": "nope.md"})
	if r.Error == nil || r.Error.Code != -32602 || string(r.Error.Data) != `"Prompt template 'nope.md' not found"` {
		t.Errorf("unknown template: %+v", r)
	}
}
