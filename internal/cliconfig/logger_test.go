package cliconfig

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseLogLevel(t *testing.T) {
	for in, want := range map[string]slog.Level{"debug": slog.LevelDebug, "INFO": slog.LevelInfo, "Warn": slog.LevelWarn, "error": slog.LevelError} {
		if got, err := ParseLogLevel(in); err != nil || got != want {
			t.Errorf("ParseLogLevel(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "fatal", "warning", "info+2", "loud"} {
		if _, err := ParseLogLevel(in); err == nil || err.Error() != `invalid log level "`+in+`" (want debug, info, warn or error)` {
			t.Errorf("ParseLogLevel(%q): %v", in, err)
		}
	}
}

// A log file is JSON lines with the level in lower case, as earlier
// versions wrote it; an attribute of a group that is named "level" is the
// caller's and keeps its value.
func TestJSONLogHandlerLowercasesTheRecordsLevel(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(JSONLogHandler(&out, slog.LevelInfo))
	log.Debug("not written")
	log.Warn("skipping extension entry", "key", "x", slog.Group("g", "level", slog.LevelError))
	line := out.String()
	if strings.Count(line, "\n") != 1 || !strings.Contains(line, `"level":"warn","msg":"skipping extension entry","key":"x","g":{"level":"ERROR"}}`) {
		t.Fatalf("log line: %q", line)
	}
}

// Without a file the logger writes text to stderr from its level up; with
// one it writes JSON there and nothing to stderr.
func TestNewLoggerWritesStderrOrItsFile(t *testing.T) {
	prev := slog.Default()
	t.Cleanup(func() { slog.SetDefault(prev) }) // NewLogger sets the default
	getenv := func(k string) string { return map[string]string{"GOOSE_LOG_LEVEL": "warn"}[k] }
	var stderr bytes.Buffer
	log, closeFn, err := NewLogger("", "", &stderr, getenv)
	if err != nil {
		t.Fatal(err)
	}
	log.Info("quiet")
	log.Warn("loud", "n", 3)
	if got := stderr.String(); strings.Contains(got, "quiet") || !strings.Contains(got, ` level=WARN msg=loud n=3`) {
		t.Fatalf("stderr: %q", got)
	}
	if err := closeFn(); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	file := filepath.Join(t.TempDir(), "goose-acp.log")
	log, closeFn, err = NewLogger("debug", file, &stderr, getenv)
	if err != nil {
		t.Fatal(err)
	}
	log.Debug("connected", "extension", "developer")
	if err := closeFn(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	if stderr.Len() != 0 || !strings.HasSuffix(string(b), `"level":"debug","msg":"connected","extension":"developer"}`+"\n") {
		t.Fatalf("stderr %q, file %q", stderr.String(), b)
	}
}
