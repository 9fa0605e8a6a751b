// Package earlystore opens an existing sessions.db in the background from
// the very start of a goose-acp process that serves ACP on stdio, so that
// an editor's first session/new does not wait for the open: AtStart is the
// open this package's initialisation started (before most of the binary's
// packages have initialised), Start one started later. A sessions.db that
// does not exist is never created here.
package earlystore
