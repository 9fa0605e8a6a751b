package model

import "testing"

func env(kv ...string) Lookup {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestContextLimitPrecedence(t *testing.T) {
	n := func(v int) *int { return &v }
	for _, tc := range []struct {
		name  string
		model string
		o     LimitOptions
		want  int
	}{
		{"explicit wins", "claude-3-opus", LimitOptions{Explicit: n(150_000), Lookup: env("GOOSE_CONTEXT_LIMIT", "1000")}, 150_000},
		{"table claude", "claude-3-opus", LimitOptions{}, 200_000},
		{"table gpt-4-turbo", "gpt-4-turbo", LimitOptions{}, 128_000},
		{"table o3-mini", "o3-mini-high", LimitOptions{}, 200_000},
		{"table gpt-4.1", "gpt-4.1-mini", LimitOptions{}, 1_000_000},
		{"table grok", "grok-3", LimitOptions{}, 131_072},
		{"default", "unknown-model", LimitOptions{}, DefaultContextLimit},
		{"global env", "unknown-model", LimitOptions{Lookup: env("GOOSE_CONTEXT_LIMIT", "250000")}, 250_000},
		{"role env beats global", "unknown-model", LimitOptions{EnvVar: "GOOSE_LEAD_CONTEXT_LIMIT",
			Lookup: env("GOOSE_LEAD_CONTEXT_LIMIT", "300000", "GOOSE_CONTEXT_LIMIT", "250000")}, 300_000},
		{"invalid env falls back to table", "gpt-4o", LimitOptions{Lookup: env("GOOSE_CONTEXT_LIMIT", "invalid")}, 128_000},
		{"per-model beats table", "gpt-4o", LimitOptions{PerModel: map[string]int{"gpt-4o": 64_000}}, 64_000},
		{"env beats per-model", "gpt-4o", LimitOptions{PerModel: map[string]int{"gpt-4o": 64_000}, Lookup: env("GOOSE_CONTEXT_LIMIT", "9000")}, 9000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ContextLimit(tc.model, tc.o); got != tc.want {
				t.Fatalf("ContextLimit(%q) = %d, want %d", tc.model, got, tc.want)
			}
		})
	}
}

func TestFromSettings(t *testing.T) {
	c := FromSettings("gpt-4o", LimitOptions{Lookup: env(
		"GOOSE_TEMPERATURE", "0.5", "GOOSE_MAX_TOKENS", "1000", "GOOSE_TOOLSHIM", "true", "GOOSE_TOOLSHIM_OLLAMA_MODEL", "mistral-nemo")})
	if c.ModelName != "gpt-4o" || *c.ContextLimit != 128_000 || *c.Temperature != 0.5 || *c.MaxTokens != 1000 ||
		!c.Toolshim || *c.ToolshimModel != "mistral-nemo" {
		t.Fatalf("got %+v", c)
	}
	c = FromSettings("m", LimitOptions{Lookup: env("GOOSE_TEMPERATURE", "notanum", "GOOSE_TOOLSHIM", "0")})
	if c.Temperature != nil || c.Toolshim || c.MaxTokens != nil {
		t.Fatalf("bad values must be ignored: %+v", c)
	}
}
