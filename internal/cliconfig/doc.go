// Package cliconfig opens goose's configuration the way goose-acp's
// programs do — the agent (cmd/goose-acp) and the interactive set-up
// helper (cmd/goose-acp-configure): the paths, config.yaml with the
// platform extensions goose's migration keeps, permission.yaml, the
// process logger, and what the two halves of `goose-acp configure` (flags
// in the agent, the terminal UI in the helper) share — core/setup over
// that config, the terminal check, the "Saved …" lines and the exit codes.
package cliconfig
