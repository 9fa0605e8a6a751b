package jsonbody

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// MinText is the size from which a string is taken out of a request.
const MinText = 64 << 10

// Taken is the huge strings taken out of one request, in the order their
// placeholders appear in its encoding.
type Taken struct{ list []taken }

// taken is one string of the body — texts joined with "\n" — and the JSON
// string literal of the placeholder standing in for it.
type taken struct {
	texts       []string
	placeholder []byte
}

// Take records texts, joined with "\n", as one string of the body and
// returns the placeholder to encode in its place.
func (t *Taken) Take(texts ...string) string {
	var rnd [16]byte
	_, _ = rand.Read(rnd[:])
	token := "goose-acp-text-" + hex.EncodeToString(rnd[:])
	quoted, _ := json.Marshal(token)
	t.list = append(t.list, taken{texts: texts, placeholder: quoted})
	return token
}

// Len is how many strings were taken.
func (t *Taken) Len() int { return len(t.list) }

// Splice returns the body that is enc with each placeholder replaced by
// its texts joined and quoted as json.Marshal quotes their join. A
// placeholder that is not found once, in order, reports false (the caller
// then encodes the plain way).
func Splice(enc []byte, t *Taken) (*Body, bool) {
	b := &Body{taken: t.list, size: int64(len(enc))}
	from := 0
	for _, s := range t.list {
		j := bytes.Index(enc[from:], s.placeholder)
		if j < 0 {
			return nil, false
		}
		b.parts = append(b.parts, enc[from:from+j])
		from += j + len(s.placeholder)
		b.size += int64(joinedQuotedLen(s.texts) - len(s.placeholder))
	}
	b.parts = append(b.parts, enc[from:])
	return b, true
}

// appendJoinedQuoted appends strings.Join(texts, "\n") quoted as
// json.Marshal quotes it, without joining: the escapes of a string are
// its runes', and a "\n" between two texts ends any UTF-8 sequence.
func appendJoinedQuoted(dst []byte, texts []string) []byte {
	dst = append(dst, '"')
	for i, t := range texts {
		if i > 0 {
			dst = append(dst, '\\', 'n')
		}
		dst = conversation.AppendJSONEscaped(dst, t, true)
	}
	return append(dst, '"')
}

// joinedQuotedLen is len(appendJoinedQuoted(nil, texts)).
func joinedQuotedLen(texts []string) int {
	n := 2 + 2*(len(texts)-1)
	for _, t := range texts {
		n += conversation.JSONStringLen(t, true) - 2
	}
	return n
}

// Encode is a request's body: taken's encoding (the request with t's
// placeholders) with t's strings spliced in when t took any, else, or
// when a placeholder is not found, plain's encoding whole.
func Encode(t *Taken, taken, plain func() ([]byte, error)) (*Body, error) {
	if t.Len() > 0 {
		enc, err := taken()
		if err != nil {
			return nil, err
		}
		if out, ok := Splice(enc, t); ok {
			return out, nil
		}
	}
	enc, err := plain()
	if err != nil {
		return nil, err
	}
	return Whole(enc), nil
}
