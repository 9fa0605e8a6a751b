package provider

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// referenceTokenizer is tiktoken-go's o200k_base, what CountTokens used
// before the o200k counter.
var referenceTokenizer = sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	return tiktoken.GetEncoding(tokenEncoding)
})

// referenceCount is CountTokens as it was: tiktoken-go's Encode with all
// special tokens allowed, segment by segment.
func referenceCount(t testing.TB, text string) int {
	enc, err := referenceTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, seg := range encodingSegments(text) {
		n += len(enc.Encode(seg, []string{"all"}, nil))
	}
	return n
}

// tokenCorpus mixes every class the pattern distinguishes: cased and
// uncased letters, marks, digits of several scripts, contractions in both
// cases, every kind of space and newline run, symbols and slashes, special
// tokens, invalid UTF-8, and seeded random strings over those atoms.
func tokenCorpus(t testing.TB) []string {
	atoms := []string{"a", "Z", "hello", "World", "HTTPServer", "camelCase", "ǅ", "ʰ", "中文", "日本語", "\u0301", "e\u0301",
		"\u0915\u093f", "ﬁ", "ß", "İ", "Ω", "𝔘", "0", "12345", "٣٤", "Ⅻ", "½", "'s", "'S", "'re", "'VE", "'ll", "'M", "'d", "'t",
		"'x", "'", " ", "  ", "\t", "\n", "\r\n", "\n\n", " \n ", "\u00a0", "\u3000", "\u2028", "\u0085", "\v\f", "/", "//",
		"!?", "...", "<|endoftext|>", "<|endofprompt|>", "<|endof", "\xff", "\xe2\x80", "\xed\xa0\x80", "😀", "👍🏽", "-", "_",
		"$", "€", "\x00", "\x7f", "{\"k\": [1, 2]}", "http://x.y/z?q=1", "don't", "I'M", "\u200d", "\ufeff"}
	out := []string{"", "Hello, world!", "It's 2026-11-25 12:00:00 INFO user=42 path=/srv/app\n",
		strings.Repeat("0123456789abcdef", 64), strings.Repeat("x", 300), strings.Repeat("é", 200) + " end",
		strings.Repeat(" ", 50) + "x", "trailing spaces   ", "tabs\t\t\tand\n\n\nnewlines \n\t \n"}
	r := rand.New(rand.NewPCG(16, 2026))
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(24) {
			b.WriteString(atoms[r.IntN(len(atoms))])
		}
		out = append(out, b.String())
	}
	for _, ranges := range []*unicode.RangeTable{unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C} {
		var b strings.Builder
		for _, r16 := range ranges.R16 {
			for c := rune(r16.Lo); c <= rune(r16.Hi); c += rune(r16.Stride) * 7 {
				b.WriteRune(c)
				b.WriteString([]string{"", " ", "a", "'s", "1", "\n"}[c%6])
			}
		}
		out = append(out, b.String())
	}
	for _, name := range []string{"o200k.go", "o200k_pieces.go", "tokens.go"} {
		if src, err := os.ReadFile(filepath.Join(".", name)); err == nil {
			out = append(out, string(src))
		}
	}
	return out
}

// TestO200kCountEqualsTiktoken proves the counter gives tiktoken-go's
// count on the corpus, text by text.
func TestO200kCountEqualsTiktoken(t *testing.T) {
	ranks, err := o200kRanks()
	if err != nil {
		t.Skip(err)
	}
	c := &o200kCounter{ranks: ranks}
	for _, text := range tokenCorpus(t) {
		for _, seg := range encodingSegments(text) {
			if got, want := c.count(seg), referenceCount(t, seg); got != want {
				t.Errorf("%q: counted %d, tiktoken-go %d", seg, got, want)
			}
		}
	}
}

// TestCountTokensHugeEqualsTiktoken: the 31 MB shapes, cut down to
// 256 KiB so tiktoken-go finishes quickly: one long run and log lines.
func TestCountTokensHugeEqualsTiktoken(t *testing.T) {
	if testing.Short() {
		t.Skip("slow reference")
	}
	for name, text := range hugeTexts() {
		text = text[:256<<10]
		if got, want := countUncached(text), referenceCount(t, text); got != want {
			t.Errorf("%s: counted %d, tiktoken-go %d", name, got, want)
		}
	}
}

// FuzzO200kCount compares with tiktoken-go on generated texts.
func FuzzO200kCount(f *testing.F) {
	for _, s := range tokenCorpus(f)[:40] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := countUncached(s), referenceCount(t, s); got != want {
			t.Fatalf("%q: counted %d, tiktoken-go %d", s, got, want)
		}
	})
}
