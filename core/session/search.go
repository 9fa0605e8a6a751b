package session

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// snippetRadius is how many runes of context a search snippet keeps on each
// side of the match.
const snippetRadius = 60

// maxSnippets caps the snippets returned per session.
const maxSnippets = 5

// FoldText is the case folding Search uses on both sides of a comparison;
// every store uses it so that results agree. It maps rune by rune, so a
// folded string has as many runes as the original.
func FoldText(s string) string { return strings.Map(unicode.ToLower, s) }

// MessageSnippets returns the snippets of m's text items that contain the
// folded query. Only messages shown to the user are searched.
func MessageSnippets(m conversation.Message, foldedQuery string) []string {
	if !m.Metadata.UserVisible || foldedQuery == "" {
		return nil
	}
	var out []string
	for _, c := range m.Content {
		if c.Text == nil {
			continue
		}
		if s, ok := snippet(c.Text.Text, foldedQuery); ok {
			out = append(out, s)
		}
	}
	return out
}

// SortSnippets orders snippets shortest first (stable) and keeps at most
// maxSnippets.
func SortSnippets(snips []string) []string {
	slices.SortStableFunc(snips, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
	if len(snips) > maxSnippets {
		snips = snips[:maxSnippets]
	}
	return snips
}

// snippet cuts text to snippetRadius runes around the first match, marking
// cut ends with "…".
func snippet(text, foldedQuery string) (string, bool) {
	runes := []rune(text)
	folded := []rune(FoldText(text))
	q := []rune(foldedQuery)
	at := indexRunes(folded, q)
	if at < 0 {
		return "", false
	}
	start, end := max(0, at-snippetRadius), min(len(runes), at+len(q)+snippetRadius)
	s := string(runes[start:end])
	if start > 0 {
		s = "…" + s
	}
	if end < len(runes) {
		s += "…"
	}
	return s, true
}

func indexRunes(s, sub []rune) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if slices.Equal(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
