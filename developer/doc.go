// Package developer owns goose's developer tools — shell, file viewing and
// editing, code analysis, images and screen capture — and the MCP server that
// serves them (classic surface for `goose-acp mcp developer`, editor surface
// for the agent's in-process developer extension). It imports nothing of
// ours: file I/O, terminals and progress notifications come in through
// FileIO, Terminal and Emitter, with local-disk and local-process defaults.
//
// Entry points: NewServer(Options) returns a go-sdk *mcp.Server (connect it
// in-process over mcp.NewInMemoryTransports), ServeStdio serves it on a
// reader/writer pair. Call Cleanup once at process exit: it removes the saved
// full shell outputs of every server (a server's own outputs also go when it
// is garbage collected).
//
// Per call, the tools/call request _meta may carry agent-working-dir
// (relative paths and the shell's cwd), agent-session-id (AGENT_SESSION_ID)
// and goose-tool-call-id (copied to every Event.ToolCallID; the progress
// token is the fallback). Results that changed a file carry an EditMeta under
// MetaKeyEdit; shell results carry a ShellMeta under MetaKeyShell and, when
// run in a delegated Terminal, a TerminalMeta under MetaKeyTerminal.
//
// Shared policy: paths resolve against the working dir with "~" expansion,
// URIs are rejected, relative ".." escapes and symlink escapes out of the
// working dir are rejected, and Options.AllowedRoots can confine absolute
// paths; .gooseignore (global + local, goose's defaults when both are
// absent) guards every file tool and the shell's path arguments.
//
// The shell's .gooseignore check (shellguard.go) is a guard, not a sandbox.
// After goose's own check of the literal words, a POSIX command is parsed as
// bash parses it and every word is expanded the way the shell will see it —
// globs, ~, $PWD/$HOME and other environment variables, variables the script
// assigns literally, brace expansion — then each word, --flag=value / key=value
// value and redirect target that names an ignored path is refused with goose's
// message ("The command attempts to access '…' which is restricted by
// .gooseignore"). Output redirects and writers (tee, cp, touch, …) are refused
// even when the target does not exist yet; `sh -c`/`bash -c`/`eval` strings are
// parsed in turn (through wrappers such as env, nohup, timeout, xargs, sudo),
// `cd` adds a directory relative paths may resolve against, and recursive
// readers (grep -r, rg/ag/ack, find with -exec/-delete, cp/rsync/scp/diff/zip
// -r, tar create) are refused when their root holds an ignored path (rg and ag
// skip hidden entries unless --hidden; find that only lists names is allowed;
// the search stops after 20,000 entries). It cannot see what a program does on
// its own: `python -c "open('.e'+'nv')"`, a script file, `xargs cat < list`,
// command substitution output, a variable computed at run time, or a file
// renamed or linked by an earlier command of the same call. cmd and PowerShell
// commands get goose's literal check only.
//
// Deliberate differences from goose: a shell's exit code is reported and a
// non-zero exit is an error result (goose's MCP server drops it), and a
// fuzzy str_replace rewrites only the matched bytes, never the whole file.
package developer
