package main

import "sync"

// titleHub fans the agent's background session titles out to every
// connected adapter (the ACP connection and, with --http, the goosed API),
// since a title generated after a turn has no running turn to travel in.
type titleHub struct {
	mu   sync.Mutex
	next int
	subs map[int]func(sessionID, title string)
}

// publish is the agent's OnTitle.
func (h *titleHub) publish(sessionID, title string) {
	h.mu.Lock()
	subs := make([]func(string, string), 0, len(h.subs))
	for _, f := range h.subs {
		subs = append(subs, f)
	}
	h.mu.Unlock()
	for _, f := range subs {
		f(sessionID, title)
	}
}

// subscribe registers f until the returned function is called.
func (h *titleHub) subscribe(f func(sessionID, title string)) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs = map[int]func(string, string){}
	}
	id := h.next
	h.next++
	h.subs[id] = f
	return func() {
		h.mu.Lock()
		delete(h.subs, id)
		h.mu.Unlock()
	}
}
