package shellrun

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Retention bounds for a command's output: the first headCap bytes and the
// last tailCap bytes are kept; totals are always exact. A runaway command
// can therefore never exhaust memory, and truncation stays deterministic.
const (
	headCap = 8 << 20
	tailCap = 1 << 20
)

// Buffer accumulates output, keeping its head and a tail window.
type Buffer struct {
	head    strings.Builder
	tail    []byte // ring contents in order once head is full
	dropped int64  // bytes between head and tail that were discarded
	bytes   int64
	runes   int64
	lines   int // newline count
}

// Bytes and Runes are how much was written in all, retained or not.
func (b *Buffer) Bytes() int64 { return b.bytes }
func (b *Buffer) Runes() int64 { return b.runes }

// WriteString appends s.
func (b *Buffer) WriteString(s string) {
	b.bytes += int64(len(s))
	b.runes += int64(utf8.RuneCountInString(s))
	b.lines += strings.Count(s, "\n")
	if room := headCap - b.head.Len(); room > 0 {
		n := min(room, len(s))
		b.head.WriteString(s[:n])
		s = s[n:]
	}
	if s == "" {
		return
	}
	b.tail = append(b.tail, s...)
	if over := len(b.tail) - tailCap; over > 0 {
		b.dropped += int64(over)
		b.tail = append(b.tail[:0], b.tail[over:]...)
	}
}

// String is the retained output; when bytes were dropped a marker says how
// many.
func (b *Buffer) String() string {
	if len(b.tail) == 0 {
		return b.head.String()
	}
	if b.dropped == 0 {
		return b.head.String() + string(b.tail)
	}
	return b.head.String() + fmt.Sprintf("\n[... %d bytes omitted ...]\n", b.dropped) + strings.ToValidUTF8(string(b.tail), "")
}

// LineCount is the number of lines as Rust's str::lines counts them.
func (b *Buffer) LineCount() int {
	if b.bytes == 0 {
		return 0
	}
	s := b.String()
	if strings.HasSuffix(s, "\n") {
		return b.lines
	}
	return b.lines + 1
}
