// Package shellwords splits a command-line string into words the way goose
// does for shell commands and skill arguments: whitespace separates words,
// single or double quotes group them and are removed, backslashes are
// literal (so Windows paths survive). It imports nothing of ours.
package shellwords
