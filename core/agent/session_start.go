package agent

import (
	"context"
	"fmt"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
)

// providerChoice is a built provider with its name and model, or why
// there is none.
type providerChoice struct {
	p     provider.Provider
	err   error
	name  string
	model model.Config
}

// buildProvider builds provider name with cfg (Options.Providers).
func (a *Agent) buildProvider(ctx context.Context, name string, cfg model.Config) providerChoice {
	if a.opts.Providers == nil {
		return providerChoice{err: ErrNoProvider}
	}
	p, err := a.opts.Providers(ctx, name, cfg)
	if err != nil {
		return providerChoice{err: fmt.Errorf("%w: %w", ErrNoProvider, err)}
	}
	c := providerChoice{p: p, name: p.Metadata().Name, model: p.ModelConfig()}
	if c.name == "" {
		c.name = name
	}
	return c
}

// applyProvider makes c the session's provider; a failed choice keeps the
// provider it had and records why (s.mu held).
func (s *sessionState) applyProvider(c providerChoice) error {
	if c.err != nil {
		s.providerErr = c.err
		return c.err
	}
	s.provider, s.providerErr, s.providerName, s.model = c.p, nil, c.name, c.model
	return nil
}

// startChoice is a new session's mode and provider, chosen before its row
// is written so that the row holds them from its first write.
type startChoice struct {
	mode     permission.Mode
	provider providerChoice
}

// chooseStart chooses a new session's mode and provider, as load would
// for a session with nothing stored.
func (a *Agent) chooseStart(ctx context.Context, opts StartOptions) *startChoice {
	return &startChoice{mode: a.initialMode(opts.Mode, ""), provider: a.chooseProvider(ctx, session.Session{}, opts)}
}

// fill puts the choice in the new row: the mode, and the provider's name
// and model when it could be built.
func (c *startChoice) fill(ns *session.NewSession) {
	ns.GooseMode = string(c.mode)
	if c.provider.err == nil {
		name, mc := c.provider.name, c.provider.model
		ns.ProviderName, ns.ModelConfig = &name, &mc
	}
}
