package wire

import (
	"bytes"
	"encoding/json"
)

// ValidID keeps a string or number id to echo back; anything else is nil
// (null on the wire).
func ValidID(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return bytes.Clone(raw)
	}
	return nil
}

// Envelope holds the top-level members of a message as sub-slices of the
// frame (nil: absent).
type Envelope struct {
	JSONRPC, Method, ID, Params, Result, Err []byte
}

// scan fills the envelope from a JSON object (validated by the caller's
// json.Unmarshal); false when b is not one. Keys are matched as written;
// when a key repeats the last wins, as with encoding/json.
func (e *Envelope) scan(b []byte) bool {
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		ks, ke := i, skipString(b, i)
		i = skipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		vs := skipSpace(b, i+1)
		ve := skipValue(b, vs)
		if ve <= vs || ve > len(b) {
			return false
		}
		e.set(string(b[ks+1:ke-1]), b[vs:ve:ve])
		i = skipSpace(b, ve)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return true
		}
		if b[i] != ',' {
			return false
		}
		i = skipSpace(b, i+1)
	}
	return false
}

func (e *Envelope) set(key string, v []byte) {
	switch key {
	case "jsonrpc":
		e.JSONRPC = v
	case "method":
		e.Method = v
	case "id":
		e.ID = v
	case "params":
		e.Params = v
	case "result":
		e.Result = v
	case "error":
		e.Err = v
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexAny(b[j:], `"\`)
		if k < 0 {
			return len(b) + 1
		}
		j += k
		if b[j] == '\\' {
			j += 2
			continue
		}
		return j + 1
	}
	return len(b) + 1
}

// skipValue returns the index after the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); {
			k := bytes.IndexAny(b[j:], `"{}[]`)
			if k < 0 {
				return len(b) + 1
			}
			j += k
			switch b[j] {
			case '"':
				j = skipString(b, j)
				continue
			case '{', '[':
				depth++
			default:
				depth--
			}
			j++
			if depth == 0 {
				return j
			}
		}
		return len(b) + 1
	}
	j := i
	for j < len(b) && !endsLiteral(b[j]) {
		j++
	}
	return j
}

func endsLiteral(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', '}', ']':
		return true
	}
	return false
}
