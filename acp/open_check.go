package acp

import (
	"context"
	"encoding/json"
)

// session/new's first check, whether a provider is usable
// (AuthOptions.Status: config.yaml, the secret store, the provider built
// once to see that it builds), needs nothing Options.Open builds. In a
// fresh process the editor's session/new usually arrives while the open
// (the session database) is still running on one core; the check then
// runs meanwhile on the request's own goroutine, and the handler takes
// its result where it checked before. Instrumented driver runs: the
// check was ~0.3 ms of the ~1.4 ms from the store open's end to the
// answer.

// providerCheckKey carries the early check's result in the request's
// context.
type providerCheckKey struct{}

// afterOpenChecked is afterOpen for session/new.
func (s *Server) afterOpenChecked(h RequestHandler) RequestHandler {
	wait := s.afterOpen(h)
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		s.startOpen()
		select {
		case <-s.ready:
		default:
			err := s.requireProvider()
			ctx = context.WithValue(ctx, providerCheckKey{}, &err)
		}
		return wait(ctx, raw)
	}
}

// checkedProvider is the provider check's result for this request: the
// early one when it ran while the open did, else check's.
func checkedProvider(ctx context.Context, check func() error) error {
	if err, ok := ctx.Value(providerCheckKey{}).(*error); ok {
		return *err
	}
	return check()
}
