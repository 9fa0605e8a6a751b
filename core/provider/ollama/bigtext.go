package ollama

import (
	"encoding/json"
	"slices"

	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// marshalRequest encodes r as the body sent (json.Marshal's bytes): a
// huge message content (a 31 MB prompt) is not handed to encoding/json,
// which would hold it about three more times, but quoted as the body is
// sent (core/provider/jsonbody).
func marshalRequest(r chatRequest) (*jsonbody.Body, error) {
	var big jsonbody.Taken
	wire := r
	for i, m := range r.Messages {
		if len(m.Content) < jsonbody.MinText {
			continue
		}
		if big.Len() == 0 { // the request's own messages are left as they were
			wire.Messages = slices.Clone(r.Messages)
		}
		wire.Messages[i].Content = big.Take(m.Content)
	}
	return jsonbody.Encode(&big, func() ([]byte, error) { return json.Marshal(wire) }, func() ([]byte, error) { return json.Marshal(r) })
}
