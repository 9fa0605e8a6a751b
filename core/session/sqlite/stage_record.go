package sqlite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// SQLite's record format, as OP_MakeRecord writes it (schema format 4):
// a header (its own size, then one serial type per column) and the
// columns' data. A staged row's record is built here; its content_json is
// streamed from the message (conversation.WriteContents), never held.

// recVal is one column's value in a record.
type recVal struct {
	kind byte // valNull, valInt, valText or valContent
	i    int64
	s    string
}

const (
	valNull byte = iota
	valInt
	valText
	valContent // the message's content_json, streamed
)

// appendVarint appends v as SQLite's varint (big-endian, 7 bits a byte,
// the ninth byte whole).
func appendVarint(b []byte, v uint64) []byte {
	if v <= 0x7f {
		return append(b, byte(v))
	}
	var buf [9]byte
	if v > 0x00ffffffffffffff {
		buf[8] = byte(v)
		v >>= 8
		for i := 7; i >= 0; i-- {
			buf[i] = byte(v&0x7f) | 0x80
			v >>= 7
		}
		return append(b, buf[:]...)
	}
	n := 0
	for v != 0 {
		buf[n] = byte(v&0x7f) | 0x80
		v >>= 7
		n++
	}
	buf[0] &= 0x7f
	for i := n - 1; i >= 0; i-- {
		b = append(b, buf[i])
	}
	return b
}

func varintLen(v uint64) int { return len(appendVarint(nil, v)) }

// intSerial is the serial type and data size SQLite gives integer i.
func intSerial(i int64) (uint64, int) {
	if i == 0 || i == 1 {
		return 8 + uint64(i), 0
	}
	u := uint64(i)
	if i < 0 {
		u = ^u
	}
	switch {
	case u <= 127:
		return 1, 1
	case u <= 32767:
		return 2, 2
	case u <= 8388607:
		return 3, 3
	case u <= 2147483647:
		return 4, 4
	case u <= 140737488355327:
		return 5, 6
	}
	return 6, 8
}

// record is a record's bytes around its streamed content: prefix (the
// header and the columns before content_json), contentLen bytes of
// content, suffix (the columns after it).
type record struct {
	prefix, suffix []byte
	contentLen     int
}

func (r record) size() int { return len(r.prefix) + r.contentLen + len(r.suffix) }

// bytes is a record without streamed content, whole.
func (r record) bytes() []byte { return r.prefix }

// makeRecord builds vals' record; contentLen is the size of the one
// valContent value, if any.
func makeRecord(vals []recVal, contentLen int) record {
	var types []byte
	for _, v := range vals {
		var st uint64
		switch v.kind {
		case valNull:
		case valInt:
			st, _ = intSerial(v.i)
		case valText:
			st = uint64(len(v.s))*2 + 13
		case valContent:
			st = uint64(contentLen)*2 + 13
		}
		types = appendVarint(types, st)
	}
	h := len(types) + 1
	for varintLen(uint64(h))+len(types) != h {
		h = varintLen(uint64(h)) + len(types)
	}
	r := record{prefix: append(appendVarint(nil, uint64(h)), types...)}
	out := &r.prefix
	for _, v := range vals {
		switch v.kind {
		case valInt:
			if _, n := intSerial(v.i); n > 0 {
				var b [8]byte
				binary.BigEndian.PutUint64(b[:], uint64(v.i))
				*out = append(*out, b[8-n:]...)
			}
		case valText:
			*out = append(*out, v.s...)
		case valContent:
			r.contentLen = contentLen
			out = &r.suffix
		}
	}
	return r
}

// recordSource reads a staged record at any offset: prefix and suffix
// from memory, the content from conversation.WriteContents running
// behind a pipe. SQLite reads a row's pages in order, so the content is
// produced once; a read before the pipe's position starts it again.
type recordSource struct {
	rec  record
	cs   []conversation.Content
	pr   *io.PipeReader
	done chan struct{}
	pos  int // content bytes read from pr
}

func (r *recordSource) readAt(p []byte, off int) error {
	for len(p) > 0 {
		var n int
		switch pre, c := len(r.rec.prefix), r.rec.contentLen; {
		case off < pre:
			n = copy(p, r.rec.prefix[off:])
		case off < pre+c:
			n = min(len(p), pre+c-off)
			if err := r.content(p[:n], off-pre); err != nil {
				return err
			}
		case off-pre-c < len(r.rec.suffix):
			n = copy(p, r.rec.suffix[off-pre-c:])
		default:
			return fmt.Errorf("staged record: read at %d past its %d bytes", off, r.rec.size())
		}
		p, off = p[n:], off+n
	}
	return nil
}

func (r *recordSource) content(p []byte, at int) error {
	if r.pr == nil || at < r.pos {
		r.close()
		pr, pw := io.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			pw.CloseWithError(conversation.WriteContents(pw, r.cs))
		}()
		r.pr, r.done, r.pos = pr, done, 0
	}
	if at > r.pos {
		if _, err := io.CopyN(io.Discard, r.pr, int64(at-r.pos)); err != nil {
			return fmt.Errorf("staged content: %w", err)
		}
		r.pos = at
	}
	n, err := io.ReadFull(r.pr, p)
	r.pos += n
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("staged content: %d bytes, %d expected", r.pos, r.rec.contentLen)
	}
	return err
}

// close stops the content's writer and waits for it.
func (r *recordSource) close() {
	if r.pr == nil {
		return
	}
	r.pr.Close()
	<-r.done
	r.pr, r.done = nil, nil
}
