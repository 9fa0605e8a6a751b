package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// Hint file names (goose's GOOSE_HINTS_FILENAME and AGENTS_MD_FILENAME),
// the default CONTEXT_FILE_NAMES.
var DefaultContextFileNames = []string{".goosehints", "AGENTS.md"}

// Import limits (goose's hints/import_files.rs).
const (
	hintMaxDepth      = 3
	hintMaxOperations = 64
	hintMaxOutput     = 1024 * 1024
	hintMaxParse      = 128 * 1024
)

var fileReference = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|\s)@([a-zA-Z0-9_\-./]+(?:\.[a-zA-Z0-9]+)+|[A-Z][a-zA-Z0-9_\-]*|[a-zA-Z0-9_\-./]*[./][a-zA-Z0-9_\-./]*)`)
})

// loadHints is goose's load_hint_files: global hints from the config dir
// and, when AGENTS.md is a context file name, the agents home's
// (agentsHome, ~/.agents), then every directory from the git root down to
// cwd (cwd only without a git root), with @file imports expanded inside
// the boundary.
func loadHints(cwd, configDir, agentsHome string, names []string) string {
	var global, local []string
	var globalPaths []string
	if configDir != "" {
		for _, n := range names {
			globalPaths = append(globalPaths, filepath.Join(configDir, n))
		}
	}
	if agentsHome != "" && slices.Contains(names, "AGENTS.md") {
		globalPaths = append(globalPaths, filepath.Join(agentsHome, "AGENTS.md"))
	}
	for _, p := range globalPaths {
		if isFile(p) {
			if s := expandHintFile(p, filepath.Dir(p)); s != "" {
				global = append(global, s)
			}
		}
	}
	root := gitRoot(cwd)
	boundary := cwd
	dirs := []string{cwd}
	if root != "" {
		boundary = root
		dirs = dirsFromRoot(root, cwd)
	}
	for _, d := range dirs {
		for _, n := range names {
			p := filepath.Join(d, n)
			if isFile(p) {
				if s := expandHintFile(p, boundary); s != "" {
					local = append(local, s)
				}
			}
		}
	}
	var b strings.Builder
	if len(global) > 0 {
		b.WriteString("\n### Global Hints\nThese are my global goose hints.\n")
		b.WriteString(strings.Join(global, "\n"))
	}
	if len(local) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("### Project Hints\nThese are hints for working on the project in this directory.\n")
		b.WriteString(strings.Join(local, "\n"))
	}
	return b.String()
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func gitRoot(dir string) string {
	if dir == "" {
		return ""
	}
	for d := filepath.Clean(dir); ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

func dirsFromRoot(root, cwd string) []string {
	var dirs []string
	for d := filepath.Clean(cwd); ; d = filepath.Dir(d) {
		dirs = append([]string{d}, dirs...)
		if d == root || filepath.Dir(d) == d {
			return dirs
		}
	}
}

type hintBudget struct {
	ops, out int
	// ignore matches files the boundary's .gitignore excludes; ignored
	// files are never imported (goose passes its gitignore the same way).
	ignore gitignore.Matcher
	policy *pathpolicy.Policy
}

// boundaryIgnore reads the boundary's .gitignore.
func boundaryIgnore(boundary string) gitignore.Matcher {
	b, _, err := pathpolicy.ReadBytes(context.Background(), filepath.Join(boundary, ".gitignore"), hintMaxOutput)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, nil))
	}
	return gitignore.NewMatcher(ps)
}

func (b *hintBudget) ignored(boundary, path string) bool {
	if b.ignore == nil {
		return false
	}
	rel, err := filepath.Rel(boundary, path)
	if err != nil {
		return false
	}
	return b.ignore.Match(strings.Split(filepath.ToSlash(rel), "/"), false)
}

// expandHintFile reads a hint file and expands its @imports. Both the file
// and every import go through the path policy (pathpolicy: never /proc,
// /sys, /dev; the boundary's and the global .gooseignore; no hard link to
// an ignored file) and are read bounded: regular files only, at most
// hintMaxOutput bytes, a FIFO never blocks.
func expandHintFile(path, boundary string) string {
	canonBoundary, err := filepath.EvalSymlinks(boundary)
	if err != nil {
		return ""
	}
	safe, ok := insideBoundary(path, canonBoundary)
	if !ok {
		return ""
	}
	pol := pathpolicy.New(pathpolicy.Options{WorkingDir: canonBoundary, ConfigDir: pathpolicy.DefaultConfigDir(os.Getenv)})
	content, ok := readHint(pol, safe, hintMaxOutput)
	if !ok {
		return ""
	}
	budget := &hintBudget{ops: hintMaxOperations, out: hintMaxOutput, ignore: boundaryIgnore(canonBoundary), policy: pol}
	return expandHints(content, filepath.Dir(safe), canonBoundary, map[string]bool{}, 0, budget)
}

// readHint reads at most limit bytes of an allowed regular file; ok is
// false when the policy refuses it, it is not a regular file, or it is
// longer than limit.
func readHint(pol *pathpolicy.Policy, path string, limit int) (string, bool) {
	if pol.Check(path, path) != nil {
		return "", false
	}
	text, truncated, err := pathpolicy.ReadText(context.Background(), path, int64(limit))
	if err != nil || truncated {
		return "", false
	}
	return text, true
}

// insideBoundary resolves p and refuses anything outside the boundary or
// inside git metadata.
func insideBoundary(p, canonBoundary string) (string, bool) {
	c, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(canonBoundary, c)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.EqualFold(part, ".git") {
			return "", false
		}
	}
	return c, true
}

func expandHints(content, dir, boundary string, visited map[string]bool, depth int, budget *hintBudget) string {
	if len(content) > hintMaxParse {
		return content
	}
	var b strings.Builder
	cursor := 0
	for _, m := range fileReference().FindAllStringSubmatchIndex(content, -1) {
		start, end := m[2]-1, m[3]
		ref := content[m[2]:m[3]]
		b.WriteString(content[cursor:start])
		cursor = end
		original := content[start:end]
		if depth >= hintMaxDepth || budget.ops <= 0 {
			budget.ops = 0
			b.WriteString(original)
			continue
		}
		budget.ops--
		if r, ok := importReference(ref, dir, boundary, visited, depth, budget); ok {
			b.WriteString(r)
		} else {
			b.WriteString(original)
		}
	}
	b.WriteString(content[cursor:])
	return b.String()
}

func importReference(ref, dir, boundary string, visited map[string]bool, depth int, budget *hintBudget) (string, bool) {
	if visited[ref] || filepath.IsAbs(ref) {
		return "", false
	}
	safe, ok := insideBoundary(filepath.Join(dir, filepath.FromSlash(ref)), boundary)
	if !ok || !isFile(safe) || budget.ignored(boundary, safe) {
		return "", false
	}
	wrapper := len(fmt.Sprintf("--- Content from %s ---\n\n--- End of %s ---", ref, ref))
	if wrapper > budget.out {
		return "", false
	}
	data, ok := readHint(budget.policy, safe, budget.out-wrapper)
	if !ok {
		return "", false
	}
	budget.out -= len(data) + wrapper
	visited[ref] = true
	inner := expandHints(data, filepath.Dir(safe), boundary, visited, depth+1, budget)
	delete(visited, ref)
	return fmt.Sprintf("--- Content from %s ---\n%s\n--- End of %s ---", ref, inner, ref), true
}
