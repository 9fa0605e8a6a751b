// Package sqlite is the session.Store kept in goose's own sessions.db: the
// same tables, columns, indexes and schema_version rows as goose 1.54's
// schema v17, migrations from every earlier version, WAL, a 30 s busy
// timeout, BEGIN IMMEDIATE write transactions and an owner-only directory,
// so goose and goose-acp can share one data directory. Like goose, a sessions.db created from
// nothing first imports the pre-1.10 <id>.jsonl session files beside it,
// once.
//
// Migrations are goose's apply_migration steps with goose's guards (v10 and
// v12..v15 add a column only when pragma_table_info lacks it). goose's v17
// ALTER (parent_delegation) has no guard, so goose fails with "duplicate
// column" on a file that already has the column while recording an older
// version (its own tests build such files by demoting a fresh schema); here
// v17 is guarded like the others, which changes nothing for any other file.
//
// A file created at v17 has no sessions.thread_id (goose dropped it from
// create_schema; migrated files keep it), so the store reads thread_id only
// where the column exists. A schema newer than v17 is refused with
// ErrSchemaTooNew and left untouched: goose would open it as is and
// silently drop whatever the newer columns hold on copy.
//
// last_message_at and the user-visible message_count are computed from the
// messages table, as goose computes them; parent_delegation is never read
// or written (goose keeps it out of Session), so it survives untouched.
//
// A huge message (a 31 MB prompt) is copied into messages from a staging
// database made on the fly, so SQLite reads its record once and never
// builds it (stage.go), or, in a messages table staging cannot copy into,
// written into SQLite's memory in place, still as TEXT (inplace.go);
// ReplaceConversation keeps the leading rows that already hold the new
// conversation's first messages (replace.go), a kept huge row's new
// metadata staged too, so compaction does not build a huge prompt's row
// again; after a huge write the pool's idle connections close (huge.go).
package sqlite
