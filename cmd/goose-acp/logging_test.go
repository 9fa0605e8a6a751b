package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The editor's default logger: warnings on stderr in text, every record
// from info up in this run's log file as JSON, and nothing on stderr for
// a process that only logs at info.
func TestQuietLoggerOutputs(t *testing.T) {
	prev := slog.Default()
	t.Cleanup(func() { slog.SetDefault(prev) }) // newQuietLogger sets the default
	home := t.TempDir()
	var stderr bytes.Buffer
	getenv := func(k string) string {
		return map[string]string{"HOME": home, "GOOSE_PATH_ROOT": home}[k]
	}
	log, closeFn, err := newQuietLogger(&environment{stderr: &stderr, getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	log.With("session", "s1").Info("extension connected", "extension", "developer")
	if stderr.Len() != 0 {
		t.Fatalf("stderr after an info record: %q", stderr.String())
	}
	log.Warn("skipping extension entry that does not parse", "key", "x")
	if err := closeFn(); err != nil {
		t.Fatal(err)
	}
	if got := stderr.String(); !strings.Contains(got, ` level=WARN msg="skipping extension entry that does not parse" key=x`) {
		t.Fatalf("stderr: %q", got)
	}
	files, _ := filepath.Glob(filepath.Join(home, "state", "logs", "cli", "*", "*.log"))
	if len(files) != 1 {
		t.Fatalf("log files: %v", files)
	}
	b, _ := os.ReadFile(files[0])
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 ||
		!strings.Contains(lines[0], `"level":"info","msg":"extension connected","session":"s1","extension":"developer"}`) ||
		!strings.Contains(lines[1], `"level":"warn","msg":"skipping extension entry that does not parse","key":"x"}`) {
		t.Fatalf("log file:\n%s", b)
	}
}

// GOOSE_LOG_LEVEL that is not a level is the quiet logger's error too.
func TestQuietLoggerRejectsABadLevel(t *testing.T) {
	getenv := func(k string) string { return map[string]string{"GOOSE_LOG_LEVEL": "loud"}[k] }
	if _, _, err := newQuietLogger(&environment{stderr: &bytes.Buffer{}, getenv: getenv}); err == nil || err.Error() != `invalid log level "loud" (want debug, info, warn or error)` {
		t.Fatalf("err: %v", err)
	}
}
