package handshake

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// plainRequest is InitializeRequest without its UnmarshalJSON:
// encoding/json's own decoding, the reference the fast path below keeps to.
type plainRequest InitializeRequest

// UnmarshalJSON decodes an initialize request. Requests of the plain shape
// editors send — exact field names, each once, values of the field's type,
// no nulls — are read here directly; anything else goes to encoding/json,
// whose results and errors the fast path never differs from
// (unmarshal_test.go compares them, and fuzzes it). Why: the request is
// read while the binary is still initialising
// (cmd/goose-acp/internal/firstframe), and building encoding/json's
// decoders for its seven struct types was ~0.3 ms of that CPU-bound start.
func (r *InitializeRequest) UnmarshalJSON(b []byte) error {
	var fast InitializeRequest
	if decodeRequest(b, &fast) {
		*r = fast
		return nil
	}
	return json.Unmarshal(b, (*plainRequest)(r))
}

// decodeRequest is the fast path: false hands b to encoding/json.
func decodeRequest(b []byte, r *InitializeRequest) bool {
	return eachField(b, func(key string, v []byte) bool {
		switch key {
		case "protocolVersion":
			n, err := strconv.ParseInt(string(v), 10, 0)
			r.ProtocolVersion = int(n)
			return err == nil
		case "clientCapabilities":
			return decodeClientCapabilities(v, &r.ClientCapabilities)
		case "clientInfo":
			r.ClientInfo = new(Implementation)
			return decodeImplementation(v, r.ClientInfo)
		case "_meta":
			return decodeMeta(v, &r.Meta)
		}
		return true
	}, "protocolVersion", "clientCapabilities", "clientInfo", "_meta")
}

func decodeClientCapabilities(b []byte, c *ClientCapabilities) bool {
	return eachField(b, func(key string, v []byte) bool {
		switch key {
		case "fs":
			return eachField(v, func(key string, v []byte) bool {
				switch key {
				case "readTextFile":
					return decodeBool(v, &c.FS.ReadTextFile)
				case "writeTextFile":
					return decodeBool(v, &c.FS.WriteTextFile)
				}
				return true
			}, "readTextFile", "writeTextFile")
		case "terminal":
			return decodeBool(v, &c.Terminal)
		case "elicitation":
			c.Elicitation = raw(v)
		case "auth":
			return eachField(v, func(key string, v []byte) bool {
				switch key {
				case "terminal":
					return decodeBool(v, &c.Auth.Terminal)
				case "_meta":
					return decodeMeta(v, &c.Auth.Meta)
				}
				return true
			}, "terminal", "_meta")
		case "session":
			c.Session = new(ClientSessionCapabilities)
			return decodeSessionCapabilities(v, c.Session)
		case "subagents":
			c.Subagents = raw(v)
		case "_meta":
			return decodeMeta(v, &c.Meta)
		}
		return true
	}, "fs", "terminal", "elicitation", "auth", "session", "subagents", "_meta")
}

func decodeSessionCapabilities(b []byte, s *ClientSessionCapabilities) bool {
	return eachField(b, func(key string, v []byte) bool {
		switch key {
		case "compaction":
			s.Compaction = raw(v)
		case "notices":
			s.Notices = raw(v)
		case "configOptions":
			s.ConfigOptions = &struct {
				Boolean *json.RawMessage `json:"boolean,omitempty"`
			}{}
			return eachField(v, func(key string, v []byte) bool {
				if key == "boolean" {
					s.ConfigOptions.Boolean = raw(v)
				}
				return true
			}, "boolean")
		}
		return true
	}, "compaction", "notices", "configOptions")
}

func decodeImplementation(b []byte, i *Implementation) bool {
	return eachField(b, func(key string, v []byte) bool {
		switch key {
		case "name":
			return decodeString(v, &i.Name)
		case "title":
			return decodeString(v, &i.Title)
		case "version":
			return decodeString(v, &i.Version)
		}
		return true
	}, "name", "title", "version")
}

func decodeBool(v []byte, dst *bool) bool {
	switch string(v) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		return false
	}
	return true
}

// decodeString takes a string without escapes in valid UTF-8; others are
// encoding/json's to unquote.
func decodeString(v []byte, dst *string) bool {
	if len(v) < 2 || v[0] != '"' {
		return false
	}
	s := v[1 : len(v)-1]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return false
	}
	*dst = string(s)
	return true
}

// decodeMeta decodes an object into a fresh map: encoding/json's map
// decoding, which needs no per-type set-up.
func decodeMeta(v []byte, dst *Meta) bool {
	if len(v) == 0 || v[0] != '{' {
		return false
	}
	m := Meta{}
	if json.Unmarshal(v, (*map[string]any)(&m)) != nil {
		return false
	}
	*dst = m
	return true
}

func raw(v []byte) *json.RawMessage {
	m := json.RawMessage(bytes.Clone(v))
	return &m
}

// eachField calls fn with each member of the JSON object b (its value's
// bytes as written) and reports whether b is an object fn took whole. It
// gives up — false — where encoding/json's decoding of a struct with the
// fields known could differ from fn's: a name known only up to case (or
// written with escapes), a known name twice, a null.
func eachField(b []byte, fn func(key string, v []byte) bool, known ...string) bool {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return false
	}
	var seen uint32
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == '}' {
		return i == len(b)-1
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end := bytes.IndexByte(b[i+1:], '"')
		if end < 0 {
			return false
		}
		key := b[i+1 : i+1+end]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		i = skipSpace(b, i+2+end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		n := valueLen(b[i:])
		if n == 0 {
			return false
		}
		v := b[i : i+n]
		if string(v) == "null" {
			return false
		}
		if k := knownField(key, known); k >= 0 {
			if seen&(1<<k) != 0 || !fn(known[k], v) {
				return false
			}
			seen |= 1 << k
		} else if k == -2 {
			return false
		}
		i = skipSpace(b, i+n)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return i == len(b)-1
		default:
			return false
		}
	}
	return false
}

// knownField is key's index in known, -1 for a name encoding/json would
// ignore, -2 for one it would match only case-insensitively.
func knownField(key []byte, known []string) int {
	for k, name := range known {
		if string(key) == name {
			return k
		}
	}
	for _, name := range known {
		if bytes.EqualFold(key, []byte(name)) {
			return -2
		}
	}
	return -1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueLen is the length of the JSON value b starts with (0: none).
func valueLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	switch b[0] {
	case '"':
		return stringLen(b)
	case '{', '[':
		depth := 0
		for i := 0; i < len(b); i++ {
			switch b[i] {
			case '"':
				n := stringLen(b[i:])
				if n == 0 {
					return 0
				}
				i += n - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return 0
	}
	i := 0
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
		i++
	}
	return i
}

// stringLen is the length of the JSON string b starts with, quotes
// included (0: unterminated).
func stringLen(b []byte) int {
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return 0
}
