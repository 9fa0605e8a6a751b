// Package analyze is what the agent needs of goose's `analyze` developer
// tool without linking its parser: the tool's description, defaults and
// goose's exact messages and sentinel errors, the Request and Answer that
// cross to the helper, and the client that runs it.
//
// The parser is tree-sitter, which is C; so that goose-acp itself builds
// with CGO_ENABLED=0, the analysis runs in a helper executable,
// goose-acp-analyze (cmd/goose-acp-analyze over the engine sub-package),
// started once per call: the Request as JSON on its stdin, one Answer as
// JSON on its stdout. Find looks for it in $GOOSE_ACP_ANALYZE, beside the
// running goose-acp, then on PATH; Run kills it when the call is
// cancelled. Without a helper, or with one built without cgo, analyze
// answers an error that says how to build one.
package analyze
