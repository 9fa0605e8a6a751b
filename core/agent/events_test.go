package agent

import (
	"context"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// A rate-limited provider's retry is an event of the turn, before the
// wait and before the reply it ends in.
func TestProviderRetryIsATurnEvent(t *testing.T) {
	limited := &provider.Error{Kind: provider.KindRateLimit, Provider: "fake", StatusCode: 429, Message: "slow down"}
	var waited []time.Duration
	h := newHarnessWith(t, nil, nil, step{err: limited}, say("done"))
	retrying := provider.WithRetry(h.prov, provider.RetryOptions{MaxRetries: 3, Initial: 2 * time.Second,
		Rand:  func() float64 { return 0 },
		Sleep: func(context.Context, time.Duration) error { return nil }})
	h.a.opts.Providers = func(context.Context, string, model.Config) (provider.Provider, error) { return retrying, nil }
	h.start(StartOptions{})
	_, evs := h.reply(context.Background(), "hi", nil)
	var retry *ProviderRetryEvent
	for i, ev := range evs {
		switch e := ev.(type) {
		case ProviderRetryEvent:
			retry = &e
			waited = append(waited, e.Delay)
		case MessageEvent:
			if e.Message.AsText() == "done" && retry == nil {
				t.Fatalf("the reply (event %d) came before the retry event: %v", i, evs)
			}
		}
	}
	if retry == nil {
		t.Fatalf("no ProviderRetryEvent in %v", evs)
	}
	if retry.Provider != "fake" || retry.Attempt != 1 || retry.Max != 3 || retry.Err == nil || len(waited) != 1 {
		t.Errorf("retry event %+v (waits %v)", *retry, waited)
	}
}

// An in-process tool's progress is an event of the turn, after the call's
// request and before its result; outside a turn (a face calling the tool
// directly) it goes to the session's holders.
func TestToolProgressIsASessionEvent(t *testing.T) {
	h := newHarness(t, mapConfig{"GOOSE_MODE": "auto"}, calls(call("c1", "tt__report", nil)), say("ok"))
	holder := &recordingHolder{}
	h.start(StartOptions{Holder: holder})
	_, evs := h.reply(context.Background(), "go", nil)
	requested, progressed := false, false
	for _, ev := range evs {
		switch e := ev.(type) {
		case MessageEvent:
			if len(e.Message.ToolRequests()) > 0 {
				requested = true
			}
			if len(e.Message.ToolResponses()) > 0 && !progressed {
				t.Fatalf("the result came before the progress: %v", evs)
			}
		case ToolProgressEvent:
			if !requested {
				t.Fatalf("progress before the tool request: %v", evs)
			}
			progressed = true
			if e.ToolCallID != "c1" || e.Kind != extension.ProgressLocations || e.Path != "/work/a.go" || len(e.Lines) != 1 || e.Lines[0] != 3 {
				t.Errorf("progress %+v", e.ToolProgress)
			}
		}
	}
	if !progressed {
		t.Fatalf("no ToolProgressEvent in %v", evs)
	}
	if got := holder.progressEvents(); len(got) != 0 {
		t.Fatalf("a turn's progress also went to the holder: %v", got)
	}
	if _, err := h.a.Extensions().CallTool(context.Background(), h.id, "tt__report", nil); err != nil {
		t.Fatal(err)
	}
	if got := holder.progressEvents(); len(got) != 1 || got[0].Kind != extension.ProgressLocations {
		t.Fatalf("outside a turn the holder got %v", got)
	}
}
