// Package earlystore opens an existing sessions.db in the background from
// the very start of a goose-acp process that serves ACP on stdio, so that
// an editor's first session/new does not wait for the open: AtStart is the
// open this package's initialisation started (before most of the binary's
// packages have initialised), Start one started later. Take hands the
// opened store over; Pending hands it over before the open has finished,
// as a session.Store whose calls wait for it, so that what is built on the
// store (the agent) is built meanwhile. A sessions.db that does not exist
// is never created here.
package earlystore
