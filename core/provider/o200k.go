package provider

import (
	"math"
	"strings"
	"unicode/utf8"
)

// o200kCounter counts o200k_base tokens exactly as tiktoken-go's
// Encode(text, ["all"]) does, without its regexp engine: tiktoken-go's
// pretokenizer (regexp2 over a rune copy of the text, a Match object and
// two strings per piece) took 10–30 s and gigabytes of garbage for a
// 31 MB prompt. The pieces below are the matches of o200k's pattern
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// found the way the backtracking engine finds them (alternatives in order,
// greedy quantifiers giving back one rune at a time), with regexp2's
// classes (\s is unicode.IsSpace, (?i) lowers the input rune). Each piece
// is then one token if it is in the ranks, else merged by byte-pair
// ranks as tiktoken-go merges it. tokens_o200k_test.go proves equal
// counts against tiktoken-go on a corpus.
type o200kCounter struct {
	ranks *o200kTable
	parts [][2]int // scratch for bytePairCount
}

// Special tokens are counted as one token each (goose encodes with
// special tokens allowed).
var o200kSpecial = []string{"<|endoftext|>", "<|endofprompt|>"}

// count returns text's token count.
func (c *o200kCounter) count(text string) int {
	n := 0
	for {
		at, size := nextSpecial(text)
		if at < 0 {
			return n + c.countOrdinary(text)
		}
		n += c.countOrdinary(text[:at]) + 1
		text = text[at+size:]
	}
}

func nextSpecial(text string) (at, size int) {
	at = -1
	for _, s := range o200kSpecial {
		if i := strings.Index(text, s); i >= 0 && (at < 0 || i < at) {
			at, size = i, len(s)
		}
	}
	return at, size
}

func (c *o200kCounter) countOrdinary(text string) int {
	n := 0
	for i := 0; i < len(text); {
		end := pieceEnd(text, i)
		n += c.pieceTokens(text[i:end])
		i = end
	}
	return n
}

// pieceTokens counts one piece. tiktoken-go cuts pieces out of a rune
// slice, so invalid UTF-8 bytes reach the ranks as U+FFFD.
func (c *o200kCounter) pieceTokens(piece string) int {
	if !utf8.ValidString(piece) {
		piece = string([]rune(piece))
	}
	if _, ok := c.ranks.rank(piece); ok {
		return 1
	}
	if len(piece) == 1 {
		return 1
	}
	return c.bytePairCount(piece)
}

// bytePairCount is tiktoken-go's bytePairMerge, counting the parts left.
func (c *o200kCounter) bytePairCount(piece string) int {
	parts := c.parts[:0]
	for i := 0; i <= len(piece); i++ {
		parts = append(parts, [2]int{i, math.MaxInt})
	}
	rank := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r, ok := c.ranks.rank(piece[parts[i][0]:parts[i+skip+2][0]]); ok {
				return r
			}
		}
		return -1
	}
	orMax := func(r int) int {
		if r < 0 {
			return math.MaxInt
		}
		return r
	}
	for i := 0; i < len(parts)-2; i++ {
		if r := rank(i, 0); r >= 0 {
			parts[i][1] = r
		}
	}
	for len(parts) > 1 {
		minRank, minIdx := math.MaxInt, -1
		for i := 0; i < len(parts)-1; i++ {
			if parts[i][1] < minRank {
				minRank, minIdx = parts[i][1], i
			}
		}
		if minRank == math.MaxInt {
			break
		}
		i := minIdx
		parts[i][1] = orMax(rank(i, 1))
		if i > 0 {
			parts[i-1][1] = orMax(rank(i-1, 1))
		}
		parts = append(parts[:i+1], parts[i+2:]...)
	}
	c.parts = parts[:0]
	return len(parts) - 1
}
