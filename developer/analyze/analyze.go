package analyze

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ToolDescription is goose's description of the analyze tool.
const ToolDescription = "Analyze code structure in 3 modes: 1) Directory overview - file tree with LOC/function/class counts to max_depth. 2) File details - functions, classes, imports. 3) Symbol focus - call graphs across directory to max_depth (requires directory path, case-sensitive). Typical flow: directory → files → symbols. Functions called >3x show •N."

// Schema defaults goose applies when the caller leaves a parameter out.
// Request's zero values are real values (0 = unlimited / definitions only),
// so the tool layer must fill these in itself.
const (
	DefaultFollowDepth = 2
	DefaultMaxDepth    = 3
)

// OutputLineLimit is the number of output lines above which, without Force,
// Analyze returns goose's LARGE OUTPUT WARNING instead of the analysis.
const OutputLineLimit = 1000

// LargeOutputWarningPrefix starts the text Analyze returns instead of an
// over-long analysis. goose sends that warning as one plain text content,
// while a real analysis goes out twice (assistant, and user at priority 0),
// so the tool layer tells them apart with strings.HasPrefix.
const LargeOutputWarningPrefix = "LARGE OUTPUT WARNING\n"

// Request is one analyze call.
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
	// Force returns output over OutputLineLimit lines instead of the warning.
	Force bool
	// WorkingDir resolves relative paths.
	WorkingDir string
	// Ignored reports paths (absolute) excluded by .gooseignore; nil ignores
	// nothing.
	Ignored func(path string) bool
}

// Sentinel errors callers map to invalid-params.
var (
	// ErrNotFound: the path does not exist.
	ErrNotFound = errors.New("analyze: path does not exist")
	// ErrIgnored: the path is excluded by .gooseignore.
	ErrIgnored = errors.New("analyze: path is restricted by .gooseignore")
	// ErrEmptyPath: no path was given.
	ErrEmptyPath = errors.New("The 'path' parameter cannot be empty")
	// ErrNoCgo: this binary was built without cgo, so it has no parser
	// (the official tree-sitter bindings and grammars are C).
	ErrNoCgo = errors.New("analyze is not available in this goose-acp: the binary was built without cgo " +
		"(CGO_ENABLED=0), and analyze parses code with tree-sitter's C library. " +
		"To get a goose-acp with analyze, install a C compiler (gcc or clang) and build with cgo: " +
		"CGO_ENABLED=1 go build ./cmd/goose-acp")
)

// goError carries goose's exact message while matching a sentinel.
type goError struct {
	msg  string
	kind error
}

func (e *goError) Error() string { return e.msg }
func (e *goError) Unwrap() error { return e.kind }

// Analyze runs one analysis and returns goose's text: a directory overview
// for a directory, file details for a file, or a call graph when Focus is
// set. Over-long output without Force is replaced by a warning, which is a
// successful result as in goose. A binary built without cgo answers ErrNoCgo.
func Analyze(ctx context.Context, req Request) (string, error) {
	if err := available(); err != nil {
		return "", err
	}
	path, err := resolve(req)
	if err != nil {
		return "", err
	}
	if req.Ignored != nil && req.Ignored(path) {
		return "", &goError{fmt.Sprintf("Access to '%s' is restricted by .gooseignore", path), ErrIgnored}
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", &goError{fmt.Sprintf("Path '%s' does not exist", path), ErrNotFound}
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
		if n := countLines([]byte(out)); n > OutputLineLimit {
			return largeOutputWarning(path, req.Focus, n), nil
		}
	}
	return out, nil
}

func resolve(req Request) (string, error) {
	p := req.Path
	if strings.TrimSpace(p) == "" {
		return "", ErrEmptyPath
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
	return fmt.Sprintf(LargeOutputWarningPrefix+"\n"+
		"The analysis would produce %d lines (~%d tokens).\n"+
		"This exceeds the %d line limit.\n\n"+
		"To proceed anyway, add 'force: true' to your parameters:\n"+
		"analyze path=\"%s\" force=true%s\n\n"+
		"Or narrow your scope by:\n"+
		"• Analyzing a subdirectory instead\n"+
		"• Using focus mode: focus=\"symbol_name\"\n"+
		"• Reducing depth: max_depth=1", lines, lines*10, OutputLineLimit, path, focusArg)
}
