package firstframe

import "strings"

// ServesACPOnStdio reports whether args (without the program name) run
// ACP on stdio with the database opened on the editor's request:
// `goose-acp` or `goose-acp acp [--with-builtin …]`, optionally after
// --log-level / --log-file, and without --http.
func ServesACPOnStdio(args []string) bool {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[0], "-"), "=")
		if name != "log-level" && name != "log-file" {
			return false
		}
		args = args[1:]
		if !hasValue {
			if len(args) == 0 {
				return false
			}
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return true
	}
	if args[0] != "acp" {
		return false
	}
	// acp takes only --with-builtin NAMES (or =NAMES); anything else is
	// an error the process exits with before it could serve.
	rest := args[1:]
	for len(rest) > 0 {
		name, _, hasValue := strings.Cut(strings.TrimLeft(rest[0], "-"), "=")
		if !strings.HasPrefix(rest[0], "-") || name != "with-builtin" {
			return false
		}
		rest = rest[1:]
		if !hasValue {
			if len(rest) == 0 {
				return false
			}
			rest = rest[1:]
		}
	}
	return true
}
