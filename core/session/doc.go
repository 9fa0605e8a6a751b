// Package session owns sessions: the Session record (goose's snake_case
// JSON; the goose 1.54 fields are omitted while unset so goosed 1.33's
// shape stays), the Store interface and the helpers every store shares
// (ids, timestamps, list cursors, message rows, export JSON, search
// folding, usage totals). Subpackages: sqlite (the store byte-compatible
// with goose 1.54's sessions.db schema v17 and its migrations), memory (an
// in-memory store for tests) and sessiontest (the contract suite both
// pass).
package session
