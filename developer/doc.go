// Package developer owns goose's developer tools — shell, file viewing and
// editing, code analysis, images and screen capture — and the MCP server that
// serves them (classic surface for `goose-acp mcp developer`, editor surface
// for the agent's in-process developer extension). It imports nothing of
// ours: file I/O, terminals and progress notifications come in through
// FileIO, Terminal and Emitter, with local-disk and local-process defaults.
package developer
