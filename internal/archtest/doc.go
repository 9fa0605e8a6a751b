// Package archtest holds the repository's structural tests: the import
// layering docs/architecture.md describes, the size of receiver types, and
// file names. Its tests parse the module's own source; the package has no
// code of its own.
package archtest
