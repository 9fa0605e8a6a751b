package developer

import (
	"errors"
	"strings"
	"unicode/utf8"
)

const bom = "\uFEFF"

// Replace failures callers branch on; their text is goose's.
var (
	ErrNoMatch       = errors.New("'old_str' was not found in the file. Make sure it matches existing file content, including whitespace.")
	ErrNoChange      = errors.New("No changes made — the replacement produced identical content.")
	errMultipleMatch = errors.New("multiple matches")
)

// multiMatchError reports how many places old text matched.
type multiMatchError struct{ n int }

func (e *multiMatchError) Error() string { return "multiple matches" }
func (e *multiMatchError) Unwrap() error { return errMultipleMatch }

func stripBOM(s string) (string, bool) {
	if strings.HasPrefix(s, bom) {
		return s[len(bom):], true
	}
	return s, false
}

// detectLineEnding is goose's rule: CRLF when the first "\n" is preceded by
// "\r", else LF (also for text without newlines).
func detectLineEnding(s string) string {
	i := strings.IndexByte(s, '\n')
	if i > 0 && s[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

func normalizeToLF(s string) string {
	if !strings.ContainsRune(s, '\r') {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

func restoreLineEndings(s, ending string) string {
	if ending == "\n" {
		return s
	}
	return strings.ReplaceAll(s, "\n", ending)
}

// fuzzyRune maps goose's look-alike characters to ASCII: smart quotes,
// dashes and special spaces.
func fuzzyRune(r rune) rune {
	switch {
	case r >= 0x2018 && r <= 0x201B:
		return '\''
	case r >= 0x201C && r <= 0x201F:
		return '"'
	case (r >= 0x2010 && r <= 0x2015) || r == 0x2212:
		return '-'
	case r == 0x00A0 || (r >= 0x2002 && r <= 0x200A) || r == 0x202F || r == 0x205F || r == 0x3000:
		return ' '
	}
	return r
}

// normalizeForFuzzy is goose's normalize_for_fuzzy_match: line endings to
// LF, trailing whitespace stripped per line, look-alikes mapped.
func normalizeForFuzzy(s string) string {
	n, _ := fuzzyIndex(s)
	return n
}

// fuzzyIndex normalizes s and returns, for each normalized byte, the offset
// in s of the rune it came from, so a fuzzy match maps back to the exact
// original bytes (the rest of the file is never rewritten).
func fuzzyIndex(s string) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	idx := make([]int, 0, len(s))
	for lineStart := 0; lineStart <= len(s); {
		end := strings.IndexByte(s[lineStart:], '\n')
		hasNL := end >= 0
		if !hasNL {
			end = len(s)
		} else {
			end += lineStart
		}
		line := strings.TrimRight(s[lineStart:end], " \t\r\v\f\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000")
		for off, r := range line {
			m := fuzzyRune(r)
			start := b.Len()
			b.WriteRune(m)
			for i := start; i < b.Len(); i++ {
				idx = append(idx, lineStart+off)
			}
		}
		if !hasNL {
			break
		}
		b.WriteByte('\n')
		idx = append(idx, end)
		lineStart = end + 1
	}
	return b.String(), idx
}

// findUnique locates old in content exactly once: an exact match first,
// then goose's fuzzy match. It returns the original byte range.
func findUnique(content, old string) (int, int, error) {
	if old == "" {
		return 0, 0, ErrNoMatch
	}
	if n := strings.Count(content, old); n == 1 {
		i := strings.Index(content, old)
		return i, i + len(old), nil
	} else if n > 1 {
		return 0, 0, &multiMatchError{n: n}
	}
	norm, idx := fuzzyIndex(content)
	normOld := normalizeForFuzzy(old)
	if normOld == "" {
		return 0, 0, ErrNoMatch
	}
	switch n := strings.Count(norm, normOld); {
	case n == 0:
		return 0, 0, ErrNoMatch
	case n > 1:
		return 0, 0, &multiMatchError{n: n}
	}
	i := strings.Index(norm, normOld)
	start := idx[i]
	last := idx[i+len(normOld)-1]
	_, size := utf8.DecodeRuneInString(content[last:])
	return start, last + size, nil
}

// editedText is the result of replacing one unique occurrence.
type editedText struct {
	content   string // full new file content (BOM and line endings kept)
	startLine int    // 1-based line where the replacement starts
	newLines  int    // number of lines the inserted text spans
}

// replaceUnique replaces the one occurrence of old with new inside raw,
// keeping the BOM and converting old/new to the file's line ending.
func replaceUnique(raw, old, new string) (editedText, error) {
	body, hadBOM := stripBOM(raw)
	ending := detectLineEnding(body)
	oldT := restoreLineEndings(normalizeToLF(old), ending)
	newT := restoreLineEndings(normalizeToLF(new), ending)
	start, end, err := findUnique(body, oldT)
	if err != nil && ending != "\n" {
		start, end, err = findUnique(body, normalizeToLF(old))
	}
	if err != nil {
		return editedText{}, err
	}
	out := body[:start] + newT + body[end:]
	if out == body {
		return editedText{}, ErrNoChange
	}
	if hadBOM {
		out = bom + out
	}
	return editedText{
		content:   out,
		startLine: strings.Count(body[:start], "\n") + 1,
		newLines:  strings.Count(newT, "\n") + 1,
	}, nil
}
