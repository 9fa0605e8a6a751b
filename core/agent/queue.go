package agent

import "sync"

// eventQueue carries out-of-band events (MCP notifications, elicitation
// requests) from extension goroutines to the reply goroutine. push never
// blocks, so a chatty server cannot stall its connection.
type eventQueue struct {
	mu     sync.Mutex
	items  []Event
	closed bool
	signal chan struct{}
}

func newEventQueue() *eventQueue { return &eventQueue{signal: make(chan struct{}, 1)} }

func (q *eventQueue) push(ev Event) bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	q.items = append(q.items, ev)
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
	return true
}

func (q *eventQueue) drain() []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.items
	q.items = nil
	return out
}

// close stops accepting events and returns what was left.
func (q *eventQueue) close() []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	out := q.items
	q.items = nil
	return out
}
