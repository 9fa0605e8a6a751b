package acp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/goose-acp/goose-acp/core/setup"
)

// modelServer is an OpenAI-compatible /v1/models endpoint.
func modelServer(t *testing.T, ids ...string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if !strings.HasSuffix(r.URL.Path, "/models") {
			http.NotFound(w, r)
			return
		}
		data := []map[string]string{}
		for _, id := range ids {
			data = append(data, map[string]string{"id": id, "object": "model"})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func (h *settingsHome) serveWithSetup(t *testing.T) (*lineClient, *setup.Setup) {
	st := setup.New(setup.Options{Config: h.cfg})
	return serveLines(t, Options{Settings: Settings{Config: h.cfg, Setup: st}}), st
}

type listedEntry struct {
	ProviderID string `json:"providerId"`
	Configured bool   `json:"configured"`
	Models     []struct {
		ID string `json:"id"`
	} `json:"models"`
	LastUpdatedAt *string `json:"lastUpdatedAt"`
	Stale         bool    `json:"stale"`
}

func listEntry(t *testing.T, c *lineClient, id int, provider string) listedEntry {
	t.Helper()
	var list struct {
		Entries []listedEntry `json:"entries"`
	}
	raw := c.callUnstable(t, id, "_goose/unstable/providers/list", map[string]any{"providerIds": []string{provider}})
	if err := json.Unmarshal(raw, &list); err != nil || len(list.Entries) != 1 {
		t.Fatalf("providers/list %s = %s (%v)", provider, raw, err)
	}
	return list.Entries[0]
}

// goose's publish check: read-only provider methods on a fresh install
// answer valid shapes.
func TestUnstableProvidersFreshInstall(t *testing.T) {
	h := newSettingsHome(t, "")
	c := h.serve(t)
	raw := c.callUnstable(t, 1, "_goose/unstable/providers/list", map[string]any{"providerIds": []string{}})
	var list struct {
		Entries []listedEntry `json:"entries"`
	}
	if err := json.Unmarshal(raw, &list); err != nil || len(list.Entries) < 5 {
		t.Fatalf("providers/list = %s", raw)
	}
	for _, e := range list.Entries {
		if e.Configured || e.Stale {
			t.Errorf("%s is configured or stale on a fresh install", e.ProviderID)
		}
	}
	c.callUnstable(t, 2, "_goose/unstable/providers/setup/catalog/list", map[string]any{})
	c.callUnstable(t, 3, "_goose/unstable/providers/catalog/list", map[string]any{})
	c.callUnstable(t, 4, "_goose/unstable/providers/config/status", map[string]any{"providerIds": []string{"openai", "anthropic"}})
	c.callUnstable(t, 5, "_goose/unstable/providers/secrets/list", map[string]any{})
	c.callUnstable(t, 6, "_goose/unstable/providers/canonical-model-info", map[string]any{"provider": "openai", "model": "gpt-4o"})
	got := c.callUnstable(t, 7, "_goose/unstable/providers/inventory/refresh", map[string]any{"providerIds": []string{"openai", "nope"}})
	if !jsonEqual(string(got), `{"started":[],"skipped":[{"providerId":"openai","reason":"not_configured"},{"providerId":"nope","reason":"unknown_provider"}]}`) {
		t.Errorf("refresh on a fresh install = %s", got)
	}
	r := c.callRaw(t, 8, "_goose/unstable/providers/readiness/check", map[string]any{"providerId": "openai"})
	if r.Error == nil || string(r.Error.Data) != `"Provider is not an ACP provider: openai"` {
		t.Errorf("readiness/check: %+v", r)
	}
	r = c.callRaw(t, 9, "_goose/unstable/providers/config/authenticate", map[string]any{"providerId": "openai"})
	if r.Error == nil || string(r.Error.Data) != `"Provider does not support native authentication: openai"` {
		t.Errorf("authenticate: %+v", r)
	}
}

func TestUnstableProviderConfigOnDisk(t *testing.T) {
	srv, _ := modelServer(t, "gpt-test-1", "gpt-test-2")
	h := newSettingsHome(t, "GOOSE_MODE: auto\n")
	c, st := h.serveWithSetup(t)
	got := c.callUnstable(t, 1, "_goose/unstable/providers/config/save", map[string]any{"providerId": "openai",
		"fields": []map[string]string{{"key": "OPENAI_HOST", "value": srv.URL}, {"key": "OPENAI_API_KEY", "value": " sk-abcdefghijk "}}})
	if !jsonEqual(string(got), `{"status":{"providerId":"openai","isConfigured":true},"refresh":{"started":["openai"],"skipped":[]}}`) {
		t.Errorf("save = %s", got)
	}
	if cfg := h.yamlFile(t, "config.yaml"); cfg["OPENAI_HOST"] != srv.URL || cfg["OPENAI_API_KEY"] != nil || cfg["GOOSE_MODE"] != "auto" {
		t.Errorf("config.yaml: %v", cfg)
	}
	if sec := h.yamlFile(t, "secrets.yaml"); sec["OPENAI_API_KEY"] != "sk-abcdefghijk" {
		t.Errorf("secrets.yaml: %v", sec)
	}
	st.WaitRefreshes()
	e := listEntry(t, c, 2, "openai")
	if !e.Configured || e.Stale || e.LastUpdatedAt == nil || len(e.Models) != 2 || e.Models[0].ID != "gpt-test-1" {
		t.Errorf("openai after refresh: %+v", e)
	}
	got = c.callUnstable(t, 3, "_goose/unstable/providers/supported-models/list", map[string]any{"providerId": "openai"})
	if !jsonEqual(string(got), `{"providerId":"openai","models":["gpt-test-1","gpt-test-2"]}`) {
		t.Errorf("supported-models = %s", got)
	}
	var read struct {
		Fields []fieldValueWire `json:"fields"`
	}
	if err := json.Unmarshal(c.callUnstable(t, 4, "_goose/unstable/providers/config/read", map[string]any{"providerId": "openai"}), &read); err != nil {
		t.Fatal(err)
	}
	for _, f := range read.Fields {
		switch f.Key {
		case "OPENAI_API_KEY":
			if !f.IsSet || !f.IsSecret || f.Value == nil || *f.Value != "sk-a..." {
				t.Errorf("secret field: %+v", f)
			}
		case "OPENAI_HOST":
			if !f.IsSet || f.Value == nil || *f.Value != srv.URL {
				t.Errorf("host field: %+v", f)
			}
		}
	}
	got = c.callUnstable(t, 5, "_goose/unstable/providers/secrets/list", map[string]any{})
	if !strings.Contains(string(got), `"id":"secret_store:openai:OPENAI_API_KEY"`) {
		t.Errorf("secrets/list = %s", got)
	}
	r := c.callRaw(t, 6, "_goose/unstable/providers/config/save", map[string]any{"providerId": "openai",
		"fields": []map[string]string{{"key": "OPENAI_HOST", "value": "http://elsewhere"}, {"key": "NOT_OPENAI", "value": "x"}}})
	if r.Error == nil || r.Error.Code != -32602 || string(r.Error.Data) != `"Unsupported provider config field: NOT_OPENAI"` {
		t.Errorf("unknown field: %+v", r)
	}
	if cfg := h.yamlFile(t, "config.yaml"); cfg["OPENAI_HOST"] != srv.URL {
		t.Errorf("a refused save changed config.yaml: %v", cfg)
	}
	c.callUnstable(t, 7, "_goose/unstable/providers/secrets/delete", map[string]any{"id": "secret_store:openai:OPENAI_API_KEY"})
	if sec := h.yamlFile(t, "secrets.yaml"); sec["OPENAI_API_KEY"] != nil {
		t.Errorf("secret still stored: %v", sec)
	}
	r = c.callRaw(t, 8, "_goose/unstable/providers/secrets/delete", map[string]any{"id": "secret_store:openai:GOOSE_MODE"})
	if r.Error == nil || r.Error.Code != -32602 || string(r.Error.Data) != `"Invalid provider secret id: 'secret_store:openai:GOOSE_MODE'"` {
		t.Errorf("bad secret id: %+v", r)
	}
	got = c.callUnstable(t, 9, "_goose/unstable/providers/config/delete", map[string]any{"providerId": "openai"})
	if !jsonEqual(string(got), `{"status":{"providerId":"openai","isConfigured":false},"refresh":{"started":[],"skipped":[{"providerId":"openai","reason":"not_configured"}]}}`) {
		t.Errorf("delete = %s", got)
	}
	if cfg := h.yamlFile(t, "config.yaml"); cfg["OPENAI_HOST"] != nil || cfg["GOOSE_MODE"] != "auto" {
		t.Errorf("config.yaml after delete: %v", cfg)
	}
}

func TestUnstableCustomProvidersOnDisk(t *testing.T) {
	srv, _ := modelServer(t, "local-7b")
	h := newSettingsHome(t, "")
	c, st := h.serveWithSetup(t)
	create := map[string]any{"engine": "openai_compatible", "displayName": "My LLM", "apiUrl": srv.URL, "apiKey": "key-123456789",
		"models": []string{" local-7b ", ""}, "headers": map[string]string{"X-Team": "core"}, "requiresAuth": true, "toolshim": false}
	got := c.callUnstable(t, 1, "_goose/unstable/providers/custom/create", create)
	if !jsonEqual(string(got), `{"providerId":"custom_my_llm","status":{"providerId":"custom_my_llm","isConfigured":true},"refresh":{"started":["custom_my_llm"],"skipped":[]}}`) {
		t.Errorf("create = %s", got)
	}
	st.WaitRefreshes()
	file := filepath.Join(h.paths.Config, "custom_providers", "custom_my_llm.json")
	var onDisk map[string]any
	if b, err := os.ReadFile(file); err != nil || json.Unmarshal(b, &onDisk) != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if onDisk["engine"] != "openai" || onDisk["base_url"] != srv.URL || onDisk["api_key_env"] != "CUSTOM_MY_LLM_API_KEY" ||
		!jsonEqual(toJSONString(t, onDisk["headers"]), `{"X-Team":"core"}`) || !strings.Contains(toJSONString(t, onDisk["models"]), `"local-7b"`) {
		t.Errorf("custom provider file: %v", onDisk)
	}
	if sec := h.yamlFile(t, "secrets.yaml"); sec["CUSTOM_MY_LLM_API_KEY"] != "key-123456789" {
		t.Errorf("secrets.yaml: %v", sec)
	}
	got = c.callUnstable(t, 2, "_goose/unstable/providers/custom/read", map[string]any{"providerId": "custom_my_llm"})
	want := `{"provider":{"providerId":"custom_my_llm","engine":"openai_compatible","displayName":"My LLM","apiUrl":"` + srv.URL + `",
		"models":["local-7b"],"supportsStreaming":null,"headers":{"X-Team":"core"},"requiresAuth":true,"catalogProviderId":null,
		"basePath":null,"toolshim":false,"apiKeyEnv":"CUSTOM_MY_LLM_API_KEY","apiKeySet":true,"preservesThinking":false},
		"editable":true,"status":{"providerId":"custom_my_llm","isConfigured":true}}`
	if !jsonEqual(string(got), want) {
		t.Errorf("read =\n%s\nwant\n%s", got, want)
	}
	// Update without a key keeps the stored one; headers are replaced.
	update := map[string]any{"providerId": "custom_my_llm", "engine": "openai_compatible", "displayName": "My LLM", "apiUrl": srv.URL,
		"models": []string{"local-7b", "local-13b"}, "headers": map[string]string{}, "requiresAuth": true, "toolshim": false}
	c.callUnstable(t, 3, "_goose/unstable/providers/custom/update", update)
	st.WaitRefreshes()
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), "local-13b") || strings.Contains(string(b), "X-Team") {
		t.Errorf("file after update: %s", b)
	}
	if sec := h.yamlFile(t, "secrets.yaml"); sec["CUSTOM_MY_LLM_API_KEY"] != "key-123456789" {
		t.Errorf("update without a key lost it: %v", sec)
	}
	bad := map[string]any{"engine": "openai_compatible", "displayName": "X", "apiUrl": "ftp://x", "apiKey": "k", "models": []string{"m"},
		"requiresAuth": true, "toolshim": false}
	r := c.callRaw(t, 4, "_goose/unstable/providers/custom/create", bad)
	if r.Error == nil || r.Error.Code != -32602 || string(r.Error.Data) != `"apiUrl must use HTTP or HTTPS"` {
		t.Errorf("ftp URL: %+v", r)
	}
	r = c.callRaw(t, 5, "_goose/unstable/providers/custom/read", map[string]any{"providerId": "openai"})
	if r.Error == nil || r.Error.Code != -32602 || !strings.Contains(string(r.Error.Data), "not editable") {
		t.Errorf("read of a built-in: %+v", r)
	}
	c.callUnstable(t, 6, "_goose/unstable/defaults/save", map[string]any{"providerId": "custom_my_llm", "modelId": "local-7b"})
	r = c.callRaw(t, 7, "_goose/unstable/providers/custom/delete", map[string]any{"providerId": "custom_my_llm"})
	if r.Error == nil || string(r.Error.Data) != `"Cannot delete active provider: custom_my_llm"` {
		t.Errorf("deleting the active provider: %+v", r)
	}
	c.callUnstable(t, 8, "_goose/unstable/defaults/clear", map[string]any{})
	got = c.callUnstable(t, 9, "_goose/unstable/providers/custom/delete", map[string]any{"providerId": "custom_my_llm"})
	if !jsonEqual(string(got), `{"providerId":"custom_my_llm","refresh":{"started":[],"skipped":[]}}`) {
		t.Errorf("delete = %s", got)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("file still there: %v", err)
	}
	if sec := h.yamlFile(t, "secrets.yaml"); sec["CUSTOM_MY_LLM_API_KEY"] != nil {
		t.Errorf("key still stored: %v", sec)
	}
}
