package acp

import (
	"bytes"
	"encoding/json"
)

// UnmarshalJSON decodes session/new's params. encoding/json's struct
// decoder set this type up on a fresh process's first session/new (its
// fields and their encoders: ~10% of the handler's CPU); params with
// exactly these keys, each once, are read through a map of raw values
// instead, each field as encoding/json reads it. Anything else (other or
// repeated keys, a value of the wrong type) takes encoding/json's own way,
// so every result and error is the one it gives
// (TestNewSessionParamsDecodeAsEncodingJSON).
func (r *NewSessionRequest) UnmarshalJSON(b []byte) error {
	if r.decodeDirect(b) {
		return nil
	}
	*r = NewSessionRequest{}
	return decodeNewSessionJSON(b, r)
}

// decodeNewSessionJSON is encoding/json's decoding of the struct (its
// errors name NewSessionRequest, as before).
func decodeNewSessionJSON(b []byte, r *NewSessionRequest) error {
	type withMethods = NewSessionRequest
	type NewSessionRequest withMethods
	return json.Unmarshal(b, (*NewSessionRequest)(r))
}

func (r *NewSessionRequest) decodeDirect(b []byte) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return false
	}
	for k := range fields {
		// A key given twice is one map entry here, but encoding/json
		// would read both (merging two _meta objects).
		if bytes.Count(b, []byte(`"`+k+`"`)) != 1 {
			return false
		}
	}
	for k, v := range fields {
		var err error
		switch k {
		case "cwd":
			if len(v) == 0 || v[0] != '"' {
				return false
			}
			err = json.Unmarshal(v, &r.CWD)
		case "mcpServers":
			err = r.MCPServers.UnmarshalJSON(v)
		case "additionalDirectories":
			err = json.Unmarshal(v, &r.AdditionalDirectories)
		case "_meta":
			err = json.Unmarshal(v, &r.Meta)
		default:
			return false
		}
		if err != nil {
			return false
		}
	}
	return true
}
