package sqlite_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/session"
)

// copyLegacyFixture puts testdata/legacy/* into a fresh sessions folder.
func copyLegacyFixture(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sessions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("testdata/legacy")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata/legacy", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLegacyJSONLImportedOnceWhenDBIsCreated(t *testing.T) {
	dir := copyLegacyFixture(t)
	mtime := time.Date(2025, 1, 10, 10, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "20250110_093000.jsonl"), mtime, mtime); err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return time.Date(2025, 1, 11, 12, 0, 0, 0, time.UTC) }
	db := filepath.Join(dir, "sessions.db")
	st := openStore(t, db, clock)
	ctx := context.Background()
	page, err := st.List(ctx, session.ListOptions{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Sessions) != 2 {
		t.Fatalf("imported %d sessions: %+v", len(page.Sessions), page.Sessions)
	}

	old, err := st.Get(ctx, "20250110_093000", true)
	if err != nil {
		t.Fatal(err)
	}
	if old.Name != "Fix the flaky test" || old.WorkingDir != "/home/ana/proj" || old.SessionType != session.TypeUser ||
		!old.CreatedAt.Equal(mtime) || !old.UpdatedAt.Equal(mtime) ||
		*old.TotalTokens != 1200 || *old.AccumulatedOutputTokens != 400 || old.GooseMode != "auto" {
		t.Fatalf("legacy metadata: %+v", old)
	}
	if string(old.ExtensionData["todo.v0"]) != `{"content":"- [ ] rerun"}` {
		t.Fatalf("extension data: %s", old.ExtensionData["todo.v0"])
	}
	var texts []string
	for _, m := range old.Conversation {
		texts = append(texts, string(m.Role)+":"+m.Content[0].Text.Text)
	}
	if got, _ := json.Marshal(texts); string(got) != `["user:why is TestFoo flaky?","assistant:It races on the clock.","user:fix it"]` {
		t.Fatalf("conversation = %s", got)
	}

	sched, err := st.Get(ctx, "20250111_2", true)
	if err != nil {
		t.Fatal(err)
	}
	if sched.Name != "Scheduled report" || sched.SessionType != session.TypeScheduled || *sched.ScheduleID != "daily" ||
		sched.CreatedAt != time.Date(2025, 1, 11, 8, 0, 0, 0, time.UTC) ||
		sched.UpdatedAt != time.Date(2025, 1, 11, 8, 5, 0, 0, time.UTC) || len(sched.Conversation) != 1 {
		t.Fatalf("session-form metadata: %+v", sched)
	}

	// New ids continue after the imported ones of the same day.
	created, err := st.Create(ctx, session.NewSession{WorkingDir: "/w"})
	if err != nil || created.ID != "20250111_3" {
		t.Fatalf("Create after import: %q %v", created.ID, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	// Once only: files that appear later, or an existing DB, import nothing.
	if err := os.WriteFile(filepath.Join(dir, "20250112_1.jsonl"), []byte(`{"working_dir":"/x"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st = openStore(t, db, clock)
	defer st.Close()
	if _, err := st.Get(ctx, "20250112_1", false); err == nil {
		t.Fatal("a legacy file was imported into an existing sessions.db")
	}
	if ins, err := st.Insights(ctx); err != nil || ins.TotalSessions != 3 {
		t.Fatalf("insights = %+v, %v", ins, err)
	}
}
