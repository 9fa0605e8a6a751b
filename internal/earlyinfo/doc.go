// Package earlyinfo hands the build's version (internal/buildinfo) to code
// that runs before internal/buildinfo is initialised. buildinfo reads the
// version with runtime/debug, which Go initialises late: packages are
// initialised in import-path order once their imports are, and
// runtime/debug sorts after most of the binary. cmd/goose-acp's
// first-frame responder, which answers an editor's initialize while the
// binary is still initialising, imports this package instead, so that it
// starts right after encoding/json rather than after runtime/debug, and
// waits for the version only when it writes the answer.
package earlyinfo
