package developer

import (
	"regexp"
	"strings"
)

// ansiSeq matches CSI, OSC and two-byte ESC sequences.
var ansiSeq = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]`)

// stripANSI removes terminal escape sequences from text.
func stripANSI(s string) string {
	if !strings.ContainsRune(s, 0x1b) {
		return s
	}
	return ansiSeq.ReplaceAllString(s, "")
}

// cleanTerminalText makes pty output model-friendly: escapes stripped and
// CRLF turned into LF.
func cleanTerminalText(s string) string {
	s = stripANSI(s)
	return strings.ReplaceAll(s, "\r\n", "\n")
}
