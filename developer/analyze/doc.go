// Package analyze is what the agent needs of goose's `analyze` developer
// tool without linking its parser: the tool's description, defaults and
// goose's exact messages and sentinel errors, the Request and Answer that
// cross to the helper, and the client that runs it.
//
// The parser is tree-sitter, which is C; so that goose-acp itself builds
// with CGO_ENABLED=0, the analysis runs in a helper executable,
// goose-acp-analyze (cmd/goose-acp-analyze over the engine sub-package):
// each Request one JSON line on its stdin, each Answer one JSON line on
// its stdout. Find looks for it in $GOOSE_ACP_ANALYZE, beside the running
// goose-acp, then on PATH. Run starts a helper on the agent's first call
// and keeps it for the next (its compiled queries with it): one call at a
// time per helper, up to four helpers for concurrent calls, two kept
// idle. A cancelled call kills its helper; a helper that died is replaced
// by the next call; an idle helper ends with the agent (its stdin closes;
// on Linux also a parent-death signal). Without a helper, or with one
// built without cgo, analyze answers an error that says how to build one.
package analyze
