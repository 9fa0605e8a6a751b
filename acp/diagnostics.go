package acp

import (
	"context"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/diagnostics"
)

// _goose/unstable/diagnostics/get: a session's report (core/diagnostics)
// with this machine's SystemInfo; level full adds the session export.

type diagnosticsRequest struct {
	SessionID string `json:"sessionId"`
	Level     string `json:"level"`
}

func (a *onboardingAPI) diagnostics(ctx context.Context, req diagnosticsRequest) (map[string]any, error) {
	id := strings.TrimSpace(req.SessionID)
	if id == "" {
		return nil, invalidParams("sessionId cannot be empty")
	}
	level := req.Level
	switch level {
	case "":
		level = diagnostics.LevelSummary
	case diagnostics.LevelSummary, diagnostics.LevelFull:
	default:
		return nil, invalidParams("level must be summary or full")
	}
	sys := diagnostics.System(a.version, a.settings.Config)
	report, err := diagnostics.ForSession(ctx, a.store, id, level, sys, time.Now())
	if err != nil {
		return nil, storeErr(err, id)
	}
	return map[string]any{"report": report}, nil
}
