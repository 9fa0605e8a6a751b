package provider

import (
	"context"
	"errors"
	"testing"
	"time"
)

var rateLimited = &Error{Kind: KindRateLimit, Provider: "fake", StatusCode: 429, Message: "slow down"}

type sleepLog []time.Duration

func (s *sleepLog) sleep(_ context.Context, d time.Duration) error { *s = append(*s, d); return nil }

func collect(p Provider) (texts []string, err error) {
	for c, e := range p.Stream(context.Background(), Request{}) {
		if e != nil {
			return texts, e
		}
		texts = append(texts, c.Message.AsText())
	}
	return texts, nil
}

func TestRetryRateLimitThenSuccess(t *testing.T) {
	var slept sleepLog
	f := &fakeProvider{attempts: [][]fakeItem{{{err: rateLimited}}, {{err: rateLimited}}, {{text: "ok"}}}}
	p := WithRetry(f, RetryOptions{Sleep: slept.sleep, Rand: func() float64 { return 0.5 }})
	texts, err := collect(p)
	if err != nil || len(texts) != 1 || texts[0] != "ok" {
		t.Fatalf("texts %v err %v", texts, err)
	}
	if f.calls != 3 || len(slept) != 2 || slept[0] != time.Second || slept[1] != 2*time.Second {
		t.Fatalf("calls %d slept %v", f.calls, slept)
	}
}

func TestRetryGivesUpAfterThree(t *testing.T) {
	var slept sleepLog
	f := &fakeProvider{attempts: [][]fakeItem{{{err: rateLimited}}}}
	_, err := collect(WithRetry(f, RetryOptions{Sleep: slept.sleep, Rand: func() float64 { return 0 }}))
	if KindOf(err) != KindRateLimit || f.calls != 4 {
		t.Fatalf("err %v calls %d", err, f.calls)
	}
	want := []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond}
	for i := range want {
		if slept[i] != want[i] {
			t.Fatalf("slept %v want %v", slept, want)
		}
	}
}

func TestRetryBackoffCapAndJitter(t *testing.T) {
	o := RetryOptions{Rand: func() float64 { return 0.999999 }}
	if d := o.Delay(10, rateLimited); d != 30*time.Second {
		t.Fatalf("cap: %v", d)
	}
	if d := o.Delay(1, rateLimited); d < 1190*time.Millisecond || d > 1200*time.Millisecond {
		t.Fatalf("+20%% jitter: %v", d)
	}
	withHint := &Error{Kind: KindRateLimit, RetryAfter: 7 * time.Second}
	if d := o.Delay(1, withHint); d != 7*time.Second {
		t.Fatalf("Retry-After must win: %v", d)
	}
}

func TestRetryNeverAfterYield(t *testing.T) {
	var slept sleepLog
	f := &fakeProvider{attempts: [][]fakeItem{{{text: "partial"}, {err: rateLimited}}, {{text: "again"}}}}
	texts, err := collect(WithRetry(f, RetryOptions{Sleep: slept.sleep}))
	if KindOf(err) != KindRateLimit || len(texts) != 1 || f.calls != 1 || len(slept) != 0 {
		t.Fatalf("texts %v err %v calls %d", texts, err, f.calls)
	}
}

func TestRetryOnlyRateLimits(t *testing.T) {
	for _, k := range []Kind{KindAuth, KindServer, KindContextLength, KindNetwork} {
		f := &fakeProvider{attempts: [][]fakeItem{{{err: &Error{Kind: k}}}, {{text: "x"}}}}
		var slept sleepLog
		_, err := collect(WithRetry(f, RetryOptions{Sleep: slept.sleep}))
		if KindOf(err) != k || f.calls != 1 {
			t.Fatalf("%v: err %v calls %d", k, err, f.calls)
		}
	}
}

func TestRetryCompleteAndCancelledSleep(t *testing.T) {
	var slept sleepLog
	f := &fakeProvider{attempts: [][]fakeItem{{{err: rateLimited}}, {{text: "done"}}}}
	m, _, err := WithRetry(f, RetryOptions{Sleep: slept.sleep}).Complete(context.Background(), Request{})
	if err != nil || m.AsText() != "done" || len(slept) != 1 {
		t.Fatalf("m %v err %v", m, err)
	}
	f = &fakeProvider{attempts: [][]fakeItem{{{err: rateLimited}}}}
	cancelled := func(context.Context, time.Duration) error { return context.Canceled }
	_, err = collect(WithRetry(f, RetryOptions{Sleep: cancelled}))
	if !errors.Is(err, rateLimited) || f.calls != 1 {
		t.Fatalf("err %v calls %d", err, f.calls)
	}
}
