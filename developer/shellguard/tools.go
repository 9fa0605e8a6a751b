package shellguard

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
)

// maxGuardWalk bounds the entries searched under a recursive tool's root;
// past it the command is let through (a guard, not a sandbox: doc.go).
const maxGuardWalk = 20_000

// shells run their -c argument as a script.
var shells = setOf("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "busybox")

// writers create or overwrite their path arguments, so a missing ignored
// path is refused too.
var writers = setOf("tee", "touch", "cp", "mv", "ln", "install", "truncate", "dd")

// wrappers run the rest of their arguments as a command; the value is the
// number of leading non-flag operands they take before it (timeout's
// duration), and flagArgs lists their flags that take a separate value.
var wrappers = map[string]struct {
	operands int
	flagArgs string
}{
	"env": {0, "-u -C -S --unset --chdir"}, "nohup": {}, "setsid": {}, "exec": {0, "-a"},
	"command": {}, "builtin": {}, "time": {}, "nice": {0, "-n"}, "ionice": {0, "-c -n -p"},
	"stdbuf": {0, "-i -o -e"}, "timeout": {1, "-s -k --signal --kill-after"},
	"sudo": {0, "-u -g -C -D -h -p -U"}, "doas": {0, "-u"}, "xargs": {0, "-I -n -d -E -L -P -s -a"},
	"watch": {0, "-n -d"}, "chronic": {}, "strace": {0, "-o -e -p"}, "unbuffer": {},
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// unwrapCommand strips wrapper commands (nohup, env X=1, timeout 5, …) and
// returns the base name of the command that really runs and its args.
func unwrapCommand(fields []string) (string, []string) {
	for len(fields) > 0 {
		name := filepath.Base(fields[0])
		w, ok := wrappers[name]
		if !ok {
			if name == "busybox" && len(fields) > 1 {
				fields = fields[1:]
				continue
			}
			return name, fields[1:]
		}
		rest := fields[1:]
		operands := w.operands
		for len(rest) > 0 {
			f := rest[0]
			switch {
			case strings.HasPrefix(f, "-"):
				rest = rest[1:]
				if strings.Contains(" "+w.flagArgs+" ", " "+f+" ") && len(rest) > 0 {
					rest = rest[1:]
				}
				continue
			case name == "env" && strings.Contains(f, "="):
				rest = rest[1:]
				continue
			case operands > 0:
				operands--
				rest = rest[1:]
				continue
			}
			break
		}
		fields = rest
	}
	return "", nil
}

// shellScriptArg finds the script of `sh -c script`: the first operand
// after options, when a short-option cluster holds "c".
func shellScriptArg(args []string) (string, bool) {
	hasC := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
			if strings.ContainsRune(a[1:], 'c') {
				hasC = true
			}
		default:
			return a, hasC
		}
	}
	return "", false
}

// recursiveRoots is where a recursive tool will read, with whether it
// reads hidden entries; nil when the command does not recurse.
func recursiveRoots(name string, args []string) (roots []string, hidden bool) {
	flags, operands := splitFlags(args)
	switch name {
	case "grep", "egrep", "fgrep", "zgrep":
		if !hasFlag(flags, "rR", "--recursive", "--dereference-recursive") {
			return nil, false
		}
		if !hasFlag(flags, "ef", "--regexp", "--file") && len(operands) > 0 {
			operands = operands[1:] // the pattern
		}
		return orDot(operands), true
	case "rg", "ag", "ack":
		if !hasFlag(flags, "", "--files") && !hasFlag(flags, "ef", "--regexp", "--file") && len(operands) > 0 {
			operands = operands[1:]
		}
		hidden = name == "ack" || hasFlag(flags, ".", "--hidden", "-uu", "-uuu", "--unrestricted")
		return orDot(operands), hidden
	case "find":
		if !hasFlag(args, "", "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fls") {
			return nil, false // listing names reads no content
		}
		var starts []string
		for _, a := range args {
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
				break
			}
			starts = append(starts, a)
		}
		return orDot(starts), true
	case "cp", "scp", "rsync", "diff", "zip":
		if !hasFlag(flags, "rRa", "--recursive", "--archive") {
			return nil, false
		}
		return operands, true
	case "tar":
		if !isTarCreate(args) {
			return nil, false
		}
		return operands, true
	}
	return nil, false
}

// isTarCreate reports tar's create/append/update modes.
func isTarCreate(args []string) bool {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") && strings.ContainsAny(args[0], "cru") {
		return true
	}
	return hasFlag(args, "cru", "--create", "--append", "--update")
}

func orDot(ops []string) []string {
	if len(ops) == 0 {
		return []string{"."}
	}
	return ops
}

// splitFlags separates options from operands ("--" ends options).
func splitFlags(args []string) (flags, operands []string) {
	for i, a := range args {
		if a == "--" {
			return flags, append(operands, args[i+1:]...)
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			flags = append(flags, a)
		} else {
			operands = append(operands, a)
		}
	}
	return flags, operands
}

// hasFlag reports a long flag (exactly, or as --flag=value) or a short
// flag letter from letters inside a single-dash cluster.
func hasFlag(flags []string, letters string, long ...string) bool {
	for _, f := range flags {
		for _, l := range long {
			if f == l || strings.HasPrefix(f, l+"=") {
				return true
			}
		}
		if len(f) > 1 && f[0] == '-' && f[1] != '-' && letters != "" && strings.ContainsAny(f[1:], letters) {
			return true
		}
	}
	return false
}

// checkRecursive refuses a recursive tool whose root holds an ignored
// path, naming that path as the tool would (root-relative).
func (g *shellGuard) checkRecursive(dir, name string, args []string) error {
	roots, hidden := recursiveRoots(name, args)
	accept := func(string) bool { return true }
	if name == "find" {
		accept = findNameFilter(args)
	}
	seen := 0
	for _, root := range roots {
		abs := absIn(dir, root)
		found := ""
		err := filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if seen++; seen > maxGuardWalk {
				return fs.SkipAll
			}
			if p != abs && !hidden && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if p != abs && accept(d.Name()) && g.rules.Match(p, d.IsDir()) {
				found = p
				return errFound
			}
			return nil
		})
		if errors.Is(err, errFound) {
			rel, _ := filepath.Rel(abs, found)
			return IgnoredError{Arg: filepath.Join(root, rel)}
		}
	}
	return nil
}

var errFound = errors.New("found")

// findNameFilter is find's -name/-iname tests when they are all the
// expression filters on names (ANDed: no -o, !, -not, -path or -regex): an
// ignored entry whose name none of them lets through is never acted on.
// Anything else accepts every entry.
func findNameFilter(args []string) func(string) bool {
	all := func(string) bool { return true }
	var pats []string
	var fold []bool
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-name", "-iname":
			if i+1 >= len(args) {
				return all
			}
			pats, fold = append(pats, args[i+1]), append(fold, a == "-iname")
			i++
		case "-exec", "-execdir", "-ok", "-okdir":
			for i+1 < len(args) && args[i+1] != ";" && args[i+1] != "+" {
				i++
			}
			i++
		case "-o", "-or", "!", "-not", ",", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
			return all
		}
	}
	if len(pats) == 0 {
		return all
	}
	return func(name string) bool {
		for i, p := range pats {
			n := name
			if fold[i] {
				p, n = strings.ToLower(p), strings.ToLower(n)
			}
			if ok, _ := filepath.Match(p, n); !ok {
				return false
			}
		}
		return true
	}
}
