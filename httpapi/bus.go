package httpapi

import (
	"context"
	"strconv"
	"sync"
)

// Session event bus sizes (goosed's session_event_bus.rs).
const (
	// ReplayCapacity is how many events a bus keeps for Last-Event-ID replay.
	ReplayCapacity = 512
	// SubscriberCapacity is how far a live subscriber may lag before its
	// stream is closed (the client reconnects with Last-Event-ID).
	SubscriberCapacity = 256
)

// busEvent is one published event, framed once for every subscriber.
type busEvent struct {
	seq   uint64
	frame []byte // "id: <seq>\ndata: <json>\n\n"
}

// subscriber is one open GET /sessions/{id}/events stream. When its
// buffer is full it is marked lagged and woken: it then catches up from
// the replay ring (goosed closes the stream instead and lets the client
// replay; catching up server-side saves that round trip). ch is closed
// when the bus is dropped.
type subscriber struct {
	ch     chan busEvent
	wake   chan struct{}
	lagged bool // guarded by eventBus.mu
}

// eventBus is one session's event stream: sequence numbers from 1, a
// replay ring, live subscribers and the in-flight requests.
type eventBus struct {
	mu      sync.Mutex
	nextSeq uint64
	ring    []busEvent // circular, len ≤ ReplayCapacity
	head    int        // index of the oldest event once the ring is full
	subs    map[*subscriber]struct{}
	active  map[string]activeRequest
	order   []string // active request ids in registration order
	dropped bool

	// turn serialises the agent turns of this session: a cancelled
	// request stops counting as active at once (as in goosed), but the
	// next turn starts only when it has finished.
	turn sync.Mutex
}

type activeRequest struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func newEventBus() *eventBus {
	return &eventBus{nextSeq: 1, ring: make([]busEvent, 0, ReplayCapacity), subs: map[*subscriber]struct{}{}, active: map[string]activeRequest{}}
}

// publish numbers an event, keeps it for replay and hands it to every
// subscriber; a subscriber whose buffer is full is closed.
func (b *eventBus) publish(requestID string, ev wireEvent) uint64 {
	data := ev.busJSON(requestID)
	b.mu.Lock()
	defer b.mu.Unlock()
	seq := b.nextSeq
	b.nextSeq++
	frame := make([]byte, 0, len(data)+32)
	frame = append(frame, "id: "...)
	frame = strconv.AppendUint(frame, seq, 10)
	frame = append(frame, "\ndata: "...)
	frame = append(frame, data...)
	frame = append(frame, "\n\n"...)
	e := busEvent{seq: seq, frame: frame}
	if len(b.ring) < ReplayCapacity {
		b.ring = append(b.ring, e)
	} else {
		b.ring[b.head] = e
		b.head = (b.head + 1) % ReplayCapacity
	}
	for sub := range b.subs {
		if sub.lagged {
			continue
		}
		select {
		case sub.ch <- e:
		default:
			sub.lagged = true
			select {
			case sub.wake <- struct{}{}:
			default:
			}
		}
	}
	return seq
}

// buffered returns the replay ring oldest first.
func (b *eventBus) buffered() []busEvent {
	out := make([]busEvent, 0, len(b.ring))
	out = append(out, b.ring[b.head:]...)
	return append(out, b.ring[:b.head]...)
}

// subscription is what a new stream starts from.
type subscription struct {
	sub      *subscriber
	replay   []busEvent
	active   []string
	tooFar   bool
	closedUp bool
}

// subscribe registers a live subscriber and returns the events after
// lastID (all buffered ones when hasLast is false). Both happen under one
// lock, so nothing is lost or repeated between replay and live events.
// tooFar reports a lastID older than the oldest buffered event.
func (b *eventBus) subscribe(lastID uint64, hasLast bool) subscription {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped {
		return subscription{closedUp: true}
	}
	all := b.buffered()
	if hasLast && len(all) > 0 && lastID+1 < all[0].seq {
		return subscription{tooFar: true}
	}
	var replay []busEvent
	for _, e := range all {
		if !hasLast || e.seq > lastID {
			replay = append(replay, e)
		}
	}
	sub := &subscriber{ch: make(chan busEvent, SubscriberCapacity), wake: make(chan struct{}, 1)}
	b.subs[sub] = struct{}{}
	return subscription{sub: sub, replay: replay, active: append([]string(nil), b.order...)}
}

// catchUp returns the buffered events after lastSeq for a lagged
// subscriber and resumes live delivery; false when some of them were
// already evicted (the stream must close and the client reload).
func (b *eventBus) catchUp(sub *subscriber, lastSeq uint64) ([]busEvent, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	all := b.buffered()
	if len(all) > 0 && all[0].seq > lastSeq+1 {
		return nil, false
	}
	var out []busEvent
	for _, e := range all {
		if e.seq > lastSeq {
			out = append(out, e)
		}
	}
	sub.lagged = false
	return out, true
}

func (b *eventBus) unsubscribe(sub *subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.subs[sub]; ok {
		delete(b.subs, sub)
		close(sub.ch)
	}
}

// register starts a request; false when one is already active (one active
// request per session).
func (b *eventBus) register(parent context.Context, requestID string) (context.Context, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped {
		return nil, false
	}
	for id, a := range b.active {
		if a.ctx.Err() != nil {
			b.forgetLocked(id)
		}
	}
	if len(b.active) > 0 {
		return nil, false
	}
	ctx, cancel := context.WithCancel(parent)
	b.active[requestID] = activeRequest{ctx, cancel}
	b.order = append(b.order, requestID)
	return ctx, true
}

// done forgets a finished request.
func (b *eventBus) done(requestID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.forgetLocked(requestID)
}

func (b *eventBus) forgetLocked(requestID string) {
	a, ok := b.active[requestID]
	if !ok {
		return
	}
	a.cancel()
	delete(b.active, requestID)
	for i, id := range b.order {
		if id == requestID {
			b.order = append(b.order[:i], b.order[i+1:]...)
			break
		}
	}
}

// cancel cancels one request; false when it is not active.
func (b *eventBus) cancel(requestID string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := b.active[requestID]
	if ok {
		a.cancel()
	}
	return ok
}

func (b *eventBus) cancelAll() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, a := range b.active {
		a.cancel()
	}
}

// drop cancels everything and closes every subscriber (session deleted).
func (b *eventBus) drop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.dropped = true
	for _, a := range b.active {
		a.cancel()
	}
	for sub := range b.subs {
		close(sub.ch)
		delete(b.subs, sub)
	}
}

// buses are the sessions' event buses, one per session, shared by the
// chat routes and the routes that end a session's requests.
type buses struct {
	mu sync.Mutex
	m  map[string]*eventBus
}

func newBuses() *buses { return &buses{m: map[string]*eventBus{}} }

// get returns the session's bus, creating it.
func (bs *buses) get(id string) *eventBus {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	b, ok := bs.m[id]
	if !ok {
		b = newEventBus()
		bs.m[id] = b
	}
	return b
}

// existing returns the session's bus if one was created.
func (bs *buses) existing(id string) (*eventBus, bool) {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	b, ok := bs.m[id]
	return b, ok
}

// drop cancels the session's requests, closes its streams and waits for a
// running turn to stop writing.
func (bs *buses) drop(id string) {
	bs.mu.Lock()
	b, ok := bs.m[id]
	delete(bs.m, id)
	bs.mu.Unlock()
	if ok {
		b.drop()
		b.turn.Lock()
		b.turn.Unlock() //nolint:staticcheck // waiting for the turn is the point
	}
}

// cancelAll cancels every request of every bus.
func (bs *buses) cancelAll() {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	for _, b := range bs.m {
		b.cancelAll()
	}
}
