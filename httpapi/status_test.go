package httpapi

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestDiagnosticsZip(t *testing.T) {
	e := newTestEnv(t, "auto")
	logDir := filepath.Join(e.root, "state", "logs", "server")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(logDir, "20260512.log"), []byte("log line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	id := e.startSession()
	resp := e.do("GET", "/diagnostics/"+id, nil)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zip" {
		t.Fatalf("status %d type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	var names []string
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
		names = append(names, f.Name)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "config.yaml,logs/server/20260512.log,session.json,system.txt" {
		t.Fatalf("zip entries %v", names)
	}
	var sess struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(files["session.json"]), &sess); err != nil || sess.ID != id {
		t.Fatalf("session.json %q: %v", files["session.json"], err)
	}
	if files["logs/server/20260512.log"] != "log line\n" || !strings.Contains(files["config.yaml"], "GOOSE_PROVIDER: fake") {
		t.Fatalf("zip contents %v", files)
	}
	code, msg := e.call("GET", "/diagnostics/20990101_1", nil)
	if code != 404 || !strings.HasPrefix(msg, `{"message":"Failed to generate diagnostics: `) {
		t.Fatalf("unknown session: %d %s, want 404", code, msg)
	}
	code, msg = e.call("POST", "/config/providers/no-such-provider/cleanup", nil)
	if code != 404 || msg != `{"message":"Unknown provider: no-such-provider"}` {
		t.Fatalf("unknown provider cleanup: %d %s, want 404", code, msg)
	}
}
