package acp

import (
	"testing"
)

func TestUnstableDefaultsOnDisk(t *testing.T) {
	h := newSettingsHome(t, "GOOSE_MODE: auto\n")
	c := h.serve(t)
	got := c.callUnstable(t, 1, "_goose/unstable/defaults/read", map[string]any{})
	if !jsonEqual(string(got), `{"providerId":null,"modelId":null}`) {
		t.Errorf("fresh defaults = %s", got)
	}
	got = c.callUnstable(t, 2, "_goose/unstable/defaults/save", map[string]any{"providerId": "openai", "modelId": "gpt-4.1"})
	if !jsonEqual(string(got), `{"providerId":"openai","modelId":"gpt-4.1"}`) {
		t.Errorf("save = %s", got)
	}
	if cfg := h.yamlFile(t, "config.yaml"); cfg["GOOSE_PROVIDER"] != "openai" || cfg["GOOSE_MODEL"] != "gpt-4.1" || cfg["GOOSE_MODE"] != "auto" {
		t.Errorf("config.yaml after save: %v", cfg)
	}
	// Without a model, a provider switch stores the provider's default
	// model rather than keeping gpt-4.1.
	got = c.callUnstable(t, 3, "_goose/unstable/defaults/save", map[string]any{"providerId": "anthropic"})
	cfg := h.yamlFile(t, "config.yaml")
	if cfg["GOOSE_PROVIDER"] != "anthropic" || cfg["GOOSE_MODEL"] == "gpt-4.1" || cfg["GOOSE_MODEL"] == nil ||
		!jsonEqual(string(got), `{"providerId":"anthropic","modelId":"`+cfg["GOOSE_MODEL"].(string)+`"}`) {
		t.Errorf("switch without a model: %s, config.yaml %v", got, cfg)
	}
	r := c.callRaw(t, 4, "_goose/unstable/defaults/save", map[string]any{"providerId": "no-such-provider"})
	if r.Error == nil || r.Error.Code != -32602 || string(r.Error.Data) != `"Unknown provider: no-such-provider"` {
		t.Errorf("unknown provider: %+v", r)
	}
	if h.yamlFile(t, "config.yaml")["GOOSE_PROVIDER"] != "anthropic" {
		t.Error("a refused save changed config.yaml")
	}
	got = c.callUnstable(t, 5, "_goose/unstable/defaults/clear", map[string]any{})
	if !jsonEqual(string(got), `{"providerId":null,"modelId":null}`) {
		t.Errorf("clear = %s", got)
	}
	if cfg := h.yamlFile(t, "config.yaml"); cfg["GOOSE_PROVIDER"] != nil || cfg["GOOSE_MODEL"] != nil || cfg["GOOSE_MODE"] != "auto" {
		t.Errorf("config.yaml after clear: %v", cfg)
	}
}

func TestUnstablePreferencesOnDisk(t *testing.T) {
	h := newSettingsHome(t, "")
	c := h.serve(t)
	got := c.callUnstable(t, 1, "_goose/unstable/preferences/read", map[string]any{})
	want := `{"values":[{"key":"autoCompactThreshold","value":null},{"key":"gooseThinkingEffort","value":null},
		{"key":"voiceAutoSubmitPhrases","value":null},{"key":"voiceDictationProvider","value":null},{"key":"voiceDictationPreferredMic","value":null}]}`
	if !jsonEqual(string(got), want) {
		t.Errorf("fresh preferences = %s", got)
	}
	c.callUnstable(t, 2, "_goose/unstable/preferences/save", map[string]any{"values": []map[string]any{
		{"key": "autoCompactThreshold", "value": 0.6}, {"key": "gooseThinkingEffort", "value": "High"}}})
	if cfg := h.yamlFile(t, "config.yaml"); cfg["GOOSE_AUTO_COMPACT_THRESHOLD"] != 0.6 || cfg["GOOSE_THINKING_EFFORT"] != "high" {
		t.Errorf("config.yaml after save: %v", cfg)
	}
	got = c.callUnstable(t, 3, "_goose/unstable/preferences/read", map[string]any{"keys": []string{"gooseThinkingEffort"}})
	if !jsonEqual(string(got), `{"values":[{"key":"gooseThinkingEffort","value":"high"}]}`) {
		t.Errorf("read one = %s", got)
	}
	// One bad value stores nothing.
	r := c.callRaw(t, 4, "_goose/unstable/preferences/save", map[string]any{"values": []map[string]any{
		{"key": "gooseThinkingEffort", "value": "low"}, {"key": "autoCompactThreshold", "value": 1.5}}})
	if r.Error == nil || r.Error.Code != -32602 || string(r.Error.Data) != `"autoCompactThreshold must be greater than 0 and at most 1"` {
		t.Errorf("bad threshold: %+v", r)
	}
	if cfg := h.yamlFile(t, "config.yaml"); cfg["GOOSE_THINKING_EFFORT"] != "high" {
		t.Errorf("a refused save changed config.yaml: %v", cfg)
	}
}
