package provider

import (
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// TestLongestO200kToken: no token of the table, and no special token, is
// longer than longestToken, the bound MinChatTokens rests on.
func TestLongestO200kToken(t *testing.T) {
	table, err := o200kRanks()
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for i := range uint32(len(table.offRel) - 1) {
		longest = max(longest, len(table.token(i)))
	}
	for _, s := range o200kSpecial {
		longest = max(longest, len(s))
	}
	if longest != longestToken {
		t.Fatalf("longest o200k token is %d bytes, longestToken says %d", longest, longestToken)
	}
}

// TestMinChatTokensIsALowerBound: the size-only bound never exceeds the
// count, for texts made of the longest tokens, of single bytes, of
// invalid UTF-8, of special tokens, and for several messages.
func TestMinChatTokensIsALowerBound(t *testing.T) {
	table, err := o200kRanks()
	if err != nil {
		t.Fatal(err)
	}
	var longTokens []string
	for i := range uint32(len(table.offRel) - 1) {
		if tok := table.token(i); len(tok) >= 64 {
			longTokens = append(longTokens, string(tok))
		}
	}
	texts := []string{"", "a", strings.Repeat(" ", 10_000), strings.Repeat("-", 10_000), strings.Join(longTokens, ""),
		strings.Repeat("0123456789abcdef", 20_000), strings.Repeat("\xff\xfe", 5_000), strings.Repeat("<|endoftext|>", 1_000),
		strings.Repeat("hello world, this is ordinary prose. ", 3_000)}
	for _, text := range texts {
		msgs := []conversation.Message{conversation.UserText(0, text), conversation.AssistantText(0, text+text)}
		if lo, n := MinChatTokens(msgs), CountChatTokens("", msgs, nil); lo > n {
			t.Errorf("text of %d bytes: bound %d over the count %d", len(text), lo, n)
		}
	}
	huge := []conversation.Message{conversation.UserText(0, strings.Repeat("0123456789abcdef", (31<<20)/16))}
	if lo := MinChatTokens(huge); lo < 250_000 {
		t.Errorf("a 31 MB prompt's bound is %d tokens", lo)
	}
}
