package agent

import (
	"context"
	"testing"
	"time"

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
		Rand: func() float64 { return 0 },
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
