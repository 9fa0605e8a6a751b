// Package shellguard refuses a shell command that would touch a path
// .gooseignore restricts, before it runs: it parses the command as a POSIX
// shell would (mvdan.cc/sh), expands its words (globs, ~, $PWD, $HOME, the
// environment, variables the script assigns literally), follows `cd`,
// checks redirect targets, parses `sh -c` and `eval` strings in turn, and
// searches the roots of recursive tools (grep -r, find, tar, cp -r, …).
// What it cannot see — a program opening files of its own accord — is
// left to the path policy of the tools: this is a guard, not a sandbox.
// It imports only core/pathpolicy of ours.
package shellguard
