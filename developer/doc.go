// Package developer owns goose's developer tools — shell, file viewing and
// editing, code analysis, images and screen capture — and serves them: as
// an inproc.Server the agent calls directly (NewDirect: the editor and
// analyze surfaces of the agent's developer and analyze extensions), or as
// a go-sdk *mcp.Server (NewServer, ServeStdio: the classic surface of
// `goose-acp mcp developer`). Call Cleanup once at process exit.
//
// File I/O, terminals and progress come in through FileIO, Terminal and
// Emitter, with local-disk and local-process defaults; developer never
// learns the word ACP. Per call, the request _meta may carry
// agent-working-dir, agent-session-id and goose-tool-call-id; results that
// changed a file carry an EditMeta (MetaKeyEdit), shell results a ShellMeta
// (MetaKeyShell) and, in a delegated Terminal, a TerminalMeta.
//
// Every path is judged by core/pathpolicy (the one policy every way a path
// gets in shares); a shell command runs through developer/shellrun after
// it is checked against .gooseignore by
// developer/shellguard before it runs (a guard, not a sandbox); no process
// a shell starts outlives the agent (internal/proctree).
// GOOSE_DEVELOPER_MODE=python_session offers goose's single python tool
// instead of the file and shell tools (python_*.go, over developer/pykernel).
//
// Of ours it imports only core/pathpolicy, core/extension/inproc,
// internal/proctree and its own sub-packages (shellrun, shellguard,
// pykernel, analyze, imageproc, screen), so it can be served on its own. The rules of the
// path policy, the shell guard, process supervision and the python
// session, and where developer departs from goose on purpose, are in
// docs/developer.md.
package developer
