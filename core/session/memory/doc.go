// Package memory is an in-memory session.Store with the same semantics as
// the SQLite store (ids, timestamps at second precision, ordering, message
// encoding), for tests of packages that need sessions but not a database.
package memory
