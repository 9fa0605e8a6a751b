package acp

import (
	"fmt"
	"path/filepath"
	"strings"
)

// gitPatch is a git-style patch of one file, from old (nil: a new file) to
// new: one hunk spanning the lines between their common head and tail,
// with up to three lines of context, as v2's diff content renders it.
func gitPatch(path string, old *string, new string) string {
	rel := strings.TrimPrefix(filepath.ToSlash(path), "/")
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\n", rel, rel)
	var a []string
	if old == nil {
		b.WriteString("new file mode 100644\n--- /dev/null\n")
	} else {
		a = patchLines(*old)
		fmt.Fprintf(&b, "--- a/%s\n", rel)
	}
	fmt.Fprintf(&b, "+++ b/%s\n", rel)
	n := patchLines(new)
	head := 0
	for head < len(a) && head < len(n) && a[head] == n[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(n)-head && a[len(a)-1-tail] == n[len(n)-1-tail] {
		tail++
	}
	if head == len(a) && head == len(n) {
		return b.String()
	}
	start := head - min(3, head)
	after := min(3, tail)
	oldEnd, newEnd := len(a)-tail+after, len(n)-tail+after
	fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(start, oldEnd-start), hunkRange(start, newEnd-start))
	writeLines(&b, ' ', a[start:head])
	writeLines(&b, '-', a[head:len(a)-tail])
	writeLines(&b, '+', n[head:len(n)-tail])
	writeLines(&b, ' ', a[len(a)-tail:oldEnd])
	return b.String()
}

// patchLines splits s into lines that keep their newline (the last may
// have none).
func patchLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}

func writeLines(b *strings.Builder, prefix byte, lines []string) {
	for _, l := range lines {
		b.WriteByte(prefix)
		b.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}
