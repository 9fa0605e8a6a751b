package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// The stream decoder below keeps per-chunk allocations low (the benchmark
// budget is 10 per chunk): string fields that repeat on every chunk (id,
// model, object) are only copied when they change, and text fields are
// kept as raw JSON bytes that point into the decoder's buffer, valid until
// the next Decode, and unquoted straight into their destination.

// wireChunk is one Chat Completions stream chunk (or an error object).
type wireChunk struct {
	ID      sameString      `json:"id"`
	Object  sameString      `json:"object"`
	Model   sameString      `json:"model"`
	Choices []wireChoice    `json:"choices"`
	Usage   *wireUsage      `json:"usage"`
	Error   json.RawMessage `json:"error"`
	// Message is set on {"object":"error","message":…} error chunks.
	Message rawString `json:"message"`
}

type wireChoice struct {
	Delta        wireDelta `json:"delta"`
	FinishReason rawString `json:"finish_reason"`
}

type wireDelta struct {
	Content          rawString       `json:"content"`
	ReasoningContent rawString       `json:"reasoning_content"`
	Reasoning        rawString       `json:"reasoning"`
	ToolCalls        []wireToolDelta `json:"tool_calls"`
}

type wireToolDelta struct {
	Index optInt    `json:"index"`
	ID    rawString `json:"id"`
	// ExtraContent is Gemini's per-call extension (thought signatures),
	// kept as tool-request metadata and echoed back on the next request.
	ExtraContent json.RawMessage `json:"extra_content"`
	Function     struct {
		Name      rawString `json:"name"`
		Arguments rawString `json:"arguments"`
	} `json:"function"`
}

type wireUsage struct {
	PromptTokens     *int `json:"prompt_tokens"`
	CompletionTokens *int `json:"completion_tokens"`
	TotalTokens      *int `json:"total_tokens"`
}

// reset clears c for the next Decode while keeping slice capacity; the
// json package decodes into existing slice elements without zeroing them.
func (c *wireChunk) reset() {
	choices := c.Choices[:cap(c.Choices)]
	for i := range choices {
		tc := choices[i].Delta.ToolCalls[:0]
		clear(tc[:cap(tc)])
		choices[i] = wireChoice{}
		choices[i].Delta.ToolCalls = tc
	}
	c.Choices = choices[:0]
	c.Usage = nil
	c.Error = c.Error[:0]
	c.Message = rawString{}
}

// sameString holds a string field that is usually identical on every chunk.
type sameString struct{ v string }

func (s *sameString) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) >= 2 && b[0] == '"' && bytes.IndexByte(b, '\\') < 0 {
		if string(b[1:len(b)-1]) != s.v {
			s.v = string(b[1 : len(b)-1])
		}
		return nil
	}
	return json.Unmarshal(b, &s.v)
}

// rawString is a JSON string (or null) kept as raw bytes; raw is nil for
// null or absent. The bytes alias the decoder buffer until the next Decode.
type rawString struct{ raw []byte }

func (s *rawString) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		s.raw = nil
		return nil
	}
	if len(b) < 2 || b[0] != '"' {
		return errors.New("openai: expected a JSON string")
	}
	s.raw = b
	return nil
}

// present reports whether the field held a string (possibly empty).
func (s rawString) present() bool { return s.raw != nil }

// empty reports whether the field is absent, null or "".
func (s rawString) empty() bool { return len(s.raw) <= 2 }

// appendTo appends the unquoted string to dst.
func (s rawString) appendTo(dst []byte) []byte {
	if len(s.raw) < 2 {
		return dst
	}
	return appendUnquoted(dst, s.raw[1:len(s.raw)-1])
}

// String returns the unquoted value ("" when absent).
func (s rawString) String() string {
	if s.empty() {
		return ""
	}
	inner := s.raw[1 : len(s.raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	return string(appendUnquoted(make([]byte, 0, len(inner)), inner))
}

// is reports whether the value equals lit, without allocating.
func (s rawString) is(lit string) bool {
	return len(s.raw) == len(lit)+2 && string(s.raw[1:len(s.raw)-1]) == lit
}

// optInt is an optional integer (null or absent leaves set false).
type optInt struct {
	v   int
	set bool
}

func (o *optInt) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		o.set = false
		return nil
	}
	n := 0
	neg := false
	for i, c := range b {
		switch {
		case i == 0 && c == '-':
			neg = true
		case c >= '0' && c <= '9':
			n = n*10 + int(c-'0')
		default:
			return json.Unmarshal(b, &o.v) // exponent or fraction: let json reject or parse it
		}
	}
	if neg {
		n = -n
	}
	o.v, o.set = n, true
	return nil
}

// appendUnquoted decodes the body of a valid JSON string (quotes removed)
// into dst. The json decoder has already validated the syntax.
func appendUnquoted(dst, s []byte) []byte {
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:i]...)
		s = s[i:]
		if len(s) < 2 {
			return dst
		}
		switch c := s[1]; c {
		case '"', '\\', '/':
			dst = append(dst, c)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, n := decodeUnicodeEscape(s)
			dst = utf8.AppendRune(dst, r)
			s = s[n:]
			continue
		}
		s = s[2:]
	}
	return dst
}

// decodeUnicodeEscape reads \uXXXX (and a following low surrogate) at the
// start of s, returning the rune and the bytes consumed.
func decodeUnicodeEscape(s []byte) (rune, int) {
	r1, ok := hex4(s)
	if !ok {
		return utf8.RuneError, 2
	}
	if utf16.IsSurrogate(r1) {
		if r2, ok := hex4(s[6:]); ok && len(s) >= 12 && s[6] == '\\' {
			if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
				return r, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r1, 6
}

func hex4(s []byte) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
