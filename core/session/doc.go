// Package session owns sessions: the Session record (goose's snake_case JSON),
// the Store interface, a SQLite store byte-compatible with goose's
// sessions.db schema v11 and its migrations, an in-memory store for tests,
// and the contract suite (sessiontest) both must pass.
package session
