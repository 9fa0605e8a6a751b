package diagnostics

import (
	"context"
	"encoding/json"
	"time"

	"github.com/goose-acp/goose-acp/core/session"
)

// Levels of a report: a summary, or the summary with the session's whole
// export.
const (
	LevelSummary = "summary"
	LevelFull    = "full"
)

// SessionReader is what a report reads (session.Store fits).
type SessionReader interface {
	Get(ctx context.Context, id string, withMessages bool) (session.Session, error)
	Export(ctx context.Context, id string) ([]byte, error)
}

// Report is one session's diagnostics report.
type Report struct {
	GeneratedAt string         `json:"generatedAt"`
	Level       string         `json:"level"`
	System      SystemInfo     `json:"system"`
	Session     SessionSummary `json:"session"`
	// Export is the session's goose export (level full only).
	Export json.RawMessage `json:"export,omitempty"`
}

// SessionSummary is what a report says of a session without its messages.
type SessionSummary struct {
	ID                      string   `json:"id"`
	Name                    string   `json:"name"`
	WorkingDir              string   `json:"workingDir"`
	SessionType             string   `json:"sessionType"`
	CreatedAt               string   `json:"createdAt"`
	UpdatedAt               string   `json:"updatedAt"`
	MessageCount            int      `json:"messageCount"`
	Provider                *string  `json:"provider"`
	Model                   *string  `json:"model"`
	GooseMode               string   `json:"gooseMode"`
	TotalTokens             *int     `json:"totalTokens"`
	AccumulatedInputTokens  *int     `json:"accumulatedInputTokens"`
	AccumulatedOutputTokens *int     `json:"accumulatedOutputTokens"`
	AccumulatedCost         *float64 `json:"accumulatedCost"`
}

// ForSession builds the report of a session (session.ErrNotFound for an
// unknown id); level is LevelSummary or LevelFull.
func ForSession(ctx context.Context, store SessionReader, id, level string, sys SystemInfo, now time.Time) (Report, error) {
	s, err := store.Get(ctx, id, false)
	if err != nil {
		return Report{}, err
	}
	r := Report{GeneratedAt: now.UTC().Format(time.RFC3339), Level: level, System: sys, Session: summary(s)}
	if level == LevelFull {
		if r.Export, err = store.Export(ctx, id); err != nil {
			return Report{}, err
		}
	}
	return r, nil
}

func summary(s session.Session) SessionSummary {
	out := SessionSummary{ID: s.ID, Name: s.Name, WorkingDir: s.WorkingDir, SessionType: string(s.SessionType),
		CreatedAt: s.CreatedAt.UTC().Format(time.RFC3339), UpdatedAt: s.UpdatedAt.UTC().Format(time.RFC3339),
		MessageCount: s.MessageCount, Provider: s.ProviderName, GooseMode: s.GooseMode, TotalTokens: s.TotalTokens,
		AccumulatedInputTokens: s.AccumulatedInputTokens, AccumulatedOutputTokens: s.AccumulatedOutputTokens,
		AccumulatedCost: s.AccumulatedCost}
	if s.ModelConfig != nil && s.ModelConfig.ModelName != "" {
		m := s.ModelConfig.ModelName
		out.Model = &m
	}
	return out
}
