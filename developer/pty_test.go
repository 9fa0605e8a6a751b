//go:build !windows

package developer

import (
	"testing"
)

func TestPTYModeGivesATerminalAndStripsANSI(t *testing.T) {
	h := newHarness(t, Options{PTY: true})
	res := h.mustCall(t, "shell", map[string]any{"command": "test -t 1 && echo tty; printf '\\033[31mred\\033[0m\\n'"})
	if got := texts(res)[0]; got != "tty\nred\n" {
		t.Fatalf("got %q", got)
	}
	if h.svc.procs.Len() != 0 {
		t.Fatal("tracked process left")
	}
}

func TestPipeModeHasNoTerminal(t *testing.T) {
	h := newHarness(t, Options{})
	res := h.mustCall(t, "shell", map[string]any{"command": "test -t 1 && echo tty || echo notty; test -t 0 || echo stdin-closed"})
	if got := texts(res)[0]; got != "notty\nstdin-closed\n" {
		t.Fatalf("got %q", got)
	}
}
