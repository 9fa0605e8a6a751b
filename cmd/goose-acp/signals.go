package main

import (
	"context"
	"os"
	"os/signal"
)

// notifyContext is signal.NotifyContext without making main wait for it.
// os/signal's first Notify starts the runtime's signal thread and blocks
// until that thread has updated its signal mask; in a fresh process whose
// two cores are busy with its own start (the session database opening,
// initialize being answered) main waited 1.8–10 ms there, and the
// editor's first session/new with it. Here the subscription is made on
// its own goroutine: a signal that arrives before it is in place ends the
// process, as one before main would have. As with NotifyContext, once ctx
// is done (a signal, or cancel) the signals get their default behaviour
// back, so a second Ctrl-C ends the process.
func notifyContext(parent context.Context, signals ...os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	go func() {
		signal.Notify(ch, signals...)
		defer signal.Stop(ch)
		select {
		case <-ch:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}
