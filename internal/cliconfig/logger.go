package cliconfig

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	charmlog "github.com/charmbracelet/log"
)

// NewLogger builds the process logger: a charmbracelet/log handler writing
// to stderr or to a log file, never to stdout (stdout carries protocol
// frames). The level comes from level, else GOOSE_LOG_LEVEL, else "info".
func NewLogger(level, file string, stderr io.Writer, getenv func(string) string) (*slog.Logger, func() error, error) {
	if level == "" {
		level = getenv("GOOSE_LOG_LEVEL")
	}
	if level == "" {
		level = "info"
	}
	lvl, err := charmlog.ParseLevel(strings.ToLower(level))
	if err != nil {
		return nil, nil, fmt.Errorf("invalid log level %q (want debug, info, warn or error)", level)
	}
	out, closeFn := stderr, func() error { return nil }
	formatter := charmlog.TextFormatter
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("open log file: %w", err)
		}
		out, closeFn, formatter = f, f.Close, charmlog.JSONFormatter
	}
	h := charmlog.NewWithOptions(out, charmlog.Options{
		Level:           lvl,
		ReportTimestamp: true,
		Prefix:          "goose-acp",
		Formatter:       formatter,
	})
	logger := slog.New(h)
	// Libraries that write to the standard log package (genai does on
	// stream errors) go through the same handler, never to stdout.
	slog.SetDefault(logger)
	return logger, closeFn, nil
}
