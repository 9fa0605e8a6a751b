package jsonbody

import (
	"io"
	"unicode/utf8"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// Body is a request's JSON as it is sent: whole, or, for a request
// carrying huge strings, the encoding around them (parts) with each
// string quoted as the body is read. Its length is known before it is
// read (Content-Length), and it can be read again (a redirect, GetBody).
type Body struct {
	parts [][]byte // len(taken)+1 pieces of the encoding
	taken []taken  // quoted between parts
	size  int64
}

// Whole is the body b.
func Whole(b []byte) *Body { return &Body{parts: [][]byte{b}, size: int64(len(b))} }

// Len is the body's size in bytes.
func (b *Body) Len() int64 { return b.size }

// Reader reads the body from its start.
func (b *Body) Reader() io.Reader { return &bodyReader{b: b} }

// Bytes reads the whole body.
func (b *Body) Bytes() []byte {
	out := make([]byte, 0, b.size)
	r := b.Reader()
	for {
		n, err := r.Read(out[len(out):cap(out)])
		out = out[:len(out)+n]
		if err != nil || len(out) == cap(out) {
			return out
		}
	}
}

// bodyReader reads a body: part i, then string i quoted, then part i+1.
type bodyReader struct {
	b    *Body
	seg  int    // 2i: part i; 2i+1: text i
	off  int    // offset in the part, or in the text's texts[j]
	j    int    // which of the text's texts (len: the closing quote)
	open bool   // the text's opening quote is out
	buf  []byte // quoted bytes not read yet
	mem  []byte // buf's storage
}

// quotePiece bounds how much of a text is quoted at a time.
const quotePiece = 32 << 10

func (r *bodyReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.buf) > 0 {
			c := copy(p[n:], r.buf)
			r.buf, n = r.buf[c:], n+c
			continue
		}
		if r.seg >= 2*len(r.b.taken)+1 {
			if n == 0 {
				return 0, io.EOF
			}
			break
		}
		if r.seg%2 == 0 {
			part := r.b.parts[r.seg/2]
			c := copy(p[n:], part[r.off:])
			r.off, n = r.off+c, n+c
			if r.off == len(part) {
				r.seg, r.off = r.seg+1, 0
			}
			continue
		}
		r.quoteNext()
	}
	return n, nil
}

// quoteNext puts the next quoted piece of the current text in buf:
// appendJoinedQuoted a piece at a time, each cut where a rune starts (the
// escapes of a string are its runes').
func (r *bodyReader) quoteNext() {
	t := r.b.taken[r.seg/2]
	if r.mem == nil {
		r.mem = make([]byte, 0, quotePiece*6+8) // a piece's escapes are at most 6 bytes a byte
	}
	buf := r.mem[:0]
	if !r.open {
		buf, r.open = append(buf, '"'), true
	}
	if r.j == len(t.texts) {
		r.buf = append(buf, '"')
		r.seg, r.off, r.j, r.open = r.seg+1, 0, 0, false
		return
	}
	s := t.texts[r.j]
	if r.off == 0 && r.j > 0 {
		buf = append(buf, '\\', 'n')
	}
	end := min(r.off+quotePiece, len(s))
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	buf = conversation.AppendJSONEscaped(buf, s[r.off:end], true)
	r.off = end
	if r.off == len(s) {
		r.j, r.off = r.j+1, 0
	}
	r.buf = buf
}
