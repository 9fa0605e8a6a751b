package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Goose Desktop 1.44's own requests (goose d17d65f2, ui/desktop/src/acp/*),
// answered so that 1.44's and 1.5x's generated Zod both accept them. One
// test per defect of the issue "Goose Desktop as users run it".

var desktopRecipe = map[string]any{"version": "1.0.0", "title": "Desktop Recipe", "description": "made by Desktop",
	"instructions": "Be brief", "prompt": "say hi"}

// ConfigContext.tsx:162-167 parses providers/list with
// zProviderInventoryEntryDto, whose category is required in 1.44: without
// it the provider settings, the model switcher and onboarding are empty.
func TestDesktopProvidersListCategory(t *testing.T) {
	env := newAgentEnv(t)
	r := runDesktop(t, env, desktopScript{ClientVersion: "1.44.0", Steps: []desktopStep{
		dext("all", "providers/list", map[string]any{}),
		dext("openai", "providers/list", map[string]any{"providerIds": []string{"openai"}}),
	}})
	for _, name := range []string{"all", "openai"} {
		var res struct {
			Entries []map[string]any `json:"entries"`
		}
		r.decode(name, &res)
		if len(res.Entries) == 0 {
			t.Fatalf("%s: no providers", name)
		}
		for _, e := range res.Entries {
			if e["category"] != "model" {
				t.Errorf("%s: %v has category %v, want \"model\"", name, e["providerId"], e["category"])
			}
		}
	}
}

// Desktop 1.44 spawns serve without --enable-scheduler (gooseServe.ts):
// the Schedules page, "schedule this recipe" and the scheduler itself must
// work all the same.
func TestDesktopSchedulesWithoutEnableScheduler(t *testing.T) {
	env := newAgentEnv(t, textTurn("scheduled hello"))
	r := runDesktop(t, env, desktopScript{ClientVersion: "1.44.0", Steps: []desktopStep{
		dext("list0", "schedules/list", map[string]any{}),
		dext("saved", "recipes/save", map[string]any{"recipe": desktopRecipe}),
		dext("scheduleRecipe", "recipes/schedule", map[string]any{"id": "${saved.id}", "cron_schedule": "0 0 * * *"}),
		dext("create", "schedules/create", map[string]any{"id": "desk-job", "recipe": desktopRecipe, "cron": "0 0 * * *"}),
		dext("list", "schedules/list", map[string]any{}),
		dext("delete", "schedules/delete", map[string]any{"scheduleId": "desk-job"}),
		// The scheduler runs: a job due every second gets a session.
		dext("tick", "schedules/create", map[string]any{"id": "desk-tick", "recipe": desktopRecipe, "cron": "* * * * * *"}),
		withUntil(dext("ran", "schedules/sessions/list", map[string]any{"scheduleId": "desk-tick", "limit": 5}), "sessions"),
		dext("pause", "schedules/pause", map[string]any{"scheduleId": "desk-tick"}),
	}})
	var list struct {
		Jobs []struct {
			ID   string `json:"id"`
			Cron string `json:"cron"`
		} `json:"jobs"`
	}
	r.decode("list0", &list)
	r.ok("scheduleRecipe")
	r.ok("create")
	r.decode("list", &list)
	found := false
	for _, j := range list.Jobs {
		found = found || (j.ID == "desk-job" && j.Cron == "0 0 * * *")
	}
	if !found {
		t.Errorf("schedules/list after create: %s", r.ok("list"))
	}
	r.ok("delete")
	var ran struct {
		Sessions []map[string]any `json:"sessions"`
	}
	r.decode("ran", &ran)
	if len(ran.Sessions) == 0 {
		t.Errorf("the every-second job never ran: %s", r.ok("ran"))
	}
	if b, err := os.ReadFile(filepath.Join(env.Root, "data", "schedules.json")); err != nil || strings.Contains(string(b), "desk-job") {
		t.Errorf("schedules.json after delete: %s %v", b, err)
	}
}

// autocomplete.ts:30-35 keeps only items whose _meta.commandType is
// Builtin, Recipe or Skill (Recipe items show _meta.sourcePath).
func TestDesktopSlashCommandsCarryCommandType(t *testing.T) {
	env := newAgentEnv(t)
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	r := runDesktop(t, env, desktopScript{ClientVersion: "1.44.0", Steps: []desktopStep{
		dext("saved", "recipes/save", map[string]any{"recipe": desktopRecipe}),
		dext("slash", "recipes/slash-command", map[string]any{"id": "${saved.id}", "slash_command": "deskrecipe"}),
		dext("list", "slash-commands/list", map[string]any{"cwd": work}),
	}})
	var saved struct {
		FilePath string `json:"file_path"`
	}
	r.decode("saved", &saved)
	var list struct {
		AvailableCommands []struct {
			Name string            `json:"name"`
			Meta map[string]string `json:"_meta"`
		} `json:"availableCommands"`
	}
	r.decode("list", &list)
	byName := map[string]map[string]string{}
	for _, c := range list.AvailableCommands {
		byName[c.Name] = c.Meta
	}
	if got := djson(t, byName["compact"]); got != `{"commandType":"Builtin"}` {
		t.Errorf("compact _meta %s", got)
	}
	if got, want := djson(t, byName["deskrecipe"]), djson(t, map[string]string{"commandType": "Recipe", "sourcePath": saved.FilePath}); got != want {
		t.Errorf("deskrecipe _meta %s, want %s (all: %s)", got, want, r.ok("list"))
	}
	for name, m := range byName {
		if m["commandType"] == "" {
			t.Errorf("%s has no _meta.commandType", name)
		}
	}
}

// sessions.ts:65-73 and chatSessionController.ts:109-116 read the
// session/new and session/load results' _meta: the recipe a chat started
// from (its header, prompt and activities), the extension load results
// (the toast of an extension that failed) and the working dir.
func TestDesktopSessionResultsCarryRecipeAndExtensionResults(t *testing.T) {
	env := newAgentEnv(t)
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	r := runDesktop(t, env, desktopScript{ClientVersion: "1.44.0", Steps: []desktopStep{
		dext("saved", "recipes/save", map[string]any{"recipe": desktopRecipe}),
		dcall("new", "session/new", map[string]any{"cwd": work, "mcpServers": []any{},
			"_meta": map[string]any{"client": "goose-desktop", "recipeId": "${saved.id}"}}),
		dcall("broken", "session/new", map[string]any{"cwd": work, "mcpServers": []any{},
			"_meta": map[string]any{"client": "goose-desktop", "enabledExtensions": []any{
				map[string]any{"type": "mcp", "server": map[string]any{"name": "broken", "command": "/nonexistent/mcp-server", "args": []any{}, "env": []any{}}},
			}}}),
		dreconnect(),
		dcall("load", "session/load", map[string]any{"sessionId": "${new.sessionId}", "cwd": work, "mcpServers": []any{}}),
	}})
	for _, name := range []string{"new", "load"} {
		var res struct {
			Meta struct {
				Recipe           map[string]any   `json:"recipe"`
				ExtensionResults []map[string]any `json:"extensionResults"`
				WorkingDir       string           `json:"workingDir"`
			} `json:"_meta"`
		}
		r.decode(name, &res)
		if res.Meta.Recipe["title"] != "Desktop Recipe" || res.Meta.Recipe["prompt"] != "say hi" {
			t.Errorf("%s _meta.recipe = %v", name, res.Meta.Recipe)
		}
		if res.Meta.WorkingDir != work {
			t.Errorf("%s _meta.workingDir = %q, want %q", name, res.Meta.WorkingDir, work)
		}
		if res.Meta.ExtensionResults == nil {
			t.Errorf("%s has no _meta.extensionResults: %s", name, r.ok(name))
		}
	}
	var broken struct {
		Meta struct {
			ExtensionResults []struct {
				Name    string  `json:"name"`
				Success bool    `json:"success"`
				Error   *string `json:"error"`
			} `json:"extensionResults"`
		} `json:"_meta"`
	}
	r.decode("broken", &broken)
	if got := broken.Meta.ExtensionResults; len(got) != 1 || got[0].Name != "broken" || got[0].Success || got[0].Error == nil || *got[0].Error == "" {
		t.Errorf("extensionResults of a chat whose only extension cannot start: %s", r.ok("broken"))
	}
}

// session-extensions.ts: 1.44 parses session/extensions/list items as
// plain GooseExtension objects (zod.gen.ts:723), 1.5x as {extension,
// extensionKey}; 1.44 removes by {sessionId, name}.
func TestDesktopSessionExtensionsBothVersions(t *testing.T) {
	env := newAgentEnv(t)
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	todo := map[string]any{"type": "platform", "name": "todo", "description": "todo", "bundled": true}
	r := runDesktop(t, env, desktopScript{ClientVersion: "1.44.0", Steps: []desktopStep{
		dcall("new", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}}),
		dext("list", "session/extensions/list", map[string]any{"sessionId": "${new.sessionId}"}),
		dext("add", "session/extensions/add", map[string]any{"sessionId": "${new.sessionId}", "extension": todo}),
		dext("remove144", "session/extensions/remove", map[string]any{"sessionId": "${new.sessionId}", "name": "todo"}),
		dext("after", "session/extensions/list", map[string]any{"sessionId": "${new.sessionId}"}),
		dext("remove15x", "session/extensions/remove", map[string]any{"sessionId": "${new.sessionId}", "extensionKey": "developer"}),
		dext("unknown", "session/extensions/remove", map[string]any{"sessionId": "${new.sessionId}", "name": "nope"}),
	}})
	var list struct {
		Extensions []map[string]any `json:"extensions"`
	}
	r.decode("list", &list)
	var dev map[string]any
	for _, e := range list.Extensions {
		if e["name"] == "developer" {
			dev = e
		}
	}
	if dev == nil {
		t.Fatalf("no developer entry with top-level fields: %s", r.ok("list"))
	}
	inner, _ := dev["extension"].(map[string]any)
	if dev["type"] == nil || dev["type"] != inner["type"] || dev["extensionKey"] != "developer" || inner["name"] != "developer" {
		t.Errorf("developer entry %s", djson(t, dev))
	}
	r.ok("add")
	r.ok("remove144")
	r.decode("after", &list)
	for _, e := range list.Extensions {
		if e["name"] == "todo" {
			t.Errorf("todo still listed after remove by name: %s", r.ok("after"))
		}
	}
	r.ok("remove15x")
	if e := r.fail("unknown"); e.Code != -32602 || !strings.Contains(string(e.Data), "nope") {
		t.Errorf("removing an unknown extension: %+v", e)
	}
}

// mcp-apps.ts:137-145: 1.44 calls tools/call with {sessionId, name:
// "<extension>__<tool>", arguments}, no extensionName.
func TestDesktopToolsCallWithoutExtensionName(t *testing.T) {
	env := newAgentEnv(t)
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	r := runDesktop(t, env, desktopScript{ClientVersion: "1.44.0", Steps: []desktopStep{
		dcall("new", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}}),
		dext("tools", "tools/list", map[string]any{"sessionId": "${new.sessionId}"}),
		dext("call144", "tools/call", map[string]any{"sessionId": "${new.sessionId}", "name": "extensionmanager__search_available_extensions",
			"arguments": map[string]any{}}),
		dext("call15x", "tools/call", map[string]any{"sessionId": "${new.sessionId}", "extensionName": "extensionmanager", "name": "search_available_extensions",
			"arguments": map[string]any{}}),
		dext("bad", "tools/call", map[string]any{"sessionId": "${new.sessionId}", "name": "no_such_tool", "arguments": map[string]any{}}),
		// 1.44 prefixes a first-class extension's tool too (goose 1.54
		// made it bare: shell).
		dext("shell144", "tools/call", map[string]any{"sessionId": "${new.sessionId}", "name": "developer__shell",
			"arguments": map[string]any{"command": "echo from-desktop"}}),
	}})
	for _, name := range []string{"call144", "call15x", "shell144"} {
		var res struct {
			IsError bool `json:"isError"`
		}
		r.decode(name, &res)
		if res.IsError {
			t.Errorf("%s: %s", name, r.ok(name))
		}
	}
	if e := r.fail("bad"); e.Code != -32602 {
		t.Errorf("unknown tool: %+v", e)
	}
	if got := string(r.ok("shell144")); !strings.Contains(got, "from-desktop") {
		t.Errorf("developer__shell from Desktop 1.44: %s", got)
	}
}

// Right after session/new Desktop reads session/info (sessions.ts:236) and
// shows the provider and model it reports.
func TestDesktopSessionInfoHasProviderAndModelAtOnce(t *testing.T) {
	env := newAgentEnv(t)
	work := t.TempDir()
	env.Vars["WORKDIR"] = work
	r := runDesktop(t, env, desktopScript{ClientVersion: "1.44.0", Steps: []desktopStep{
		dcall("new", "session/new", map[string]any{"cwd": work, "mcpServers": []any{}, "_meta": map[string]any{"client": "goose-desktop"}}),
		dext("info", "session/info", map[string]any{"sessionId": "${new.sessionId}"}),
	}})
	var info struct {
		Session struct {
			Meta map[string]any `json:"_meta"`
		} `json:"session"`
	}
	r.decode("info", &info)
	if info.Session.Meta["providerId"] != "openai" || info.Session.Meta["modelId"] != "gpt-4o" {
		t.Errorf("session/info right after session/new: %s", r.ok("info"))
	}
}

// jsonEq compares two JSON documents semantically.
func jsonEq(t *testing.T, got json.RawMessage, want string) bool {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatalf("%v: %s", err, want)
	}
	return djson(t, a) == djson(t, b)
}

// ProviderCatalogPicker.tsx lists providers/catalog/list by format and
// fills the custom-provider form from providers/catalog/template.
func TestDesktopProviderCatalogAndTemplates(t *testing.T) {
	env := newAgentEnv(t)
	r := runDesktop(t, env, desktopScript{ClientVersion: "1.44.0", Steps: []desktopStep{
		dext("all", "providers/catalog/list", map[string]any{}),
		dext("openai", "providers/catalog/list", map[string]any{"format": "openai"}),
		dext("anthropic", "providers/catalog/list", map[string]any{"format": "anthropic"}),
		dext("template", "providers/catalog/template", map[string]any{"providerId": "zai"}),
		dext("builtin", "providers/catalog/template", map[string]any{"providerId": "openai"}),
		dext("badFormat", "providers/catalog/list", map[string]any{"format": "grpc"}),
	}})
	type entry struct {
		ProviderID string `json:"providerId"`
		Format     string `json:"format"`
		ModelCount int    `json:"modelCount"`
	}
	var all, openai, anthropic struct {
		Providers []entry `json:"providers"`
	}
	r.decode("all", &all)
	r.decode("openai", &openai)
	r.decode("anthropic", &anthropic)
	if len(openai.Providers) == 0 || len(anthropic.Providers) == 0 || len(all.Providers) != len(openai.Providers)+len(anthropic.Providers) {
		t.Fatalf("catalog: all %d, openai %d, anthropic %d", len(all.Providers), len(openai.Providers), len(anthropic.Providers))
	}
	for _, e := range all.Providers {
		if e.ProviderID == "openai" || e.ProviderID == "anthropic" || e.ModelCount == 0 {
			t.Errorf("catalog entry %+v", e)
		}
	}
	want := `{"template":{"providerId":"zai","name":"Z.AI","format":"openai","apiUrl":"https://api.z.ai/api/paas/v4",
		"models":[{"id":"glm-4.5","name":"GLM-4.5","contextLimit":131072,"capabilities":{"toolCall":true,"reasoning":true,"attachment":false,"temperature":true},"deprecated":false},
		{"id":"glm-4.5-air","name":"GLM-4.5-Air","contextLimit":131072,"capabilities":{"toolCall":true,"reasoning":true,"attachment":false,"temperature":true},"deprecated":false},
		{"id":"glm-4.6","name":"GLM-4.6","contextLimit":204800,"capabilities":{"toolCall":true,"reasoning":true,"attachment":false,"temperature":true},"deprecated":false}],
		"supportsStreaming":true,"envVar":"ZHIPU_API_KEY","docUrl":"https://docs.z.ai/guides/overview/pricing"}}`
	if got := r.ok("template"); !jsonEq(t, got, want) {
		t.Errorf("template = %s", got)
	}
	if e := r.fail("builtin"); e.Code != -32602 || string(e.Data) != `"Unknown catalog provider: openai"` {
		t.Errorf("template of a built-in provider: %+v", e)
	}
	if e := r.fail("badFormat"); e.Code != -32602 || string(e.Data) != `"unknown provider format: grpc"` {
		t.Errorf("unknown format: %+v", e)
	}
}

// utils/canonical.ts and CostTracker.tsx: the token meter's context limit
// and the cost of a reply come from providers/canonical-model-info.
func TestDesktopCanonicalModelInfo(t *testing.T) {
	env := newAgentEnv(t)
	r := runDesktop(t, env, desktopScript{ClientVersion: "1.44.0", Steps: []desktopStep{
		dext("mini", "providers/canonical-model-info", map[string]any{"provider": "openai", "model": "gpt-4o-mini"}),
		dext("sonnet", "providers/canonical-model-info", map[string]any{"provider": "anthropic", "model": "claude-sonnet-4-5-20250929"}),
		dext("unknown", "providers/canonical-model-info", map[string]any{"provider": "openai", "model": "my-own-finetune"}),
	}})
	if got := r.ok("mini"); !jsonEq(t, got, `{"modelInfo":{"provider":"openai","model":"gpt-4o-mini","contextLimit":128000,
		"maxOutputTokens":16384,"reasoning":false,"inputTokenCost":0.15,"outputTokenCost":0.6,"cacheReadTokenCost":0.075,"currency":"$"}}`) {
		t.Errorf("gpt-4o-mini: %s", got)
	}
	if got := r.ok("sonnet"); !jsonEq(t, got, `{"modelInfo":{"provider":"anthropic","model":"claude-sonnet-4-5-20250929","contextLimit":1000000,
		"maxOutputTokens":64000,"reasoning":true,"inputTokenCost":3,"outputTokenCost":15,"cacheReadTokenCost":0.3,"cacheWriteTokenCost":3.75,"currency":"$"}}`) {
		t.Errorf("claude-sonnet-4-5: %s", got)
	}
	if got := r.ok("unknown"); !jsonEq(t, got, `{"modelInfo":null}`) {
		t.Errorf("unknown model: %s", got)
	}
}
