package platform

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// gooseIgnore is a working dir's .gooseignore (the global file in the
// config dir first, then the project's), with goose's defaults when
// neither exists. It mirrors the developer extension's rules, which are
// private to that package; a shared path policy should replace both.
type gooseIgnore struct {
	base    string
	matcher gitignore.Matcher
}

var defaultGooseIgnore = []string{"**/.env", "**/.env.*", "**/secrets.*"}

func loadGooseIgnore(workingDir, configDir string) *gooseIgnore {
	var files []string
	if configDir != "" {
		files = append(files, filepath.Join(configDir, ".gooseignore"))
	}
	if workingDir != "" {
		files = append(files, filepath.Join(workingDir, ".gooseignore"))
	}
	var ps []gitignore.Pattern
	found := false
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			found = true
			ps = ignorePatterns(b, ps)
		}
	}
	if !found {
		ps = ignorePatterns([]byte(strings.Join(defaultGooseIgnore, "\n")), ps)
	}
	return &gooseIgnore{base: filepath.Clean(workingDir), matcher: gitignore.NewMatcher(ps)}
}

func ignorePatterns(content []byte, into []gitignore.Pattern) []gitignore.Pattern {
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

// ignored reports whether an absolute path is restricted. Paths inside the
// working dir match relative to it, others on their full components, as
// the developer tools do.
func (g *gooseIgnore) ignored(path string, isDir bool) bool {
	if g == nil {
		return false
	}
	var parts []string
	rel, err := filepath.Rel(g.base, path)
	if err == nil && g.base != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		if rel == "." {
			return false
		}
		parts = strings.Split(filepath.ToSlash(rel), "/")
	} else {
		parts = strings.Split(strings.TrimPrefix(filepath.ToSlash(path), "/"), "/")
	}
	return g.matcher.Match(parts, isDir)
}
