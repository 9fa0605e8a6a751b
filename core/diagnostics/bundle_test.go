package diagnostics

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/session"
)

type exportStore map[string]string

func (s exportStore) Get(_ context.Context, id string, _ bool) (session.Session, error) {
	return session.Session{ID: id}, nil
}

func (s exportStore) Export(_ context.Context, id string) ([]byte, error) {
	if b, ok := s[id]; ok {
		return []byte(b), nil
	}
	return nil, errors.New("session not found: " + id)
}

// TestBundleHoldsWhatGoosedShips: the zip has the session's export,
// system.txt, config.yaml and the newest ten log files (each cut at 10
// MiB) under logs/; a missing session is the store's error.
func TestBundleHoldsWhatGoosedShips(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("GOOSE_PROVIDER: openai\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	logs := filepath.Join(dir, "logs")
	base := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for i := range 12 {
		p := filepath.Join(logs, "server", fmt.Sprintf("%02d.log", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		data := []byte(fmt.Sprintf("line %d\n", i))
		if i == 11 {
			data = bytes.Repeat([]byte("x"), maxBundleLogBytes+5)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		mod := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	store := exportStore{"s1": `{"id":"s1"}`}
	sys := SystemInfo{AppVersion: "1.0.0", OS: "linux", OSVersion: "12", Architecture: "x86_64", EnabledExtensions: []string{}}
	b, err := Bundle(context.Background(), store, "s1", sys, cfg, logs)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	var names []string
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(data)
		names = append(names, f.Name)
	}
	sort.Strings(names)
	wantNames := "config.yaml,logs/server/02.log,logs/server/03.log,logs/server/04.log,logs/server/05.log,logs/server/06.log," +
		"logs/server/07.log,logs/server/08.log,logs/server/09.log,logs/server/10.log,logs/server/11.log,session.json,system.txt"
	if got := strings.Join(names, ","); got != wantNames {
		t.Fatalf("entries %s", got)
	}
	wantSys := "{\n  \"app_version\": \"1.0.0\",\n  \"os\": \"linux\",\n  \"os_version\": \"12\",\n  \"architecture\": \"x86_64\",\n  \"provider\": null,\n  \"model\": null,\n  \"enabled_extensions\": []\n}"
	if files["session.json"] != `{"id":"s1"}` || files["config.yaml"] != "GOOSE_PROVIDER: openai\n" || files["system.txt"] != wantSys ||
		files["logs/server/05.log"] != "line 5\n" || len(files["logs/server/11.log"]) != maxBundleLogBytes {
		t.Fatalf("contents: session %q config %q system %q log5 %q log11 %d bytes",
			files["session.json"], files["config.yaml"], files["system.txt"], files["logs/server/05.log"], len(files["logs/server/11.log"]))
	}
	if _, err := Bundle(context.Background(), store, "nope", sys, cfg, logs); err == nil || err.Error() != "session not found: nope" {
		t.Fatalf("missing session: %v", err)
	}
	if b, err := Bundle(context.Background(), store, "s1", sys, "", ""); err != nil || len(b) == 0 {
		t.Fatalf("no config, no logs: %v", err)
	}
}
