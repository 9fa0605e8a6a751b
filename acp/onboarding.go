package acp

import (
	"context"
	"path/filepath"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/onboarding"
)

// Goose Desktop's first-run import (_goose/unstable/onboarding/import/*)
// over core/onboarding: an existing goose config.yaml (this one or
// ~/.config/goose) and Claude Desktop's MCP servers.

// onboardingAPI answers the first-run import and the diagnostics report
// (diagnostics.go): both read this machine's goose set-up.
type onboardingAPI struct {
	settings Settings
	// home is the user's home directory (the source store's).
	home    string
	store   agent.SessionReader
	version string
}

func (a *onboardingAPI) methods() map[string]RequestHandler {
	const p = "_goose/unstable/"
	return map[string]RequestHandler{
		p + "diagnostics/get":         typed(a.diagnostics),
		p + "onboarding/import/scan":  typed(a.scan),
		p + "onboarding/import/apply": typed(a.apply),
	}
}

func (a *onboardingAPI) places() (onboarding.Places, error) {
	if a.settings.Config == nil {
		return onboarding.Places{}, errNoSettings
	}
	p := onboarding.Places{ConfigDir: a.settings.configDir(), Home: a.home}
	if a.home != "" {
		p.UserConfigDir = filepath.Join(a.home, ".config")
	}
	return p, nil
}

type onboardingScanRequest struct {
	Sources []string `json:"sources"`
}

func (a *onboardingAPI) scan(_ context.Context, req onboardingScanRequest) (map[string][]onboarding.Candidate, error) {
	for _, k := range req.Sources {
		if k != onboarding.KindGooseConfig && k != onboarding.KindClaudeDesktop {
			return nil, invalidParams("unknown import source %q (goose_config or claude_desktop)", k)
		}
	}
	places, err := a.places()
	if err != nil {
		return nil, err
	}
	return map[string][]onboarding.Candidate{"candidates": onboarding.Scan(places, req.Sources)}, nil
}

type onboardingApplyRequest struct {
	CandidateIDs             []string `json:"candidateIds"`
	EnableImportedExtensions bool     `json:"enableImportedExtensions"`
}

func (a *onboardingAPI) apply(_ context.Context, req onboardingApplyRequest) (onboarding.Result, error) {
	st := a.settings
	if st.Config == nil {
		return onboarding.Result{}, errNoSettings
	}
	t := onboarding.Target{Config: st.Config, ConfigDir: st.configDir(), SaveDefault: st.Setup.SaveDefault}
	return onboarding.Apply(t, req.CandidateIDs, req.EnableImportedExtensions), nil
}
