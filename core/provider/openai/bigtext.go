package openai

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// A huge message text (a 31 MB prompt) is not handed to encoding/json:
// the request is encoded with a short placeholder in the text's place,
// and the text is quoted as the body is sent (core/provider/jsonbody):
// the request holds no copy of it.

// minSplicedText is the text size from which it is spliced in.
const minSplicedText = jsonbody.MinText

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

// takeBigTexts replaces the huge string contents of w's messages with
// placeholders (w is the request's own copy; the conversation is not
// touched).
func takeBigTexts(w *wireRequest) *jsonbody.Taken {
	var t jsonbody.Taken
	for i, m := range w.Messages {
		switch c := m.Content.(type) {
		case string:
			if len(c) >= minSplicedText {
				w.Messages[i].Content = t.Take(c)
			}
		case joinedText:
			w.Messages[i].Content = t.Take(c...)
		}
	}
	return &t
}

// marshalResponsesRequest encodes a Responses API request (json.Marshal's
// bytes) with its huge input texts and tool outputs quoted as the body is
// sent.
func marshalResponsesRequest(r responsesRequest) (*jsonbody.Body, error) {
	var big jsonbody.Taken
	wire := r
	wire.Input = slices.Clone(r.Input)
	for i, item := range wire.Input {
		switch it := item.(type) {
		case responsesMessage:
			var parts []responsesPart
			for j, p := range it.Content {
				if len(p.Text) < minSplicedText {
					continue
				}
				if parts == nil { // the request's own parts are left as they were
					parts = slices.Clone(it.Content)
				}
				parts[j].Text = big.Take(p.Text)
			}
			if parts != nil {
				it.Content = parts
				wire.Input[i] = it
			}
		case responsesFunctionOutput:
			if s, ok := it.Output.(string); ok && len(s) >= minSplicedText {
				it.Output = big.Take(s)
				wire.Input[i] = it
			}
		}
	}
	return jsonbody.Encode(&big, func() ([]byte, error) { return json.Marshal(wire) }, func() ([]byte, error) { return json.Marshal(r) })
}
