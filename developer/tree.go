package developer

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

type treeArgs struct {
	Path  string `json:"path"`
	Depth *int   `json:"depth"`
}

type treeNode struct {
	name     string
	dir      bool
	lines    int
	children []*treeNode
}

func (s *service) treeTool(_ context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a treeArgs
	if err := decodeArgs(raw, &a); err != nil {
		return toolError("Error: %s", errorText(err)), nil
	}
	depth := 2
	if a.Depth != nil {
		depth = *a.Depth
	}
	p, err := s.resolveFile(a.Path, cc)
	if err != nil {
		return toolError("%s", err.Error()), nil
	}
	fi, err := os.Stat(p)
	if err != nil {
		return toolError("Path does not exist: %s", a.Path), nil
	}
	if !fi.IsDir() {
		return toolError("Path is not a directory: %s", a.Path), nil
	}
	// goose walks depth+1 levels (max_depth = depth+1 with the root at 0),
	// so depth 1 shows children and grandchildren; 0 is unlimited.
	maxDepth := 0
	if depth > 0 {
		maxDepth = depth + 1
	}
	w := treeWalker{goose: s.ignores.rulesFor(cc.workingDir), maxDepth: maxDepth}
	root := w.walk(p, nil, nil, 1)
	if len(root.children) == 0 {
		return &mcp.CallToolResult{Content: []mcp.Content{text("(empty directory)")}}, nil
	}
	var b strings.Builder
	renderTree(&b, root.children, 0)
	return &mcp.CallToolResult{Content: []mcp.Content{text(b.String())}}, nil
}

// treeWalker lists a directory honouring .gitignore, .gooseignore and
// hidden files, as goose's tree does with the ignore crate.
type treeWalker struct {
	goose    *ignoreRules
	maxDepth int // 0 = unlimited
}

// dirPatterns adds dir's .gitignore rules, scoped to its relative path.
func dirPatterns(dir string, rel []string, inherited []gitignore.Pattern) []gitignore.Pattern {
	b, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return inherited
	}
	ps := append([]gitignore.Pattern{}, inherited...)
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, rel))
	}
	return ps
}

func (w treeWalker) walk(dir string, rel []string, inherited []gitignore.Pattern, level int) *treeNode {
	node := &treeNode{dir: true}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return node
	}
	patterns := dirPatterns(dir, rel, inherited)
	git := gitignore.NewMatcher(patterns)
	for _, e := range entries {
		name := e.Name()
		full := filepath.Join(dir, name)
		parts := append(append([]string{}, rel...), name)
		isDir := e.IsDir()
		if strings.HasPrefix(name, ".") || git.Match(parts, isDir) || w.goose.ignored(full) {
			continue
		}
		if e.Type()&os.ModeSymlink != 0 {
			continue // goose skips non-normal entries; never follow links out
		}
		if isDir {
			// Below the depth limit nothing is walked, so the directory's
			// total covers only what is shown (as goose's counts do).
			child := &treeNode{name: name, dir: true}
			if w.maxDepth == 0 || level < w.maxDepth {
				child = w.walk(full, parts, patterns, level+1)
				child.name = name
			}
			node.lines += child.lines
			node.children = append(node.children, child)
			continue
		}
		n := fileLineCount(full)
		node.lines += n
		node.children = append(node.children, &treeNode{name: name, lines: n})
	}
	return node
}

// maxTreeCountBytes bounds what tree reads to count one file's lines; a
// larger file, or anything not a regular file (a FIFO would block the
// walk), counts as 0.
const maxTreeCountBytes = 32 << 20

func fileLineCount(p string) int {
	b, truncated, err := pathpolicy.ReadBytes(context.Background(), p, maxTreeCountBytes)
	if err != nil || truncated || !isUTF8Text(b) {
		return 0
	}
	return len(rustLines(string(b)))
}

func isUTF8Text(b []byte) bool {
	return !strings.ContainsRune(string(b), 0) && strings.ToValidUTF8(string(b), "") == string(b)
}

func renderTree(b *strings.Builder, nodes []*treeNode, level int) {
	sort.SliceStable(nodes, func(i, j int) bool {
		if nodes[i].dir != nodes[j].dir {
			return nodes[i].dir
		}
		return nodes[i].name < nodes[j].name
	})
	indent := strings.Repeat("  ", level)
	for _, n := range nodes {
		if n.dir {
			fmt.Fprintf(b, "%s%s/  %s\n", indent, n.name, formatLineCount(n.lines))
			renderTree(b, n.children, level+1)
		} else {
			fmt.Fprintf(b, "%s%s  %s\n", indent, n.name, formatLineCount(n.lines))
		}
	}
}

func formatLineCount(n int) string {
	if n >= 1000 {
		return fmt.Sprintf("[%dK]", n/1000)
	}
	return fmt.Sprintf("[%d]", n)
}
