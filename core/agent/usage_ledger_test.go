package agent

import (
	"context"
	"reflect"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
)

// TestUsageLedgerPerProviderCall: every provider usage report reaches the
// store as one usage_ledger record (goose's record_usage_metrics), and a
// compaction's summary call is marked as one.
func TestUsageLedgerPerProviderCall(t *testing.T) {
	u := provider.NewUsage(3, 4)
	h := newHarness(t, nil, step{text: []string{"hi"}, usage: &u})
	h.start(StartOptions{})
	if out, _ := h.reply(context.Background(), "x", nil); out.StopReason != EndTurn {
		t.Fatalf("stop = %v %v", out.StopReason, out.Err)
	}
	h.a.recordCompaction(context.Background(), h.a.sessions[h.id], nil,
		provider.ProviderUsage{Model: "summarizer", Usage: provider.NewUsage(10, 5)})
	seven, three, four, fifteen, ten, five := 7, 3, 4, 15, 10, 5
	want := []session.UsageRecord{
		{Model: "fake-model", Input: &three, Output: &four, Total: &seven},
		{Model: "summarizer", Input: &ten, Output: &five, Total: &fifteen, IsCompaction: true},
	}
	h.store.mu.Lock()
	defer h.store.mu.Unlock()
	if !reflect.DeepEqual(h.store.usage, want) {
		t.Fatalf("usage records = %s, want %s", toJSON(t, h.store.usage), toJSON(t, want))
	}
}
