package anthropic

import (
	"testing"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestThinkingConfig(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name      string
		cfg       model.Config
		params    map[string]string
		want      string // JSON of {"thinking":…,"output_config":…}
		noHistory bool
	}{
		{name: "claude without any setting", cfg: model.Config{ModelName: "claude-sonnet-4-5"}, want: `{}`},
		{name: "legacy CLAUDE_THINKING_ENABLED, default budget clamped to 4096-1024",
			cfg: model.Config{ModelName: "claude-sonnet-4-5"}, params: map[string]string{"CLAUDE_THINKING_ENABLED": "1"},
			want: `{"thinking":{"type":"enabled","budget_tokens":3072}}`},
		{name: "CLAUDE_THINKING_ENABLED=false", cfg: model.Config{ModelName: "claude-sonnet-4-5"},
			params: map[string]string{"CLAUDE_THINKING_ENABLED": "false"}, want: `{}`, noHistory: true},
		{name: "legacy budget alone enables thinking, raised to 1024 minimum",
			cfg: model.Config{ModelName: "claude-sonnet-4-5", MaxTokens: new(32000)}, params: map[string]string{"CLAUDE_THINKING_BUDGET": "10"},
			want: `{"thinking":{"type":"enabled","budget_tokens":1024}}`},
		{name: "ANTHROPIC_THINKING_BUDGET wins over CLAUDE_THINKING_BUDGET",
			cfg:    model.Config{ModelName: "claude-sonnet-4-5", MaxTokens: new(32000)},
			params: map[string]string{"ANTHROPIC_THINKING_BUDGET": "5000", "CLAUDE_THINKING_BUDGET": "9000"},
			want:   `{"thinking":{"type":"enabled","budget_tokens":5000}}`},
		{name: "request_params budget wins", cfg: model.Config{ModelName: "claude-sonnet-4-5", MaxTokens: new(32000),
			RequestParams: map[string]any{"budget_tokens": float64(12000), "thinking_effort": "low"}},
			params: map[string]string{"CLAUDE_THINKING_BUDGET": "5000"},
			want:   `{"thinking":{"type":"enabled","budget_tokens":12000}}`},
		{name: "effort table: medium", cfg: model.Config{ModelName: "claude-opus-4-5", MaxTokens: new(64000)},
			params: map[string]string{"GOOSE_THINKING_EFFORT": "medium"}, want: `{"thinking":{"type":"enabled","budget_tokens":10000}}`},
		{name: "effort table: max", cfg: model.Config{ModelName: "claude-opus-4-5", MaxTokens: new(64000)},
			params: map[string]string{"GOOSE_THINKING_EFFORT": "max"}, want: `{"thinking":{"type":"enabled","budget_tokens":32000}}`},
		{name: "too little room under max_tokens drops thinking", cfg: model.Config{ModelName: "claude-sonnet-4-5", MaxTokens: new(2000)},
			params: map[string]string{"GOOSE_THINKING_EFFORT": "high"}, want: `{}`},
		{name: "effort off", cfg: model.Config{ModelName: "claude-sonnet-4-5"},
			params: map[string]string{"GOOSE_THINKING_EFFORT": "off"}, want: `{}`, noHistory: true},
		{name: "reasoning false", cfg: model.Config{ModelName: "claude-sonnet-4-5", Reasoning: &no},
			params: map[string]string{"GOOSE_THINKING_EFFORT": "high"}, want: `{}`, noHistory: true},
		{name: "non-claude model needs reasoning", cfg: model.Config{ModelName: "glm-4.7"},
			params: map[string]string{"GOOSE_THINKING_EFFORT": "high"}, want: `{}`},
		{name: "non-claude model with reasoning", cfg: model.Config{ModelName: "glm-4.7", Reasoning: &yes, MaxTokens: new(20000)},
			params: map[string]string{"GOOSE_THINKING_EFFORT": "high"}, want: `{"thinking":{"type":"enabled","budget_tokens":16000}}`},
		{name: "adaptive model", cfg: model.Config{ModelName: "claude-sonnet-4-6"},
			params: map[string]string{"CLAUDE_THINKING_TYPE": "adaptive"}, want: `{"thinking":{"type":"adaptive"},"output_config":{"effort":"high"}}`},
		{name: "adaptive model with effort", cfg: model.Config{ModelName: "claude-opus-4-6", RequestParams: map[string]any{"thinking_effort": "low"}},
			want: `{"thinking":{"type":"adaptive"},"output_config":{"effort":"low"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th := resolveThinking(tt.cfg, providertest.Lookup(tt.params))
			maxTokens := defaultMaxTokens
			if tt.cfg.MaxTokens != nil {
				maxTokens = *tt.cfg.MaxTokens
			}
			var got struct {
				Thinking     *wireThinking   `json:"thinking,omitempty"`
				OutputConfig *wireOutputConf `json:"output_config,omitempty"`
			}
			got.Thinking, got.OutputConfig = th.config(maxTokens)
			if s := providertest.MustJSON(t, got); s != tt.want {
				t.Errorf("thinking = %s, want %s", s, tt.want)
			}
			if th.historyDisabled != tt.noHistory {
				t.Errorf("historyDisabled = %v, want %v", th.historyDisabled, tt.noHistory)
			}
		})
	}
}

func TestBetaHeadersForClaude37(t *testing.T) {
	if got := betaHeaders(model.Config{ModelName: "claude-3-7-sonnet-20250219"}, true); len(got) != 2 || got[0] != "output-128k-2025-02-19" {
		t.Errorf("beta headers = %v", got)
	}
	if got := betaHeaders(model.Config{ModelName: "claude-sonnet-4-5"}, true); got != nil {
		t.Errorf("beta headers = %v, want none", got)
	}
}

// ThinkingEffort reports what the config option shows: the effort a
// Claude model thinks with, "off" when it does not, nothing for a model
// that never thinks.
func TestThinkingEffortReported(t *testing.T) {
	env := func(kv ...string) func(string) (string, bool) {
		return func(k string) (string, bool) {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1], true
				}
			}
			return "", false
		}
	}
	no := false
	cases := []struct {
		name   string
		cfg    model.Config
		param  func(string) (string, bool)
		effort string
		thinks bool
	}{
		{"claude, nothing set", model.Config{ModelName: "claude-sonnet-4-20250514"}, env(), "off", true},
		{"claude, request param", model.Config{ModelName: "claude-sonnet-4-20250514", RequestParams: map[string]any{"thinking_effort": "low"}}, env(), "low", true},
		{"claude, GOOSE_THINKING_EFFORT", model.Config{ModelName: "claude-sonnet-4-20250514"}, env("GOOSE_THINKING_EFFORT", "max"), "max", true},
		{"claude, legacy budget", model.Config{ModelName: "claude-sonnet-4-20250514"}, env("CLAUDE_THINKING_BUDGET", "5000"), "high", true},
		{"adaptive model, effort off", model.Config{ModelName: "claude-sonnet-4-6", RequestParams: map[string]any{"thinking_effort": "off"}}, env(), "off", true},
		{"not a reasoning model", model.Config{ModelName: "claude-sonnet-4-20250514", Reasoning: &no}, env(), "", false},
		{"not claude", model.Config{ModelName: "llama3"}, env(), "", false},
	}
	for _, c := range cases {
		p, err := New(Options{APIKey: "k", Model: c.cfg, Param: c.param})
		if err != nil {
			t.Fatal(err)
		}
		if effort, thinks := p.ThinkingEffort(); effort != c.effort || thinks != c.thinks {
			t.Errorf("%s: ThinkingEffort() = %q, %v; want %q, %v", c.name, effort, thinks, c.effort, c.thinks)
		}
	}
}
