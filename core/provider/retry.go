package provider

import (
	"context"
	"iter"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// RetryOptions configures WithRetry. Zero fields take goose's defaults
// (providers/retry.rs): 3 retries, 1 s initial delay doubling up to 30 s,
// jitter ×[0.8, 1.2].
type RetryOptions struct {
	MaxRetries int
	Initial    time.Duration
	Multiplier float64
	Max        time.Duration
	// Sleep waits d or until ctx ends; tests inject a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns a float in [0, 1) for jitter.
	Rand   func() float64
	Logger *slog.Logger
}

func (o RetryOptions) withDefaults() RetryOptions {
	if o.MaxRetries == 0 {
		o.MaxRetries = 3
	}
	if o.Initial == 0 {
		o.Initial = time.Second
	}
	if o.Multiplier == 0 {
		o.Multiplier = 2
	}
	if o.Max == 0 {
		o.Max = 30 * time.Second
	}
	if o.Sleep == nil {
		o.Sleep = sleepCtx
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Delay returns the wait before retry number attempt (1-based): the
// server's Retry-After when it gave one, else the jittered exponential
// backoff capped at Max.
func (o RetryOptions) Delay(attempt int, err error) time.Duration {
	o = o.withDefaults()
	if pe, ok := asError(err); ok && pe.RetryAfter > 0 {
		return pe.RetryAfter
	}
	d := float64(o.Initial)
	for i := 1; i < attempt; i++ {
		d *= o.Multiplier
	}
	d *= 0.8 + 0.4*o.Rand()
	return min(time.Duration(d), o.Max)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WithRetry wraps p so that rate-limit failures (KindRateLimit) are retried
// as goose does; every other error passes through at once. A stream is
// retried only while it has yielded nothing, so callers never see a
// reply twice.
func WithRetry(p Provider, opts RetryOptions) Provider {
	return &retrying{Provider: p, opts: opts.withDefaults()}
}

type retrying struct {
	Provider
	opts RetryOptions
}

// Unwrap returns the wrapped provider.
func (r *retrying) Unwrap() Provider { return r.Provider }

func (r *retrying) Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		for attempt := 0; ; attempt++ {
			yielded := false
			var failed error
			for c, err := range r.Provider.Stream(ctx, req) {
				if err != nil {
					failed = err
					break
				}
				yielded = true
				if !yield(c, nil) {
					return
				}
			}
			if failed == nil {
				return
			}
			if yielded || !r.shouldRetry(ctx, attempt, failed) {
				yield(Chunk{}, failed)
				return
			}
		}
	}
}

func (r *retrying) Complete(ctx context.Context, req Request) (conversation.Message, ProviderUsage, error) {
	for attempt := 0; ; attempt++ {
		m, u, err := r.Provider.Complete(ctx, req)
		if err == nil || !r.shouldRetry(ctx, attempt, err) {
			return m, u, err
		}
	}
}

// shouldRetry reports whether err is retryable and attempts remain, and
// then sleeps the backoff. A cancelled sleep ends retrying.
func (r *retrying) shouldRetry(ctx context.Context, attempt int, err error) bool {
	if KindOf(err) != KindRateLimit || attempt >= r.opts.MaxRetries {
		return false
	}
	d := r.opts.Delay(attempt+1, err)
	r.opts.Logger.Warn("provider rate limited; retrying",
		"provider", r.Provider.Metadata().Name, "attempt", attempt+1, "delay", d)
	observeRetry(ctx, RetryNotice{Provider: r.Provider.Metadata().Name, Attempt: attempt + 1, Max: r.opts.MaxRetries, Delay: d, Err: err})
	return r.opts.Sleep(ctx, d) == nil
}
