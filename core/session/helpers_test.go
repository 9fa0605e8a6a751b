package session

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
)

func TestParseTimestampBothForms(t *testing.T) {
	want := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, in := range []string{
		"2025-03-04 05:06:07",
		"2025-03-04T05:06:07Z",
		"2025-03-04T05:06:07+00:00",
		"2025-03-04T07:06:07+02:00",
		"2025-03-04T05:06:07.000Z",
	} {
		got, err := ParseTimestamp(in)
		if err != nil || !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("ParseTimestamp(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseTimestamp("yesterday"); err == nil {
		t.Error("ParseTimestamp accepted garbage")
	}
	local := time.Date(2025, 3, 4, 7, 6, 7, 900, time.FixedZone("x", 2*3600))
	if got := FormatTimestamp(local); got != "2025-03-04 05:06:07" {
		t.Errorf("FormatTimestamp = %q", got)
	}
}

func TestNextID(t *testing.T) {
	day := time.Date(2025, 3, 4, 23, 59, 59, 0, time.UTC)
	for _, tc := range []struct {
		existing []string
		want     string
	}{
		{nil, "20250304_1"},
		{[]string{"20250304_1", "20250304_2"}, "20250304_3"},
		{[]string{"20250304_9", "20250304_10", "20250303_50"}, "20250304_11"},
		{[]string{"20250304_7x", "other"}, "20250304_8"},
	} {
		if got := NextID(day, slices.Values(tc.existing)); got != tc.want {
			t.Errorf("NextID(%v) = %s, want %s", tc.existing, got, tc.want)
		}
	}
	// The day is the UTC day.
	east := time.Date(2025, 3, 5, 1, 0, 0, 0, time.FixedZone("x", 3*3600))
	if got := NextID(east, slices.Values([]string(nil))); got != "20250304_1" {
		t.Errorf("NextID east of UTC = %s", got)
	}
}

func TestCursorRoundTrip(t *testing.T) {
	c := Cursor{Key: "2025-03-04 05:06:07", ID: "20250304_9"}
	got, err := DecodeCursor(c.Encode())
	if err != nil || got != c {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	if !c.Before("2025-03-04 05:06:06", "20250304_99") || !c.Before("2025-03-04 05:06:07", "20250304_10") ||
		c.Before("2025-03-04 05:06:07", "20250304_9") {
		t.Error("Before ordering wrong")
	}
	for _, bad := range []string{"", "%%%", "e30"} {
		if _, err := DecodeCursor(bad); !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("DecodeCursor(%q) = %v", bad, err)
		}
	}
}

func TestSnippets(t *testing.T) {
	m := conversation.UserText(1, "Short ÉCOLE").WithText("no match here").
		WithText(strings.Repeat("a", 100) + "École" + strings.Repeat("b", 100))
	got := SortSnippets(MessageSnippets(m, FoldText("école")))
	want := []string{"Short ÉCOLE", "…" + strings.Repeat("a", 60) + "École" + strings.Repeat("b", 60) + "…"}
	if !slices.Equal(got, want) {
		t.Errorf("snippets %q, want %q", got, want)
	}
	hidden := m.WithMetadata(conversation.Metadata{AgentVisible: true})
	if s := MessageSnippets(hidden, "école"); s != nil {
		t.Errorf("hidden message searched: %q", s)
	}
}

func TestUpdateColumnsRoundTrip(t *testing.T) {
	var s Session
	cols, err := UpdateColumns(Update{Recipe: []byte(`{ "a" : 1 }`), ScheduleID: new(string)})
	if err != nil {
		t.Fatal(err)
	}
	if err := ApplyColumns(&s, cols); err != nil {
		t.Fatal(err)
	}
	if string(s.Recipe) != `{"a":1}` || s.ScheduleID != nil {
		t.Errorf("recipe %s schedule %v", s.Recipe, s.ScheduleID)
	}
	if _, err := UpdateColumns(Update{Recipe: []byte(`{`)}); !errors.Is(err, ErrInvalidUpdate) {
		t.Errorf("bad recipe: %v", err)
	}
}
