//go:build !cgo

package analyze

// available reports ErrNoCgo: without cgo there is no tree-sitter, and a
// line-count-only analysis would look like a real one with no symbols.
func available() error { return ErrNoCgo }

// parseInto is never reached (Analyze stops at available first).
func parseInto(*fileResult, string, []byte, bool) error { return ErrNoCgo }
