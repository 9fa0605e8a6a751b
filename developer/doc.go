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
// Deliberate differences from goose: a shell's exit code is reported and a
// non-zero exit is an error result (goose's MCP server drops it), and a
// fuzzy str_replace rewrites only the matched bytes, never the whole file.
package developer
