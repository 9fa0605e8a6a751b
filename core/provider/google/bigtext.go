package google

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// encodeRequest encodes body as it is sent (json.Encoder's bytes, its
// newline included): a huge text part (a 31 MB prompt) is not handed to
// encoding/json, which would hold it about three more times, but quoted
// as the body is sent (core/provider/jsonbody).
func encodeRequest(body generateRequest) (*jsonbody.Body, error) {
	var big jsonbody.Taken
	wire := body
	wire.Contents = slices.Clone(body.Contents)
	for i, c := range wire.Contents {
		var parts []part
		for j, p := range c.Parts {
			if len(p.Text) < jsonbody.MinText {
				continue
			}
			if parts == nil { // the request's own parts are left as they were
				parts = slices.Clone(c.Parts)
				wire.Contents[i].Parts = parts
			}
			parts[j].Text = big.Take(p.Text)
		}
	}
	return jsonbody.Encode(&big, func() ([]byte, error) { return encode(wire) }, func() ([]byte, error) { return encode(body) })
}

func encode(body generateRequest) ([]byte, error) {
	var buf bytes.Buffer
	err := json.NewEncoder(&buf).Encode(body)
	return buf.Bytes(), err
}
