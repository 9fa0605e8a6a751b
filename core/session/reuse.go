package session

import "github.com/goose-acp/goose-acp/core/conversation"

// minPooledContent is the content size from which a store looks for a
// copy it already holds; smaller rows are simply encoded.
const minPooledContent = 64 << 10

// ContentPool holds large content_json strings a store already keeps, by
// length. Compaction re-stores every old message (new metadata only) and
// replays the last user text, so a 31 MB prompt would otherwise be kept
// three times over; with the pool the rows share one string.
type ContentPool map[int][]string

// Add offers a stored content_json to the pool.
func (p ContentPool) Add(contentJSON string) {
	if len(contentJSON) >= minPooledContent {
		p[len(contentJSON)] = append(p[len(contentJSON)], contentJSON)
	}
}

// EncodeMessagePooled is EncodeMessage, except that when a string of pool
// equals the message's content encoding (compared piece by piece, never
// encoded whole) the row takes that string. New large rows join the pool.
func EncodeMessagePooled(sessionID string, m conversation.Message, pool ContentPool) (StoredMessage, error) {
	if err := ValidateMessage(m); err != nil {
		return StoredMessage{}, err
	}
	if n, err := conversation.ContentsJSONLen(m.Content); err == nil && n >= minPooledContent {
		for _, s := range pool[n] {
			if conversation.ContentsMatchJSON(m.Content, s) {
				return encodeWithContent(sessionID, m, s)
			}
		}
	}
	row, err := EncodeMessage(sessionID, m)
	if err == nil {
		pool.Add(row.ContentJSON)
	}
	return row, err
}
