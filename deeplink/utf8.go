package deeplink

import (
	"strings"
	"unicode/utf8"
)

// toUSV replaces ill-formed UTF-8 the way the WHATWG decoder does: one
// U+FFFD per maximal ill-formed subpart (so "\xff\xfe" is two, a truncated
// "\xe2\x82" is one). Go's strings.ToValidUTF8 merges runs instead.
func toUSV(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || size > 1 {
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		b.WriteRune(utf8.RuneError)
		i += illFormedLen(s[i:])
	}
	return b.String()
}

// illFormedLen is the length of the maximal subpart starting at s[0].
func illFormedLen(s string) int {
	need, lo, hi := 0, byte(0x80), byte(0xbf)
	switch c := s[0]; {
	case c >= 0xc2 && c <= 0xdf:
		need = 1
	case c == 0xe0:
		need, lo = 2, 0xa0
	case c == 0xed:
		need, hi = 2, 0x9f
	case c >= 0xe1 && c <= 0xef:
		need = 2
	case c == 0xf0:
		need, lo = 3, 0x90
	case c == 0xf4:
		need, hi = 3, 0x8f
	case c >= 0xf1 && c <= 0xf3:
		need = 3
	default:
		return 1
	}
	n := 1
	for k := 1; k <= need && k < len(s); k++ {
		c := s[k]
		if k > 1 {
			lo, hi = 0x80, 0xbf
		}
		if c < lo || c > hi {
			break
		}
		n++
	}
	return n
}
