package httpapi

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPromptRoutes(t *testing.T) {
	e := newTestEnv(t, "auto")
	cfgDir := e.srv.opts.ConfigDir

	status, body := e.call("PUT", "/config/prompts/system.md", map[string]any{"content": "You are {{.GooseMode}} goose."})
	if status != 200 || body != `"Saved prompt: system.md"` {
		t.Fatalf("save: %d %s", status, body)
	}
	b, err := os.ReadFile(filepath.Join(cfgDir, "prompts", "system.md"))
	if err != nil || string(b) != "You are {{.GooseMode}} goose." {
		t.Fatalf("override file %q, %v", b, err)
	}
	// The desktop reads the content back; default_content stays the built-in one.
	var got promptContent
	e.callJSON("GET", "/config/prompts/system.md", nil, 200, &got)
	if got.Name != "system.md" || got.Content != "You are {{.GooseMode}} goose." || !got.IsCustomized || got.DefaultContent == got.Content {
		t.Fatalf("get = %+v", got)
	}
	// A template that does not parse is refused and nothing is written.
	if status, body := e.call("PUT", "/config/prompts/compaction.md", map[string]any{"content": "{{ .Messages"}); status != 400 {
		t.Fatalf("invalid: %d %s", status, body)
	}
	if _, err := os.Stat(filepath.Join(cfgDir, "prompts", "compaction.md")); !os.IsNotExist(err) {
		t.Fatalf("invalid template written: %v", err)
	}
	if status, body := e.call("PUT", "/config/prompts/system.md", map[string]any{}); status != 422 {
		t.Fatalf("missing content: %d %s", status, body)
	}
	status, body = e.call("DELETE", "/config/prompts/system.md", nil)
	if status != 200 || body != `"Reset prompt to default: system.md"` {
		t.Fatalf("reset: %d %s", status, body)
	}
	if _, err := os.Stat(filepath.Join(cfgDir, "prompts", "system.md")); !os.IsNotExist(err) {
		t.Fatalf("override not removed: %v", err)
	}
	var list struct {
		Prompts []map[string]any `json:"prompts"`
	}
	e.callJSON("GET", "/config/prompts", nil, 200, &list)
	if len(list.Prompts) != 5 || list.Prompts[0]["name"] != "system.md" || list.Prompts[0]["is_customized"] != false {
		t.Fatalf("list = %v", list.Prompts)
	}
	if _, ok := list.Prompts[0]["user_content"]; ok {
		t.Fatal("user_content present without an override")
	}
	if status, _ := e.call("GET", "/config/prompts/..%2Fconfig.yaml", nil); status != 404 {
		t.Fatalf("traversal: %d", status)
	}
}
