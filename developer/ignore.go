package developer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ErrIgnored marks a path restricted by .gooseignore.
var ErrIgnored = errors.New("restricted by .gooseignore")

// defaultIgnorePatterns are goose's DEFAULT_GOOSEIGNORE_CONTENT rules, used
// in memory (never written) when neither a global nor a local file exists.
var defaultIgnorePatterns = []string{"**/.env", "**/.env.*", "**/secrets.*"}

const ignoreFileName = ".gooseignore"

// ignoreRules is one working dir's compiled .gooseignore (global first,
// then local, so local lines win as in gitignore).
type ignoreRules struct {
	base    string
	matcher gitignore.Matcher
}

// ignored reports whether path (absolute) is restricted. Paths inside the
// base match relative to it; others match on their full components.
func (r *ignoreRules) ignored(path string) bool {
	isDir := false
	if fi, err := os.Stat(path); err == nil {
		isDir = fi.IsDir()
	}
	var parts []string
	if rel, err := filepath.Rel(r.base, path); err == nil && within(path, r.base) {
		if rel == "." {
			return false
		}
		parts = strings.Split(filepath.ToSlash(rel), "/")
	} else {
		parts = strings.Split(strings.TrimPrefix(filepath.ToSlash(path), "/"), "/")
	}
	return r.matcher.Match(parts, isDir)
}

// parseIgnore compiles gitignore lines (comments and blanks skipped).
func parseIgnore(content []byte, into []gitignore.Pattern) []gitignore.Pattern {
	sc := bufio.NewScanner(bytes.NewReader(content))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		into = append(into, gitignore.ParsePattern(line, nil))
	}
	return into
}

// ignoreCache rebuilds a working dir's rules when either file changes.
type ignoreCache struct {
	globalDir string
	mu        sync.Mutex
	entries   map[string]ignoreEntry
}

type ignoreEntry struct {
	stamp string
	rules *ignoreRules
}

func newIgnoreCache(globalDir string) *ignoreCache {
	return &ignoreCache{globalDir: globalDir, entries: map[string]ignoreEntry{}}
}

func (c *ignoreCache) rulesFor(workingDir string) *ignoreRules {
	files := []string{filepath.Join(workingDir, ignoreFileName)}
	if c.globalDir != "" {
		files = append([]string{filepath.Join(c.globalDir, ignoreFileName)}, files...)
	}
	stamp := fileStamps(files)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[workingDir]; ok && e.stamp == stamp {
		return e.rules
	}
	var ps []gitignore.Pattern
	found := false
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			found = true
			ps = parseIgnore(b, ps)
		}
	}
	if !found {
		ps = parseIgnore([]byte(strings.Join(defaultIgnorePatterns, "\n")), ps)
	}
	r := &ignoreRules{base: filepath.Clean(workingDir), matcher: gitignore.NewMatcher(ps)}
	c.entries[workingDir] = ignoreEntry{stamp: stamp, rules: r}
	return r
}

func fileStamps(files []string) string {
	var b strings.Builder
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			fmt.Fprintf(&b, "%d:%d", fi.ModTime().UnixNano(), fi.Size())
		}
		b.WriteByte('|')
	}
	return b.String()
}

// configDir is goose's config dir: GOOSE_PATH_ROOT/config, else
// XDG_CONFIG_HOME/goose or ~/.config/goose, on Windows %APPDATA%\Block\goose\config.
func configDir(explicit string, getenv func(string) string) string {
	if explicit != "" {
		return explicit
	}
	if root := getenv("GOOSE_PATH_ROOT"); root != "" {
		return filepath.Join(root, "config")
	}
	if runtime.GOOS == "windows" {
		if app := getenv("APPDATA"); app != "" {
			return filepath.Join(app, "Block", "goose", "config")
		}
		return ""
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "goose")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "goose")
	}
	return ""
}

// checkIgnored returns goose's restriction error for an ignored path.
func (s *service) checkIgnored(path, workingDir string) error {
	if s.ignores.rulesFor(workingDir).ignored(path) {
		return policyErr(ErrIgnored, "Access to '%s' is restricted by .gooseignore", path)
	}
	return nil
}
