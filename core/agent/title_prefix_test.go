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

// The title request frames the user messages with goose 1.54's markers.
func TestNamingText(t *testing.T) {
	for _, users := range [][]string{{"one"}, {"a", "b\n", ""}, {strings.Repeat("x", 1000), "y"}} {
		want := "---BEGIN USER MESSAGES---\n" + strings.Join(users, "\n") + "\n---END USER MESSAGES---\n\nGenerate a short title for the above messages."
		if got := namingText(users); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// cleanTitle reads the model's answer as goose 1.54 does.
func TestCleanTitle(t *testing.T) {
	for in, want := range map[string]string{
		"Python list reversal":  "Python list reversal",
		"  \"Tokyo weather\"\n": "Tokyo weather",
		"<think>the user asks about\nweather</think>Tokyo weather":                           "Tokyo weather",
		"Here is a title for this conversation: \"Refund timeout fix\" which names the work": "Refund timeout fix",
		"I think the best title for these messages would be\nBOT-1565 session auto-titles":   "BOT-1565 session auto-titles",
		strings.Repeat("a", 120): strings.Repeat("a", 100),
	} {
		if got := cleanTitle(in); got != want {
			t.Errorf("cleanTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
