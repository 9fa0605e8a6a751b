package agent

import (
	"strings"
	"testing"
)

// TestOneLinePrefixIsJoinFields: the bounded title prefix gives the
// provisional title the whole-text Join(Fields) gave, for short, long,
// multi-byte, invalid UTF-8 and whitespace-only messages.
func TestOneLinePrefixIsJoinFields(t *testing.T) {
	texts := []string{"", "   ", "hello", "  a  b\tc\n", strings.Repeat("word ", 40), strings.Repeat("é", 59) + " x",
		strings.Repeat("é", 60) + " x", strings.Repeat("x", 61), "bad \xff\xfe bytes\xe2\x80 here", strings.Repeat("\xff", 70),
		strings.Repeat("日本語 ", 30), "\u00a0nbsp\u2003em space\u3000ideographic"}
	title := func(name string) string {
		if r := []rune(name); len(r) > provisionalTitleLen {
			return strings.TrimSpace(string(r[:provisionalTitleLen]))
		}
		return name
	}
	for _, s := range texts {
		want := title(strings.Join(strings.Fields(s), " "))
		if got := title(oneLinePrefix(s, provisionalTitleLen+1)); got != want {
			t.Errorf("%q: got %q, want %q", s, got, want)
		}
	}
}

func TestNamingTextIsJoin(t *testing.T) {
	for _, users := range [][]string{{"one"}, {"a", "b\n", ""}, {strings.Repeat("x", 1000), "y"}} {
		if got, want := namingText(users, "P"), strings.Join(users, "\n")+"\n\nP"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
