// Package attach turns what a prompt attaches — resource_link and embedded
// resource blocks — into the text the model sees, under the session's path
// policy (core/pathpolicy). ACP decodes the blocks and encodes the answer;
// the decision whether a file may be attached, and how much of it is
// read, is made here.
//
// A file:// link (and an embedded resource's file:// URI) is judged by
// pathpolicy.Attachable: by the path it resolves to, one answer for every
// spelling, allowed outside the session's roots (the user attached it)
// but never from /proc, /sys or /dev or against .gooseignore. It is read
// through the editor when it offers fs/read_text_file (so unsaved buffers
// count; a file missing on disk that the editor answers with "" does not
// exist), else from disk, in both cases only after the rule allowed it. A local read keeps at most
// MaxLinkedFileBytes through a limited reader, refuses devices, FIFOs and
// sockets, and stops when the turn is cancelled. A file with NUL bytes in
// its first 8000 (git's binary test) is not attached: the model cannot use
// it, and a 2 GB sparse file would otherwise put a MiB of \u0000 escapes
// into every request of the session. A refused or unreadable
// link is never dropped silently: the prompt gets "[name](uri) was not
// attached: reason", so the user and the model both see why.
//
// Links that are not file:// get the same note saying why their content
// is missing (zed:// mentions, unknown schemes); http(s) links are fetched
// only when the user allowed it (FetchLinksKey), text answers only, at
// most MaxLinkedFileBytes, within FetchTimeout and the turn's cancel.
// Result.Note is what the face shows the user as well.
package attach
