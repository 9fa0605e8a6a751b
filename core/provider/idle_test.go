package provider

import (
	"context"
	"iter"
	"testing"
	"testing/synctest"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestIdleTimeoutFailsStalledStream(t *testing.T) {
	f := &fakeProvider{attempts: [][]fakeItem{{{text: "a"}}}, hang: true}
	texts, err := collect(IdleTimeout(f, 50*time.Millisecond))
	if len(texts) != 1 || KindOf(err) != KindNetwork {
		t.Fatalf("texts %v err %v", texts, err)
	}
	want := "fake: network error: Stream stalled: no data received from server for 0.05 seconds. Set GOOSE_STREAM_TIMEOUT to adjust (current: 0.05s)."
	if err.Error() != want {
		t.Fatalf("got %q\nwant %q", err.Error(), want)
	}
}

// The watchdog tests that must not fire run in synctest's virtual time:
// a loaded machine's scheduling delays cannot trip them.

func TestIdleTimeoutIgnoresConsumerTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeProvider{attempts: [][]fakeItem{{{text: "a"}, {text: "b"}}}}
		n := 0
		for _, err := range IdleTimeout(f, 30*time.Millisecond).Stream(context.Background(), Request{}) {
			if err != nil {
				t.Fatal(err)
			}
			n++
			time.Sleep(60 * time.Millisecond) // slow consumer must not trip the watchdog
		}
		if n != 2 {
			t.Fatalf("got %d chunks", n)
		}
	})
}

func TestIdleTimeoutCallerCancelIsNotStall(t *testing.T) {
	f := &fakeProvider{attempts: [][]fakeItem{{{text: "a"}}}, hang: true}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	var last error
	for _, err := range IdleTimeout(f, time.Hour).Stream(ctx, Request{}) {
		last = err
	}
	if last != context.DeadlineExceeded {
		t.Fatalf("got %v", last)
	}
}

// touchingProvider sends keep-alives (Touch) for a while before its one
// chunk, like a server streaming comments or tool-call fragments.
type touchingProvider struct{ fakeProvider }

func (tp *touchingProvider) Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		touch := Toucher(ctx)
		// 20 keep-alives 20 ms apart outlast the 150 ms watchdog several
		// times over.
		for range 20 {
			select {
			case <-time.After(20 * time.Millisecond):
				touch()
			case <-ctx.Done():
				yield(Chunk{}, ctx.Err())
				return
			}
		}
		m := conversation.AssistantText(0, "late")
		yield(Chunk{Message: &m}, nil)
	}
}

func TestIdleTimeoutResetByTouch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		texts, err := collect(IdleTimeout(&touchingProvider{}, 150*time.Millisecond))
		if err != nil || len(texts) != 1 {
			t.Fatalf("texts %v err %v", texts, err)
		}
	})
	if Toucher(context.Background()) != nil {
		t.Fatal("no watchdog, no toucher")
	}
}
