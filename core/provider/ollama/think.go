package ollama

import "strings"

// Without "think" in the request, Ollama keeps the pre-thinking-API
// behaviour: models such as qwen3 write their reasoning inline as
// "<think>…</think>" at the start of the content. thinkSplitter routes that
// block to thinking, across chunk boundaries; content that does not open
// with the tag passes through untouched.
type thinkSplitter struct {
	started bool   // non-space content was seen
	in      bool   // inside <think>…</think>
	pending string // a possible partial tag held for the next chunk
}

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// split returns the thinking and text parts of a content delta.
func (t *thinkSplitter) split(delta string) (thinking, text string) {
	if t.started && !t.in && t.pending == "" {
		return "", delta // past any think block: the common case
	}
	s := t.pending + delta
	t.pending = ""
	var th, tx strings.Builder
	for s != "" {
		if t.in {
			i := strings.Index(s, thinkClose)
			if i < 0 {
				keep := partialSuffix(s, thinkClose)
				th.WriteString(s[:len(s)-keep])
				t.pending = s[len(s)-keep:]
				break
			}
			th.WriteString(s[:i])
			s = strings.TrimLeft(s[i+len(thinkClose):], "\n")
			t.in = false
			continue
		}
		if !t.started {
			trimmed := strings.TrimLeft(s, " \t\r\n")
			switch {
			case trimmed == "" || (len(trimmed) < len(thinkOpen) && strings.HasPrefix(thinkOpen, trimmed)):
				t.pending = s
				return th.String(), tx.String()
			case strings.HasPrefix(trimmed, thinkOpen):
				t.started, t.in = true, true
				s = strings.TrimLeft(trimmed[len(thinkOpen):], "\n")
				continue
			}
			t.started = true
		}
		tx.WriteString(s)
		break
	}
	return th.String(), tx.String()
}

// flush returns held text at the end of the stream.
func (t *thinkSplitter) flush() (thinking, text string) {
	p := t.pending
	t.pending = ""
	if t.in {
		return p, ""
	}
	return "", p
}

// partialSuffix is the length of the longest suffix of s that is a proper
// prefix of tag.
func partialSuffix(s, tag string) int {
	for n := min(len(s), len(tag)-1); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}
