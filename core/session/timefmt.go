package session

import (
	"fmt"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// TimestampLayout is how goose's SQLite CURRENT_TIMESTAMP and datetime('now')
// write times: UTC, second precision, a space between date and time.
const TimestampLayout = "2006-01-02 15:04:05"

// FormatTimestamp renders t the way sessions.db stores timestamps.
func FormatTimestamp(t time.Time) string { return t.UTC().Format(TimestampLayout) }

// ParseTimestamp reads a sessions.db timestamp. goose writes
// "YYYY-MM-DD HH:MM:SS" itself, but rows imported through sqlx hold RFC 3339
// text (with "T", an offset and maybe fractional seconds), so both are
// accepted.
func ParseTimestamp(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	layouts := []string{
		TimestampLayout,
		"2006-01-02 15:04:05.999999999",
		time.RFC3339Nano,
		"2006-01-02T15:04:05.999999999",
		"2006-01-02 15:04:05.999999999Z07:00",
		"2006-01-02 15:04:05.999999999-07:00",
	}
	for _, layout := range layouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("session: unrecognised timestamp %q", s)
}

// Second truncates t to what a sessions.db timestamp can hold, so stores
// that never touch SQLite report the same times.
func Second(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

// MillisecondThreshold is goose's MILLISECOND_TIMESTAMP_THRESHOLD: a
// message created_timestamp above it is in milliseconds.
const MillisecondThreshold = 10_000_000_000

// MessageTime reads a message's created_timestamp (seconds, or
// milliseconds above MillisecondThreshold) as goose computes last_message_at.
func MessageTime(created int64) time.Time {
	if created > MillisecondThreshold {
		created /= 1000
	}
	return time.Unix(created, 0).UTC()
}

// ConversationStats are what goose derives from a loaded conversation: the
// user-visible message count and the newest message's time (nil if none).
func ConversationStats(msgs []conversation.Message) (count int, last *time.Time) {
	var newest time.Time
	for _, m := range msgs {
		if m.Metadata.UserVisible {
			count++
		}
		if t := MessageTime(m.Created); t.After(newest) || newest.IsZero() {
			newest = t
		}
	}
	if len(msgs) > 0 {
		last = &newest
	}
	return count, last
}
