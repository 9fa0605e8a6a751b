package deeplink

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// params is URLSearchParams over a query string: split on "&" only, "+" is
// a space, invalid percent escapes stay literal, invalid UTF-8 becomes
// U+FFFD.
type params []struct{ key, value string }

func parseParams(query string) params {
	var out params
	for _, part := range strings.Split(query, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		out = append(out, struct{ key, value string }{formDecode(k), formDecode(v)})
	}
	return out
}

// get returns the first value for key.
func (p params) get(key string) (string, bool) {
	for _, kv := range p {
		if kv.key == key {
			return kv.value, true
		}
	}
	return "", false
}

// getAll returns every value for key in order.
func (p params) getAll(key string) []string {
	var out []string
	for _, kv := range p {
		if kv.key == key {
			out = append(out, kv.value)
		}
	}
	return out
}

func formDecode(s string) string {
	s = strings.ReplaceAll(s, "+", " ")
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return toUSV(string(b))
}

var errURI = errors.New("URIError: URI malformed")

// decodeURIComponent is JavaScript's: every %XX is decoded, a stray "%" or
// escapes that are not UTF-8 fail; "+" is kept.
func decodeURIComponent(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", errURI
		}
		b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
		i += 2
	}
	if !utf8.Valid(b) {
		return "", errURI
	}
	return string(b), nil
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
