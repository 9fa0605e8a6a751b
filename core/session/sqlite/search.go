package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/session"
)

// searchSQL finds visible-role messages of listed session types with a text
// item containing the folded query; Go then cuts the snippets. Invalid
// content_json is searched as an empty list rather than failing the query.
const searchSQL = `SELECT m.session_id, COALESCE(m.message_id, ''), m.role, m.content_json,
	m.created_timestamp, m.metadata_json
FROM messages m JOIN sessions s ON s.id = m.session_id
WHERE s.session_type IN (%s) AND m.role IN ('user', 'assistant')
	AND EXISTS (
		SELECT 1 FROM json_each(CASE WHEN json_valid(m.content_json) THEN m.content_json ELSE '[]' END) j
		WHERE json_extract(j.value, '$.type') = 'text'
			AND instr(` + foldFunc + `(json_extract(j.value, '$.text')), ?) > 0)
ORDER BY m.session_id, m.created_timestamp, m.id`

// Search finds sessions (of the types List shows by default) whose
// user-visible messages contain query, case-insensitively, in List order;
// limit <= 0 means no limit.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]session.SearchHit, error) {
	folded := session.FoldText(query)
	if strings.TrimSpace(folded) == "" {
		return nil, nil
	}
	snips, err := s.searchMessages(ctx, folded)
	if err != nil {
		return nil, fmt.Errorf("search sessions: %w", err)
	}
	if len(snips) == 0 {
		return nil, nil
	}
	ids := make([]string, 0, len(snips))
	for id := range snips {
		ids = append(ids, id)
	}
	page, err := s.list(ctx, session.ListOptions{}, ids)
	if err != nil {
		return nil, fmt.Errorf("search sessions: %w", err)
	}
	var hits []session.SearchHit
	for _, sess := range page.Sessions {
		if found := snips[sess.ID]; len(found) > 0 {
			hits = append(hits, session.SearchHit{Session: sess, Snippets: session.SortSnippets(found)})
		}
		if limit > 0 && len(hits) == limit {
			break
		}
	}
	return hits, nil
}

func (s *Store) searchMessages(ctx context.Context, folded string) (map[string][]string, error) {
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(session.DefaultListTypes)), ", ")
	args := make([]any, 0, len(session.DefaultListTypes)+1)
	for _, t := range session.DefaultListTypes {
		args = append(args, string(t))
	}
	rows, err := s.db.QueryContext(ctx, fmt.Sprintf(searchSQL, marks), append(args, folded)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var sid string
		var row session.StoredMessage
		if err := rows.Scan(&sid, &row.MessageID, &row.Role, &row.ContentJSON, &row.Created, &row.MetadataJSON); err != nil {
			return nil, err
		}
		m, ok, err := row.Decode()
		if err != nil || !ok {
			continue
		}
		out[sid] = append(out[sid], session.MessageSnippets(m, folded)...)
	}
	return out, rows.Err()
}

// Insights counts every session and sums its tokens, preferring the
// accumulated total, as goose's get_insights does.
func (s *Store) Insights(ctx context.Context) (session.Insights, error) {
	var in session.Insights
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*),
		COALESCE(SUM(COALESCE(accumulated_total_tokens, total_tokens, 0)), 0) FROM sessions`).
		Scan(&in.TotalSessions, &in.TotalTokens)
	if err != nil {
		return session.Insights{}, fmt.Errorf("session insights: %w", err)
	}
	return in, nil
}
