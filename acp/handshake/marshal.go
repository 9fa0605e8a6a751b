package handshake

import (
	"encoding/json"
	"strconv"
)

// MarshalJSON writes r exactly as encoding/json writes its fields and tags
// (marshal_test.go compares the two), without encoding/json's reflection:
// an editor's first answer is written while the binary is still
// initialising (cmd/goose-acp/internal/firstframe), and building
// encoding/json's encoders for the eight struct types below was ~0.3 ms of
// that CPU-bound start. Maps, strings and slices of strings still go
// through encoding/json, which has no per-type set-up for them.
func (r InitializeResponse) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 1024)
	b = append(b, `{"protocolVersion":`...)
	b = strconv.AppendInt(b, int64(r.ProtocolVersion), 10)
	b = append(b, `,"agentCapabilities":`...)
	b, err := appendAgentCapabilities(b, r.AgentCapabilities)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"authMethods":`...)
	if r.AuthMethods == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, m := range r.AuthMethods {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendAuthMethod(b, m); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if r.AgentInfo != nil {
		b = append(b, `,"agentInfo":`...)
		if b, err = appendImplementation(b, *r.AgentInfo); err != nil {
			return nil, err
		}
	}
	if b, err = appendMeta(b, `,"_meta":`, r.Meta); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func appendAgentCapabilities(b []byte, c AgentCapabilities) ([]byte, error) {
	b = append(b, `{"loadSession":`...)
	b = strconv.AppendBool(b, c.LoadSession)
	b = append(b, `,"promptCapabilities":{"image":`...)
	b = strconv.AppendBool(b, c.PromptCapabilities.Image)
	b = append(b, `,"audio":`...)
	b = strconv.AppendBool(b, c.PromptCapabilities.Audio)
	b = append(b, `,"embeddedContext":`...)
	b = strconv.AppendBool(b, c.PromptCapabilities.EmbeddedContext)
	b = append(b, `},"mcpCapabilities":{"http":`...)
	b = strconv.AppendBool(b, c.MCPCapabilities.HTTP)
	b = append(b, `,"sse":`...)
	b = strconv.AppendBool(b, c.MCPCapabilities.SSE)
	b = append(b, `},"sessionCapabilities":`...)
	b = appendSessionCapabilities(b, c.SessionCapabilities)
	b, err := appendMeta(b, `,"_meta":`, c.Meta)
	return append(b, '}'), err
}

func appendSessionCapabilities(b []byte, c SessionCapabilities) []byte {
	b = append(b, '{')
	n := 0
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"list", c.List != nil}, {"resume", c.Resume != nil}, {"close", c.Close != nil},
		{"delete", c.Delete != nil}, {"fork", c.Fork != nil},
		{"additionalDirectories", c.AdditionalDirectories != nil},
		{"title", c.Title != nil}, {"archive", c.Archive != nil},
	} {
		if !f.set {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(append(append(b, '"'), f.name...), `":{}`...)
	}
	return append(b, '}')
}

func appendAuthMethod(b []byte, m AuthMethod) ([]byte, error) {
	b = append(b, '{')
	if m.Type != "" {
		b = appendString(append(b, `"type":`...), m.Type)
		b = append(b, ',')
	}
	b = appendString(append(b, `"id":`...), m.ID)
	b = appendString(append(b, `,"name":`...), m.Name)
	if m.Description != "" {
		b = appendString(append(b, `,"description":`...), m.Description)
	}
	var err error
	if len(m.Args) > 0 {
		if b, err = appendValue(append(b, `,"args":`...), m.Args); err != nil {
			return nil, err
		}
	}
	if len(m.Env) > 0 {
		if b, err = appendValue(append(b, `,"env":`...), m.Env); err != nil {
			return nil, err
		}
	}
	b, err = appendMeta(b, `,"_meta":`, m.Meta)
	return append(b, '}'), err
}

func appendImplementation(b []byte, i Implementation) ([]byte, error) {
	b = appendString(append(b, `{"name":`...), i.Name)
	if i.Title != "" {
		b = appendString(append(b, `,"title":`...), i.Title)
	}
	b = appendString(append(b, `,"version":`...), i.Version)
	return append(b, '}'), nil
}

// appendMeta writes key and m unless m is empty (omitempty).
func appendMeta(b []byte, key string, m Meta) ([]byte, error) {
	if len(m) == 0 {
		return b, nil
	}
	return appendValue(append(b, key...), map[string]any(m))
}

// appendString writes s as encoding/json does (HTML-safe escapes, invalid
// UTF-8 as U+FFFD).
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, q...)
}

func appendValue(b []byte, v any) ([]byte, error) {
	q, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, q...), nil
}
