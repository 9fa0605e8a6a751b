package shellrun

import (
	"strings"
	"testing"
)

func TestBoundedBufferKeepsHeadAndTail(t *testing.T) {
	var b Buffer
	chunk := strings.Repeat("x", 1<<20-1) + "\n"
	for i := 0; i < 12; i++ {
		b.WriteString(chunk)
	}
	if b.bytes != 12<<20 || b.lines != 12 || b.LineCount() != 12 {
		t.Fatalf("totals bytes=%d lines=%d", b.bytes, b.lines)
	}
	s := b.String()
	if !strings.Contains(s, "\n[... 3145728 bytes omitted ...]\n") || len(s) > headCap+tailCap+64 {
		t.Fatalf("retained %d bytes", len(s))
	}
}

func TestStripANSI(t *testing.T) {
	if got := CleanTerminalText("\x1b[31mred\x1b[0m \x1b]0;title\x07ok\r\n"); got != "red ok\n" {
		t.Fatalf("got %q", got)
	}
}
