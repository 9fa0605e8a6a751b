package main

import (
	"context"
	"log/slog"
	"sync"
)

// lazyHandler is a handler built when it first has a record to write (or
// one derived from it does). newQuietLogger's charmbracelet/log handlers
// cost ~0.1 ms to build (lipgloss styles, the output's terminal profile)
// before an editor's process can serve, and the stderr one (warnings and
// errors) usually never writes. The output is the built handler's: level
// is the level it was built with, so Enabled answers as it would.
type lazyHandler struct {
	level slog.Level
	h     func() slog.Handler
}

func newLazyHandler(level slog.Level, build func() slog.Handler) *lazyHandler {
	return &lazyHandler{level: level, h: sync.OnceValue(build)}
}

func (l *lazyHandler) Enabled(_ context.Context, level slog.Level) bool { return level >= l.level }

func (l *lazyHandler) Handle(ctx context.Context, r slog.Record) error { return l.h().Handle(ctx, r) }

func (l *lazyHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return newLazyHandler(l.level, func() slog.Handler { return l.h().WithAttrs(attrs) })
}

func (l *lazyHandler) WithGroup(name string) slog.Handler {
	return newLazyHandler(l.level, func() slog.Handler { return l.h().WithGroup(name) })
}
