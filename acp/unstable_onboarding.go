package acp

import (
	"context"
	"path/filepath"

	"github.com/goose-acp/goose-acp/core/onboarding"
)

// Goose Desktop's first-run import (_goose/unstable/onboarding/import/*)
// over core/onboarding: an existing goose config.yaml (this one or
// ~/.config/goose) and Claude Desktop's MCP servers.

func (s *Server) onboardingPlaces() (onboarding.Places, error) {
	st, err := s.settings()
	if err != nil {
		return onboarding.Places{}, err
	}
	home := s.opts.Agent.SourceStore().Home
	p := onboarding.Places{ConfigDir: st.configDir(), Home: home}
	if home != "" {
		p.UserConfigDir = filepath.Join(home, ".config")
	}
	return p, nil
}

type onboardingScanRequest struct {
	Sources []string `json:"sources"`
}

func (s *Server) unstableOnboardingScan(_ context.Context, req onboardingScanRequest) (map[string][]onboarding.Candidate, error) {
	for _, k := range req.Sources {
		if k != onboarding.KindGooseConfig && k != onboarding.KindClaudeDesktop {
			return nil, invalidParams("unknown import source %q (goose_config or claude_desktop)", k)
		}
	}
	places, err := s.onboardingPlaces()
	if err != nil {
		return nil, err
	}
	return map[string][]onboarding.Candidate{"candidates": onboarding.Scan(places, req.Sources)}, nil
}

type onboardingApplyRequest struct {
	CandidateIDs             []string `json:"candidateIds"`
	EnableImportedExtensions bool     `json:"enableImportedExtensions"`
}

func (s *Server) unstableOnboardingApply(_ context.Context, req onboardingApplyRequest) (onboarding.Result, error) {
	st, err := s.settings()
	if err != nil {
		return onboarding.Result{}, err
	}
	t := onboarding.Target{Config: st.Config, ConfigDir: st.configDir(), SaveDefault: st.Setup.SaveDefault}
	return onboarding.Apply(t, req.CandidateIDs, req.EnableImportedExtensions), nil
}
