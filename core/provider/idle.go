package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"time"
)

// DefaultStreamIdleTimeout is goose's GOOSE_STREAM_TIMEOUT default.
const DefaultStreamIdleTimeout = 300 * time.Second

// errStalled is the cancel cause the idle watchdog sets.
var errStalled = errors.New("stream stalled")

// IdleTimeout wraps p so that a stream that delivers nothing for d fails
// with a KindNetwork error (goose's "Stream stalled" text) instead of
// hanging. Time the caller spends handling a chunk does not count.
func IdleTimeout(p Provider, d time.Duration) Provider {
	if d <= 0 {
		return p
	}
	return &idleWatch{Provider: p, d: d}
}

type idleWatch struct {
	Provider
	d time.Duration
}

// Unwrap returns the wrapped provider.
func (w *idleWatch) Unwrap() Provider { return w.Provider }

func (w *idleWatch) Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		inner, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		timer := time.AfterFunc(w.d, func() { cancel(errStalled) })
		defer timer.Stop()
		inner = context.WithValue(inner, touchKey{}, func() { timer.Reset(w.d) })
		stalled := func() bool { return errors.Is(context.Cause(inner), errStalled) && ctx.Err() == nil }
		for c, err := range w.Provider.Stream(inner, req) {
			timer.Stop()
			if stalled() {
				yield(Chunk{}, StalledError(w.Provider.Metadata().Name, w.d))
				return
			}
			if !yield(c, err) || err != nil {
				return
			}
			timer.Reset(w.d)
		}
		if stalled() {
			// The backend ended quietly after the watchdog cancelled it.
			yield(Chunk{}, StalledError(w.Provider.Metadata().Name, w.d))
		}
	}
}

// StalledError is the error for a stream idle longer than d, with goose's
// wording.
func StalledError(providerName string, d time.Duration) *Error {
	s := strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
	return &Error{Kind: KindNetwork, Provider: providerName, Err: errStalled, Message: fmt.Sprintf(
		"Stream stalled: no data received from server for %s seconds. Set GOOSE_STREAM_TIMEOUT to adjust (current: %ss).", s, s)}
}

type touchKey struct{}

// Toucher returns the liveness callback of an enclosing IdleTimeout, or
// nil. Backends call it for every line or event they receive, so a stream
// that is busy but not yet yielding (keep-alive comments, tool-call
// arguments being accumulated) is not mistaken for a stalled one.
func Toucher(ctx context.Context) func() {
	f, _ := ctx.Value(touchKey{}).(func())
	return f
}
