package shellguard

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// maxShellNesting bounds recursion into `sh -c` / `eval` strings.
const maxShellNesting = 4

// IgnoredError is goose's refusal of a command that touches a path
// .gooseignore restricts; it wraps pathpolicy.ErrIgnored.
type IgnoredError struct{ Arg string }

func (e IgnoredError) Error() string {
	return "The command attempts to access '" + e.Arg + "' which is restricted by .gooseignore"
}

func (e IgnoredError) Unwrap() error { return pathpolicy.ErrIgnored }

// Guard checks POSIX shell commands run in Dir against the ignore Rules
// and the path Policy of that directory.
type Guard struct {
	Rules  *pathpolicy.Rules
	Policy *pathpolicy.Policy
	Dir    string
	// Getenv reads the environment the command runs with.
	Getenv func(string) string
}

// Check refuses script (an IgnoredError) when the shell would touch an
// ignored path running it. A script the parser rejects is checked token
// by token instead.
func (g Guard) Check(script string) error {
	w := &shellGuard{rules: g.Rules, policy: g.Policy, dirs: []string{g.Dir}, vars: map[string]string{}, getenv: g.Getenv}
	return w.check(script)
}

// shellGuard walks a parsed command the way the shell will run it: words
// are expanded (globs, ~, $PWD, $HOME, the environment and variables the
// script assigns literally), redirect targets are checked, `sh -c` and
// `eval` strings are parsed in turn, `cd` adds a directory relative paths
// may resolve against, and recursive tools have their roots searched for
// ignored paths. What it cannot see — a program opening files of its own
// accord — is documented in developer/doc.go: a guard, not a sandbox.
type shellGuard struct {
	rules  *pathpolicy.Rules
	policy *pathpolicy.Policy
	dirs   []string
	vars   map[string]string
	getenv func(string) string
	depth  int
}

// check parses script and refuses it when it touches an ignored path. A
// script the parser rejects is checked token by token instead.
func (g *shellGuard) check(script string) error {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		return g.checkTokens(script)
	}
	var found error
	syntax.Walk(f, func(n syntax.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				if found = g.redirect(r); found != nil {
					return false
				}
			}
		case *syntax.CallExpr:
			found = g.call(n)
		case *syntax.DeclClause:
			for _, a := range n.Args {
				g.assign(a)
			}
		}
		return found == nil
	})
	return found
}

// config expands words as the shell would in dir.
func (g *shellGuard) config(dir string) *expand.Config {
	return &expand.Config{
		Env: expand.FuncEnviron(func(name string) string {
			if name == "PWD" {
				return dir
			}
			if v, ok := g.vars[name]; ok {
				return v
			}
			return g.getenv(name)
		}),
		ReadDir2:  os.ReadDir,
		CmdSubst:  func(w io.Writer, cs *syntax.CmdSubst) error { return g.substitute(w, dir, cs) },
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return os.DevNull, nil },
	}
}

// substitute is what a command substitution prints when that is known
// without running anything: $(pwd) and $(echo …)/$(printf %s …) of
// expandable words. Anything else expands to nothing; its own commands are
// walked separately.
func (g *shellGuard) substitute(w io.Writer, dir string, cs *syntax.CmdSubst) error {
	if len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 {
		return nil
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return nil
	}
	f := g.fields(dir, ce.Args)
	switch {
	case len(f) == 0:
	case f[0] == "pwd":
		io.WriteString(w, dir)
	case f[0] == "echo" && !slices.ContainsFunc(f[1:], func(a string) bool { return strings.HasPrefix(a, "-") }):
		io.WriteString(w, strings.Join(f[1:], " "))
	case f[0] == "printf" && len(f) > 2 && f[1] == "%s":
		io.WriteString(w, strings.Join(f[2:], ""))
	}
	return nil
}

// fields expands words; a word the expander cannot handle falls back to
// its literal text.
func (g *shellGuard) fields(dir string, words []*syntax.Word) []string {
	out, err := expand.Fields(g.config(dir), words...)
	if err == nil {
		return out
	}
	out = out[:0]
	for _, w := range words {
		out = append(out, wordText(w))
	}
	return out
}

// wordText is a word's literal parts without quotes.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	syntax.Walk(w, func(n syntax.Node) bool {
		if l, ok := n.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
		if sq, ok := n.(*syntax.SglQuoted); ok {
			b.WriteString(sq.Value)
		}
		return true
	})
	return b.String()
}

// assign records a literal assignment (X=.env) for later expansions.
func (g *shellGuard) assign(a *syntax.Assign) {
	if a == nil || a.Name == nil || a.Array != nil {
		return
	}
	val := ""
	if a.Value != nil {
		v, err := expand.Literal(g.config(g.dirs[0]), a.Value)
		if err != nil {
			v = wordText(a.Value)
		}
		val = v
	}
	g.vars[a.Name.Value] = val
}

// redirect checks a file redirect's target. Output targets are checked
// even when missing: creating an ignored file is touching it.
func (g *shellGuard) redirect(r *syntax.Redirect) error {
	if r.Word == nil {
		return nil
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return nil
	}
	write := r.Op != syntax.RdrIn && r.Op != syntax.DplIn
	for _, dir := range g.dirs {
		for _, f := range g.fields(dir, []*syntax.Word{r.Word}) {
			if (r.Op == syntax.DplIn || r.Op == syntax.DplOut) && isFDWord(f) {
				continue
			}
			if err := g.checkPath(dir, f, write); err != nil {
				return err
			}
		}
	}
	return nil
}

// isFDWord is a >&N / <&- duplication target rather than a file.
func isFDWord(s string) bool {
	if s == "-" {
		return true
	}
	return s != "" && strings.Trim(s, "0123456789-") == ""
}

// call checks one simple command in every directory it may run in.
func (g *shellGuard) call(ce *syntax.CallExpr) error {
	for _, a := range ce.Assigns {
		g.assign(a)
	}
	if len(ce.Args) == 0 {
		return nil
	}
	for _, dir := range g.dirs {
		if err := g.checkCall(dir, g.fields(dir, ce.Args)); err != nil {
			return err
		}
	}
	return nil
}

// checkCall checks a command's expanded fields: each path argument (and
// the value of --flag=path / key=path), nested scripts, directory changes
// and the roots of recursive tools.
func (g *shellGuard) checkCall(dir string, fields []string) error {
	name, args := unwrapCommand(fields)
	write := writers[name]
	for i, f := range fields {
		if i == 0 && !strings.ContainsRune(f, '/') {
			continue
		}
		for _, p := range pathCandidates(f) {
			if err := g.checkPath(dir, p, write && !strings.HasPrefix(f, "-")); err != nil {
				return err
			}
		}
	}
	switch {
	case shells[name]:
		if script, ok := shellScriptArg(args); ok {
			return g.nested(script)
		}
	case name == "eval":
		return g.nested(strings.Join(args, " "))
	case name == "cd" || name == "pushd":
		if len(args) > 0 {
			g.dirs = append(g.dirs, absIn(dir, args[len(args)-1]))
		}
	}
	return g.checkRecursive(dir, name, args)
}

// pathCandidates are the strings in one field that may name a path: the
// field itself, and what follows "=" in --file=x or if=x.
func pathCandidates(f string) []string {
	var out []string
	if !strings.HasPrefix(f, "-") {
		out = append(out, f)
	}
	if i := strings.IndexByte(f, '='); i >= 0 && i+1 < len(f) {
		out = append(out, f[i+1:])
	}
	return out
}

// nested checks a script string handed to another shell.
func (g *shellGuard) nested(script string) error {
	if g.depth >= maxShellNesting {
		return nil
	}
	child := &shellGuard{rules: g.rules, policy: g.policy, dirs: g.dirs, vars: map[string]string{}, getenv: g.getenv, depth: g.depth + 1}
	for k, v := range g.vars {
		child.vars[k] = v
	}
	return child.check(script)
}

// checkPath refuses p (relative to dir) when the path policy's ignore
// check does: the path as written or resolved through symlinks, a file in
// an ignored directory, or a hard link to an ignored file. Missing paths
// are skipped unless always is set.
func (g *shellGuard) checkPath(dir, p string, always bool) error {
	if p == "" {
		return nil
	}
	abs := absIn(dir, p)
	if _, err := os.Lstat(abs); err != nil && !always {
		return nil
	}
	if err := g.policy.CheckIgnored(abs, p); errors.Is(err, pathpolicy.ErrIgnored) {
		return IgnoredError{Arg: p}
	}
	return nil
}

func absIn(dir, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// checkTokens is the fallback for a script the parser rejects: every
// token between shell operators, with ~, $PWD, $HOME and globs expanded.
func (g *shellGuard) checkTokens(script string) error {
	toks := strings.FieldsFunc(script, func(r rune) bool {
		return strings.ContainsRune(" \t\r\n;|&<>()`'\"", r)
	})
	for _, dir := range g.dirs {
		for _, tok := range toks {
			tok = strings.NewReplacer("${PWD}", dir, "$PWD", dir, "${HOME}", g.getenv("HOME"), "$HOME", g.getenv("HOME")).Replace(tok)
			tok = pathpolicy.ExpandHome(tok, runtime.GOOS, g.getenv)
			matches, _ := filepath.Glob(absIn(dir, tok))
			if len(matches) == 0 {
				matches = []string{tok}
			}
			for _, m := range matches {
				for _, p := range pathCandidates(m) {
					if err := g.checkPath(dir, p, false); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
