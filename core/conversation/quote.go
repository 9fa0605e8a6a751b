package conversation

import "unicode/utf8"

// Huge texts (a 31 MB prompt, a large tool result) are encoded straight
// into one buffer of the exact final size: Marshal's path (the encoder's
// growing buffer, the separator copy, the "type" splice and the caller's
// compaction) held four to five copies of the text at once.

const hexDigits = "0123456789abcdef"

// appendQuoted appends s as a JSON string literal with exactly the bytes
// Marshal(s) writes: encoding/json's escapes without HTML escaping,
// invalid UTF-8 as \ufffd, and U+2028/U+2029 left raw as serde_json does.
func appendQuoted(dst []byte, s string) []byte { return AppendJSONString(dst, s, false) }

// quotedLen is len(appendQuoted(nil, s)), computed without building it.
func quotedLen(s string) int { return JSONStringLen(s, false) }

// AppendJSONString appends s as a JSON string literal. With escapeHTML it
// writes exactly what json.Marshal writes (<, >, & and U+2028/U+2029
// escaped); without, what an encoder with SetEscapeHTML(false) writes.
// Both escape control characters, quote and backslash, and turn invalid
// UTF-8 into \ufffd. It is for huge texts that must not be copied again.
func AppendJSONString(dst []byte, s string, escapeHTML bool) []byte {
	return append(AppendJSONEscaped(append(dst, '"'), s, escapeHTML), '"')
}

// AppendJSONEscaped appends what AppendJSONString writes between the
// quotes. A text cut where no UTF-8 sequence spans the cut (at a rune
// start, or beside an ASCII byte) escapes piece by piece into the
// escaping of the whole.
func AppendJSONEscaped(dst []byte, s string, escapeHTML bool) []byte {
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && !(escapeHTML && (b == '<' || b == '>' || b == '&')) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case escapeHTML && (c == '\u2028' || c == '\u2029'):
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// JSONStringLen is len(AppendJSONString(nil, s, escapeHTML)), computed
// without building it (so the caller can allocate the exact size once).
func JSONStringLen(s string, escapeHTML bool) int {
	n := 2 + len(s)
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b >= 0x20 && b != '"' && b != '\\' && !(escapeHTML && (b == '<' || b == '>' || b == '&')):
			case b == '\\', b == '"', b == '\b', b == '\f', b == '\n', b == '\r', b == '\t':
				n++
			default:
				n += 5
			}
			i++
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			n += 5 // one byte becomes the six of \ufffd
		case escapeHTML && (c == '\u2028' || c == '\u2029'):
			n += 3 // three bytes become the six of \u2028
		}
		i += size
	}
	return n
}
