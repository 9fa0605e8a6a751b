package openai

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// A huge message text (a 31 MB prompt) is not handed to encoding/json:
// its string encoder quotes into a fresh slice, copies that into its
// growing buffer and Marshal copies the buffer again — three copies of
// the text for one request body. Instead the request is encoded with a
// short placeholder in the text's place and the text is quoted once,
// with json.Marshal's escapes, into a body of the exact final size.

// minSplicedText is the text size from which it is spliced in.
const minSplicedText = 64 << 10

// bigText is one text taken out of a request and the JSON string literal
// of the placeholder standing in for it.
type bigText struct {
	text        string
	placeholder []byte
}

// takeBigTexts replaces the huge string contents of w's messages with
// placeholders (w is the request's own copy; the conversation is not
// touched).
func takeBigTexts(w *wireRequest) []bigText {
	var out []bigText
	for i, m := range w.Messages {
		s, ok := m.Content.(string)
		if !ok || len(s) < minSplicedText {
			continue
		}
		var rnd [16]byte
		_, _ = rand.Read(rnd[:])
		token := "goose-acp-text-" + hex.EncodeToString(rnd[:])
		quoted, _ := json.Marshal(token)
		w.Messages[i].Content = token
		out = append(out, bigText{text: s, placeholder: quoted})
	}
	return out
}

// spliceBigTexts returns body with each placeholder replaced by its text
// quoted as json.Marshal quotes it, built in one allocation. A
// placeholder that is not found once, in order, reports false (the
// caller then encodes the plain way).
func spliceBigTexts(body []byte, texts []bigText) ([]byte, bool) {
	at := make([]int, len(texts))
	n, from := len(body), 0
	for i, t := range texts {
		j := bytes.Index(body[from:], t.placeholder)
		if j < 0 {
			return nil, false
		}
		at[i] = from + j
		from = at[i] + len(t.placeholder)
		n += htmlQuotedLen(t.text) - len(t.placeholder)
	}
	out := make([]byte, 0, n)
	prev := 0
	for i, t := range texts {
		out = append(out, body[prev:at[i]]...)
		out = appendHTMLQuoted(out, t.text)
		prev = at[i] + len(t.placeholder)
	}
	return append(out, body[prev:]...), true
}

// appendHTMLQuoted appends s as json.Marshal writes a string.
func appendHTMLQuoted(dst []byte, s string) []byte {
	return conversation.AppendJSONString(dst, s, true)
}

// htmlQuotedLen is len(appendHTMLQuoted(nil, s)).
func htmlQuotedLen(s string) int { return conversation.JSONStringLen(s, true) }
