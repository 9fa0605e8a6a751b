package acp

import (
	"context"
	"log/slog"
	"strings"
	"testing"
)

// frameLog records the frames a Server writes.
type frameLog struct{ frames []string }

func (f *frameLog) WriteFrame(b []byte, _ bool) error {
	f.frames = append(f.frames, string(b))
	return nil
}
func (f *frameLog) Flush() error { return nil }

// TestNotifyHonoursContext: an update whose context has ended (its tool
// call or request was cancelled, the connection closed) is not sent.
func TestNotifyHonoursContext(t *testing.T) {
	fl := &frameLog{}
	s := &Server{frames: fl, log: slog.New(slog.DiscardHandler)}
	u := SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: "call_1", Status: "in_progress"}
	ctx, cancel := context.WithCancel(context.Background())
	s.notify(ctx, "s1", u)
	cancel()
	s.notify(ctx, "s1", u)
	s.notify(context.WithoutCancel(ctx), "s1", u)
	if len(fl.frames) != 2 || !strings.Contains(fl.frames[0], `"toolCallId":"call_1"`) {
		t.Fatalf("frames = %q, want the live and the detached update only", fl.frames)
	}
}

// TestInProgressOncePerCall: in_progress is reported once per tool call,
// in its own set (not mixed into the terminal-display set).
func TestInProgressOncePerCall(t *testing.T) {
	fl := &frameLog{}
	s := &Server{frames: fl, log: slog.New(slog.DiscardHandler)}
	p := &promptAPI{notify: s.notify}
	as := &acpSession{id: "s1"}
	for range 2 {
		p.markInProgress(context.Background(), as, "call_1")
	}
	p.markInProgress(context.Background(), as, "")
	if len(fl.frames) != 1 || len(as.terminals) != 0 || !as.inProgress["call_1"] {
		t.Fatalf("frames %q, terminals %v, inProgress %v", fl.frames, as.terminals, as.inProgress)
	}
}
