package provider

import (
	"context"
	"time"
)

// RetryNotice describes one retry WithRetry is about to make.
type RetryNotice struct {
	Provider string
	Attempt  int // 1 for the first retry
	Max      int
	Delay    time.Duration
	Err      error
}

type retryObserverKey struct{}

// WithRetryObserver returns ctx carrying f, which WithRetry calls before
// each retry it makes for a request under ctx. The agent's turn sets it
// and reports each retry as an event on the session's stream
// (agent.ProviderRetryEvent), so faces learn of retries there.
func WithRetryObserver(ctx context.Context, f func(RetryNotice)) context.Context {
	return context.WithValue(ctx, retryObserverKey{}, f)
}

func observeRetry(ctx context.Context, n RetryNotice) {
	if f, ok := ctx.Value(retryObserverKey{}).(func(RetryNotice)); ok && f != nil {
		f(n)
	}
}
