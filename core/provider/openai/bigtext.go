package openai

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// A huge message text (a 31 MB prompt) is not handed to encoding/json:
// its string encoder quotes into a fresh slice, copies that into its
// growing buffer and Marshal copies the buffer again — three copies of
// the text for one request body. Instead the request is encoded with a
// short placeholder in the text's place, and the text is quoted with
// json.Marshal's escapes a piece at a time as the body is sent (body.go):
// the request holds no copy of it.

// minSplicedText is the text size from which it is spliced in.
const minSplicedText = 64 << 10

// joinedText is a message's texts as goose sends them, joined with "\n",
// kept apart while they are huge together: the join would be one more
// copy of a 31 MB prompt (and the turn context stored after it) before
// the body holds another. It marshals as the joined string.
type joinedText []string

func (j joinedText) MarshalJSON() ([]byte, error) { return json.Marshal(strings.Join(j, "\n")) }

// joinTexts is strings.Join(texts, "\n"), or the texts kept apart
// (joinedText) when there are several and they are huge together.
func joinTexts(texts []string) any {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	if len(texts) > 1 && n >= minSplicedText {
		return joinedText(texts)
	}
	return strings.Join(texts, "\n")
}

// bigText is the texts of one content taken out of a request (joined
// with "\n" in the body) and the JSON string literal of the placeholder
// standing in for them.
type bigText struct {
	texts       []string
	placeholder []byte
}

// takeBigTexts replaces the huge string contents of w's messages with
// placeholders (w is the request's own copy; the conversation is not
// touched).
func takeBigTexts(w *wireRequest) []bigText {
	var out []bigText
	for i, m := range w.Messages {
		var texts []string
		switch c := m.Content.(type) {
		case string:
			if len(c) >= minSplicedText {
				texts = []string{c}
			}
		case joinedText:
			texts = c
		}
		if texts == nil {
			continue
		}
		var rnd [16]byte
		_, _ = rand.Read(rnd[:])
		token := "goose-acp-text-" + hex.EncodeToString(rnd[:])
		quoted, _ := json.Marshal(token)
		w.Messages[i].Content = token
		out = append(out, bigText{texts: texts, placeholder: quoted})
	}
	return out
}

// spliceBigTexts returns the body that is body with each placeholder
// replaced by its texts joined and quoted as json.Marshal quotes their
// join, quoted as it is read. A placeholder that is not found once, in
// order, reports false (the caller then encodes the plain way).
func spliceBigTexts(enc []byte, texts []bigText) (*reqBody, bool) {
	b := &reqBody{texts: texts, size: int64(len(enc))}
	from := 0
	for _, t := range texts {
		j := bytes.Index(enc[from:], t.placeholder)
		if j < 0 {
			return nil, false
		}
		b.parts = append(b.parts, enc[from:from+j])
		from += j + len(t.placeholder)
		b.size += int64(joinedQuotedLen(t.texts) - len(t.placeholder))
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
