package pathpolicy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Sentinels callers branch on with errors.Is; every refusal is an *Error
// carrying one of them and a sentence the model and the user can read.
var (
	ErrOutsideRoots  = errors.New("path is outside the allowed roots")
	ErrSymlinkEscape = errors.New("path escapes the allowed roots through a symlink")
	ErrIgnored       = errors.New("restricted by .gooseignore")
	ErrPseudoFS      = errors.New("path is on a pseudo-filesystem")
	ErrNotRegular    = errors.New("not a regular file")
	ErrTooLarge      = errors.New("file is larger than the read limit")
)

// Error is a refusal: goose-style text plus a sentinel.
type Error struct {
	Msg  string
	Kind error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

func refuse(kind error, format string, a ...any) error {
	return &Error{Msg: fmt.Sprintf(format, a...), Kind: kind}
}

// pseudoRoots are never read or written, whatever the roots say: their
// "files" are process secrets (/proc/self/environ), kernel knobs or
// endless devices.
var pseudoRoots = []string{"/proc", "/sys", "/dev"}

// Options describe one session.
type Options struct {
	// WorkingDir is the session's cwd (absolute). It is always a root.
	WorkingDir string
	// Roots are the session's additionalDirectories. When any is given,
	// absolute paths are confined to WorkingDir and Roots; when none,
	// absolute paths are unrestricted (goose's read tool behaviour).
	Roots []string
	// ConfigDir holds the global .gooseignore ("" = no global file).
	ConfigDir string
}

// Policy answers "may this path be read or written for this session".
// It is cheap to build; the parsed .gooseignore files are cached
// process-wide and re-read when they change.
type Policy struct {
	wd        string
	roots     []string
	configDir string
}

// New returns the policy for one session.
func New(o Options) *Policy {
	p := &Policy{wd: filepath.Clean(o.WorkingDir), configDir: o.ConfigDir}
	for _, r := range o.Roots {
		if r != "" {
			p.roots = append(p.roots, filepath.Clean(r))
		}
	}
	return p
}

// WorkingDir is the session's working dir.
func (p *Policy) WorkingDir() string { return p.wd }

// Confined reports whether absolute paths are limited to the roots.
func (p *Policy) Confined() bool { return len(p.roots) > 0 }

// AllRoots is the working dir followed by the additional roots.
func (p *Policy) AllRoots() []string { return append([]string{p.wd}, p.roots...) }

// Resolve turns a path that came from outside (a link's file URI path, an
// import) into a clean absolute one and checks it. A relative path is
// relative to the working dir. A path that climbs with ".." must land
// inside a root even when absolute paths are otherwise unrestricted:
// ".." is how a traversal is spelled, never how an editor names a file.
func (p *Policy) Resolve(raw string) (string, error) {
	if raw == "" {
		return "", refuse(ErrOutsideRoots, "Path cannot be empty")
	}
	abs := raw
	if !filepath.IsAbs(raw) {
		abs = filepath.Join(p.wd, raw)
	}
	abs = filepath.Clean(abs)
	if err := p.CheckClimb(raw, abs); err != nil {
		return "", err
	}
	return abs, p.Check(abs, raw)
}

// Attachable is the rule for a file the user attached to a prompt (a
// resource_link, an embedded resource's file:// URI). The user chose the
// file, so it may lie outside the working dir and the roots; it is judged
// by the path it resolves to, so "cwd/../x", "/abs/x" and a symlink to x
// get one answer. The pseudo-filesystems and .gooseignore (the path as
// written and as resolved, and hard links to ignored files) stay refused
// under every spelling. It returns the clean absolute path.
func (p *Policy) Attachable(raw string) (string, error) {
	if raw == "" {
		return "", refuse(ErrOutsideRoots, "Path cannot be empty")
	}
	abs := raw
	if !filepath.IsAbs(raw) {
		abs = filepath.Join(p.wd, raw)
	}
	abs = filepath.Clean(abs)
	if err := pseudo(abs, raw); err != nil {
		return "", err
	}
	if err := pseudo(resolved(abs), raw); err != nil {
		return "", err
	}
	return abs, p.CheckIgnored(abs, raw)
}

// CheckClimb refuses a relative path, or one that climbs with "..", when
// it lands outside every root (raw as given, abs cleaned).
func (p *Policy) CheckClimb(raw, abs string) error {
	if (!filepath.IsAbs(raw) || HasDotDot(raw)) && p.rootOf(abs) == "" {
		return refuse(ErrOutsideRoots, "Path '%s' resolves outside the working directory '%s'", raw, p.wd)
	}
	return nil
}

// HasDotDot reports whether a path has a ".." component.
func HasDotDot(p string) bool {
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if part == ".." {
			return true
		}
	}
	return false
}

// Check decides whether the clean absolute path abs may be read or
// written; display is how the caller named it (used in messages).
func (p *Policy) Check(abs, display string) error {
	if err := p.CheckPlace(abs, display); err != nil {
		return err
	}
	return p.CheckIgnored(abs, display)
}

// CheckPlace is the where-part of Check: the pseudo-filesystems, the
// roots and symlink escapes.
func (p *Policy) CheckPlace(abs, display string) error {
	if err := pseudo(abs, display); err != nil {
		return err
	}
	root := p.rootOf(abs)
	if root == "" && p.Confined() {
		return refuse(ErrOutsideRoots, "Path '%s' is outside the working directory and the allowed roots", display)
	}
	real := resolved(abs)
	if real == abs {
		return nil
	}
	if err := pseudo(real, display); err != nil {
		return err
	}
	if root != "" && !p.insideReal(real) {
		return refuse(ErrSymlinkEscape, "Path '%s' resolves through a symlink to '%s', outside the allowed roots", display, real)
	}
	return nil
}

// CheckIgnored is the what-part of Check: .gooseignore on the path as
// written and as resolved, and hard links to ignored files.
func (p *Policy) CheckIgnored(abs, display string) error {
	real := resolved(abs)
	rules := p.Ignore()
	if rules.Ignored(abs) || (real != abs && rules.Ignored(real)) {
		return refuse(ErrIgnored, "Access to '%s' is restricted by .gooseignore", abs)
	}
	return p.checkHardlink(real, display)
}

// resolved is abs with symlinks evaluated as far as it exists.
func resolved(abs string) string {
	real, err := evalExistingPrefix(abs)
	if err != nil {
		return abs
	}
	return real
}

// Ignore returns the working dir's .gooseignore rules (global, then local).
func (p *Policy) Ignore() *Rules { return rulesFor(p.wd, p.configDir) }

// rootOf returns the root that lexically contains abs, or "".
func (p *Policy) rootOf(abs string) string {
	for _, r := range p.AllRoots() {
		if Within(abs, r) {
			return r
		}
	}
	return ""
}

// insideReal reports whether a symlink-resolved path lies in a root (as
// written or resolved: the roots themselves may sit behind symlinks).
func (p *Policy) insideReal(real string) bool {
	for _, r := range p.AllRoots() {
		if Within(real, r) {
			return true
		}
		if rr, err := filepath.EvalSymlinks(r); err == nil && Within(real, rr) {
			return true
		}
	}
	return false
}

func pseudo(abs, display string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	for _, r := range pseudoRoots {
		if Within(abs, r) {
			return refuse(ErrPseudoFS, "Access to '%s' is refused: %s is a pseudo-filesystem, never read or written", display, r)
		}
	}
	return nil
}

// Within reports whether p equals root or lies beneath it (lexically).
func Within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// evalExistingPrefix evaluates symlinks in the deepest existing ancestor of
// p and re-appends the missing tail (a file about to be created).
func evalExistingPrefix(p string) (string, error) {
	tail := ""
	cur := p
	for {
		if _, err := os.Lstat(cur); err == nil {
			real, err := filepath.EvalSymlinks(cur)
			if err != nil {
				return "", err
			}
			return filepath.Join(real, tail), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", os.ErrNotExist
		}
		tail = filepath.Join(filepath.Base(cur), tail)
		cur = parent
	}
}
