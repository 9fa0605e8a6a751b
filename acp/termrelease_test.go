package acp

import (
	"context"
	"log/slog"
	"slices"
	"testing"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/developer"
)

// A cancelled turn can end while its shell tool is still creating the
// editor's terminal: that terminal's release, coming after the end, is
// sent at once instead of being held for an update that never comes.
func TestTerminalReleasedAtOnceAfterTheTurnEnded(t *testing.T) {
	var r terminalReleases
	r.begin()
	r.track("term-1", "call_1")
	if !r.hold("term-1") {
		t.Fatal("a release during the turn must wait for the call's final update")
	}
	if ids := r.take(""); len(ids) != 1 || ids[0] != "term-1" {
		t.Fatalf("the turn's end releases %v, want [term-1]", ids)
	}
	r.track("term-2", "call_1") // the tool reports its terminal late
	if r.hold("term-2") {
		t.Fatal("a release after the turn ended was held; nothing would ever send it")
	}
	r.begin() // the next turn holds again
	r.track("term-3", "call_2")
	if !r.hold("term-3") {
		t.Fatal("the next turn's release was not held")
	}
}

// The shell tool reports its editor terminal, waits for the command and
// releases the terminal on its own goroutine, while the session's event
// stream hands the report to the emitter from the turn's goroutine —
// under load only after the release. The release must still wait for
// the call's final update: Zed forgets a released terminal, and the
// update naming it afterwards loses the output and exit code (e2e
// TestTerminalReleasedAfterFinalUpdate failed so under load).
func TestTerminalReleaseHeldWhenTheStreamReportsTheTerminalLate(t *testing.T) {
	ctx := context.Background()
	peer := &recordingPeer{}
	s := &Server{frames: &frameLog{}, log: slog.New(slog.DiscardHandler)}
	loaded := newLoadedSessions()
	as := &acpSession{id: "s1"}
	loaded.register(as)
	p := &promptAPI{notify: s.notify, loaded: loaded, peer: peer, log: s.log}
	as.term.begin()

	var stream []extension.ToolProgress // reported, not yet delivered
	tool := startedFirst{p: p, sessionID: "s1", next: developerProgress(func(_ context.Context, ev extension.ToolProgress) {
		stream = append(stream, ev)
	})}
	term := &terminal{peer: peer, sessionID: "s1", loaded: loaded}
	tool.Emit(ctx, developer.Event{Kind: extension.ProgressTerminal, ToolCallID: "call_1", TerminalID: "term-1"})
	if err := term.Release(ctx, "term-1"); err != nil {
		t.Fatal(err)
	}
	if len(peer.calls) != 0 {
		t.Fatalf("editor calls before the final update: %v, want none (terminal/release waits for it)", peer.calls)
	}

	// The stream catches up, the final update goes out, then the release.
	for _, ev := range stream {
		(&emitter{p: p, sessionID: "s1"}).progress(ctx, ev)
	}
	p.releaseHeld(ctx, as, "call_1")
	if !slices.Equal(peer.calls, []string{"terminal/release"}) {
		t.Fatalf("editor calls after the final update: %v, want [terminal/release]", peer.calls)
	}
	if len(as.term.calls) != 0 || len(as.term.held) != 0 {
		t.Fatalf("left tracked after the release: calls %v, held %v", as.term.calls, as.term.held)
	}
}
