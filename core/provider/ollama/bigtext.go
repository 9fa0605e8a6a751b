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
	if big.Len() > 0 {
		enc, err := json.Marshal(wire)
		if err != nil {
			return nil, err
		}
		if out, ok := jsonbody.Splice(enc, &big); ok {
			return out, nil
		}
	}
	enc, err := json.Marshal(r)
	return jsonbody.Whole(enc), err
}
