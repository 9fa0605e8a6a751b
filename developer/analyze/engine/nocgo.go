//go:build !cgo

package engine

import "github.com/goose-acp/goose-acp/developer/analyze"

// available reports analyze.ErrNoCgo: without cgo there is no tree-sitter,
// and a line-count-only analysis would look like a real one with no
// symbols.
func available() error { return analyze.ErrNoCgo }

// parseInto is never reached (Analyze stops at available first).
func parseInto(*fileResult, string, []byte, bool) error { return analyze.ErrNoCgo }
