package shellwords

import "strings"

// Split returns the words of s and whether every quote it opened was
// closed. An unclosed quote's text is still the last word (goose's
// split_shell_args keeps it; skill arguments refuse it).
func Split(s string) (words []string, closed bool) {
	var (
		cur   strings.Builder
		quote rune
		have  bool
	)
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, have = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if have {
				words = append(words, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		words = append(words, cur.String())
	}
	return words, quote == 0
}
