package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// goose154Rows are rows as goose 1.54 writes them into its v17 file: a
// parent with a foreground-delegated, archived sub_agent child in a
// project, cache and cost counters, chrono timestamps, millisecond message
// times, ledger rows and a provider inventory.
var goose154Rows = []string{
	`INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, created_at, updated_at,
		extension_data, total_tokens, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,
		accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens,
		accumulated_cache_read_tokens, accumulated_cache_write_tokens, accumulated_cost, provider_name,
		goose_mode, project_id)
	VALUES ('20260101_1', 'Parent', 1, 'user', '/proj', '2026-01-01 09:00:00', '2026-01-01 09:05:00', '{}',
		120, 100, 20, 30, 5, 1200, 1000, 200, 300, 50, 0.75, 'anthropic', 'smart_approve', 'proj-a')`,
	`INSERT INTO sessions (id, name, session_type, working_dir, created_at, updated_at, goose_mode,
		archived_at, project_id, parent_session_id, parent_delegation, accumulated_cost)
	VALUES ('20260101_2', 'Child', 'sub_agent', '/proj', '2026-01-01 09:01:00', '2026-01-01 09:02:00', 'auto',
		'2026-01-02T10:11:12.345+00:00', 'proj-a', '20260101_1',
		'{"execution_mode":"foreground","parent_delegate_message_id":"pm2","result_delivered_to_parent":false}', 0.25)`,
	`INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES
		('pm1', '20260101_1', 'user', '[{"type":"text","text":"delegate it"}]', 1767258000, '{"userVisible":true,"agentVisible":true}'),
		('pm2', '20260101_1', 'assistant', '[{"type":"text","text":"delegating"}]', 1767258060500, '{"userVisible":true,"agentVisible":true}'),
		('pm3', '20260101_1', 'user', '[{"type":"text","text":"summary"}]', 1767258070, '{"userVisible":false,"agentVisible":true}'),
		('cm1', '20260101_2', 'user', '[{"type":"text","text":"child task"}]', 1767258061, '{"userVisible":true,"agentVisible":true}')`,
	`INSERT INTO usage_ledger (session_id, created_timestamp, model, input_tokens, output_tokens, total_tokens,
		cache_read_tokens, cache_write_tokens, cost, cost_source, is_compaction) VALUES
		('20260101_1', 1767258060, 'claude', 1000, 200, 1200, 300, 50, 0.75, 'estimated', 0),
		('20260101_2', 1767258065, 'claude', 10, 2, 12, NULL, NULL, 0.25, 'provider_reported', 0)`,
	`INSERT INTO provider_inventory_entries (inventory_key, provider_id, provider_family) VALUES ('k', 'anthropic', 'anthropic')`,
	`INSERT INTO provider_inventory_models (inventory_key, ordinal, model_id, name) VALUES ('k', 0, 'claude', 'Claude')`,
}

// TestGoose154RoundTrip opens a database goose 1.54 created and filled,
// reads every v12..v17 field, writes to it, and checks nothing goose wrote
// was lost or rewritten.
func TestGoose154RoundTrip(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	db := rawDB(t, path)
	seedDDLFile(t, db, "schema_v17.sql", 17)
	for _, q := range goose154Rows {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	childRow, ledgerBefore := rowText(t, db, "sessions", "20260101_2"), tableText(t, db, "usage_ledger")
	inventory := tableText(t, db, "provider_inventory_models") + tableText(t, db, "provider_inventory_entries")

	st := openStore(t, path, func() time.Time { return time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC) })
	defer st.Close()
	checkVersions(t, db, 17)
	parent, err := st.Get(ctx, "20260101_1", false)
	if err != nil {
		t.Fatal(err)
	}
	wantLast := time.Unix(1767258070, 0).UTC()
	if *parent.CacheReadTokens != 30 || *parent.AccumulatedCacheWriteTokens != 50 || *parent.AccumulatedCost != 0.75 ||
		*parent.ProjectID != "proj-a" || parent.GooseMode != "smart_approve" || parent.ArchivedAt != nil ||
		parent.MessageCount != 2 || !parent.LastMessageAt.Equal(wantLast) || parent.ThreadID != nil {
		t.Errorf("parent read back: %+v", parent)
	}
	child, err := st.Get(ctx, "20260101_2", true)
	if err != nil {
		t.Fatal(err)
	}
	if child.ParentSessionID == nil || *child.ParentSessionID != "20260101_1" || child.ArchivedAt == nil ||
		!child.ArchivedAt.Equal(time.Date(2026, 1, 2, 10, 11, 12, 345_000_000, time.UTC)) || *child.AccumulatedCost != 0.25 {
		t.Errorf("child read back: parent %v archived %v cost %v", child.ParentSessionID, child.ArchivedAt, child.AccumulatedCost)
	}
	if got := rowText(t, db, "sessions", "20260101_2"); got != childRow {
		t.Errorf("reading rewrote the child row:\n got %s\nwant %s", got, childRow)
	}

	// Writes leave what they do not name (parent_delegation, the ledger,
	// the inventory) as goose wrote it.
	if err := st.AppendMessage(ctx, child.ID, conversation.AssistantText(1767258090, "done")); err != nil {
		t.Fatal(err)
	}
	if err := st.Update(ctx, child.ID, session.Update{Name: ptrTo("Child renamed")}); err != nil {
		t.Fatal(err)
	}
	var delegation string
	if err := db.QueryRow(`SELECT parent_delegation FROM sessions WHERE id = '20260101_2'`).Scan(&delegation); err != nil ||
		!strings.Contains(delegation, `"parent_delegate_message_id":"pm2"`) {
		t.Errorf("parent_delegation after writes: %q (%v)", delegation, err)
	}
	if got := tableText(t, db, "usage_ledger"); got != ledgerBefore {
		t.Errorf("ledger changed:\n got %s\nwant %s", got, ledgerBefore)
	}
	if got := tableText(t, db, "provider_inventory_models") + tableText(t, db, "provider_inventory_entries"); got != inventory {
		t.Errorf("inventory changed: %s", got)
	}

	// Fork and export/import keep the project, cost and cache counters.
	fork, err := st.Fork(ctx, parent.ID)
	if err != nil {
		t.Fatal(err)
	}
	data, err := st.Export(ctx, parent.ID)
	if err != nil {
		t.Fatal(err)
	}
	imported, err := st.Import(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []session.Session{fork, imported} {
		if *s.ProjectID != "proj-a" || *s.AccumulatedCost != 0.75 || *s.AccumulatedCacheReadTokens != 300 ||
			*s.CacheWriteTokens != 5 || s.GooseMode != "smart_approve" || len(s.Conversation) != 3 {
			t.Errorf("copy %s lost v12..v14 fields: %+v", s.ID, s)
		}
	}
}

// TestUsageLedgerAsGoose: an Update with a usage record writes goose's
// ledger row, first carrying forward counters that predate the ledger;
// Delete removes the session's ledger rows.
func TestUsageLedgerAsGoose(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	st := openStore(t, path, func() time.Time { return time.Unix(1767258000, 0) })
	defer st.Close()
	s, err := st.Create(ctx, session.NewSession{WorkingDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	// Spend recorded before the ledger existed.
	if err := st.Update(ctx, s.ID, session.Update{AccumulatedCost: ptrTo(0.5),
		Tokens: &session.TokenCounts{AccumulatedInput: ptrTo(100), AccumulatedOutput: ptrTo(10), AccumulatedTotal: ptrTo(110)}}); err != nil {
		t.Fatal(err)
	}
	cost := 0.01
	if err := st.Update(ctx, s.ID, session.Update{
		Tokens: &session.TokenCounts{Input: ptrTo(7), Output: ptrTo(3), Total: ptrTo(10),
			AccumulatedInput: ptrTo(107), AccumulatedOutput: ptrTo(13), AccumulatedTotal: ptrTo(120)},
		Usage: &session.UsageRecord{Model: "gpt-4o", Input: ptrTo(7), Output: ptrTo(3), Total: ptrTo(10),
			Cost: &cost, CostSource: session.CostEstimated, IsCompaction: true},
	}); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	want := "" +
		"1767258000|NULL|100|10|110|0|0|0.5|carried_forward|0\n" +
		"1767258000|gpt-4o|7|3|10|NULL|NULL|0.01|estimated|1\n"
	if got := ledgerText(t, db, s.ID); got != want {
		t.Errorf("usage_ledger:\n got %s\nwant %s", got, want)
	}
	// A second call carries nothing forward.
	if err := st.Update(ctx, s.ID, session.Update{Usage: &session.UsageRecord{Model: "gpt-4o", Input: ptrTo(1)}}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(ledgerText(t, db, s.ID), "\n"); n != 3 {
		t.Errorf("%d ledger rows after a second call, want 3", n)
	}
	if err := st.Delete(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if got := ledgerText(t, db, s.ID); got != "" {
		t.Errorf("ledger rows left after Delete: %s", got)
	}
}

func ledgerText(t *testing.T, db *sql.DB, id string) string {
	t.Helper()
	rows := queryStrings(t, db, `SELECT created_timestamp || '|' || COALESCE(model, 'NULL') || '|' ||
		COALESCE(input_tokens, 'NULL') || '|' || COALESCE(output_tokens, 'NULL') || '|' || COALESCE(total_tokens, 'NULL') || '|' ||
		COALESCE(cache_read_tokens, 'NULL') || '|' || COALESCE(cache_write_tokens, 'NULL') || '|' ||
		COALESCE(cost, 'NULL') || '|' || COALESCE(cost_source, 'NULL') || '|' || is_compaction
		FROM usage_ledger WHERE session_id = '`+id+`' ORDER BY id`)
	if len(rows) == 0 {
		return ""
	}
	return strings.Join(rows, "\n") + "\n"
}

// rowText renders one row of table (every column, in order) as text.
func rowText(t *testing.T, db *sql.DB, table, id string) string {
	t.Helper()
	return strings.Join(selectAll(t, db, `SELECT * FROM `+table+` WHERE id = '`+id+`'`), "\n")
}

func tableText(t *testing.T, db *sql.DB, table string) string {
	t.Helper()
	return strings.Join(selectAll(t, db, `SELECT * FROM `+table+` ORDER BY rowid`), "\n")
}

func selectAll(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		dest := make([]any, len(cols))
		for i := range vals {
			dest[i] = &vals[i]
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(cols))
		for i, v := range vals {
			parts[i] = cols[i] + "=" + v.String
			if !v.Valid {
				parts[i] = cols[i] + "=NULL"
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}

func ptrTo[T any](v T) *T { return &v }
