// Package session owns sessions: the Session record (goose's snake_case
// JSON; the goose 1.54 fields are omitted while unset so goosed 1.33's
// shape stays), the Store interface and the helpers every store shares
// (ids, timestamps, list cursors, message rows, export JSON, search
// folding, usage totals). Subpackages: sqlite (the store byte-compatible
// with goose 1.54's sessions.db schema v17 and its migrations), memory (an
// in-memory store for tests) and sessiontest (the contract suite both
// pass).
//
// Message rows are encoded once, at their exact size (EncodeMessage), or
// not at all by a store that streams a huge row's content itself
// (EncodeMessageHead); a store that keeps rows in memory re-uses a large
// row's content for a message re-stored with the same content
// (ContentPool), so compaction does not multiply a huge prompt.
package session
