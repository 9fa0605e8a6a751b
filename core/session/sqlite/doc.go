// Package sqlite is the session.Store kept in goose's own sessions.db: the
// same tables, columns, indexes and schema_version rows as goose's schema
// v11, migrations from every earlier version, WAL, a 30 s busy timeout and
// BEGIN IMMEDIATE write transactions, so goose and goose-acp can share one
// data directory. Like goose, a sessions.db created from nothing first
// imports the pre-1.10 <id>.jsonl session files beside it, once.
package sqlite
