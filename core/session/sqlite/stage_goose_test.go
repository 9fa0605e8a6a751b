package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// TestHugeMessageStagedInGooseFiles: in sessions.db files goose created at
// earlier versions and this store migrated (message_id and metadata_json
// appended to messages by ALTER TABLE, so after tokens), a huge message
// is still staged, and its row is the one EncodeMessage makes, readable
// back, every index consistent.
func TestHugeMessageStagedInGooseFiles(t *testing.T) {
	ctx := context.Background()
	text := strings.Repeat("0123456789abcdef <é> \"q\"\n", (9<<20)/25)
	for _, v := range []int{0, 2, 6, 11} {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sessions.db")
			if v == 11 {
				seedDDLFile(t, rawDB(t, path), "schema_v11.sql", 11)
				seedRows(t, rawDB(t, path), 11)
			} else {
				seedFixture(t, rawDB(t, path), v)
			}
			st := openStore(t, path, nil)
			defer st.Close()
			m := conversation.UserText(200, text).WithID("big")
			before := sqlite.StagedWrites()
			if err := st.AppendMessage(ctx, "20240101_1", m); err != nil {
				t.Fatal(err)
			}
			if sqlite.StagedWrites() != before+1 {
				t.Error("the huge message was not staged")
			}
			want, _ := session.EncodeMessage("20240101_1", m)
			db := rawDB(t, path)
			var typ, content, check string
			if err := db.QueryRow(`SELECT typeof(content_json), content_json FROM messages WHERE message_id = 'big'`).Scan(&typ, &content); err != nil {
				t.Fatal(err)
			}
			if typ != "text" || content != want.ContentJSON {
				t.Errorf("content_json: %s of %d bytes, want text of %d", typ, len(content), len(want.ContentJSON))
			}
			if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
				t.Errorf("integrity_check: %s %v", check, err)
			}
			s, err := st.Get(ctx, "20240101_1", true)
			if err != nil {
				t.Fatal(err)
			}
			if last := s.Conversation[len(s.Conversation)-1]; last.IDOrEmpty() != "big" || last.AsText() != text {
				t.Errorf("read back %q, %d bytes", last.IDOrEmpty(), len(last.AsText()))
			}
		})
	}
}
