package recipe

import (
	"encoding/json"
	"fmt"
	"unicode"
)

// HasHiddenCharacters reports characters that can hide instructions from a
// reader: Unicode tags, zero-width and bidi controls, the BOM and
// private-use code points. goose refuses to save such a recipe and warns
// before running one.
func HasHiddenCharacters(s string) bool {
	for _, r := range s {
		switch {
		case r >= 0xE0000 && r <= 0xE007F, r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E,
			r >= 0x2066 && r <= 0x2069, r == 0xFEFF:
			return true
		case unicode.Is(unicode.Co, r):
			return true
		}
	}
	return false
}

// ScanJSON reports hidden characters anywhere in a recipe's JSON: decoded
// first, so escaped characters (\u200b) count too.
func ScanJSON(raw []byte) bool {
	text := string(raw)
	var decoded any
	if json.Unmarshal(raw, &decoded) == nil {
		text = fmt.Sprint(decoded)
	}
	return HasHiddenCharacters(text)
}

// HasSecurityWarnings reports hidden characters in any of r's text.
func (r *Recipe) HasSecurityWarnings() bool {
	b, err := json.Marshal(r)
	if err != nil {
		return false
	}
	return ScanJSON(b)
}
