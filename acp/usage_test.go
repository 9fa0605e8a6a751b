package acp

import (
	"context"
	"log/slog"
	"testing"

	"github.com/goose-acp/goose-acp/core/session"
)

// TestUsageFrames: a turn's closing usage_update is not a copy of the one
// its last model call sent; a session with an accumulated cost carries it
// as cost {amount, currency}, and later frames of the turn keep it.
func TestUsageFrames(t *testing.T) {
	fl := &frameLog{}
	s := &Server{frames: fl, log: slog.New(slog.DiscardHandler)}
	n := &notifier{caps: s.clientCaps, notify: s.notify, log: s.log}
	as := &acpSession{id: "s1"}
	ctx := context.Background()
	total, cost := 1200, 0.0425
	sess := &session.Session{TotalTokens: &total, AccumulatedCost: &cost}
	n.sendUsage(ctx, as, sess) // setup
	as.usage.reset()
	n.sendUsageFrame(ctx, as, usageFrame{used: 1500, size: 128000})
	n.sendUsage(ctx, as, &session.Session{TotalTokens: ptrInt(1500), AccumulatedCost: &cost}) // same as the last: not sent
	want := []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":1200,"size":128000,"cost":{"amount":0.0425,"currency":"USD"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":1500,"size":128000,"cost":{"amount":0.0425,"currency":"USD"}}}}`,
	}
	if len(fl.frames) != len(want) {
		t.Fatalf("frames = %q", fl.frames)
	}
	for i := range want {
		if fl.frames[i] != want[i] {
			t.Errorf("frame %d = %s\nwant %s", i, fl.frames[i], want[i])
		}
	}
}

func ptrInt(n int) *int { return &n }
