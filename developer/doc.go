// Package developer owns goose's developer tools — shell, file viewing and
// editing, code analysis, images and screen capture — and the MCP server that
// serves them (classic surface for `goose-acp mcp developer`, editor and
// analyze surfaces for the agent's in-process developer and analyze
// extensions). It imports nothing of
// ours but the leaves core/pathpolicy (the one path policy every way a path
// gets in shares; see its doc.go for why a leaf rather than a hook) and
// core/extension/inproc (tools as plain calls): file
// I/O, terminals and progress notifications come in through FileIO,
// Terminal and Emitter, with local-disk and local-process defaults.
//
// Entry points: NewDirect(Options) returns the tools as an inproc.Server the
// agent calls directly (a call's live shell output goes to the caller's
// inproc.Peer; closing it ends its python kernels and removes its saved
// shell outputs); NewServer(Options) returns the same tools as a go-sdk
// *mcp.Server, and ServeStdio serves that on a reader/writer pair. Call
// Cleanup once at process exit: it removes the saved full shell outputs of
// every server (a server's own outputs also go when it is garbage
// collected).
//
// Per call, the tools/call request _meta may carry agent-working-dir
// (relative paths and the shell's cwd), agent-session-id (AGENT_SESSION_ID)
// and goose-tool-call-id (copied to every Event.ToolCallID; the progress
// token is the fallback). Results that changed a file carry an EditMeta under
// MetaKeyEdit; shell results carry a ShellMeta under MetaKeyShell and, when
// run in a delegated Terminal, a TerminalMeta under MetaKeyTerminal.
//
// Shared policy: paths resolve against the working dir with "~" expansion,
// URIs are rejected; what they resolve to is judged by core/pathpolicy:
// ".." escapes and symlink escapes out of the roots, Options.AllowedRoots
// confining absolute paths, never /proc, /sys or /dev, .gooseignore
// (global + local, goose's defaults when both are absent) on the path, its
// symlink target and hard links to ignored files. It guards every file
// tool and the shell's path arguments. LocalFileIO reads regular files
// only (a FIFO or device is refused, never opened blocking), at most
// MaxLocalReadBytes, and stops when the call is cancelled.
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
// skip hidden entries unless --hidden; find that only lists names is allowed
// and its -name/-iname filters are honoured; the search stops after 20,000
// entries). It cannot see what a program does on
// its own: `python -c "open('.e'+'nv')"`, a script file, `xargs cat < list`,
// command substitution output (beyond $(pwd), $(echo …) and $(printf %s …)),
// a variable computed at run time, or a file
// renamed or linked by an earlier command of the same call. cmd and PowerShell
// commands get goose's literal check only.
//
// No process a shell starts outlives the agent (internal/proctree). On Linux the
// agent calls proctree.Init first thing: it becomes a child subreaper, and every
// shell runs under a supervisor re-executed from the same binary — itself a
// subreaper for the shell's whole tree, so setsid and nohup do not escape it,
// started with a parent-death signal from an OS thread held until it is
// reaped (the signal follows the creating thread, and Go ends a thread whose
// locked goroutine exits). Cancel and timeout SIGTERM the tree, SIGKILL it
// after a second, then kill anything still carrying the run's
// GOOSE_ACP_SHELL_RUN environment marker. A finished call's background
// processes (a dev server) keep running until the agent exits: Cleanup ends
// them, and by stdin EOF, SIGTERM or SIGKILL alike the supervisor's
// parent-death signal does. Without proctree.Init (library use) shells get a
// parent-death signal and the marker sweep, but a grandchild outlives a
// SIGKILLed agent. macOS
// keeps the process-group kill (a setsid'd descendant escapes it). Windows
// puts the agent in a kill-on-close job object and each shell in its own job
// for cancel; that code is compiled, not run. MCP stdio extensions are not
// supervised (the MCP SDK starts them from arbitrary goroutines, so a
// parent-death signal could fire early); they end on stdin EOF or their
// process-group kill. A daemon an extension detaches is re-parented to the
// agent and, once it exits, stays a zombie until the agent exits: only
// processes carrying a shell's marker are reaped, since reaping others would
// steal an os/exec Wait.
//
// The editor surface is goose 1.54's developer extension (write, edit, shell,
// tree, read_image, and read for clients that read files for it:
// Options.ReadTool); the Analyze surface is goose 1.54's analyze extension.
// With GOOSE_DEVELOPER_MODE=
// python_session (read through Options.Config) it offers goose's single
// `python` tool instead of the file and shell tools (python_*.go): one
// interpreter per session and connection running python_driver.py (JSON
// lines on a private copy of stdout), started with the shell's process
// machinery so it dies with the agent, interrupted with SIGINT on timeout
// or cancel, snapshotted after every cell and stopped after 30 idle
// minutes.
//
// Deliberate differences from goose: a shell's exit code is reported and a
// non-zero exit is an error result (goose's MCP server drops it), and a
// fuzzy str_replace rewrites only the matched bytes, never the whole file.
package developer
