package developer

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// Path policy errors callers can branch on (wrapped with the path).
// The place rules themselves (roots, symlink escapes, pseudo-filesystems)
// are core/pathpolicy's, shared with every other way a path gets in;
// this file turns a tool's raw argument into the absolute path judged.
var (
	ErrURIPath       = errors.New("path is a URI, not a filesystem path")
	ErrOutsideRoots  = pathpolicy.ErrOutsideRoots
	ErrSymlinkEscape = pathpolicy.ErrSymlinkEscape
	ErrPseudoFS      = pathpolicy.ErrPseudoFS
	ErrEmptyPath     = errors.New("path is empty")
	// ErrDriveRelative is a Windows "C:foo" path: relative to a drive's
	// current directory, which a tool call has no way to know.
	ErrDriveRelative = errors.New("path is relative to a drive's current directory")
)

// uriScheme matches an RFC 3986 scheme followed by "://" (goose's
// reject_uri_path). "C:\x", "my:file" and "1bad://x" are not URIs.
var uriScheme = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*://`) })

// pathPolicy resolves tool paths: relative to the working dir, "~"
// expansion, Windows drive/UNC handling, and confinement checks.
type pathPolicy struct {
	getenv func(string) string
	goos   string
	roots  []string // extra allowed roots; empty = absolute paths unrestricted
}

func newPathPolicy(getenv func(string) string, roots []string) pathPolicy {
	p := pathPolicy{getenv: getenv, goos: runtime.GOOS}
	for _, r := range roots {
		if r != "" {
			p.roots = append(p.roots, filepath.Clean(r))
		}
	}
	return p
}

// resolve turns a tool path into a clean absolute path, or explains why not.
func (p pathPolicy) resolve(raw, workingDir string) (string, error) {
	if raw == "" {
		return "", policyErr(ErrEmptyPath, "Path cannot be empty")
	}
	if uriScheme().MatchString(raw) {
		return "", policyErr(ErrURIPath, "'%s' is an MCP resource URI, not a filesystem path. Use the read_resource tool (it takes server + uri) for raw URIs, or load_skill for named skills.", raw)
	}
	expanded := pathpolicy.ExpandHome(raw, p.goos, p.getenv)
	wd := filepath.Clean(workingDir)
	if p.goos == "windows" {
		var err error
		if expanded, err = windowsRooted(raw, expanded, wd); err != nil {
			return "", err
		}
	}
	var abs string
	if isAbsPath(expanded, p.goos) {
		abs = filepath.Clean(expanded)
	} else {
		abs = filepath.Join(wd, expanded)
		if !within(abs, wd) {
			return "", policyErr(ErrOutsideRoots, "Path '%s' resolves outside the working directory '%s'", raw, wd)
		}
	}
	pol := pathpolicy.New(pathpolicy.Options{WorkingDir: wd, Roots: p.roots})
	if pathpolicy.HasDotDot(expanded) {
		if err := pol.CheckClimb(expanded, abs); err != nil {
			return "", err
		}
	}
	if err := pol.CheckPlace(abs, raw); err != nil {
		return "", err
	}
	return abs, nil
}

// policyError carries goose-style text and a sentinel for errors.Is.
type policyError struct {
	msg  string
	kind error
}

func (e *policyError) Error() string { return e.msg }
func (e *policyError) Unwrap() error { return e.kind }

func policyErr(kind error, format string, a ...any) error {
	return &policyError{msg: fmt.Sprintf(format, a...), kind: kind}
}

// within reports whether p equals root or lies beneath it.
func within(p, root string) bool { return pathpolicy.Within(p, root) }

// isAbsPath is absolute-path detection per OS, testable off-platform:
// unix needs a leading "/", Windows a drive plus separator or a UNC prefix.
func isAbsPath(p, goos string) bool {
	if goos != "windows" {
		return strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") {
		return true
	}
	return len(p) >= 3 && isDriveLetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// windowsRooted handles the two Windows forms that are neither relative
// nor absolute: `\foo` (rooted on the working dir's volume, as Windows and
// goose read it) becomes absolute on that volume; "C:foo" is refused.
func windowsRooted(raw, p, wd string) (string, error) {
	switch {
	case isAbsPath(p, "windows"):
		return p, nil
	case len(p) >= 2 && isDriveLetter(p[0]) && p[1] == ':':
		return "", policyErr(ErrDriveRelative, "Path '%s' is relative to the current directory of drive %s; use an absolute path such as %s\\… or a path relative to the working directory", raw, p[:2], p[:2])
	case strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "/"):
		return windowsVolume(wd) + p, nil
	}
	return p, nil
}

// windowsVolume is the drive ("C:") or UNC share (`\\server\share`) that
// a Windows path starts with, or "".
func windowsVolume(p string) string {
	if len(p) >= 2 && isDriveLetter(p[0]) && p[1] == ':' {
		return p[:2]
	}
	if len(p) > 2 && (strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//")) {
		parts := strings.FieldsFunc(p[2:], func(r rune) bool { return r == '\\' || r == '/' })
		if len(parts) >= 2 {
			return p[:2] + parts[0] + `\` + parts[1]
		}
	}
	return ""
}

func isDriveLetter(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
