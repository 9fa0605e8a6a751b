package session

import (
	"strconv"
	"strings"
	"time"
)

// IDDay is the "YYYYMMDD" prefix of session ids created at t (UTC).
func IDDay(t time.Time) string { return t.UTC().Format("20060102") }

// NextID returns goose's next session id for the day of t: "YYYYMMDD_N"
// with N one more than the highest N already used that day. existing may
// hold ids of any day and any shape; others are ignored.
func NextID(t time.Time, existing func(yield func(string) bool)) string {
	day := IDDay(t)
	highest := 0
	for id := range existing {
		rest, ok := strings.CutPrefix(id, day+"_")
		if !ok {
			continue
		}
		if n := leadingInt(rest); n > highest {
			highest = n
		}
	}
	return day + "_" + strconv.Itoa(highest+1)
}

// leadingInt mirrors SQLite's CAST(text AS INTEGER): the leading decimal
// digits, or 0.
func leadingInt(s string) int {
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(s[:end])
	return n
}

// SplitID splits a goose session id "YYYYMMDD_N" into its day and N; ok is
// false for ids of any other shape (imported or hand-made ones).
func SplitID(id string) (day string, n int, ok bool) {
	day, rest, found := strings.Cut(id, "_")
	if !found || len(day) != 8 || leadingInt(day) == 0 || len(rest) == 0 {
		return "", 0, false
	}
	for _, c := range day + rest {
		if c < '0' || c > '9' {
			return "", 0, false
		}
	}
	n, err := strconv.Atoi(rest)
	return day, n, err == nil
}
