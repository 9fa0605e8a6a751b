package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/goose-acp/goose-acp/internal/cliconfig"
)

// newRunLogger is `goose-acp run`'s logger. Without --log-level or
// --log-file it keeps the terminal for the conversation, as goose's CLI
// does: records go to a log file under the state directory
// (<state>/logs/cli/<date>/<time>.log, at GOOSE_LOG_LEVEL or info) and only
// warnings and errors also reach stderr. Either flag restores cliconfig.NewLogger's
// behaviour. A log file that cannot be created leaves stderr alone (at
// WARN) rather than failing the run.
func newRunLogger(env *environment) (*slog.Logger, func() error, error) {
	if env.opts.logLevel != "" || env.opts.logFile != "" {
		return cliconfig.NewLogger(env.opts.logLevel, env.opts.logFile, env.stderr, env.getenv)
	}
	return newQuietLogger(env)
}

// newStdioLogger is the logger of ACP over stdio. Editors show what an
// agent writes on stderr: acp.el makes every chunk an error and
// agent-shell a "Notices" block, so by default only warnings and errors
// go to stderr and everything from info up to the log file, as `run`
// does. --log-level, --log-file or GOOSE_LOG_LEVEL choose cliconfig.NewLogger's
// behaviour instead (that level on stderr, or the given file).
func newStdioLogger(env *environment) (*slog.Logger, func() error, error) {
	if env.opts.logLevel != "" || env.opts.logFile != "" || env.getenv("GOOSE_LOG_LEVEL") != "" {
		return cliconfig.NewLogger(env.opts.logLevel, env.opts.logFile, env.stderr, env.getenv)
	}
	return newQuietLogger(env)
}

// newQuietLogger writes warnings and errors to stderr and every record
// from GOOSE_LOG_LEVEL (default info) up to this run's log file.
func newQuietLogger(env *environment) (*slog.Logger, func() error, error) {
	level := env.getenv("GOOSE_LOG_LEVEL")
	if level == "" {
		level = "info"
	}
	lvl, err := cliconfig.ParseLogLevel(level)
	if err != nil {
		return nil, nil, err
	}
	handlers := []slog.Handler{cliconfig.TextLogHandler(env.stderr, max(lvl, slog.LevelWarn))}
	closeFn := func() error { return nil }
	if f, err := openRunLogFile(env); err == nil {
		closeFn = f.Close
		handlers = append(handlers, cliconfig.JSONLogHandler(f, lvl))
	}
	logger := slog.New(slog.NewMultiHandler(handlers...))
	slog.SetDefault(logger)
	return logger, closeFn, nil
}

// openRunLogFile creates this run's log file where goose's CLI keeps its
// logs.
func openRunLogFile(env *environment) (*os.File, error) {
	_, paths, err := cliconfig.ResolvePaths(env.getenv)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	dir := filepath.Join(paths.LogsDir(), "cli", now.Format("2006-01-02"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return os.OpenFile(filepath.Join(dir, now.Format("20060102_150405")+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
}
