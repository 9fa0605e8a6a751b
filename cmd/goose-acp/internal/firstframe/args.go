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
	for _, a := range args[1:] {
		if !strings.HasPrefix(strings.TrimLeft(a, "-"), "with-builtin") && strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}
