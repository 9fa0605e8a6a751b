package acp

import "testing"

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
