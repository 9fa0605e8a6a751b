package acp

import (
	"context"
	"sync"
)

// terminalReleases holds back terminal/release of a delegated terminal
// until the tool call's final tool_call_update has been sent. Zed drops a
// terminal on release; an update naming it afterwards fails ("Terminal
// with id … not found") and the card loses its output and exit code.
type terminalReleases struct {
	mu sync.Mutex
	// calls maps a terminal id to the tool call it runs for.
	calls map[string]string
	// held are the released terminals of each tool call not yet finished.
	held map[string][]string
	// ended: the turn is over (a cancelled turn ends before its tools do),
	// so a release arriving now is sent at once.
	ended bool
}

// track records which tool call a terminal belongs to.
func (r *terminalReleases) track(terminalID, toolCallID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = map[string]string{}
	}
	r.calls[terminalID] = toolCallID
}

// begin starts a turn: releases are held again. Only a turn's start does
// this — a terminal tracked after a cancelled turn ended (its tool was
// still starting it) must be released at once, or nobody ever would.
func (r *terminalReleases) begin() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = false
}

// hold keeps a release for later; false when the terminal belongs to no
// known tool call (release it now).
func (r *terminalReleases) hold(terminalID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	call, ok := r.calls[terminalID]
	if !ok {
		return false
	}
	delete(r.calls, terminalID)
	if r.ended {
		return false
	}
	if r.held == nil {
		r.held = map[string][]string{}
	}
	r.held[call] = append(r.held[call], terminalID)
	return true
}

// take returns (and forgets) the held terminals of one tool call, or of
// every call when toolCallID is "".
func (r *terminalReleases) take(toolCallID string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if toolCallID != "" {
		ids := r.held[toolCallID]
		delete(r.held, toolCallID)
		return ids
	}
	r.ended = true
	var ids []string
	for call, t := range r.held {
		ids = append(ids, t...)
		delete(r.held, call)
	}
	return ids
}

// releaseHeld sends terminal/release for the terminals held for a tool
// call ("" = all of the session's, at the end of a turn) once its final
// update is out. The release must reach the editor even after a cancel.
func (p *promptAPI) releaseHeld(ctx context.Context, as *acpSession, toolCallID string) {
	ids := as.term.take(toolCallID)
	if len(ids) == 0 {
		return
	}
	t := &terminal{peer: p.peer, sessionID: as.id}
	for _, id := range ids {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), terminalCreateTimeout)
		if err := t.send(rctx, id); err != nil {
			p.log.Warn("terminal release failed", "session", as.id, "terminal_id", id, "err", err)
		}
		cancel()
	}
}
