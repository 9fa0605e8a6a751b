package agent

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestFinishedTurnNotRetained: once a turn is over nothing the open session
// keeps (its checkpoint book's warning callback included) holds the turn,
// so the turn's copy of a long conversation is collectable between turns
// and as soon as the conversation cache lets go of it on close.
func TestFinishedTurnNotRetained(t *testing.T) {
	h := newHarness(t, nil, say("done"))
	h.start(StartOptions{})
	collected := make(chan struct{})
	var once sync.Once
	h.reply(context.Background(), "hi", func(Event) {
		once.Do(func() {
			s, err := h.a.session(h.id)
			if err != nil {
				t.Error(err)
				return
			}
			s.mu.Lock()
			running := s.turn
			s.mu.Unlock()
			runtime.AddCleanup(running, func(ch chan struct{}) { close(ch) }, collected)
		})
	})
	if _, err := h.a.session(h.id); err != nil {
		t.Fatal(err) // the session stays open
	}
	for range 50 {
		runtime.GC()
		select {
		case <-collected:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("the finished turn is still reachable from the open session")
}
