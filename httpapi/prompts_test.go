package httpapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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

func TestCreateRecipeRoute(t *testing.T) {
	e := newTestEnv(t, "auto", say("Sure."))
	e.prov.completeText = "```json\n{\"instructions\":\"Summarise logs.\",\"activities\":[\"Summarise today\"]}\n```"
	id := e.startSession()
	var out struct {
		Recipe map[string]any `json:"recipe"`
		Error  *string        `json:"error"`
	}
	e.callJSON("POST", "/recipes/create", map[string]any{"session_id": id, "author": map[string]any{"contact": "bob"}}, 200, &out)
	r := out.Recipe
	if out.Error != nil || r["title"] != "Custom recipe from chat" || r["instructions"] != "Summarise logs." ||
		r["author"].(map[string]any)["contact"] != "bob" || len(r["activities"].([]any)) != 1 {
		t.Fatalf("response = %+v", out)
	}
	status, body := e.call("POST", "/recipes/create", map[string]any{"session_id": "20990101_9"})
	if status != 412 || !strings.HasPrefix(body, `{"recipe":null,"error":"Failed to create recipe: session not loaded`) {
		t.Fatalf("not loaded: %d %s", status, body)
	}
	if status, _ := e.call("POST", "/recipes/create", map[string]any{}); status != 422 {
		t.Fatalf("missing session_id: %d", status)
	}
}

// TestRecipeTemperature: a recipe's settings.temperature reaches the model
// config the session's provider is built with.
func TestRecipeTemperature(t *testing.T) {
	e := newTestEnv(t, "auto")
	rec := `{"version":"1.0.0","title":"Cool","description":"d","prompt":"p","settings":{"temperature":0.2}}`
	e.callJSON("POST", "/agent/start", map[string]any{"working_dir": e.root, "recipe": json.RawMessage(rec)}, 200, nil)
	e.prov.mu.Lock()
	defer e.prov.mu.Unlock()
	last := e.prov.cfgs[len(e.prov.cfgs)-1]
	if last.Temperature == nil || *last.Temperature != 0.2 {
		t.Fatalf("model config %+v", last)
	}
}

// TestRecipeSubRecipesBecomeTools: /agent/start with a recipe whose
// sub_recipes point at a file exposes subrecipe__create_task_<name>.
func TestRecipeSubRecipesBecomeTools(t *testing.T) {
	e := newTestEnv(t, "auto")
	sub := "version: 1.0.0\ntitle: S\ndescription: d\nprompt: hi\n"
	if err := os.WriteFile(filepath.Join(e.root, "sub.yaml"), []byte(sub), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := `{"version":"1.0.0","title":"P","description":"d","prompt":"p","sub_recipes":[{"name":"helper","path":"sub.yaml"}]}`
	var sess struct {
		ID string `json:"id"`
	}
	e.callJSON("POST", "/agent/start", map[string]any{"working_dir": e.root, "recipe": json.RawMessage(rec)}, 200, &sess)
	_, body := e.call("GET", "/agent/tools?session_id="+sess.ID, nil)
	if !strings.Contains(body, `"name":"subrecipe__create_task_helper"`) {
		t.Fatalf("tools %s", body)
	}
}
