// Package helperexe finds the helper programs goose-acp runs beside
// itself (goose-acp-analyze, goose-acp-configure): an explicit path in an
// environment variable first, then the file beside the running goose-acp
// (symlinks resolved), then PATH. The callers word their own errors from
// the typed ones here.
package helperexe
