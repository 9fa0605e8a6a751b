package httpapi

import (
	"fmt"
	"net/http"
	"path/filepath"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/diagnostics"
)

// statusAPI answers the health check, features, system info, the
// diagnostics bundle and telemetry.
type statusAPI struct {
	version  string
	cfg      *config.Config
	store    agent.SessionReader
	stateDir string
	out      writer
}

func (a *statusAPI) routes() []route {
	return []route{
		{"GET", "/status", 0, nil, http.HandlerFunc(a.status)},
		{"GET", "/features", 0, noInput(a.features), nil},
		{"GET", "/system_info", 0, noInput(a.systemInfo), nil},
		{"GET", "/diagnostics/{session_id}", 0, nil, http.HandlerFunc(a.diagnostics)},
		{"POST", "/telemetry/event", 0, withBody(a.telemetryEvent), nil},
	}
}

var okBody = []byte("ok")

// status is the desktop's health check (polled every 100 ms at startup).
func (a *statusAPI) status(w http.ResponseWriter, r *http.Request) {
	w.Header()["Content-Type"] = []string{"text/plain; charset=utf-8"}
	_, _ = w.Write(okBody)
}

// features are goosed's compile-time features; goose-acp has neither.
func (a *statusAPI) features(*http.Request) (reply, error) {
	return ok(map[string]any{"features": map[string]bool{"local-inference": false, "code-mode": false}}), nil
}

func (a *statusAPI) systemInfo(*http.Request) (reply, error) { return ok(a.collectSystemInfo()), nil }

func (a *statusAPI) collectSystemInfo() diagnostics.SystemInfo {
	return diagnostics.System(a.version, a.cfg)
}

// diagnostics answers a zip with the session, system info, config.yaml
// and the newest log files, as goosed's bug-report bundle.
func (a *statusAPI) diagnostics(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("session_id")
	data, err := a.buildDiagnostics(r, id)
	if err != nil {
		a.out.error(w, r, fmt.Errorf("Failed to generate diagnostics: %w", err))
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="diagnostics_%s.zip"`, id))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(data)
}

func (a *statusAPI) buildDiagnostics(r *http.Request, id string) ([]byte, error) {
	configFile, logsDir := "", ""
	if a.cfg != nil {
		configFile = a.cfg.Path()
	}
	if a.stateDir != "" {
		logsDir = filepath.Join(a.stateDir, "logs")
	}
	return diagnostics.Bundle(r.Context(), a.store, id, a.collectSystemInfo(), configFile, logsDir)
}

// telemetryEvent accepts and drops UI telemetry: goose-acp sends none.
func (a *statusAPI) telemetryEvent(_ *http.Request, body map[string]any) (reply, error) {
	a.out.log.Debug("telemetry event dropped", "event", body["event_name"])
	return noBody(http.StatusAccepted), nil
}
