package sqlite

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// fullRow is every column of a message row as SQLite holds it, the
// session's id and the row's timestamp aside (they differ between two
// stores), with each value's type.
func fullRow(t *testing.T, st *Store, messageID string) string {
	t.Helper()
	var out string
	err := st.db.QueryRow(`SELECT printf('%d|%s|%s|%s:%s|%s:%d|%s:%d|%s:%s|%s:%s|%s', id, message_id, role,
			typeof(content_json), content_json, typeof(created_timestamp), created_timestamp,
			typeof(timestamp), length(timestamp), typeof(tokens), tokens, typeof(metadata_json), metadata_json,
			(SELECT seq FROM sqlite_sequence WHERE name = 'messages'))
		FROM messages WHERE message_id = ?`, messageID).Scan(&out)
	if err != nil {
		t.Fatalf("row of %s: %v", messageID, err)
	}
	return out
}

func integrityOK(t *testing.T, st *Store) {
	t.Helper()
	var res string
	if err := st.db.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %s %v", res, err)
	}
}

// plainAppend stores m the way a small message is stored: its values
// bound to an INSERT.
func plainAppend(t *testing.T, st *Store, id string, m conversation.Message) {
	t.Helper()
	row, err := session.EncodeMessage(id, m)
	if err != nil {
		t.Fatal(err)
	}
	err = st.write(context.Background(), func(tx dbq) error { return insertMessage(context.Background(), tx, id, row) })
	if err != nil {
		t.Fatal(err)
	}
}

// TestStagedRowIsWhatAnInsertWrites: a huge message copied from its
// staging table is the row an INSERT of its values makes — same id (the
// next AUTOINCREMENT one), TEXT content byte for byte, the timestamp
// default, NULL tokens, the same sqlite_sequence — and every index holds
// it (integrity_check).
func TestStagedRowIsWhatAnInsertWrites(t *testing.T) {
	ctx := context.Background()
	staged, sid := openInternal(t)
	plain, pid := openInternal(t)
	small := conversation.UserText(4, "before").WithID("small")
	m := conversation.UserText(5, hugeText("end")).WithID("big").WithMetadata(conversation.Metadata{UserVisible: true})
	for _, s := range []struct {
		st *Store
		id string
	}{{staged, sid}, {plain, pid}} {
		// A gap in the ids: the next one comes from sqlite_sequence.
		plainAppend(t, s.st, s.id, conversation.UserText(1, "gone").WithID("gone"))
		if _, err := s.st.db.Exec(`DELETE FROM messages WHERE message_id = 'gone'`); err != nil {
			t.Fatal(err)
		}
		plainAppend(t, s.st, s.id, small)
	}
	before := stageSeq.Load()
	start := time.Now().UTC().Add(-time.Second)
	if err := staged.AppendMessage(ctx, sid, m); err != nil {
		t.Fatal(err)
	}
	if stageSeq.Load() != before+1 {
		t.Fatal("the huge message was not staged")
	}
	plainAppend(t, plain, pid, m)
	if got, want := fullRow(t, staged, "big"), fullRow(t, plain, "big"); got != want {
		t.Errorf("staged row differs from an inserted one:\n got %.200s\nwant %.200s", got, want)
	}
	var stamp, session string
	staged.db.QueryRow(`SELECT CAST(timestamp AS TEXT), session_id FROM messages WHERE message_id = 'big'`).Scan(&stamp, &session)
	if ts, err := time.Parse(time.DateTime, stamp); err != nil || ts.Before(start) || ts.After(time.Now().UTC().Add(time.Second)) {
		t.Errorf("timestamp %q is not the insert's CURRENT_TIMESTAMP (%v)", stamp, err)
	}
	if session != sid {
		t.Errorf("session_id %q, want %q", session, sid)
	}
	integrityOK(t, staged)
	var byIndex int
	staged.db.QueryRow(`SELECT count(*) FROM messages INDEXED BY idx_messages_session_created
		WHERE session_id = ? AND created_timestamp = 5`, sid).Scan(&byIndex)
	if byIndex != 1 {
		t.Errorf("the session index finds %d rows", byIndex)
	}
	wantConversation(t, staged, sid, []conversation.Message{small, m})
}

// TestStagedCopyIsSQLitesTransfer: the copy from a staging table runs as
// SQLite's transfer (the record read whole and inserted as it is,
// OP_RowData), not as an insert of its values (OP_Column per column and
// OP_MakeRecord building the record again): what keeps SQLite at one copy
// of a huge row.
func TestStagedCopyIsSQLitesTransfer(t *testing.T) {
	ctx := context.Background()
	st, id := openInternal(t)
	conn, err := st.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stg, err := attachStage(ctx, conn, id, []conversation.Message{conversation.UserText(5, hugeText("")).WithID("big")})
	if err != nil || stg == nil {
		t.Fatalf("attach: %v %v", stg, err)
	}
	defer stg.detach(ctx, conn)
	rows, err := conn.QueryContext(ctx, `EXPLAIN INSERT INTO main.messages SELECT * FROM `+stageSchema+`.m0`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ops []string
	for rows.Next() {
		var addr, p1, p2, p3 int
		var op string
		var p4, p5, comment any
		if err := rows.Scan(&addr, &op, &p1, &p2, &p3, &p4, &p5, &comment); err != nil {
			t.Fatal(err)
		}
		ops = append(ops, op)
	}
	prog := strings.Join(ops, " ")
	if !strings.Contains(prog, "RowData Insert") || strings.Contains(prog, "Column Column") {
		t.Errorf("the staged copy is not SQLite's transfer: %s", prog)
	}
}

// TestStagedRewriteIsWhatAnUpdateWrites: compaction's metadata change on
// a kept huge row rewrites it through its staging table — the row is
// what UPDATE ... SET metadata_json makes of it: same id, its timestamp
// and tokens as stored, the new metadata — and the rows after it follow.
func TestStagedRewriteIsWhatAnUpdateWrites(t *testing.T) {
	ctx := context.Background()
	staged, sid := openInternal(t)
	plain, pid := openInternal(t)
	old := []conversation.Message{conversation.UserText(1, "first").WithID("a"),
		conversation.UserText(2, hugeText("")).WithID("big")}
	for _, s := range []struct {
		st *Store
		id string
	}{{staged, sid}, {plain, pid}} {
		for _, m := range old {
			plainAppend(t, s.st, s.id, m)
		}
		// goose's own columns as an older goose left them.
		if _, err := s.st.db.Exec(`UPDATE messages SET tokens = 42, timestamp = '2025-01-02 03:04:05' WHERE message_id = 'big'`); err != nil {
			t.Fatal(err)
		}
	}
	hidden := conversation.Metadata{UserVisible: true}
	out := []conversation.Message{old[0].WithMetadata(hidden), old[1].WithMetadata(hidden),
		conversation.UserText(3, "summary").WithID("s")}
	before := stageSeq.Load()
	if err := staged.ReplaceConversation(ctx, sid, out); err != nil {
		t.Fatal(err)
	}
	if stageSeq.Load() != before+1 {
		t.Fatal("the replacement was not staged")
	}
	md, _ := session.EncodeMetadata(hidden)
	if _, err := plain.db.Exec(`UPDATE messages SET metadata_json = ?`, md); err != nil {
		t.Fatal(err)
	}
	plainAppend(t, plain, pid, out[2])
	for _, mid := range []string{"a", "big", "s"} {
		if got, want := fullRow(t, staged, mid), fullRow(t, plain, mid); got != want {
			t.Errorf("row %s:\n got %.200s\nwant %.200s", mid, got, want)
		}
	}
	var stamp string
	staged.db.QueryRow(`SELECT CAST(timestamp AS TEXT) FROM messages WHERE message_id = 'big'`).Scan(&stamp)
	if stamp != "2025-01-02 03:04:05" {
		t.Errorf("the kept row's timestamp became %q", stamp)
	}
	integrityOK(t, staged)
	wantConversation(t, staged, sid, out)
}

// TestSeveralHugeMessagesStaged: a replacement inserting several huge
// messages stages each, in order, each row whole.
func TestSeveralHugeMessagesStaged(t *testing.T) {
	ctx := context.Background()
	st, id := openInternal(t)
	out := []conversation.Message{conversation.UserText(1, "first").WithID("a")}
	for i := range 3 {
		out = append(out, conversation.UserText(int64(2+i), hugeText(fmt.Sprint(i))).WithID(fmt.Sprint("big", i)),
			conversation.AssistantText(int64(2+i), "ok").WithID(fmt.Sprint("ok", i)))
	}
	if err := st.ReplaceConversation(ctx, id, out); err != nil {
		t.Fatal(err)
	}
	integrityOK(t, st)
	var ids string
	st.db.QueryRow(`SELECT group_concat(message_id) FROM (SELECT message_id FROM messages ORDER BY id)`).Scan(&ids)
	if ids != "a,big0,ok0,big1,ok1,big2,ok2" {
		t.Errorf("rows: %s", ids)
	}
	wantConversation(t, st, id, out)
}

// TestUnstageableMessagesWrittenInPlace: a messages table staging does
// not copy (here: with a trigger, which would make the copy an ordinary
// insert) still stores a huge message, in place, as goose reads it.
func TestUnstageableMessagesWrittenInPlace(t *testing.T) {
	ctx := context.Background()
	st, id := openInternal(t)
	if _, err := st.db.Exec(`CREATE TRIGGER count_messages AFTER INSERT ON messages BEGIN SELECT 1; END`); err != nil {
		t.Fatal(err)
	}
	m := conversation.UserText(5, hugeText("end")).WithID("big")
	before := stageSeq.Load()
	if err := st.AppendMessage(ctx, id, m); err != nil {
		t.Fatal(err)
	}
	if stageSeq.Load() != before {
		t.Error("a messages table with a trigger was staged")
	}
	_, typ, got := rowOf(t, st, "big")
	want, _ := session.EncodeMessage(id, m)
	if typ != "text" || got.ContentJSON != want.ContentJSON {
		t.Errorf("content_json: %s of %d bytes, want text of %d", typ, len(got.ContentJSON), len(want.ContentJSON))
	}
	integrityOK(t, st)
}
