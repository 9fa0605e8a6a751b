package model

import (
	"sort"
	"strconv"
	"strings"
)

// Lookup reads a setting by key (environment or config); ok is false when
// the key is unset. Tests inject a map; production passes os.LookupEnv or
// the config store.
type Lookup func(key string) (value string, ok bool)

// ContextLimitEnv is goose's global context-limit override.
const ContextLimitEnv = "GOOSE_CONTEXT_LIMIT"

// knownLimits is goose's model.rs table: a model whose name contains the
// pattern gets the limit.
var knownLimits = map[string]int{
	"gpt-4o":      128_000,
	"gpt-4-turbo": 128_000,
	"o3":          200_000,
	"o3-mini":     200_000,
	"o4-mini":     200_000,
	"gpt-4.1":     1_000_000,
	"gpt-4-1":     1_000_000,
	"claude":      200_000,
	"gemini-2.5":  1_000_000,
	"gemini-2-5":  1_000_000,
	"llama3.2":    128_000,
	"llama3.3":    128_000,
	"grok":        131_072,
}

// limitPatterns lists knownLimits' patterns longest first. goose iterates a
// HashMap (order unspecified); longest-first makes the most specific
// pattern win deterministically ("o3-mini" before "o3").
var limitPatterns = func() []string {
	p := make([]string, 0, len(knownLimits))
	for k := range knownLimits {
		p = append(p, k)
	}
	sort.Slice(p, func(i, j int) bool {
		if len(p[i]) != len(p[j]) {
			return len(p[i]) > len(p[j])
		}
		return p[i] < p[j]
	})
	return p
}()

// PatternLimit returns the table limit for a model name, if any pattern
// matches.
func PatternLimit(modelName string) (int, bool) {
	for _, p := range limitPatterns {
		if strings.Contains(modelName, p) {
			return knownLimits[p], true
		}
	}
	return 0, false
}

// LimitOptions feeds ContextLimit.
type LimitOptions struct {
	// Explicit is a limit set in the model config itself; it wins.
	Explicit *int
	// EnvVar is a role-specific override checked before GOOSE_CONTEXT_LIMIT
	// (GOOSE_LEAD_CONTEXT_LIMIT, GOOSE_WORKER_CONTEXT_LIMIT).
	EnvVar string
	// PerModel are limits known for exact model names (a provider's known
	// models, custom provider declarations); checked before the table.
	PerModel map[string]int
	Lookup   Lookup
}

// ContextLimit resolves a model's context window with goose's precedence:
// explicit config, the role env var, GOOSE_CONTEXT_LIMIT, the per-model
// list, the pattern table, then DefaultContextLimit. Unparseable or
// non-positive env values are ignored, as goose does.
func ContextLimit(modelName string, o LimitOptions) int {
	if o.Explicit != nil && *o.Explicit > 0 {
		return *o.Explicit
	}
	for _, key := range []string{o.EnvVar, ContextLimitEnv} {
		if n, ok := lookupInt(o.Lookup, key); ok && n > 0 {
			return n
		}
	}
	if n, ok := o.PerModel[modelName]; ok && n > 0 {
		return n
	}
	if n, ok := PatternLimit(modelName); ok {
		return n
	}
	return DefaultContextLimit
}

// FromSettings builds a Config for modelName the way goose's
// ModelConfig::new_with_context_env does: context limit as in
// ContextLimit (stored explicitly so sessions keep it), GOOSE_TEMPERATURE,
// GOOSE_MAX_TOKENS, GOOSE_TOOLSHIM ("1"/"true") and
// GOOSE_TOOLSHIM_OLLAMA_MODEL.
func FromSettings(modelName string, o LimitOptions) Config {
	limit := ContextLimit(modelName, o)
	c := Config{ModelName: modelName, ContextLimit: &limit}
	if v, ok := lookup(o.Lookup, "GOOSE_TEMPERATURE"); ok {
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			c.Temperature = &f
		}
	}
	if n, ok := lookupInt(o.Lookup, "GOOSE_MAX_TOKENS"); ok {
		c.MaxTokens = &n
	}
	if v, ok := lookup(o.Lookup, "GOOSE_TOOLSHIM"); ok {
		c.Toolshim = v == "1" || strings.EqualFold(v, "true")
	}
	if v, ok := lookup(o.Lookup, "GOOSE_TOOLSHIM_OLLAMA_MODEL"); ok {
		c.ToolshimModel = &v
	}
	return c
}

func lookup(l Lookup, key string) (string, bool) {
	if l == nil || key == "" {
		return "", false
	}
	return l(key)
}

func lookupInt(l Lookup, key string) (int, bool) {
	v, ok := lookup(l, key)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return n, err == nil
}
