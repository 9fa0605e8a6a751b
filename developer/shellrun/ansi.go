package shellrun

import (
	"regexp"
	"strings"
	"sync"
)

// ansiSeq matches CSI, OSC and two-byte ESC sequences.
var ansiSeq = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]`)
})

// StripANSI removes terminal escape sequences from text.
func StripANSI(s string) string {
	if !strings.ContainsRune(s, 0x1b) {
		return s
	}
	return ansiSeq().ReplaceAllString(s, "")
}

// CleanTerminalText makes pty output model-friendly: escapes stripped and
// CRLF turned into LF.
func CleanTerminalText(s string) string {
	s = StripANSI(s)
	return strings.ReplaceAll(s, "\r\n", "\n")
}
