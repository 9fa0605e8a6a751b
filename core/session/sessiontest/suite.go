package sessiontest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// Factory returns a fresh, empty store whose clock is now. The suite closes
// it.
type Factory func(t *testing.T, now func() time.Time) session.Store

// Start is where every test's clock begins (with a fraction of a second the
// stores must drop).
var Start = time.Date(2025, 3, 4, 5, 6, 7, 500_000_000, time.UTC)

// Run runs the contract suite against stores made by newStore.
func Run(t *testing.T, newStore Factory) {
	tests := []struct {
		name string
		fn   func(t *testing.T, st session.Store, clock *Clock)
	}{
		{"CreateJSON", testCreateJSON},
		{"CreateWithModeAndProvider", testCreateWithModeAndProvider},
		{"IDsPerDay", testIDsPerDay},
		{"DeletedIDsNotReused", testDeletedIDsNotReused},
		{"NotFound", testNotFound},
		{"AppendAndLoad", testAppendAndLoad},
		{"MessageUsageRoundTrip", testMessageUsageRoundTrip},
		{"AppendRejectsRole", testAppendRejectsRole},
		{"ReplaceConversation", testReplaceConversation},
		{"SetMessageMetadata", testSetMessageMetadata},
		{"Truncate", testTruncate},
		{"Update", testUpdate},
		{"UpdateRejectsBadRecipe", testUpdateRejectsBadRecipe},
		{"Delete", testDelete},
		{"ListFilters", testListFilters},
		{"ListQueryArchiveSnippets", testListQueryArchiveSnippets},
		{"ListPagination", testListPagination},
		{"ListBadCursor", testListBadCursor},
		{"Search", testSearch},
		{"Fork", testFork},
		{"ExportJSON", testExportJSON},
		{"Import", testImport},
		{"ImportRejects", testImportRejects},
		{"Insights", testInsights},
		{"Concurrent", testConcurrent},
		{"NewerFields", testNewerFields},
		{"LastMessageAt", testLastMessageAt},
		{"UsageUpdate", testUsageUpdate},
		{"UsageTotals", testUsageTotals},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := NewClock(Start)
			st := newStore(t, clock.Now)
			t.Cleanup(func() {
				if err := st.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tc.fn(t, st, clock)
		})
	}
}

func create(t *testing.T, st session.Store, ns session.NewSession) session.Session {
	t.Helper()
	s, err := st.Create(context.Background(), ns)
	if err != nil {
		t.Fatalf("Create(%+v): %v", ns, err)
	}
	return s
}

func get(t *testing.T, st session.Store, id string, withMessages bool) session.Session {
	t.Helper()
	s, err := st.Get(context.Background(), id, withMessages)
	if err != nil {
		t.Fatalf("Get(%s): %v", id, err)
	}
	return s
}

func appendMsg(t *testing.T, st session.Store, id string, m conversation.Message) {
	t.Helper()
	if err := st.AppendMessage(context.Background(), id, m); err != nil {
		t.Fatalf("AppendMessage(%s): %v", id, err)
	}
}

func update(t *testing.T, st session.Store, id string, u session.Update) {
	t.Helper()
	if err := st.Update(context.Background(), id, u); err != nil {
		t.Fatalf("Update(%s): %v", id, err)
	}
}

// jsonOf renders v compactly for comparison with an expected literal.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

func wantJSON(t *testing.T, what string, v any, want string) {
	t.Helper()
	var wantNorm, gotNorm any
	if err := json.Unmarshal([]byte(want), &wantNorm); err != nil {
		t.Fatalf("bad expectation for %s: %v", what, err)
	}
	if err := json.Unmarshal([]byte(jsonOf(t, v)), &gotNorm); err != nil {
		t.Fatalf("%s does not round-trip: %v", what, err)
	}
	if got, w := jsonOf(t, gotNorm), jsonOf(t, wantNorm); got != w {
		t.Errorf("%s JSON:\n got %s\nwant %s", what, got, w)
	}
}

func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error %v, want one wrapping %v", what, err, target)
	}
}

func ptr[T any](v T) *T { return &v }

func ids(ss []session.Session) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.ID
	}
	return out
}
