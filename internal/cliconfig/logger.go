package cliconfig

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
)

// NewLogger builds the process logger: log/slog's text handler writing to
// stderr, or its JSON handler writing to a log file, never to stdout
// (stdout carries protocol frames). The level comes from level, else
// GOOSE_LOG_LEVEL, else "info".
func NewLogger(level, file string, stderr io.Writer, getenv func(string) string) (*slog.Logger, func() error, error) {
	if level == "" {
		level = getenv("GOOSE_LOG_LEVEL")
	}
	if level == "" {
		level = "info"
	}
	lvl, err := ParseLogLevel(level)
	if err != nil {
		return nil, nil, err
	}
	h, closeFn := TextLogHandler(stderr, lvl), func() error { return nil }
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("open log file: %w", err)
		}
		h, closeFn = JSONLogHandler(f, lvl), f.Close
	}
	logger := slog.New(h)
	// Libraries that write to the standard log package (genai does on
	// stream errors) go through the same handler, never to stdout.
	slog.SetDefault(logger)
	return logger, closeFn, nil
}

// ParseLogLevel reads --log-level and GOOSE_LOG_LEVEL: debug, info, warn or
// error, in any case.
func ParseLogLevel(level string) (slog.Level, error) {
	switch strings.ToLower(level) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("invalid log level %q (want debug, info, warn or error)", level)
}

// TextLogHandler writes records at level and above as slog's text lines
// (stderr, where an editor shows them).
func TextLogHandler(w io.Writer, level slog.Leveler) slog.Handler {
	return slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})
}

// JSONLogHandler writes records at level and above as JSON lines (a log
// file), the level in lower case ("level":"info") as the log files of
// earlier goose-acp versions have it.
func JSONLogHandler(w io.Writer, level slog.Leveler) slog.Handler {
	return slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: lowerLevel})
}

func lowerLevel(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.LevelKey {
		if l, ok := a.Value.Any().(slog.Level); ok {
			return slog.String(slog.LevelKey, strings.ToLower(l.String()))
		}
	}
	return a
}
