// Package buildinfo is the binary's version: stamped at build time with
// -ldflags "-X github.com/goose-acp/goose-acp/internal/buildinfo.version=…"
// (internal/release does), else the main module's version from the build
// information, else "dev". It imports nothing of ours, so the packages
// that run while the binary is still initialising can read it.
package buildinfo
