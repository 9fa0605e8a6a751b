// Package errkind says what kind of failure an error is and what a person
// should read about it, so that every face (ACP, goosed REST, the CLI)
// answers the same failure the same way without parsing error text.
//
// Core's sentinels are made with New and carry a Kind; errors that wrap
// them with %w keep it, and Of finds it with errors.As. Wrapf joins a
// sentinel and a detail that reads on its own ("Session name cannot be
// empty"); Detail returns that detail, or the whole text when there is
// none. Each face maps kinds to its codes in one table.
//
// errkind imports nothing but the standard library, so any package of
// ours may use it.
package errkind
