package conversation

import (
	"errors"
	"io"
	"unicode/utf8"
)

// textItemPrefix opens a bare text item as goose writes it.
const textItemPrefix = `{"type":"text","text":`

// plainText returns the text of a bare text item (no annotations, no
// _meta), the only variant encoded without Marshal: it is the one that
// carries huge prompts.
func (c Content) plainText() (string, bool) {
	if c.Type != TypeText || c.Text == nil || len(c.Text.Annotations) > 0 || len(c.Text.Meta) > 0 {
		return "", false
	}
	return c.Text.Text, true
}

// plainTextJSON encodes a bare text item into one buffer of its exact size.
func plainTextJSON(text string) []byte {
	out := make([]byte, 0, len(textItemPrefix)+quotedLen(text)+1)
	return append(appendQuoted(append(out, textItemPrefix...), text), '}')
}

// MarshalContents returns exactly Marshal(cs) (an empty or nil list is
// []) in one allocation of the final size: bare text items are quoted
// straight into it, other items are encoded with Marshal first (they are
// small, and their variants have maps whose bytes Marshal defines).
func MarshalContents(cs []Content) ([]byte, error) {
	n, encoded, err := measureContents(cs, true)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, c := range cs {
		if i > 0 {
			out = append(out, ',')
		}
		if encoded[i] != nil {
			out = append(out, encoded[i]...)
			continue
		}
		text, _ := c.plainText()
		out = append(appendQuoted(append(out, textItemPrefix...), text), '}')
	}
	return append(out, ']'), nil
}

// ContentsJSONLen is len(MarshalContents(cs)) without building the bare
// text items (other items are encoded to be measured).
func ContentsJSONLen(cs []Content) (int, error) {
	n, _, err := measureContents(cs, false)
	return n, err
}

// measureContents returns len(MarshalContents(cs)) and, with keep, the
// encodings of the items that are not bare text (nil for bare text).
func measureContents(cs []Content, keep bool) (int, [][]byte, error) {
	var encoded [][]byte
	if keep {
		encoded = make([][]byte, len(cs))
	}
	n := 2 + max(len(cs)-1, 0)
	for i, c := range cs {
		if text, ok := c.plainText(); ok {
			n += len(textItemPrefix) + quotedLen(text) + 1
			continue
		}
		b, err := Marshal(c)
		if err != nil {
			return 0, nil, err
		}
		if keep {
			encoded[i] = b
		}
		n += len(b)
	}
	return n, encoded, nil
}

// quoteChunk bounds the piece of a text quoted at a time by WriteContents.
const quoteChunk = 32 << 10

// WriteContents writes MarshalContents(cs) to w in pieces of about
// quoteChunk bytes: a bare text item is quoted a piece at a time, never
// whole, so a store can stream a huge prompt's row into its own memory
// (other items are encoded with Marshal first, as MarshalContents does).
func WriteContents(w io.Writer, cs []Content) error {
	buf := make([]byte, 0, quoteChunk+64)
	flush := func() error {
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	buf = append(buf, '[')
	for i, c := range cs {
		if i > 0 {
			buf = append(buf, ',')
		}
		text, plain := c.plainText()
		if !plain {
			b, err := Marshal(c)
			if err != nil {
				return err
			}
			if err := flush(); err != nil {
				return err
			}
			if _, err := w.Write(b); err != nil {
				return err
			}
			continue
		}
		buf = append(buf, textItemPrefix+`"`...)
		for len(text) > 0 {
			piece := text[:runeCut(text, quoteChunk)]
			text = text[len(piece):]
			buf = AppendJSONEscaped(buf, piece, false)
			if len(buf) >= quoteChunk {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		buf = append(buf, `"}`...)
	}
	buf = append(buf, ']')
	return flush()
}

// ContentsMatchJSON reports whether enc is exactly MarshalContents(cs),
// comparing piece by piece instead of encoding cs whole: a store can then
// keep the content it already holds for a huge message.
func ContentsMatchJSON(cs []Content, enc string) bool {
	m := matcher{rest: enc}
	return WriteContents(&m, cs) == nil && m.rest == ""
}

// errMismatch stops WriteContents at the first byte that differs.
var errMismatch = errors.New("conversation: contents differ")

// matcher is a Writer that accepts only the bytes of rest, in order.
type matcher struct{ rest string }

func (m *matcher) Write(p []byte) (int, error) {
	if len(m.rest) < len(p) || m.rest[:len(p)] != string(p) { // compared in place, no copy
		return 0, errMismatch
	}
	m.rest = m.rest[len(p):]
	return len(p), nil
}

// runeCut returns the first index ≥ n (or len(s)) at which s[i] starts a
// rune, so no UTF-8 sequence, valid or not, is decoded across the cut.
func runeCut(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	for n < len(s) && !utf8.RuneStart(s[n]) {
		n++
	}
	return n
}
