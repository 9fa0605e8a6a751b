// Package session owns sessions: the Session record (goose's snake_case
// JSON), the Store interface and the helpers every store shares (ids,
// timestamps, list cursors, message rows, export JSON, search folding).
// Subpackages: sqlite (the store byte-compatible with goose's sessions.db
// schema v11 and its migrations), memory (an in-memory store for tests) and
// sessiontest (the contract suite both pass).
package session
