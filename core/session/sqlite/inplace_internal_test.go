package sqlite

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// hugeText is a text over hugeRow with every kind of escape, multi-byte
// runes and invalid UTF-8 in it, every few kilobytes.
func hugeText(tail string) string {
	unit := strings.Repeat("0123456789abcdef", 256) + "plain text \"quoted\" \\ back\nline\ttab\x01 <&> é 😀 \u2028 \xff "
	return strings.Repeat(unit, hugeRow/len(unit)+1) + tail
}

// goAlloc is how many bytes of Go heap f allocated.
func goAlloc(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func openInternal(t *testing.T) (*Store, string) {
	t.Helper()
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "sessions.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := st.Create(ctx, session.NewSession{WorkingDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	return st, s.ID
}

// rowOf reads a message's row as goose would: content_json's type and
// bytes, and the other columns.
func rowOf(t *testing.T, st *Store, messageID string) (rowID int64, typ string, row session.StoredMessage) {
	t.Helper()
	var md *string
	err := st.db.QueryRow(`SELECT id, typeof(content_json), content_json, role, created_timestamp, metadata_json
		FROM messages WHERE message_id = ?`, messageID).Scan(&rowID, &typ, &row.ContentJSON, &row.Role, &row.Created, &md)
	if err != nil {
		t.Fatalf("row of %s: %v", messageID, err)
	}
	row.MessageID, row.MetadataJSON = messageID, md
	return rowID, typ, row
}

// TestHugeMessageWrittenInPlace: a huge message's row is the TEXT value,
// byte for byte, that EncodeMessage makes of it, and storing it allocates
// far less Go memory than its encoding (the encoding is streamed into
// SQLite, never built in Go).
func TestHugeMessageWrittenInPlace(t *testing.T) {
	ctx := context.Background()
	st, id := openInternal(t)
	m := conversation.UserText(5, hugeText("end")).WithID("big")
	want, err := session.EncodeMessage(id, m)
	if err != nil {
		t.Fatal(err)
	}
	var appendErr error
	alloc := goAlloc(func() { appendErr = st.AppendMessage(ctx, id, m) })
	if appendErr != nil {
		t.Fatal(appendErr)
	}
	if alloc > uint64(len(want.ContentJSON))/4 {
		t.Errorf("storing a %d-byte row allocated %d bytes of Go memory", len(want.ContentJSON), alloc)
	}
	_, typ, got := rowOf(t, st, "big")
	if typ != "text" {
		t.Errorf("content_json is a %s value, goose reads text", typ)
	}
	if got.ContentJSON != want.ContentJSON {
		t.Errorf("content_json differs from the encoding (%d bytes, want %d)", len(got.ContentJSON), len(want.ContentJSON))
	}
	if got.Role != want.Role || got.Created != want.Created || *got.MetadataJSON != *want.MetadataJSON {
		t.Errorf("row %+v, want %+v", got, want)
	}
	wantConversation(t, st, id, []conversation.Message{m})
}

// TestReplaceKeepsUnchangedLeadingRows: compaction's replacement (the old
// messages made agent-invisible, a summary and the huge prompt's replay
// after them) keeps the old rows and rewrites only their metadata, deletes
// what no longer follows them, appends the rest, and reads back as the
// replacement; the huge row is compared, not encoded again. A row whose
// content or id changed is written again from there on.
func TestReplaceKeepsUnchangedLeadingRows(t *testing.T) {
	ctx := context.Background()
	st, id := openInternal(t)
	text := hugeText("")
	old := []conversation.Message{
		conversation.UserText(1, "first").WithID("a"),
		conversation.UserText(2, text).WithID("big"),
		conversation.AssistantText(3, "dropped").WithID("b"),
	}
	for _, m := range old {
		if err := st.AppendMessage(ctx, id, m); err != nil {
			t.Fatal(err)
		}
	}
	rowA, rowBig := rowIDOf(t, st, "a"), rowIDOf(t, st, "big")
	hidden := conversation.Metadata{UserVisible: true, AgentVisible: false}
	out := []conversation.Message{old[0].WithMetadata(hidden), old[1].WithMetadata(hidden),
		conversation.UserText(4, "summary").WithID("s"), conversation.UserText(4, text).WithID("replay")}
	var err error
	alloc := goAlloc(func() { err = st.ReplaceConversation(ctx, id, out) })
	if err != nil {
		t.Fatal(err)
	}
	if alloc > uint64(len(text))/4 {
		t.Errorf("the replacement allocated %d bytes of Go memory for a %d-byte prompt and its replay", alloc, len(text))
	}
	if r := rowIDOf(t, st, "a"); r != rowA {
		t.Errorf("row a moved %d -> %d", rowA, r)
	}
	if r := rowIDOf(t, st, "big"); r != rowBig {
		t.Errorf("the huge row was written again (%d -> %d)", rowBig, r)
	}
	var md string
	st.db.QueryRow(`SELECT metadata_json FROM messages WHERE message_id = 'big'`).Scan(&md)
	if want, _ := session.EncodeMetadata(hidden); md != want {
		t.Errorf("kept row's metadata_json = %s, want %s", md, want)
	}
	var n int
	st.db.QueryRow(`SELECT count(*) FROM messages WHERE message_id = 'b'`).Scan(&n)
	if n != 0 {
		t.Error("a row past the kept ones was not deleted")
	}
	if r := rowIDOf(t, st, "replay"); r <= rowBig {
		t.Errorf("the replay's row %d is not after the kept rows", r)
	}
	wantConversation(t, st, id, out)

	// The huge row changed in one byte, same length: it and everything
	// after it are written again.
	changed := []byte(text)
	changed[len(changed)/2] ^= 1
	out2 := []conversation.Message{out[0], conversation.UserText(2, string(changed)).WithID("big"), out[2]}
	if err := st.ReplaceConversation(ctx, id, out2); err != nil {
		t.Fatal(err)
	}
	if r := rowIDOf(t, st, "big"); r == rowBig {
		t.Error("a changed huge row was kept")
	}
	if r := rowIDOf(t, st, "a"); r != rowA {
		t.Errorf("row a moved %d -> %d", rowA, r)
	}
	var ids string
	st.db.QueryRow(`SELECT group_concat(message_id) FROM (SELECT message_id FROM messages ORDER BY id)`).Scan(&ids)
	if ids != "a,big,s" {
		t.Errorf("rows after the second replacement: %s", ids)
	}

	// A message without an id gets a new one, as goose's replacement
	// gives it: its row is not kept.
	noID := out2[0]
	noID.ID = nil
	if err := st.ReplaceConversation(ctx, id, []conversation.Message{noID}); err != nil {
		t.Fatal(err)
	}
	var messageID string
	st.db.QueryRow(`SELECT message_id FROM messages WHERE session_id = ?`, id).Scan(&messageID)
	if !strings.HasPrefix(messageID, "msg_"+id+"_") {
		t.Errorf("message without an id stored as %q", messageID)
	}
}

func rowIDOf(t *testing.T, st *Store, messageID string) int64 {
	t.Helper()
	var id int64
	if err := st.db.QueryRow(`SELECT id FROM messages WHERE message_id = ?`, messageID).Scan(&id); err != nil {
		t.Fatalf("row of %s: %v", messageID, err)
	}
	return id
}

func wantConversation(t *testing.T, st *Store, id string, want []conversation.Message) {
	t.Helper()
	sess, err := st.Get(context.Background(), id, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Conversation) != len(want) {
		t.Fatalf("read back %d messages, want %d", len(sess.Conversation), len(want))
	}
	for i, m := range sess.Conversation {
		w := roundTrip(t, want[i]) // invalid UTF-8 reads back as U+FFFD
		if m.IDOrEmpty() != w.IDOrEmpty() || m.Metadata != w.Metadata || m.AsText() != w.AsText() || m.Created != w.Created {
			t.Errorf("message %d: %s %+v, want %s %+v", i, m.IDOrEmpty(), m.Metadata, w.IDOrEmpty(), w.Metadata)
		}
	}
}

// roundTrip is m as a store reads it back.
func roundTrip(t *testing.T, m conversation.Message) conversation.Message {
	t.Helper()
	row, err := session.EncodeMessage("s", m)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := row.Decode()
	if err != nil {
		t.Fatal(err)
	}
	return out
}
