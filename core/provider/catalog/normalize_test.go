package catalog

import (
	"regexp"
	"strings"
	"testing"
)

// regexpNormalize is normalize as it was written with regular expressions.
func regexpNormalize(model string) string {
	out := model
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`-latest$`), regexp.MustCompile(`-\d{8}$`), regexp.MustCompile(`@\d{8}$`),
		regexp.MustCompile(`-\d{4}-\d{2}-\d{2}$`), regexp.MustCompile(`-\d{4}$`), regexp.MustCompile(`-\d{3}$`),
	} {
		out = re.ReplaceAllString(out, "")
	}
	return regexp.MustCompile(`-(\d)-(\d)(-|@|$)`).ReplaceAllString(out, "-$1.$2$3")
}

func TestNormalizeIsTheRegexps(t *testing.T) {
	names := []string{"", "gpt-4o", "claude-sonnet-4-5-20250929", "codestral-2508", "gemini-2.0-flash-001",
		"claude-3-5-sonnet-latest", "claude-3-7-sonnet@20250219", "o1-2024-12-17", "gpt-4-0613", "a-1-2-3-4",
		"x-1-2@y", "x-1-2-", "-1-2", "-1-2-3-4-5-6", "m-12345678-latest", "m-2024-01-02-latest", "m-1234-12-12",
		"m-123456789", "m@12345678", "m-@12345678", "deepseek-v3-0324", "ü-1-2", "latest", "-latest", "m-١٢٣"}
	for _, m := range names {
		if got, want := normalize(m), regexpNormalize(m); got != want {
			t.Errorf("normalize(%q) = %q, the regexps give %q", m, got, want)
		}
	}
	// Every string of up to 7 characters over the characters that matter.
	alphabet := []byte("-@1a")
	var gen func(prefix []byte, n int)
	gen = func(prefix []byte, n int) {
		m := string(prefix)
		if got, want := normalize(m), regexpNormalize(m); got != want {
			t.Fatalf("normalize(%q) = %q, the regexps give %q", m, got, want)
		}
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(append(prefix, c), n-1)
		}
	}
	gen(nil, 7)
	// Long digit runs and dates around the suffix lengths.
	for _, body := range []string{"m", "m-1", "m-1-2"} {
		for _, sep := range []string{"-", "@", ""} {
			for n := 0; n <= 12; n++ {
				for _, tail := range []string{"", "-latest", "-01-02", "-2024-01-02"} {
					m := body + sep + strings.Repeat("7", n) + tail
					if got, want := normalize(m), regexpNormalize(m); got != want {
						t.Errorf("normalize(%q) = %q, the regexps give %q", m, got, want)
					}
				}
			}
		}
	}
}
