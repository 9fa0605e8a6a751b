package httpapi

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"

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

// maxDiagnosticLogs bounds how many log files go into the bundle.
const maxDiagnosticLogs = 10

func (a *statusAPI) buildDiagnostics(r *http.Request, id string) ([]byte, error) {
	export, err := a.store.Export(r.Context(), id)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) error {
		f, err := zw.Create(name)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	if err := add("session.json", export); err != nil {
		return nil, err
	}
	sys, _ := json.MarshalIndent(a.collectSystemInfo(), "", "  ")
	if err := add("system.txt", sys); err != nil {
		return nil, err
	}
	if a.cfg != nil {
		if b, err := os.ReadFile(a.cfg.Path()); err == nil {
			if err := add("config.yaml", b); err != nil {
				return nil, err
			}
		}
	}
	for _, p := range newestLogs(filepath.Join(a.stateDir, "logs"), maxDiagnosticLogs) {
		if err := addFile(zw, p, filepath.Join(a.stateDir, "logs")); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func addFile(zw *zip.Writer, path, base string) error {
	rel, err := filepath.Rel(base, path)
	if err != nil {
		return err
	}
	src, err := os.Open(path)
	if err != nil {
		return nil // rotated away meanwhile
	}
	defer src.Close()
	dst, err := zw.Create(filepath.ToSlash(filepath.Join("logs", rel)))
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, io.LimitReader(src, 10<<20))
	return err
}

// newestLogs returns up to n regular files under dir, newest first.
func newestLogs(dir string, n int) []string {
	if dir == "" || dir == "logs" {
		return nil
	}
	type file struct {
		path string
		mod  int64
	}
	var files []file
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			files = append(files, file{p, info.ModTime().UnixNano()})
		}
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].mod > files[j].mod })
	var out []string
	for i := 0; i < len(files) && i < n; i++ {
		out = append(out, files[i].path)
	}
	return out
}

// telemetryEvent accepts and drops UI telemetry: goose-acp sends none.
func (a *statusAPI) telemetryEvent(_ *http.Request, body map[string]any) (reply, error) {
	a.out.log.Debug("telemetry event dropped", "event", body["event_name"])
	return noBody(http.StatusAccepted), nil
}
