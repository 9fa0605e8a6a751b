// Package pathpolicy owns one decision: may this path be read or written
// for this session. Every way a path gets in asks it — the developer tools,
// a prompt's resource_link and embedded resource, hint files and their
// @imports, and the editor's fs/* calls (checked before the editor is
// asked) — so a path refused in one place is refused everywhere.
//
// In short: /proc, /sys and /dev are never read or written; with roots
// (ACP additionalDirectories) paths must stay in the working dir or a
// root, and no path may climb out of them with ".." or through a symlink;
// .gooseignore (global and the working dir's, goose's defaults when
// neither exists) refuses a path as written, as resolved, under an
// ignored directory, and as a hard link to an ignored file. A file the
// user attached (Attachable) may lie outside the roots, but the
// pseudo-filesystems and .gooseignore still apply.
//
// Reads are bounded before they happen: OpenRegular refuses devices,
// FIFOs, sockets and directories, ReadText reads at most the caller's
// limit and ContextReader stops when the turn is cancelled. ExpandHome is
// goose's ~ and %USERPROFILE% expansion.
//
// It imports nothing of ours: developer (served on its own by `goose-acp
// mcp developer`) and core share this one implementation. The rules in
// full are in docs/path-policy.md.
package pathpolicy
