package sqlite_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

var fixedNow = func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 800, time.UTC) }

// TestRowsAsGooseWritesThem checks the bytes goose would read back.
func TestRowsAsGooseWritesThem(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	st := openStore(t, path, fixedNow)
	defer st.Close()
	s, err := st.Create(ctx, session.NewSession{WorkingDir: "/w", Name: "n"})
	if err != nil {
		t.Fatal(err)
	}
	m := conversation.UserText(1741064827, "a <b> & c").WithID("m1")
	if err := st.AppendMessage(ctx, s.ID, m); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	var row string
	err = db.QueryRow(`SELECT id || '|' || name || '|' || description || '|' || user_set_name || '|' || session_type
		|| '|' || working_dir || '|' || created_at || '|' || updated_at || '|' || extension_data || '|' || goose_mode
		|| '|' || typeof(total_tokens) || '|' || typeof(parent_delegation) FROM sessions`).Scan(&row)
	if want := "20250304_1|n||0|user|/w|2025-03-04 05:06:07|2025-03-04 05:06:07|{}|auto|null|null"; err != nil || row != want {
		t.Errorf("session row %q (%v), want %q", row, err, want)
	}
	err = db.QueryRow(`SELECT message_id || '|' || session_id || '|' || role || '|' || content_json || '|'
		|| created_timestamp || '|' || metadata_json || '|' || typeof(tokens) FROM messages`).Scan(&row)
	want := `m1|20250304_1|user|[{"type":"text","text":"a <b> & c"}]|1741064827|{"userVisible":true,"agentVisible":true}|null`
	if want2 := strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(want, "<", `\u003c`), ">", `\u003e`), "&", `\u0026`); err != nil || (row != want && row != want2) {
		t.Errorf("message row %q (%v), want %q", row, err, want)
	}
}

// TestUnreadableRowSkipped: a half-written content_json must not hide the
// session; it is skipped with a warning.
func TestUnreadableRowSkipped(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	var logs bytes.Buffer
	st, err := sqlite.Open(ctx, path, sqlite.Options{Now: fixedNow, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, _ := st.Create(ctx, session.NewSession{WorkingDir: "/w"})
	st.AppendMessage(ctx, s.ID, conversation.UserText(1, "kept"))
	if _, err := rawDB(t, path).Exec(`INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp)
		VALUES ('bad', ?, 'assistant', '[{"type":"text","te', 2)`, s.ID); err != nil {
		t.Fatal(err)
	}
	got, err := st.Get(ctx, s.ID, true)
	if err != nil {
		t.Fatalf("session with a bad row: %v", err)
	}
	if len(got.Conversation) != 1 || got.Conversation[0].AsText() != "kept" {
		t.Errorf("conversation %+v", got.Conversation)
	}
	if !strings.Contains(logs.String(), "skipping unreadable message") || !strings.Contains(logs.String(), "bad") {
		t.Errorf("no warning logged: %q", logs.String())
	}
}

// TestListOrdersBothTimestampForms: RFC 3339 rows (from goose's sqlx
// import) sort by time among goose's own "YYYY-MM-DD HH:MM:SS" rows.
func TestListOrdersBothTimestampForms(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	st := openStore(t, path, fixedNow)
	defer st.Close()
	db := rawDB(t, path)
	for id, at := range map[string]string{
		"20250101_1": "2025-01-01 10:00:00",
		"20250101_2": "2025-01-01T11:00:00+00:00",
		"20250101_3": "2025-01-01T12:30:00+02:00", // 10:30 UTC
		"20250101_4": "2025-01-01 09:00:00",
	} {
		if _, err := db.Exec(`INSERT INTO sessions (id, working_dir, created_at, updated_at) VALUES (?, '/w', ?, ?)`, id, at, at); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	cursor := ""
	for {
		p, err := st.List(context.Background(), session.ListOptions{Limit: 1, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range p.Sessions {
			got = append(got, s.ID)
		}
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if want := []string{"20250101_2", "20250101_3", "20250101_1", "20250101_4"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestNewerSchemaRefused: a file from a goose newer than 1.54 (schema v18)
// is refused with an error naming both versions and left untouched.
func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	st := openStore(t, path, fixedNow)
	if _, err := st.Create(context.Background(), session.NewSession{WorkingDir: "/w"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	db := rawDB(t, path)
	if _, err := db.Exec(`INSERT INTO schema_version (version) VALUES (18)`); err != nil {
		t.Fatal(err)
	}
	before := schemaOf(t, db)
	_, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if !errors.Is(err, sqlite.ErrSchemaTooNew) {
		t.Fatalf("open v18 file: %v, want ErrSchemaTooNew", err)
	}
	for _, want := range []string{"schema v18", "up to v17", "goose 1.54", "goose-acp release that supports schema v18", path} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	var versions, sessions int
	db.QueryRow(`SELECT COUNT(*) FROM schema_version`).Scan(&versions)
	db.QueryRow(`SELECT COUNT(*) FROM sessions`).Scan(&sessions)
	if versions != 2 || sessions != 1 || schemaOf(t, db) != before {
		t.Errorf("refused file changed: %d version rows, %d sessions", versions, sessions)
	}
}

func TestPathNeedingEscapes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a dir #1?x=y%20", "sessions.db")
	st := openStore(t, path, fixedNow)
	if _, err := st.Create(context.Background(), session.NewSession{WorkingDir: "/w"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if n := len(sessionsIn(t, path)); n != 1 {
		t.Errorf("reopened store at %q holds %d sessions", path, n)
	}
}

func sessionsIn(t *testing.T, path string) []session.Session {
	t.Helper()
	st := openStore(t, path, nil)
	defer st.Close()
	p, err := st.List(context.Background(), session.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Sessions
}

// TestTwoStoresShareOneFile stands in for goose and goose-acp (or two
// goose-acp processes) writing one sessions.db at once.
func TestTwoStoresShareOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	a, b := openStore(t, path, fixedNow), openStore(t, path, fixedNow)
	defer a.Close()
	defer b.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		st := a
		if i%2 == 1 {
			st = b
		}
		wg.Go(func() {
			_, err := st.Create(context.Background(), session.NewSession{WorkingDir: "/w", Name: fmt.Sprint(i)})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, s := range sessionsIn(t, path) {
		seen[s.ID] = true
	}
	if len(seen) != 40 || !seen["20250304_1"] || !seen["20250304_40"] {
		t.Errorf("%d distinct ids after 40 creates: %v", len(seen), seen)
	}
}

func TestDefaultPath(t *testing.T) {
	if got, want := sqlite.DefaultPath(filepath.Join("data", "goose")), filepath.Join("data", "goose", "sessions", "sessions.db"); got != want {
		t.Errorf("DefaultPath = %s, want %s", got, want)
	}
}

// TestDirectoryOwnerOnly: like goose 1.54, opening makes the sessions
// directory owner-only on unix, for a new file and an existing one.
func TestDirectoryOwnerOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permissions")
	}
	dir := filepath.Join(t.TempDir(), "sessions")
	path := filepath.Join(dir, "sessions.db")
	for _, step := range []string{"new", "existing"} {
		openStore(t, path, nil).Close()
		fi, err := os.Stat(dir)
		if err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s file: directory mode %v (%v), want 0700", step, fi.Mode().Perm(), err)
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
