package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

// Request is one analysis as the engine runs it: analyze.Request's fields
// with .gooseignore as a function (the helper builds it from WorkingDir
// and ConfigDir with core/pathpolicy).
type Request struct {
	// Path is the file or directory; relative paths are resolved against
	// WorkingDir (or the process directory when WorkingDir is empty).
	Path string
	// Focus, when set, selects the symbol call-graph mode.
	Focus string
	// FollowDepth is the call-chain depth in focus mode: 0 = definitions
	// only, 1 = direct callers/callees, 2+ = transitive chains.
	FollowDepth int
	// MaxDepth limits directory recursion; 0 = unlimited.
	MaxDepth int
	// Force returns output over analyze.OutputLineLimit lines instead of
	// the warning.
	Force bool
	// WorkingDir resolves relative paths.
	WorkingDir string
	// Ignored reports paths (absolute) excluded by .gooseignore; nil ignores
	// nothing.
	Ignored func(path string) bool
}

// goError carries goose's exact message while matching a sentinel.
func goError(msg string, kind error) error { return &analyze.Error{Msg: msg, Kind: kind} }

// Analyze runs one analysis and returns goose's text: a directory overview
// for a directory, file details for a file, or a call graph when Focus is
// set. Over-long output without Force is replaced by a warning, which is a
// successful result as in goose. A binary built without cgo answers
// analyze.ErrNoCgo.
func Analyze(ctx context.Context, req Request) (string, error) {
	if err := available(); err != nil {
		return "", err
	}
	path, err := resolve(req)
	if err != nil {
		return "", err
	}
	if req.Ignored != nil && req.Ignored(path) {
		return "", goError(fmt.Sprintf("Access to '%s' is restricted by .gooseignore", path), analyze.ErrIgnored)
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", goError(fmt.Sprintf("Path '%s' does not exist", path), analyze.ErrNotFound)
	}
	w := walker{ignored: req.Ignored, maxDepth: max(req.MaxDepth, 0)}
	var out string
	switch {
	case req.Focus != "":
		out, err = focused(ctx, path, st.IsDir(), req, w)
	case st.IsDir():
		out, err = directory(ctx, path, w)
	default:
		out, err = semantic(path)
	}
	if err != nil {
		return "", err
	}
	if !req.Force {
		if n := countLines([]byte(out)); n > analyze.OutputLineLimit {
			return largeOutputWarning(path, req.Focus, n), nil
		}
	}
	return out, nil
}

func resolve(req Request) (string, error) {
	p := req.Path
	if strings.TrimSpace(p) == "" {
		return "", analyze.ErrEmptyPath
	}
	if !filepath.IsAbs(p) && req.WorkingDir != "" {
		p = filepath.Join(req.WorkingDir, p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", req.Path, err)
	}
	return abs, nil
}

func semantic(path string) (string, error) {
	r, err := analyzeFile(path, true)
	if err != nil {
		return "", err
	}
	return formatSemantic(path, r), nil
}

func directory(ctx context.Context, root string, w walker) (string, error) {
	entries, err := w.directoryEntries(root)
	if err != nil {
		return "", err
	}
	var paths []string
	var idx []int
	for i, e := range entries {
		if e.kind == entryFile {
			paths = append(paths, e.path)
			idx = append(idx, i)
		}
	}
	results, err := analyzeAll(ctx, paths, false)
	if err != nil {
		return "", err
	}
	for j, i := range idx {
		entries[i].result = results[j]
	}
	kept := entries[:0]
	for _, e := range entries {
		if e.kind != entryFile || (e.result != nil && e.result.shown()) {
			kept = append(kept, e)
		}
	}
	return formatDirectory(root, kept, w.maxDepth), nil
}

func focused(ctx context.Context, path string, isDir bool, req Request, w walker) (string, error) {
	files := []string{path}
	if isDir {
		var err error
		if files, err = w.focusFiles(path); err != nil {
			return "", err
		}
	}
	results, err := analyzeAll(ctx, files, true)
	if err != nil {
		return "", err
	}
	g := buildGraph(files, results)
	depth := max(req.FollowDepth, 0)
	in := g.chains(req.Focus, depth, true)
	out := g.chains(req.Focus, depth, false)
	return formatFocused(req.Focus, depth, len(files), g.definitions[req.Focus], in, out), nil
}

func largeOutputWarning(path, focus string, lines int) string {
	focusArg := ""
	if focus != "" {
		focusArg = " focus=\"" + focus + "\""
	}
	return fmt.Sprintf(analyze.LargeOutputWarningPrefix+"\n"+
		"The analysis would produce %d lines (~%d tokens).\n"+
		"This exceeds the %d line limit.\n\n"+
		"To proceed anyway, add 'force: true' to your parameters:\n"+
		"analyze path=\"%s\" force=true%s\n\n"+
		"Or narrow your scope by:\n"+
		"• Analyzing a subdirectory instead\n"+
		"• Using focus mode: focus=\"symbol_name\"\n"+
		"• Reducing depth: max_depth=1", lines, lines*10, analyze.OutputLineLimit, path, focusArg)
}
