package httpapi

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
)

const testRecipeJSON = `{"version":"1.0.0","title":"Daily Report","description":"Summarise the day","instructions":"Summarise {{ topic }}","prompt":"Go","parameters":[{"key":"topic","input_type":"string","requirement":"required","description":"What"}]}`

func TestContract(t *testing.T) {
	ct := loadContract(t)
	var sched *schedule.Scheduler
	e := newTestEnvWith(t, "auto", func(o *Options) {
		var err error
		sched, err = schedule.New(schedule.Options{DataDir: filepath.Join(t.TempDir(), "data"), Runner: testRunner{o.Store.(session.Store)}})
		if err != nil {
			t.Fatal(err)
		}
		o.Scheduler = sched
	}, say("Hello ", "there"), say("again"))
	t.Cleanup(func() { _ = sched.Close() })
	if err := os.WriteFile(filepath.Join(e.root, "logs.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}

	call := func(method, path, pattern string, body any, want int) []byte {
		t.Helper()
		resp := e.do(method, path, body)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s: status %d, want %d (%s)", method, path, resp.StatusCode, want, b)
		}
		ct.check(t, method, pattern, resp.StatusCode, resp.Header, b)
		return b
	}
	var sess struct {
		ID string `json:"id"`
	}
	// Desktop startup.
	call("GET", "/status", "/status", nil, 200)
	call("POST", "/config/read", "/config/read", map[string]any{"key": "GOOSE_TELEMETRY_ENABLED", "is_secret": false}, 200)
	call("GET", "/features", "/features", nil, 200)
	call("GET", "/config", "/config", nil, 200)
	call("GET", "/config/providers", "/config/providers", nil, 200)
	call("GET", "/config/extensions", "/config/extensions", nil, 200)
	call("GET", "/sessions", "/sessions", nil, 200)
	json.Unmarshal(call("POST", "/agent/start", "/agent/start", map[string]any{"working_dir": e.root}, 200), &sess)
	id := sess.ID
	if id == "" {
		t.Fatal("no session id")
	}
	call("POST", "/agent/resume", "/agent/resume", map[string]any{"session_id": id, "load_model_and_extensions": true}, 200)
	call("POST", "/agent/update_from_session", "/agent/update_from_session", map[string]any{"session_id": id}, 200)
	call("GET", "/agent/list_apps", "/agent/list_apps", nil, 200)
	call("GET", "/agent/tools?session_id="+id, "/agent/tools", nil, 200)
	call("GET", "/sessions/"+id+"/extensions", "/sessions/{session_id}/extensions", nil, 200)
	call("GET", "/sessions/"+id, "/sessions/{session_id}", nil, 200)

	// A chat turn over the events API; every frame matches MessageEvent.
	events := e.openEvents(id, "")
	rid := uuid.NewString()
	call("POST", "/sessions/"+id+"/reply", "/sessions/{id}/reply", map[string]any{"request_id": rid, "user_message": userMessage("hi")}, 200)
	for {
		f := events.next(t)
		ct.validateEvent(t, f.Data)
		if strings.Contains(f.Data, `"type":"Finish"`) {
			break
		}
	}
	call("POST", "/sessions/"+id+"/cancel", "/sessions/{id}/cancel", map[string]any{"request_id": rid}, 200)
	// Legacy /reply frames match too.
	resp := e.do("POST", "/reply", map[string]any{"user_message": userMessage("more"), "session_id": id})
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	ct.check(t, "POST", "/reply", resp.StatusCode, resp.Header, nil)
	for _, f := range strings.Split(strings.TrimSpace(string(raw)), "\n\n") {
		ct.validateEvent(t, strings.TrimPrefix(f, "data: "))
	}
	call("POST", "/action-required/tool-confirmation", "/action-required/tool-confirmation", map[string]any{"id": "nope", "action": "deny_once", "sessionId": id}, 200)

	// Agent controls.
	call("POST", "/agent/call_tool", "/agent/call_tool", map[string]any{"session_id": id, "name": "tt__echo", "arguments": map[string]any{"a": "b"}}, 200)
	call("POST", "/agent/call_tool", "/agent/call_tool", map[string]any{"session_id": id, "name": "tt__nope", "arguments": map[string]any{}}, 404)
	call("POST", "/agent/read_resource", "/agent/read_resource", map[string]any{"session_id": id, "extension_name": "tt", "uri": "ui://tt/page"}, 200)
	call("POST", "/agent/update_provider", "/agent/update_provider", map[string]any{"session_id": id, "provider": "fake", "model": "fake-large"}, 200)
	call("POST", "/agent/update_session", "/agent/update_session", map[string]any{"session_id": id, "goose_mode": "smart_approve"}, 200)
	call("POST", "/agent/update_session", "/agent/update_session", map[string]any{"session_id": id, "goose_mode": "yolo"}, 400)
	call("POST", "/agent/update_working_dir", "/agent/update_working_dir", map[string]any{"session_id": id, "working_dir": t.TempDir()}, 200)
	call("POST", "/agent/update_working_dir", "/agent/update_working_dir", map[string]any{"session_id": id, "working_dir": "/no/such/dir"}, 400)
	call("POST", "/agent/remove_extension", "/agent/remove_extension", map[string]any{"session_id": id, "name": "tt"}, 200)
	call("POST", "/agent/add_extension", "/agent/add_extension", map[string]any{"session_id": id, "config": map[string]any{"type": "builtin", "name": "tt", "description": "again"}}, 200)
	call("POST", "/agent/restart", "/agent/restart", map[string]any{"session_id": id}, 200)
	call("POST", "/agent/stop", "/agent/stop", map[string]any{"session_id": id}, 200)
	call("POST", "/agent/stop", "/agent/stop", map[string]any{"session_id": id}, 404)
	call("POST", "/agent/resume", "/agent/resume", map[string]any{"session_id": "20990101_1", "load_model_and_extensions": false}, 404)

	// Sessions.
	call("PUT", "/sessions/"+id+"/name", "/sessions/{session_id}/name", map[string]any{"name": "Renamed"}, 200)
	call("PUT", "/sessions/"+id+"/name", "/sessions/{session_id}/name", map[string]any{"name": ""}, 400)
	call("GET", "/sessions/insights", "/sessions/insights", nil, 200)
	call("GET", "/sessions/search?query=hi", "/sessions/search", nil, 200)
	call("GET", "/sessions/search?query=", "/sessions/search", nil, 400)
	export := call("GET", "/sessions/"+id+"/export", "/sessions/{session_id}/export", nil, 200)
	var exported string
	json.Unmarshal(export, &exported)
	var imported struct {
		ID string `json:"id"`
	}
	json.Unmarshal(call("POST", "/sessions/import", "/sessions/import", map[string]any{"json": exported}, 200), &imported)
	call("POST", "/sessions/import", "/sessions/import", map[string]any{"json": "{"}, 400)
	call("POST", "/sessions/"+id+"/fork", "/sessions/{session_id}/fork", map[string]any{"copy": true, "truncate": false}, 200)
	call("POST", "/sessions/"+id+"/fork", "/sessions/{session_id}/fork", map[string]any{"copy": false, "truncate": true}, 400)
	call("GET", "/diagnostics/"+id, "/diagnostics/{session_id}", nil, 200)
	call("GET", "/sessions/20990101_1", "/sessions/{session_id}", nil, 404)
	call("DELETE", "/sessions/"+imported.ID, "/sessions/{session_id}", nil, 200)
	call("DELETE", "/sessions/"+imported.ID, "/sessions/{session_id}", nil, 404)
	call("GET", "/sessions/"+imported.ID+"/events", "/sessions/{id}/events", nil, 404)
	call("GET", "/system_info", "/system_info", nil, 200)
	call("POST", "/telemetry/event", "/telemetry/event", map[string]any{"event_name": "x"}, 202)

	// Config.
	call("POST", "/config/upsert", "/config/upsert", map[string]any{"key": "FOO", "value": 3, "is_secret": false}, 200)
	llm := providertest.Start(providertest.OpenAI, nil)
	defer llm.Close()
	llm.Script.SetModels("gpt-4o")
	call("POST", "/config/upsert", "/config/upsert", map[string]any{"key": "OPENAI_API_KEY", "value": "sk-abcdefghijkl", "is_secret": true}, 200)
	call("POST", "/config/upsert", "/config/upsert", map[string]any{"key": "OPENAI_HOST", "value": llm.URL, "is_secret": false}, 200)
	call("POST", "/config/read", "/config/read", map[string]any{"key": "OPENAI_API_KEY", "is_secret": true}, 200)
	call("POST", "/config/remove", "/config/remove", map[string]any{"key": "FOO", "is_secret": false}, 200)
	call("POST", "/config/remove", "/config/remove", map[string]any{"key": "FOO", "is_secret": false}, 404)
	call("GET", "/config/validate", "/config/validate", nil, 200)
	call("POST", "/config/extensions", "/config/extensions", map[string]any{"name": "gh", "enabled": false, "config": map[string]any{"type": "stdio", "name": "gh", "description": "GitHub", "cmd": "npx", "args": []string{"-y", "x"}}}, 200)
	call("DELETE", "/config/extensions/gh", "/config/extensions/{name}", nil, 200)
	call("DELETE", "/config/extensions/gh", "/config/extensions/{name}", nil, 404)
	call("POST", "/config/permissions", "/config/permissions", map[string]any{"tool_permissions": []any{map[string]any{"tool_name": "tt__echo", "permission": "ask_before"}}}, 200)
	call("GET", "/config/slash_commands", "/config/slash_commands", nil, 200)
	call("GET", "/config/providers/openai/models", "/config/providers/{name}/models", nil, 200)
	call("GET", "/config/providers/nope/models", "/config/providers/{name}/models", nil, 400)
	call("POST", "/config/check_provider", "/config/check_provider", map[string]any{"provider": "openai"}, 200)
	call("POST", "/config/set_provider", "/config/set_provider", map[string]any{"provider": "openai", "model": "gpt-4o"}, 200)
	call("POST", "/config/providers/openai/cleanup", "/config/providers/{name}/cleanup", nil, 200)
	// The provider catalog and model facts (core/provider/catalog, the same
	// answers the ACP face gives Desktop 1.4x+).
	var catalog []struct {
		ID         string `json:"id"`
		Format     string `json:"format"`
		ModelCount int    `json:"model_count"`
	}
	json.Unmarshal(call("GET", "/config/provider-catalog?format=anthropic", "/config/provider-catalog", nil, 200), &catalog)
	if len(catalog) == 0 || catalog[0].Format != "anthropic" || catalog[0].ModelCount == 0 {
		t.Fatalf("provider catalog (anthropic) = %+v", catalog)
	}
	call("GET", "/config/provider-catalog?format=nope", "/config/provider-catalog", nil, 400)
	call("GET", "/config/provider-catalog/"+catalog[0].ID, "/config/provider-catalog/{id}", nil, 200)
	call("GET", "/config/provider-catalog/nope", "/config/provider-catalog/{id}", nil, 404)
	var info struct {
		ModelInfo *struct {
			Model        string `json:"model"`
			ContextLimit int    `json:"context_limit"`
			Currency     string `json:"currency"`
		} `json:"model_info"`
		Source string `json:"source"`
	}
	json.Unmarshal(call("POST", "/config/canonical-model-info", "/config/canonical-model-info", map[string]any{"provider": "openai", "model": "gpt-4o-mini"}, 200), &info)
	if info.Source != "canonical" || info.ModelInfo == nil || info.ModelInfo.Model != "gpt-4o-mini" || info.ModelInfo.ContextLimit != 128000 || info.ModelInfo.Currency != "$" {
		t.Fatalf("canonical model info for openai/gpt-4o-mini = %+v", info)
	}
	json.Unmarshal(call("POST", "/config/canonical-model-info", "/config/canonical-model-info", map[string]any{"provider": "openai", "model": "no-such-model"}, 200), &info)
	if info.ModelInfo != nil {
		t.Fatalf("an unknown model has model info: %+v", info.ModelInfo)
	}
	custom := map[string]any{"engine": "openai_compatible", "display_name": "My LLM", "api_url": "http://127.0.0.1:1/v1", "api_key": "sk-custom", "models": []string{"m1", "m2"}}
	var created struct {
		ProviderName string `json:"provider_name"`
	}
	json.Unmarshal(call("POST", "/config/custom-providers", "/config/custom-providers", custom, 200), &created)
	if created.ProviderName != "custom_my_llm" {
		t.Fatalf("custom provider id %q", created.ProviderName)
	}
	json.Unmarshal(call("POST", "/config/custom-providers", "/config/custom-providers", custom, 200), &created)
	if created.ProviderName != "custom_my_llm_1" {
		t.Fatalf("second custom provider id %q", created.ProviderName)
	}
	call("POST", "/config/custom-providers", "/config/custom-providers", map[string]any{"engine": "nope", "display_name": "x", "api_url": "u", "api_key": "", "models": []string{}}, 400)
	call("GET", "/config/custom-providers/custom_my_llm", "/config/custom-providers/{id}", nil, 200)
	custom["models"] = []string{"m3"}
	call("PUT", "/config/custom-providers/custom_my_llm", "/config/custom-providers/{id}", custom, 200)
	call("PUT", "/config/custom-providers/custom_nope", "/config/custom-providers/{id}", custom, 404)
	call("DELETE", "/config/custom-providers/custom_my_llm_1", "/config/custom-providers/{id}", nil, 200)
	call("DELETE", "/config/custom-providers/custom_my_llm_1", "/config/custom-providers/{id}", nil, 404)
	call("GET", "/config/custom-providers/custom_my_llm_1", "/config/custom-providers/{id}", nil, 404)
	var loaded struct {
		Config struct {
			APIKeyEnv string `json:"api_key_env"`
			Engine    string `json:"engine"`
			Models    []struct {
				Name         string `json:"name"`
				ContextLimit int    `json:"context_limit"`
			} `json:"models"`
		} `json:"config"`
		IsEditable bool `json:"is_editable"`
	}
	json.Unmarshal(call("GET", "/config/custom-providers/custom_my_llm", "/config/custom-providers/{id}", nil, 200), &loaded)
	if loaded.Config.APIKeyEnv != "CUSTOM_MY_LLM_API_KEY" || loaded.Config.Engine != "openai" || len(loaded.Config.Models) != 1 ||
		loaded.Config.Models[0].ContextLimit != DefaultCustomContextLimit || !loaded.IsEditable {
		t.Fatalf("custom provider %+v", loaded)
	}
	if v, err := e.cfg.GetSecret("CUSTOM_MY_LLM_API_KEY"); err != nil || v != "sk-custom" {
		t.Fatalf("custom provider key %v %v", v, err)
	}

	// Recipes and schedules.
	recipeBody := json.RawMessage(testRecipeJSON)
	call("POST", "/recipes/parse", "/recipes/parse", map[string]any{"content": "title: T\ndescription: D\nprompt: P\n"}, 200)
	call("POST", "/recipes/parse", "/recipes/parse", map[string]any{"content": "title: ["}, 400)
	var link struct{ Deeplink string }
	json.Unmarshal(call("POST", "/recipes/encode", "/recipes/encode", map[string]any{"recipe": recipeBody}, 200), &link)
	call("POST", "/recipes/decode", "/recipes/decode", map[string]any{"deeplink": link.Deeplink}, 200)
	call("POST", "/recipes/decode", "/recipes/decode", map[string]any{"deeplink": "%%%"}, 400)
	call("POST", "/recipes/to-yaml", "/recipes/to-yaml", map[string]any{"recipe": recipeBody}, 200)
	call("POST", "/recipes/scan", "/recipes/scan", map[string]any{"recipe": recipeBody}, 200)
	// 204 carries no body on the wire; the id comes from the list.
	call("POST", "/recipes/save", "/recipes/save", map[string]any{"recipe": recipeBody}, 204)
	var list struct {
		Manifests []struct {
			ID       string `json:"id"`
			FilePath string `json:"file_path"`
		} `json:"manifests"`
	}
	json.Unmarshal(call("GET", "/recipes/list", "/recipes/list", nil, 200), &list)
	if len(list.Manifests) != 1 || filepath.Base(list.Manifests[0].FilePath) != "daily-report.yaml" {
		t.Fatalf("recipes %+v", list)
	}
	saved := list.Manifests[0]
	call("POST", "/recipes/slash-command", "/recipes/slash-command", map[string]any{"id": saved.ID, "slash_command": "daily"}, 200)
	call("POST", "/recipes/schedule", "/recipes/schedule", map[string]any{"id": saved.ID, "cron_schedule": "0 0 9 * * *"}, 200)
	call("POST", "/recipes/schedule", "/recipes/schedule", map[string]any{"id": "0000000000000000", "cron_schedule": "0 0 9 * * *"}, 404)
	call("POST", "/schedule/create", "/schedule/create", map[string]any{"id": "nightly", "recipe": recipeBody, "cron": "0 0 2 * * *"}, 200)
	call("POST", "/schedule/create", "/schedule/create", map[string]any{"id": "nightly", "recipe": recipeBody, "cron": "0 0 2 * * *"}, 409)
	call("GET", "/schedule/list", "/schedule/list", nil, 200)
	call("PUT", "/schedule/nightly", "/schedule/{id}", map[string]any{"cron": "0 0 3 * * *"}, 200)
	call("POST", "/schedule/nightly/pause", "/schedule/{id}/pause", nil, 204)
	call("POST", "/schedule/nightly/unpause", "/schedule/{id}/unpause", nil, 204)
	var run struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(call("POST", "/schedule/nightly/run_now", "/schedule/{id}/run_now", nil, 200), &run)
	call("GET", "/schedule/nightly/inspect", "/schedule/{id}/inspect", nil, 200)
	call("GET", "/schedule/nightly/sessions?limit=5", "/schedule/{id}/sessions", nil, 200)
	call("POST", "/schedule/nightly/kill", "/schedule/{id}/kill", nil, 400) // not running
	call("DELETE", "/schedule/delete/nightly", "/schedule/delete/{id}", nil, 204)
	call("DELETE", "/schedule/delete/nightly", "/schedule/delete/{id}", nil, 404)
	call("POST", "/recipes/delete", "/recipes/delete", map[string]any{"id": saved.ID}, 204)
	call("POST", "/recipes/delete", "/recipes/delete", map[string]any{"id": saved.ID}, 404)
	// A recipe session: start from a deeplink, then fill its parameter.
	var rs struct {
		ID     string          `json:"id"`
		Recipe json.RawMessage `json:"recipe"`
	}
	json.Unmarshal(call("POST", "/agent/start", "/agent/start", map[string]any{"working_dir": e.root, "recipe_deeplink": link.Deeplink}, 200), &rs)
	if !strings.Contains(string(rs.Recipe), `"title":"Daily Report"`) {
		t.Fatalf("recipe session %s", rs.Recipe)
	}
	var rendered struct {
		Recipe struct {
			Instructions string `json:"instructions"`
		} `json:"recipe"`
	}
	json.Unmarshal(call("PUT", "/sessions/"+rs.ID+"/user_recipe_values", "/sessions/{session_id}/user_recipe_values", map[string]any{"userRecipeValues": map[string]string{"topic": "rust"}}, 200), &rendered)
	if rendered.Recipe.Instructions != "Summarise rust" {
		t.Fatalf("rendered instructions %q", rendered.Recipe.Instructions)
	}
	call("POST", "/agent/update_from_session", "/agent/update_from_session", map[string]any{"session_id": rs.ID}, 200)
	call("PUT", "/sessions/"+id+"/user_recipe_values", "/sessions/{session_id}/user_recipe_values", map[string]any{"userRecipeValues": map[string]string{}}, 404)
	call("DELETE", "/sessions/"+id, "/sessions/{session_id}", nil, 200)

	// Prompt templates: list, override, read back, reset.
	call("GET", "/config/prompts", "/config/prompts", nil, 200)
	call("PUT", "/config/prompts/recipe.md", "/config/prompts/{name}", map[string]any{"content": "Make it short."}, 200)
	var pc struct {
		Content      string `json:"content"`
		IsCustomized bool   `json:"is_customized"`
	}
	json.Unmarshal(call("GET", "/config/prompts/recipe.md", "/config/prompts/{name}", nil, 200), &pc)
	if pc.Content != "Make it short." || !pc.IsCustomized {
		t.Fatalf("prompt = %+v", pc)
	}
	call("PUT", "/config/prompts/nope.md", "/config/prompts/{name}", map[string]any{"content": "x"}, 404)
	call("GET", "/config/prompts/nope.md", "/config/prompts/{name}", nil, 404)
	call("DELETE", "/config/prompts/recipe.md", "/config/prompts/{name}", nil, 200)
	call("DELETE", "/config/prompts/nope.md", "/config/prompts/{name}", nil, 404)

	// A recipe from the (still loaded) chat session.
	ns := e.startSession()
	call("POST", "/recipes/create", "/recipes/create", map[string]any{"session_id": ns, "author": map[string]any{"contact": "bob"}}, 200)
	call("POST", "/recipes/create", "/recipes/create", map[string]any{"session_id": "20990101_1"}, 412)

	// Every implemented spec route was exercised.
	for _, r := range e.srv.routes() {
		if isUnavailable(r.method, r.path) || r.path == "/acp" { // /acp is not a goosed route
			continue
		}
		if !ct.seen[r.method+" "+r.path] {
			t.Errorf("route %s %s has no contract check", r.method, r.path)
		}
	}
}

func isUnavailable(method, path string) bool {
	for _, u := range Unavailable {
		if u.Method == method && u.Path == path {
			return true
		}
	}
	return false
}

// TestNotificationEvent: an MCP notification during a tool call reaches
// the events stream with the tool call's request_id, the turn's
// chat_request_id, and matches MessageEvent.
func TestNotificationEvent(t *testing.T) {
	ct := loadContract(t)
	e := newTestEnv(t, "auto", callTool("call_n", "tt__notify"), say("done"))
	id := e.startSession()
	events := e.openEvents(id, "")
	rid := e.submit(id, "notify")
	var got map[string]any
	for {
		f, ev := events.nextEvent(t)
		ct.validateEvent(t, f.Data)
		if ev["type"] == "Notification" {
			got = ev
		}
		if ev["type"] == "Finish" {
			break
		}
	}
	if got == nil {
		t.Fatal("no Notification event")
	}
	msg, _ := got["message"].(map[string]any)
	if got["request_id"] != "call_n" || got["chat_request_id"] != rid || msg["method"] != "notifications/progress" {
		t.Fatalf("notification %v", got)
	}
}

// TestEverySpecRouteIsMounted: each operation of the spec is implemented
// or answers the "not available" error.
func TestEverySpecRouteIsMounted(t *testing.T) {
	ct := loadContract(t)
	e := newTestEnv(t, "auto")
	mounted := map[string]bool{}
	for _, r := range e.srv.routes() {
		mounted[r.method+" "+r.path] = true
	}
	n := 0
	for path, item := range ct.spec["paths"].(map[string]any) {
		for method := range item.(map[string]any) {
			n++
			if key := strings.ToUpper(method) + " " + path; !mounted[key] {
				t.Errorf("%s is neither implemented nor marked unavailable", key)
			}
		}
	}
	if n != 109 {
		t.Fatalf("spec has %d operations, want 109 (1.33)", n)
	}
}
