package provider

import (
	"unicode"
	"unicode/utf8"
)

// decodeAt decodes the rune at i; an invalid byte is U+FFFD of size 1, as
// in tiktoken-go's []rune(text).
func decodeAt(s string, i int) (rune, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return rune(b), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isLetter(r rune) bool {
	return r < utf8.RuneSelf && asciiLetter(r) || r >= utf8.RuneSelf && unicode.IsLetter(r)
}
func asciiLetter(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}
func isNumber(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.Is(unicode.N, r)
}

// isUpperish is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}].
func isUpperish(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

// isLowerish is [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func isLowerish(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

// isPrefix is [^\r\n\p{L}\p{N}].
func isPrefix(r rune) bool { return r != '\r' && r != '\n' && !isLetter(r) && !isNumber(r) }

// isSymbol is [^\s\p{L}\p{N}].
func isSymbol(r rune) bool { return !unicode.IsSpace(r) && !isLetter(r) && !isNumber(r) }

// alternatives are the pattern's, in its order (\s+(?!\S) and \s+ are
// spaceEnd).
var alternatives []func(string, int) int

func init() {
	alternatives = []func(string, int) int{wordLowerEnd, wordUpperEnd, numberEnd, symbolEnd, newlineEnd, spaceEnd}
}

// pieceEnd returns the end of the o200k piece that starts at i.
func pieceEnd(s string, i int) int {
	for _, alt := range alternatives {
		if end := alt(s, i); end > i {
			return end
		}
	}
	_, size := decodeAt(s, i) // unreachable: \s+ or a class above matches every rune
	return i + size
}

// prefixStarts are where a word's body may start: after an optional
// [^\r\n\p{L}\p{N}] (tried first, as the greedy ? does), then at i.
func prefixStarts(s string, i int) ([2]int, int) {
	r, size := decodeAt(s, i)
	if isPrefix(r) {
		return [2]int{i + size, i}, 2
	}
	return [2]int{i}, 1
}

// wordLowerEnd: P?[U]*[L]+ suffix?. The greedy [U]* gives back runes
// until [L]+ can start: at the run's end if a lowerish rune follows it,
// else at the run's last lowerish rune (then [L]+ is that one rune).
func wordLowerEnd(s string, i int) int {
	starts, n := prefixStarts(s, i)
	for _, start := range starts[:n] {
		j, lastLowerEnd := start, -1
		for j < len(s) {
			r, size := decodeAt(s, j)
			if !isUpperish(r) {
				break
			}
			j += size
			if isLowerish(r) {
				lastLowerEnd = j
			}
		}
		if j < len(s) {
			if r, _ := decodeAt(s, j); isLowerish(r) {
				return contractionEnd(s, runEnd(s, j, isLowerish))
			}
		}
		if lastLowerEnd >= 0 {
			return contractionEnd(s, lastLowerEnd)
		}
	}
	return i
}

// wordUpperEnd: P?[U]+[L]* suffix?.
func wordUpperEnd(s string, i int) int {
	starts, n := prefixStarts(s, i)
	for _, start := range starts[:n] {
		if j := runEnd(s, start, isUpperish); j > start {
			return contractionEnd(s, runEnd(s, j, isLowerish))
		}
	}
	return i
}

// contractionEnd matches (?i:'s|'t|'re|'ve|'m|'ll|'d)? at i.
func contractionEnd(s string, i int) int {
	if i >= len(s) || s[i] != '\'' {
		return i
	}
	r1, n1 := lowerAt(s, i+1)
	switch r1 {
	case 's', 't', 'm', 'd':
		return i + 1 + n1
	case 'r', 'v', 'l':
		want := 'e'
		if r1 == 'l' {
			want = 'l'
		}
		if r2, n2 := lowerAt(s, i+1+n1); r2 == want {
			return i + 1 + n1 + n2
		}
	}
	return i
}

func lowerAt(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	r, size := decodeAt(s, i)
	return unicode.ToLower(r), size
}

// numberEnd: \p{N}{1,3}.
func numberEnd(s string, i int) int {
	for k := 0; k < 3 && i < len(s); k++ {
		r, size := decodeAt(s, i)
		if !isNumber(r) {
			break
		}
		i += size
	}
	return i
}

// symbolEnd: ' '?[^\s\p{L}\p{N}]+[\r\n/]*.
func symbolEnd(s string, i int) int {
	start := i
	if s[i] == ' ' && i+1 < len(s) {
		if r, _ := decodeAt(s, i+1); isSymbol(r) {
			start = i + 1
		}
	}
	j := runEnd(s, start, isSymbol)
	if j == start {
		return i
	}
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || s[j] == '/') {
		j++
	}
	return j
}

// newlineEnd: \s*[\r\n]+ ends after the run's last \r or \n.
func newlineEnd(s string, i int) int {
	end := i
	for j := i; j < len(s); {
		r, size := decodeAt(s, j)
		if !unicode.IsSpace(r) {
			break
		}
		j += size
		if r == '\r' || r == '\n' {
			end = j
		}
	}
	return end
}

// spaceEnd: \s+(?!\S) gives back the run's last rune when a non-space
// follows it; \s+ takes the run when that would leave nothing.
func spaceEnd(s string, i int) int {
	j, lastStart := i, i
	for j < len(s) {
		r, size := decodeAt(s, j)
		if !unicode.IsSpace(r) {
			break
		}
		lastStart = j
		j += size
	}
	if j == len(s) || lastStart == i {
		return j
	}
	return lastStart
}

// runEnd returns the end of the run of runes in class from i.
func runEnd(s string, i int, class func(rune) bool) int {
	for i < len(s) {
		r, size := decodeAt(s, i)
		if !class(r) {
			break
		}
		i += size
	}
	return i
}
