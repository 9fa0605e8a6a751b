package developer

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
	"github.com/goose-acp/goose-acp/developer/shellguard"
	"github.com/goose-acp/goose-acp/developer/shellrun"
)

// ErrIgnored marks a path restricted by .gooseignore (the same sentinel as
// pathpolicy's, so errors.Is works whichever layer refused).
var ErrIgnored = pathpolicy.ErrIgnored

// ignoreRules is one working dir's compiled .gooseignore; the rules
// themselves (goose's defaults, global then local, directories covering
// their files) live in core/pathpolicy, shared with every other way a
// path gets in.
type ignoreRules struct{ r *pathpolicy.Rules }

// ignored reports whether path (absolute) is restricted.
func (r *ignoreRules) ignored(path string) bool { return r.r.Ignored(path) }

// ignoreCache hands out a working dir's rules (pathpolicy caches them and
// rebuilds them when either .gooseignore changes).
type ignoreCache struct{ globalDir string }

func newIgnoreCache(globalDir string) *ignoreCache { return &ignoreCache{globalDir: globalDir} }

func (c *ignoreCache) rulesFor(workingDir string) *ignoreRules {
	return &ignoreRules{r: pathpolicy.RulesFor(workingDir, c.globalDir)}
}

// configDir is goose's config dir (see pathpolicy.DefaultConfigDir) unless
// one is given.
func configDir(explicit string, getenv func(string) string) string {
	if explicit != "" {
		return explicit
	}
	return pathpolicy.DefaultConfigDir(getenv)
}

// checkIgnored returns goose's restriction error for an ignored path, a
// symlink to one, or a hard link to one (pathpolicy.Policy.CheckIgnored).
func (s *service) checkIgnored(path, workingDir string) error {
	return s.policy(workingDir).CheckIgnored(path, path)
}

// policy is the session's path policy for a call's working dir.
func (s *service) policy(workingDir string) *pathpolicy.Policy {
	return pathpolicy.New(pathpolicy.Options{WorkingDir: filepath.Clean(workingDir), Roots: s.paths.roots, ConfigDir: s.ignores.globalDir})
}

// checkShellPaths applies .gooseignore to a command before it runs: first
// goose's own check of the literal words, then, for POSIX shells, what the
// shell will actually touch once it has expanded the command (see
// developer/shellguard).
func (s *service) checkShellPaths(command string, cc callContext) error {
	rules := s.ignores.rulesFor(cc.workingDir)
	if err := s.checkShellWords(command, cc.workingDir, rules); err != nil {
		return err
	}
	noProbe := func(string) (string, error) { return "", exec.ErrNotFound }
	if runtime.GOOS == "windows" && shellrun.Select(runtime.GOOS, s.getenv, noProbe).Flavor != "posix" {
		return nil // cmd and PowerShell syntax is not POSIX: goose's check only
	}
	g := shellguard.Guard{Rules: rules.r, Policy: s.policy(cc.workingDir), Dir: cc.workingDir, Getenv: s.getenv}
	return g.Check(command)
}

// checkShellWords is goose's check: every token after the first that is
// not a flag and exists relative to the working dir.
func (s *service) checkShellWords(command, workingDir string, rules *ignoreRules) error {
	toks := shellrun.SplitArgs(command)
	if len(toks) < 2 {
		return nil
	}
	for _, tok := range toks[1:] {
		if strings.HasPrefix(tok, "-") {
			continue
		}
		p := pathpolicy.ExpandHome(tok, runtime.GOOS, s.getenv)
		if !filepath.IsAbs(p) {
			p = filepath.Join(workingDir, p)
		}
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if rules.ignored(filepath.Clean(p)) {
			return shellguard.IgnoredError{Arg: tok}
		}
	}
	return nil
}
