package pathpolicy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// IgnoreFileName is goose's ignore file, looked up in the global config dir
// and in the working dir.
const IgnoreFileName = ".gooseignore"

// DefaultIgnorePatterns are goose's DEFAULT_GOOSEIGNORE_CONTENT rules, used
// in memory (never written) when neither a global nor a local file exists.
var DefaultIgnorePatterns = []string{"**/.env", "**/.env.*", "**/secrets.*"}

// maxIgnoreFileBytes bounds a .gooseignore read (a FIFO or a huge file in
// its place must not stall or bloat every check).
const maxIgnoreFileBytes = 1 << 20

// Rules are one working dir's compiled .gooseignore (global first, then
// local, so local lines win as in gitignore).
type Rules struct {
	base    string
	matcher gitignore.Matcher
}

// Base is the working dir the patterns are relative to.
func (r *Rules) Base() string { return r.base }

// Ignored reports whether the absolute path, or a directory above it, is
// restricted. Paths inside the base match relative to it; others match on
// their full components.
func (r *Rules) Ignored(path string) bool {
	isDir := false
	if fi, err := os.Stat(path); err == nil {
		isDir = fi.IsDir()
	}
	return r.Match(path, isDir)
}

// Match is Ignored for a path whose kind the caller already knows.
func (r *Rules) Match(path string, isDir bool) bool {
	parts := r.parts(path)
	if len(parts) == 0 {
		return false
	}
	// A file under an ignored directory is ignored too (gitignore's rule).
	for i := 1; i < len(parts); i++ {
		if r.matcher.Match(parts[:i], true) {
			return true
		}
	}
	return r.matcher.Match(parts, isDir)
}

func (r *Rules) parts(path string) []string {
	if Within(path, r.base) {
		rel, err := filepath.Rel(r.base, path)
		if err != nil || rel == "." {
			return nil
		}
		return strings.Split(filepath.ToSlash(rel), "/")
	}
	return strings.Split(strings.TrimPrefix(filepath.ToSlash(path), "/"), "/")
}

// ParseIgnore compiles gitignore lines (comments and blanks skipped).
func ParseIgnore(content []byte, into []gitignore.Pattern) []gitignore.Pattern {
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

// NewRules compiles patterns for a base dir.
func NewRules(base string, patterns []gitignore.Pattern) *Rules {
	return &Rules{base: filepath.Clean(base), matcher: gitignore.NewMatcher(patterns)}
}

// cache holds compiled rules per (global dir, working dir), rebuilt when
// either file changes.
var cache = struct {
	sync.Mutex
	entries map[[2]string]cacheEntry
}{entries: map[[2]string]cacheEntry{}}

type cacheEntry struct {
	stamp string
	rules *Rules
}

// RulesFor returns the rules of workingDir with the global file of
// configDir ("" = none), cached until either file changes.
func RulesFor(workingDir, configDir string) *Rules {
	return rulesFor(filepath.Clean(workingDir), configDir)
}

func rulesFor(workingDir, configDir string) *Rules {
	files := []string{filepath.Join(workingDir, IgnoreFileName)}
	if configDir != "" {
		files = append([]string{filepath.Join(configDir, IgnoreFileName)}, files...)
	}
	stamp := fileStamps(files)
	key := [2]string{configDir, workingDir}
	cache.Lock()
	defer cache.Unlock()
	if e, ok := cache.entries[key]; ok && e.stamp == stamp {
		return e.rules
	}
	var ps []gitignore.Pattern
	found := false
	for _, f := range files {
		if b, err := readSmallRegular(f, maxIgnoreFileBytes); err == nil {
			found = true
			ps = ParseIgnore(b, ps)
		}
	}
	if !found {
		ps = ParseIgnore([]byte(strings.Join(DefaultIgnorePatterns, "\n")), ps)
	}
	r := NewRules(workingDir, ps)
	cache.entries[key] = cacheEntry{stamp: stamp, rules: r}
	return r
}

// readSmallRegular reads a config-like file: regular files only, at most
// limit bytes.
func readSmallRegular(path string, limit int64) ([]byte, error) {
	f, _, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
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

// DefaultConfigDir is goose's config dir, where the global .gooseignore
// lives: GOOSE_PATH_ROOT/config, else XDG_CONFIG_HOME/goose or
// ~/.config/goose, on Windows %APPDATA%\Block\goose\config.
func DefaultConfigDir(getenv func(string) string) string {
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
