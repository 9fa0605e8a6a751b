// Package checkpoint keeps what /rewind and /undo restore: before a
// session's tools change a file, the file's content (or the fact that it
// did not exist) is saved, tagged with the user message whose turn made the
// change.
//
// The decision is made here, in core, for every FileIO a developer tool
// writes through: Book.Wrap wraps the session's FileIO — local disk, or the
// editor's fs/* when the ACP client offers them — so a checkpoint is taken
// the same way whether writes are delegated or not, and a rewind writes the
// old content back through the same FileIO (the editor's
// fs/write_text_file when delegated, so its buffers follow). A file that
// did not exist before is removed from local disk on rewind (ACP has no
// delete). A child session (summon's delegate, a sub-recipe) records into
// its parent's book through Book.Shared, under the parent's turn, so the
// parent's rewind undoes what its subagents wrote. Changes made by shell
// commands are not seen (they do not go through FileIO).
//
// Checkpoints live in <data>/sessions/<session id>/checkpoints: index.jsonl
// (one Entry a line) and one file per saved content, named by its sequence
// number. Only the first change of a file in a turn is saved (that is the
// state a rewind to that turn returns to). A file over MaxFileBytes, or one
// that would take the session's checkpoints over MaxSessionBytes, is not
// saved: the write still proceeds (refusing the model's edit would break
// the turn for a safety net the user did not ask for), the user is told at
// once that the file cannot be rewound, and a later rewind names it among
// the files it did not restore.
package checkpoint
