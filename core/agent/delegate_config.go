package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// Config keys of goose's subagents.
const (
	SubagentProviderKey = "GOOSE_SUBAGENT_PROVIDER"
	SubagentModelKey    = "GOOSE_SUBAGENT_MODEL"
	SubagentMaxTurnsKey = "GOOSE_SUBAGENT_MAX_TURNS"
)

// delegateRecipe is what a delegate runs: goose's Recipe built ad hoc,
// from a recipe or sub-recipe, or from an agent file.
type delegateRecipe struct {
	Title, Instructions, Prompt string
	Provider, Model             *string
	Temperature                 *float64
	MaxTurns                    *int
	ResponseSchema              []byte
}

// subagentConfig is the resolved provider, extensions, dir and turns.
type subagentConfig struct {
	provider   provider.Provider
	extensions []config.ExtensionConfig
	workingDir string
	maxTurns   int
}

// ErrNoSubagentProvider is goose's "No provider configured".
var ErrNoSubagentProvider = errors.New("No provider configured")

// subagentProvider is goose's precedence: recipe settings, env
// GOOSE_SUBAGENT_PROVIDER, the provider parameter, config.yaml's
// GOOSE_SUBAGENT_PROVIDER, the parent's provider.
func (sa subagents) subagentProvider(p platform.DelegateParams, r delegateRecipe, parentProvider string) (string, error) {
	cfgProvider, _ := sa.a.cfg.fileOnly(SubagentProviderKey)
	for _, c := range []string{strOf(r.Provider), sa.a.opts.Getenv(SubagentProviderKey), strOf(p.Provider), cfgProvider, parentProvider} {
		if c != "" {
			return c, nil
		}
	}
	return "", ErrNoSubagentProvider
}

// subagentModel is goose's model precedence; each candidate counts only
// when the provider it was given with (if any) is the chosen one. Empty
// means the provider's default model.
func (sa subagents) subagentModel(p platform.DelegateParams, r delegateRecipe, providerName, parentProvider, parentModel string) string {
	cfgModel, _ := sa.a.cfg.fileOnly(SubagentModelKey)
	cfgProvider, _ := sa.a.cfg.fileOnly(SubagentProviderKey)
	candidates := []struct{ model, provider string }{
		{strOf(r.Model), strOf(r.Provider)},
		{sa.a.opts.Getenv(SubagentModelKey), sa.a.opts.Getenv(SubagentProviderKey)},
		{strOf(p.Model), strOf(p.Provider)},
		{cfgModel, cfgProvider},
	}
	for _, c := range candidates {
		if c.model != "" && (c.provider == "" || c.provider == providerName) {
			return c.model
		}
	}
	if parentProvider == providerName {
		return parentModel
	}
	return ""
}

// subagentMaxTurns is goose's order: the parameter, the delegated recipe,
// the parent's recipe, GOOSE_SUBAGENT_MAX_TURNS (env, then config), 25.
func (sa subagents) subagentMaxTurns(p platform.DelegateParams, r delegateRecipe, parentRecipe *Recipe) int {
	if p.MaxTurns != nil && *p.MaxTurns > 0 {
		return *p.MaxTurns
	}
	if r.MaxTurns != nil && *r.MaxTurns > 0 {
		return *r.MaxTurns
	}
	if parentRecipe != nil && parentRecipe.MaxTurns > 0 {
		return parentRecipe.MaxTurns
	}
	if n, err := strconv.Atoi(strings.TrimSpace(sa.a.opts.Getenv(SubagentMaxTurnsKey))); err == nil && n > 0 {
		return n
	}
	return sa.a.cfg.int(SubagentMaxTurnsKey, DefaultSubagentMaxTurns)
}

// buildSubagentProvider reuses the parent's provider when provider, model
// and temperature are unchanged, else builds one.
func (sa subagents) buildSubagentProvider(ctx context.Context, parent *sessionState, p platform.DelegateParams, r delegateRecipe) (provider.Provider, error) {
	prov, _, _, _ := parent.snapshot()
	parent.mu.Lock()
	parentName, parentModel := parent.providerName, parent.model
	parent.mu.Unlock()
	name, err := sa.subagentProvider(p, r, parentName)
	if err != nil {
		return nil, err
	}
	modelName := sa.subagentModel(p, r, name, parentName, parentModel.ModelName)
	temp := p.Temperature
	if temp == nil {
		temp = r.Temperature
	}
	if prov != nil && name == parentName && modelName == parentModel.ModelName && temp == nil {
		return prov, nil
	}
	cfg := model.Config{ModelName: modelName}
	if name == parentName && modelName == parentModel.ModelName {
		cfg = parentModel
	}
	if temp != nil {
		t := *temp
		cfg.Temperature = &t
	} else if cfg.Temperature == nil {
		cfg.Temperature = parentModel.Temperature
	}
	if sa.a.opts.Providers == nil {
		return nil, ErrNoProvider
	}
	built, err := sa.a.opts.Providers(ctx, name, cfg)
	if err != nil {
		if modelName == "" {
			return nil, fmt.Errorf("No model configured for provider '%s'; set GOOSE_SUBAGENT_MODEL: %w", name, err)
		}
		return nil, fmt.Errorf("Failed to resolve subagent config: %w", err)
	}
	return built, nil
}

// subagentExtensions is the parent's extension set filtered by names
// (nil: all, empty: none); unknown names are logged, as goose warns.
func (sa subagents) subagentExtensions(parent *sessionState, names *[]string) []config.ExtensionConfig {
	all := parent.mgr.Configs()
	if names == nil {
		return all
	}
	var out []config.ExtensionConfig
	var known []string
	for _, c := range all {
		known = append(known, c.Name)
		for _, n := range *names {
			if c.Name == n {
				out = append(out, c)
			}
		}
	}
	for _, n := range *names {
		found := false
		for _, k := range known {
			found = found || k == n
		}
		if !found {
			sa.a.log.Warn("delegate requested an extension not available in the session", "extension", n, "available", known)
		}
	}
	return out
}

// resolveWorkingDir is goose's: relative to the parent's dir, existing,
// a directory, and inside the parent's dir.
func resolveWorkingDir(parentDir, requested string) (string, error) {
	p := requested
	if !filepath.IsAbs(p) {
		p = filepath.Join(parentDir, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("working_dir '%s' could not be resolved: %w", requested, err)
	}
	base, err := filepath.EvalSymlinks(parentDir)
	if err != nil {
		base = parentDir
	}
	rel, err := filepath.Rel(base, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("working_dir '%s' is outside the parent session directory", requested)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("working_dir '%s' is not a directory", requested)
	}
	return real, nil
}

func strOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
