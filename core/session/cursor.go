package session

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"
)

// Cursor is a position in List's order: sort key DESC, then id DESC. The
// next page starts strictly after it.
type Cursor struct {
	// Key is the session's updated_at as FormatTimestamp renders it. The
	// fixed-width text sorts like the time it names, so stores compare keys
	// as strings.
	Key string
	ID  string
}

type cursorWire struct {
	K string `json:"k"`
	I string `json:"i"`
}

// SortKey is the List sort key of a session updated at t.
func SortKey(t time.Time) string { return FormatTimestamp(t) }

// Encode returns the opaque string handed to clients.
func (c Cursor) Encode() string {
	b, _ := json.Marshal(cursorWire{K: c.Key, I: c.ID})
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor parses a string made by Cursor.Encode.
func DecodeCursor(s string) (Cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return Cursor{}, fmt.Errorf("%w: %q", ErrInvalidCursor, s)
	}
	var w cursorWire
	if err := json.Unmarshal(b, &w); err != nil || w.I == "" {
		return Cursor{}, fmt.Errorf("%w: %q", ErrInvalidCursor, s)
	}
	return Cursor{Key: w.K, ID: w.I}, nil
}

// Before reports whether a session with this sort key and id is listed
// after the cursor position.
func (c Cursor) Before(key, id string) bool {
	return key < c.Key || (key == c.Key && id < c.ID)
}
