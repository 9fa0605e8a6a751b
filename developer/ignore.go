package developer

import (
	"path/filepath"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
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
