package recipe

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// DeeplinkPrefix starts every recipe deeplink.
const DeeplinkPrefix = "goose://recipe?config="

// MarshalCompact is goose's serde_json::to_string(&recipe): compact, fields
// in struct order, non-ASCII and <>& left as is.
func MarshalCompact(r *Recipe) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("recipe: encode: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Encode is goose's recipe_deeplink::encode: URL-safe base64 without
// padding of the compact JSON.
func Encode(r *Recipe) (string, error) {
	b, err := MarshalCompact(r)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// DeeplinkURL returns goose://recipe?config=<Encode(r)>.
func DeeplinkURL(r *Recipe) (string, error) {
	enc, err := Encode(r)
	if err != nil {
		return "", err
	}
	return DeeplinkPrefix + enc, nil
}

// Decode is goose's recipe_deeplink::decode. It tries URL-safe base64
// without padding, then the legacy form (percent-decoded standard base64
// with padding); anything else is ErrDecode.
func Decode(config string) (*Recipe, error) {
	// Go's decoders skip CR/LF; Rust's do not, so reject them up front.
	if strings.ContainsAny(config, "\r\n") {
		return nil, ErrDecode
	}
	if b, err := base64.RawURLEncoding.Strict().DecodeString(config); err == nil {
		if r, err := decodeJSON(b); err == nil {
			return r, nil
		}
	}
	if unescaped, ok := percentDecode(config); ok {
		if strings.ContainsAny(unescaped, "\r\n") {
			return nil, ErrDecode
		}
		if b, err := base64.StdEncoding.Strict().DecodeString(unescaped); err == nil {
			if r, err := decodeJSON(b); err == nil {
				return r, nil
			}
		}
	}
	return nil, ErrDecode
}

func decodeJSON(b []byte) (*Recipe, error) {
	if !utf8.Valid(b) {
		return nil, ErrDecode
	}
	return FromJSON(b)
}

// percentDecode is the urlencoding crate's decode: %XX pairs are decoded,
// anything else (including '+' and stray '%') is kept; the result must be
// UTF-8.
func percentDecode(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if h, ok := unhex(s[i+1]); ok {
				if l, ok := unhex(s[i+2]); ok {
					out = append(out, h<<4|l)
					i += 2
					continue
				}
			}
		}
		out = append(out, s[i])
	}
	if !utf8.Valid(out) {
		return "", false
	}
	return string(out), true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
