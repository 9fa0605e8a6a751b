package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	charmlog "github.com/charmbracelet/log"
)

// A lazy handler writes exactly what the handler it builds writes, through
// derived handlers too, and builds nothing until a record is enabled.
func TestLazyHandlerWritesAsTheHandlerItBuilds(t *testing.T) {
	for _, f := range []charmlog.Formatter{charmlog.TextFormatter, charmlog.JSONFormatter} {
		for _, lvl := range []charmlog.Level{charmlog.DebugLevel, charmlog.InfoLevel, charmlog.WarnLevel} {
			var eagerOut, lazyOut bytes.Buffer
			opts := charmlog.Options{Level: lvl, ReportTimestamp: true, Prefix: "goose-acp", Formatter: f}
			eager := slog.Handler(charmlog.NewWithOptions(&eagerOut, opts))
			builds := 0
			lazy := slog.Handler(newLazyHandler(slog.Level(lvl), func() slog.Handler {
				builds++
				return charmlog.NewWithOptions(&lazyOut, opts)
			}))
			at := time.Date(2026, 11, 28, 19, 40, 1, 0, time.Local)
			steps := []func(h slog.Handler) slog.Handler{
				func(h slog.Handler) slog.Handler { return h.WithAttrs([]slog.Attr{slog.String("session", "s1")}) },
				func(h slog.Handler) slog.Handler { return h.WithGroup("store") },
				func(h slog.Handler) slog.Handler { return h.WithAttrs([]slog.Attr{slog.Int("n", 3)}) },
			}
			for i, step := range append([]func(slog.Handler) slog.Handler{func(h slog.Handler) slog.Handler { return h }}, steps...) {
				eager, lazy = step(eager), step(lazy)
				if builds != 0 {
					t.Fatalf("%v/%v: built by deriving a handler (step %d)", f, lvl, i)
				}
				for _, level := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError} {
					if eager.Enabled(context.Background(), level) != lazy.Enabled(context.Background(), level) {
						t.Fatalf("%v/%v: Enabled(%v) differs", f, lvl, level)
					}
				}
			}
			for _, level := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError} {
				r := slog.NewRecord(at, level, "extension connected", 0)
				r.AddAttrs(slog.String("extension", "developer"), slog.Any("err", os.ErrNotExist))
				if eager.Enabled(context.Background(), level) {
					if err := eager.Handle(context.Background(), r); err != nil {
						t.Fatal(err)
					}
					if err := lazy.Handle(context.Background(), r); err != nil {
						t.Fatal(err)
					}
				}
			}
			if eagerOut.Len() == 0 || eagerOut.String() != lazyOut.String() {
				t.Fatalf("%v/%v: lazy wrote\n%q\nthe handler itself\n%q", f, lvl, lazyOut.String(), eagerOut.String())
			}
		}
	}
}

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
	if got := stderr.String(); !strings.Contains(got, "WARN goose-acp: skipping extension entry that does not parse key=x") {
		t.Fatalf("stderr: %q", got)
	}
	files, _ := filepath.Glob(filepath.Join(home, "state", "logs", "cli", "*", "*.log"))
	if len(files) != 1 {
		t.Fatalf("log files: %v", files)
	}
	b, _ := os.ReadFile(files[0])
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 ||
		!strings.Contains(lines[0], `"level":"info","prefix":"goose-acp","msg":"extension connected","session":"s1","extension":"developer"}`) ||
		!strings.Contains(lines[1], `"level":"warn","prefix":"goose-acp","msg":"skipping extension entry that does not parse","key":"x"}`) {
		t.Fatalf("log file:\n%s", b)
	}
}
