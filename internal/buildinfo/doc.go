// Package buildinfo is the binary's version: stamped at build time with
// -ldflags "-X github.com/goose-acp/goose-acp/internal/earlyinfo.stamped=…"
// (earlyinfo.StampVar; internal/release does), else the main module's
// version from the build information, else "dev". It imports nothing of
// ours but internal/earlyinfo, through which code that runs before this
// package is initialised reads it.
package buildinfo
