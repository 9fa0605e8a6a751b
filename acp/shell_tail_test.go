package acp

import (
	"fmt"
	"strings"
	"testing"
)

func TestShellTailKeepsTheEndOfLongOutput(t *testing.T) {
	var tail shellTail
	for i := range 5000 {
		tail.add(fmt.Sprintf("line %d\n", i))
	}
	got := tail.text()
	if !strings.HasPrefix(got, "…\nline ") || !strings.HasSuffix(got, "\nline 4999") || len(got) > shellTailBytes+len("…\n") {
		t.Errorf("tail of %d bytes: %q … %q", len(got), got[:20], got[len(got)-20:])
	}
	var short shellTail
	short.add("a\n")
	short.add("b\n")
	if got := short.text(); got != "a\nb" {
		t.Errorf("short output %q", got)
	}
}
