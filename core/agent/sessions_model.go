package agent

import (
	"context"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/permission"
)

// Mode returns the session's goose mode.
func (svc Sessions) Mode(sessionID string) (permission.Mode, error) {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode, nil
}

// Defaults are what a session with no choice of its own gets, as the
// configuration says now: GOOSE_PROVIDER, GOOSE_MODEL and the goose mode
// (GOOSE_MODE, else auto). A face shows them for a session whose provider
// could not be built, or that it has not loaded.
func (svc Sessions) Defaults() (providerName, modelName string, mode permission.Mode) {
	providerName, _ = svc.a.cfg.lookup("GOOSE_PROVIDER")
	modelName, _ = svc.a.cfg.lookup("GOOSE_MODEL")
	return providerName, modelName, svc.a.initialMode(nil, "")
}

// SetModel switches the session's provider and model (persisted). An
// empty providerName keeps the current provider.
func (svc Sessions) SetModel(ctx context.Context, sessionID, providerName, modelName string) error {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if providerName == "" {
		providerName = s.providerName
	}
	s.mu.Unlock()
	if err := svc.a.setProvider(ctx, s, providerName, model.Config{ModelName: modelName}); err != nil {
		return err
	}
	return svc.a.saveSessionState(ctx, s)
}

// Model returns the session's provider name and model config.
func (svc Sessions) Model(sessionID string) (string, model.Config, error) {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return "", model.Config{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.providerName, s.model, s.providerErr
}
