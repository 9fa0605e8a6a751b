package provider

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// goose estimates every model's tokens with o200k_base.
const tokenEncoding = "o200k_base"

// o200kRanks loads the embedded o200k_base ranks on first use, never at
// process start, and never over the network.
var o200kRanks = sync.OnceValues(func() (*o200kTable, error) {
	ranks, err := loadO200kTable(tokenEncoding + ".tiktoken")
	if err != nil {
		return nil, fmt.Errorf("provider: load %s tokenizer: %w", tokenEncoding, err)
	}
	return ranks, nil
})

// tokenCache remembers counts of recent texts by hash (goose caches up to
// 10 000), so large texts are not kept alive.
var tokenCache = struct {
	sync.Mutex
	seed maphash.Seed
	m    map[uint64]int
}{seed: maphash.MakeSeed(), m: map[uint64]int{}}

const maxTokenCache = 10_000

// CountTokens returns text's o200k_base token count, special tokens
// included as goose's encode_with_special_tokens does. If the tokenizer
// cannot load it falls back to len/4 so estimates never fail.
func CountTokens(text string) int {
	if text == "" {
		return 0
	}
	h := maphash.String(tokenCache.seed, text)
	tokenCache.Lock()
	n, ok := tokenCache.m[h]
	tokenCache.Unlock()
	if ok {
		return n
	}
	n = countUncached(text)
	tokenCache.Lock()
	if len(tokenCache.m) >= maxTokenCache {
		clear(tokenCache.m)
	}
	tokenCache.m[h] = n
	tokenCache.Unlock()
	return n
}

// countUncached counts text with the o200k counter (equal to tiktoken-go's
// Encode of each segment), or estimates len/4 when the ranks cannot load.
func countUncached(text string) int {
	ranks, err := o200kRanks()
	if err != nil {
		return (len(text) + 3) / 4
	}
	c := &o200kCounter{ranks: ranks}
	n := 0
	forEachSegment(text, func(seg string) { n += c.count(seg) })
	return n
}

// maxRun bounds a run of non-space bytes handed to the BPE in one piece.
// tiktoken-go merges each piece in quadratic time, so a long unbroken run
// (base64, minified code) would stall an estimate for minutes; cutting
// such runs changes counts by at most one token per cut.
const maxRun = 128

// encodingSegments splits text only inside non-space runs longer than
// maxRun (at rune boundaries); ordinary text stays one segment.
func encodingSegments(text string) []string {
	var segs []string
	forEachSegment(text, func(seg string) { segs = append(segs, seg) })
	return segs
}

// forEachSegment calls fn with each of encodingSegments(text), without
// the slice (a 31 MB run has 250 000 segments).
func forEachSegment(text string, fn func(string)) {
	start, run := 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
			run = 0
			continue
		}
		run++
		if run > maxRun && utf8.RuneStart(c) {
			fn(text[start:i])
			start, run = i, 1
		}
	}
	fn(text[start:])
}

// Token overheads from goose's token_counter.rs.
const (
	tokensPerMessage = 4
	replyPrimer      = 3
	funcInit         = 7
	propInit         = 3
	propKey          = 3
	enumInit         = -3
	enumItem         = 3
	funcEnd          = 12
)

// CountChatTokens estimates a request's input tokens with goose's formula:
// system prompt + 4, per message 4 + its texts, tool requests as
// "id:name:args", tool-response texts, the tool-schema estimate, plus 3.
func CountChatTokens(system string, msgs []conversation.Message, tools []Tool) int {
	n := 0
	if system != "" {
		n += CountTokens(system) + tokensPerMessage
	}
	for _, m := range msgs {
		n += tokensPerMessage
		for _, c := range m.Content {
			n += contentTokens(c)
		}
	}
	return n + CountToolTokens(tools) + replyPrimer
}

// longestToken is the byte length of o200k_base's longest token
// (TestLongestO200kToken checks it against the table; the special tokens
// are shorter). Every token CountTokens counts stands for at most this
// many bytes of its text, so a text has at least len/longestToken
// tokens.
const longestToken = 128

// MinChatTokens is a lower bound of CountChatTokens("", msgs, nil)
// computed from sizes alone: each message's overhead plus its texts'
// bytes over longestToken. A conversation whose bound is already over a
// limit is over it without running the tokenizer (a 31 MB prompt takes
// it seconds).
func MinChatTokens(msgs []conversation.Message) int {
	n := replyPrimer
	for _, m := range msgs {
		n += tokensPerMessage
		for _, c := range m.Content {
			if c.Text != nil {
				n += len(c.Text.Text) / longestToken
			}
		}
	}
	return n
}

func contentTokens(c conversation.Content) int {
	switch {
	case c.Text != nil:
		return CountTokens(c.Text.Text)
	case c.ToolRequest != nil:
		tr := c.ToolRequest
		if tr.ToolCall.Value == nil {
			return 0
		}
		args, _ := json.Marshal(tr.ToolCall.Value.Arguments)
		if tr.ToolCall.Value.Arguments == nil {
			args = []byte("null")
		}
		return CountTokens(tr.ID + ":" + tr.ToolCall.Value.Name + ":" + string(args))
	case c.ToolResponse != nil:
		return CountTokens(toolResponseText(c.ToolResponse))
	}
	return 0
}

func toolResponseText(tr *conversation.ToolResponse) string {
	if tr.ToolResult.Value == nil {
		return tr.ToolResult.Error
	}
	var parts []string
	for _, b := range tr.ToolResult.Value.Content {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// CountToolTokens is goose's tool-schema estimate: per tool 7 +
// "name:description" (trailing dots trimmed), properties 3 + Σ(3 +
// "key:type:description", enums −3 + Σ(3 + item)), and 12 at the end.
func CountToolTokens(tools []Tool) int {
	if len(tools) == 0 {
		return 0
	}
	n := 0
	for _, t := range tools {
		n += funcInit + CountTokens(t.Name+":"+strings.TrimRight(t.Description, "."))
		n = max(0, n+propertyTokens(t.InputSchema))
	}
	return n + funcEnd
}

type schemaProperty struct {
	Type        any             `json:"type"`
	Description any             `json:"description"`
	Enum        json.RawMessage `json:"enum"`
}

func propertyTokens(schema json.RawMessage) int {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return 0
	}
	n := propInit
	for key, raw := range s.Properties {
		var p schemaProperty
		_ = json.Unmarshal(raw, &p)
		typ, _ := p.Type.(string)
		desc, _ := p.Description.(string)
		n += propKey + CountTokens(key+":"+typ+":"+strings.TrimRight(desc, "."))
		var items []any
		if json.Unmarshal(p.Enum, &items) == nil && items != nil {
			n += enumInit
			for _, item := range items {
				if s, ok := item.(string); ok {
					n += enumItem + CountTokens(s)
				}
			}
		}
	}
	return n
}
