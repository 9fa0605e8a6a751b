// Package pathpolicy owns one decision: may this path be read or written
// for this session. Every way a path gets in asks it — the developer tools
// (read, write, edit, text_editor, analyze, read_image), a prompt's
// resource_link and embedded resource, hint files and their @imports,
// and the editor's fs/* calls (checked before the editor is asked) — so a
// path refused in one place is refused everywhere.
//
// The rules, in order:
//
//   - /proc, /sys and /dev (and anything a symlink resolves to under them)
//     are never read or written: they hold process secrets
//     (/proc/self/environ has the API keys), kernel knobs and endless
//     devices. Windows has no such trees.
//   - With roots (ACP additionalDirectories), absolute paths must lie in
//     the working dir or a root; without, absolute paths are unrestricted,
//     as goose's read tool. Relative paths, and any path that climbs with
//     "..", must land in the working dir or a root.
//   - A path inside a root must not escape every root through a symlink.
//   - .gooseignore (global in goose's config dir, then the working dir's;
//     goose's defaults **/.env, **/.env.*, **/secrets.* when neither
//     exists) refuses the path as written and as resolved through
//     symlinks, and every file under an ignored directory.
//   - A regular file with more than one hard link is refused when an
//     ignored regular file in the roots is the same device+inode: the link
//     is the ignored content under another name. The ignored files are
//     found by walking the roots (at most 200,000 entries, reused for 2 s);
//     when the walk is cut short a multiply-linked file is refused, since
//     it cannot be proven harmless. On Windows os.FileInfo has no link
//     count, so this check is not made there.
//
// A file the user attached to a prompt (Attachable) is judged by the path
// it resolves to and may lie outside the roots — the user chose it — but
// the pseudo-filesystems and .gooseignore apply to it as to every path.
//
// Reads are bounded before they happen: OpenRegular refuses devices,
// FIFOs, sockets and directories (stat, then a non-blocking open, then
// fstat of the opened descriptor, so a swap between stat and open is
// caught), ReadText reads at most the limit the caller keeps through a
// limited reader (never read-then-truncate) and ContextReader stops when
// the turn is cancelled.
//
// Layering: developer/ imports nothing of ours but this leaf package (it
// imports only the standard library and go-git's gitignore matcher). The
// alternative — developer exposing a hook that core fills — would leave
// `goose-acp mcp developer` (no core behind it) without a policy, or with a
// second copy of it; one leaf both use keeps exactly one implementation.
// Resolving a tool's raw argument (~ expansion, Windows drive forms, URI
// rejection, goose's messages) stays in developer; what it resolves to is
// judged here.
package pathpolicy
