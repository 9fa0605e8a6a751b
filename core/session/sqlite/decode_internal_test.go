package sqlite

import (
	"bytes"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// TestRowDecoderOrder: rows decoded in chunks come back in goose's ORDER
// BY created_timestamp, id, across chunk boundaries, with other roles
// skipped and unreadable rows skipped with a warning.
func TestRowDecoderOrder(t *testing.T) {
	for _, n := range []int{0, 1, decodeChunk - 1, decodeChunk, 3*decodeChunk + 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var logs bytes.Buffer
			d := newRowDecoder()
			type key struct{ created, rowID int64 }
			var want []key
			for i := range n {
				rowID := int64(i + 1)
				// Timestamps run backwards every 100 rows and repeat
				// in pairs, so both sort keys matter.
				created := int64(10_000 - (i/100)*100 + (i%100)/2)
				row := session.StoredMessage{
					MessageID:   fmt.Sprintf("m%d", rowID),
					Role:        "user",
					ContentJSON: fmt.Sprintf(`[{"type":"text","text":"%d"}]`, rowID),
					Created:     created,
				}
				switch i % 97 {
				case 5:
					row.Role = "tool"
				case 6:
					row.ContentJSON = "not json"
				default:
					want = append(want, key{created, rowID})
				}
				d.add(rowID, row)
			}
			got := d.finish(slog.New(slog.NewTextHandler(&logs, nil)), "s1")
			slices.SortFunc(want, func(a, b key) int {
				if a.created != b.created {
					return int(a.created - b.created)
				}
				return int(a.rowID - b.rowID)
			})
			if len(got) != len(want) {
				t.Fatalf("%d messages, want %d", len(got), len(want))
			}
			for i, m := range got {
				if m.Created != want[i].created || m.AsText() != fmt.Sprint(want[i].rowID) || m.IDOrEmpty() != fmt.Sprintf("m%d", want[i].rowID) {
					t.Fatalf("message %d: created %d text %q id %q, want created %d row %d", i, m.Created, m.AsText(), m.IDOrEmpty(), want[i].created, want[i].rowID)
				}
			}
			bad := 0
			for i := range n {
				if i%97 == 6 {
					bad++
				}
			}
			if c := strings.Count(logs.String(), "skipping unreadable message"); c != bad {
				t.Errorf("%d warnings, want %d:\n%s", c, bad, logs.String())
			}
		})
	}
}

// TestInternedColumns: the shared role and metadata strings are exactly
// what EncodeMessage writes, and other values are copied as they are.
func TestInternedColumns(t *testing.T) {
	for _, u := range []bool{false, true} {
		for _, a := range []bool{false, true} {
			m := conversation.UserText(1, "x")
			m.Metadata = conversation.Metadata{UserVisible: u, AgentVisible: a}
			row, err := session.EncodeMessage("s", m)
			if err != nil {
				t.Fatal(err)
			}
			got := internMetadata([]byte(*row.MetadataJSON))
			if !slices.Contains(knownMetadata, got) {
				t.Errorf("metadata %s is not one of the shared texts", *row.MetadataJSON)
			}
			if *got != *row.MetadataJSON {
				t.Errorf("interned %s, want %s", *got, *row.MetadataJSON)
			}
		}
	}
	if got := internMetadata([]byte(`{"userVisible":false}`)); *got != `{"userVisible":false}` || slices.Contains(knownMetadata, got) {
		t.Errorf("other metadata read as %q", *got)
	}
	for _, r := range []string{"user", "assistant", "tool", ""} {
		if got := internRole([]byte(r)); got != r {
			t.Errorf("role %q read as %q", r, got)
		}
	}
}
