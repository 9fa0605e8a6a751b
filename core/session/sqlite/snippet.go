package sqlite

import (
	"context"

	"github.com/goose-acp/goose-acp/core/session"
)

// snippetScan is how many of a session's newest messages are searched
// for its snippet (goose's last_message_snippet.rs).
const snippetScan = 8

const recentMessagesSQL = `SELECT message_id, role, content_json, created_timestamp, metadata_json
	FROM messages WHERE session_id = ? ORDER BY created_timestamp DESC, id DESC LIMIT ?`

// snippets fills LastMessageSnippet of each session.
func (s *Store) snippets(ctx context.Context, sessions []session.Session) error {
	for i := range sessions {
		rows, err := s.db.QueryContext(ctx, recentMessagesSQL, sessions[i].ID, snippetScan)
		if err != nil {
			return err
		}
		for rows.Next() && sessions[i].LastMessageSnippet == "" {
			var r session.StoredMessage
			if err := rows.Scan(&r.MessageID, &r.Role, &r.ContentJSON, &r.Created, &r.MetadataJSON); err != nil {
				rows.Close()
				return err
			}
			if m, ok, err := r.Decode(); err == nil && ok {
				sessions[i].LastMessageSnippet = session.Snippet(m)
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
