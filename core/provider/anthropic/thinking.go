package anthropic

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/goose-acp/goose-acp/core/model"
)

// Extended thinking, as goose's formats/anthropic.rs decides it:
//
//   - thinking needs a reasoning model: ModelConfig.reasoning, else any
//     "claude" model (goose's is_reasoning_model fallback);
//   - the effort comes from request_params.thinking_effort, then
//     GOOSE_THINKING_EFFORT, then the legacy CLAUDE_THINKING_TYPE
//     (adaptive|enabled → high, disabled → off) and CLAUDE_THINKING_ENABLED
//     settings; no effort means off, unless a legacy budget
//     (ANTHROPIC_THINKING_BUDGET / CLAUDE_THINKING_BUDGET) is set;
//   - adaptive models (claude-opus-4-6, claude-sonnet-4-6) get
//     {"type":"adaptive"} plus output_config.effort (off → high);
//   - others get {"type":"enabled","budget_tokens":B} where B is
//     request_params.budget_tokens (≥1024), else the legacy budget (≥1024),
//     else by effort (off 1024, low 4000, medium 10000, high 16000,
//     max 32000), clamped to max_tokens−1024 and omitted below 1024.

type effort int

const (
	effortUnset effort = iota
	effortOff
	effortLow
	effortMedium
	effortHigh
	effortMax
)

func (e effort) String() string {
	return [...]string{"", "off", "low", "medium", "high", "max"}[e]
}

func parseEffort(s string) effort {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "none":
		return effortOff
	case "low":
		return effortLow
	case "medium":
		return effortMedium
	case "high":
		return effortHigh
	case "max", "xhigh":
		return effortMax
	}
	return effortUnset
}

// minThinkingBudget is both Anthropic's minimum budget and the answer room
// goose keeps under max_tokens.
const minThinkingBudget = 1024

type thinkingMode int

const (
	thinkingDisabled thinkingMode = iota
	thinkingEnabled
	thinkingAdaptive
)

// thinking is the resolved thinking setup of one request.
type thinking struct {
	reasoning        bool // the model thinks at all
	mode             thinkingMode
	effort           effort
	budget           int
	historyDisabled  bool
	preserveUnsigned bool
}

type wireThinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens,omitempty"`
}

type wireOutputConf struct {
	Effort string `json:"effort"`
}

// config returns the request's thinking and output_config fields.
func (t thinking) config(maxTokens int) (*wireThinking, *wireOutputConf) {
	switch t.mode {
	case thinkingAdaptive:
		e := t.effort
		if e == effortUnset || e == effortOff {
			e = effortHigh
		}
		return &wireThinking{Type: "adaptive"}, &wireOutputConf{Effort: e.String()}
	case thinkingEnabled:
		budget := min(t.budget, maxTokens-minThinkingBudget)
		if budget < minThinkingBudget {
			return nil, nil
		}
		return &wireThinking{Type: "enabled", BudgetTokens: budget}, nil
	}
	return nil, nil
}

// resolveThinking applies goose's rules to cfg and the settings in param.
func resolveThinking(cfg model.Config, param func(string) (string, bool)) thinking {
	eff := configuredEffort(cfg, param)
	legacy, hasLegacy := legacyBudget(param)
	t := thinking{
		effort:           eff,
		historyDisabled:  (cfg.Reasoning != nil && !*cfg.Reasoning) || eff == effortOff,
		preserveUnsigned: boolSetting(cfg, param, "preserve_unsigned_thinking", "ANTHROPIC_PRESERVE_UNSIGNED_THINKING"),
	}
	reasoning := strings.Contains(strings.ToLower(cfg.ModelName), "claude")
	if cfg.Reasoning != nil {
		reasoning = *cfg.Reasoning
	}
	t.reasoning = reasoning
	switch {
	case !reasoning:
		return t
	case eff == effortUnset && !hasLegacy, eff == effortOff:
		return t
	case adaptiveModel(cfg.ModelName):
		t.mode = thinkingAdaptive
	default:
		t.mode = thinkingEnabled
	}
	t.budget = budgetTokens(cfg, eff, legacy, hasLegacy)
	return t
}

func adaptiveModel(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "claude-opus-4-6") || strings.Contains(n, "claude-sonnet-4-6")
}

func configuredEffort(cfg model.Config, param func(string) (string, bool)) effort {
	if v, ok := cfg.RequestParams["thinking_effort"].(string); ok {
		if e := parseEffort(v); e != effortUnset {
			return e
		}
	}
	if v, ok := param("GOOSE_THINKING_EFFORT"); ok {
		if e := parseEffort(v); e != effortUnset {
			return e
		}
	}
	if v, ok := param("CLAUDE_THINKING_TYPE"); ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "adaptive", "enabled":
			return effortHigh
		case "disabled":
			return effortOff
		}
	}
	if v, ok := param("CLAUDE_THINKING_ENABLED"); ok {
		// Older goose enabled thinking when the variable was set at all.
		if b, err := strconv.ParseBool(strings.TrimSpace(v)); err == nil && !b {
			return effortOff
		}
		return effortHigh
	}
	return effortUnset
}

func legacyBudget(param func(string) (string, bool)) (int, bool) {
	for _, key := range []string{"ANTHROPIC_THINKING_BUDGET", "CLAUDE_THINKING_BUDGET"} {
		if v, ok := param(key); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				return max(n, minThinkingBudget), true
			}
		}
	}
	return 0, false
}

func budgetTokens(cfg model.Config, eff effort, legacy int, hasLegacy bool) int {
	if n, ok := intParam(cfg.RequestParams["budget_tokens"]); ok {
		return max(n, minThinkingBudget)
	}
	if hasLegacy {
		return legacy
	}
	switch eff {
	case effortOff:
		return 1024
	case effortLow:
		return 4000
	case effortMedium:
		return 10000
	case effortMax:
		return 32000
	}
	return 16000
}

func intParam(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		return int(n), n == float64(int(n))
	case int:
		return n, true
	case int64:
		return int(n), true
	case json.Number:
		i, err := n.Int64()
		return int(i), err == nil
	}
	return 0, false
}

func boolSetting(cfg model.Config, param func(string) (string, bool), reqKey, configKey string) bool {
	if b, ok := cfg.RequestParams[reqKey].(bool); ok {
		return b
	}
	if v, ok := param(configKey); ok {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		return err == nil && b
	}
	return false
}

// ThinkingEffort reports the effort this provider's model thinks with (one
// of provider.ThinkingEfforts): "off" when thinking is off, the level a
// legacy budget or an adaptive model's default amounts to ("high")
// otherwise; false for a model that does not think.
func (p *Provider) ThinkingEffort() (string, bool) {
	t := resolveThinking(p.opts.Model, p.opts.Param)
	switch {
	case !t.reasoning:
		return "", false
	case t.mode == thinkingDisabled:
		return effortOff.String(), true
	case t.effort == effortUnset || t.effort == effortOff:
		return effortHigh.String(), true
	}
	return t.effort.String(), true
}
