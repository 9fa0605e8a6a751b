package analyze

import (
	"errors"
	"fmt"
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
// an analysis is goose's LARGE OUTPUT WARNING instead.
const OutputLineLimit = 1000

// LargeOutputWarningPrefix starts the text answered instead of an
// over-long analysis. goose sends that warning as one plain text content,
// while a real analysis goes out twice (assistant, and user at priority 0),
// so the tool layer tells them apart with strings.HasPrefix.
const LargeOutputWarningPrefix = "LARGE OUTPUT WARNING\n"

// Request is one analyze call, as it goes to the helper on its stdin.
type Request struct {
	// Path is the file or directory; relative paths are resolved against
	// WorkingDir (or the helper's directory when WorkingDir is empty).
	Path string `json:"path"`
	// Focus, when set, selects the symbol call-graph mode.
	Focus string `json:"focus,omitempty"`
	// FollowDepth is the call-chain depth in focus mode: 0 = definitions
	// only, 1 = direct callers/callees, 2+ = transitive chains.
	FollowDepth int `json:"follow_depth"`
	// MaxDepth limits directory recursion; 0 = unlimited.
	MaxDepth int `json:"max_depth"`
	// Force returns output over OutputLineLimit lines instead of the warning.
	Force bool `json:"force,omitempty"`
	// WorkingDir resolves relative paths and holds the local .gooseignore.
	WorkingDir string `json:"working_dir,omitempty"`
	// ConfigDir holds the global .gooseignore. The helper applies
	// .gooseignore as core/pathpolicy.RulesFor(WorkingDir, ConfigDir) says.
	ConfigDir string `json:"config_dir,omitempty"`
}

// Sentinel errors callers map to invalid-params or tool errors; the
// errors Analyze returns match them with errors.Is and carry goose's
// exact message.
var (
	// ErrNotFound: the path does not exist.
	ErrNotFound = errors.New("analyze: path does not exist")
	// ErrIgnored: the path is excluded by .gooseignore.
	ErrIgnored = errors.New("analyze: path is restricted by .gooseignore")
	// ErrEmptyPath: no path was given.
	ErrEmptyPath = errors.New("The 'path' parameter cannot be empty")
	// ErrNoCgo: the helper was built without cgo, so it has no parser
	// (the official tree-sitter bindings and grammars are C). Its message
	// is NoCgoError's.
	ErrNoCgo = errors.New("analyze: goose-acp-analyze was built without cgo")
	// ErrNoHelper: no goose-acp-analyze was found (see Find).
	ErrNoHelper = errors.New("analyze: goose-acp-analyze not found")
)

// Error is an analyze failure: the message the user sees and the
// sentinel it matches.
type Error struct {
	Msg  string
	Kind error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

// NoCgoError is what a helper built without cgo answers; helper is its
// own path, so the message says exactly what to rebuild.
func NoCgoError(helper string) error {
	return &Error{Msg: "analyze is not available: " + helper + " was built without cgo (CGO_ENABLED=0), " +
		"and analyze parses code with tree-sitter's C library. To get analyze, install a C compiler " +
		"(gcc or clang) and rebuild the helper with cgo from the goose-acp source: " +
		"CGO_ENABLED=1 go build -o " + helper + " ./cmd/goose-acp-analyze", Kind: ErrNoCgo}
}

// Answer is the helper's whole stdout: one JSON object, the analysis text
// or an error.
type Answer struct {
	Text  string       `json:"text"`
	Error *AnswerError `json:"error,omitempty"`
}

// AnswerError is a failed analysis: its kind (one of the Kind* constants)
// and the message to show.
type AnswerError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// The kinds of AnswerError.
const (
	KindNotFound  = "not_found"
	KindIgnored   = "ignored"
	KindEmptyPath = "empty_path"
	KindNoCgo     = "no_cgo"
	KindOther     = "other"
)

var kinds = []struct {
	name string
	err  error
}{{KindNotFound, ErrNotFound}, {KindIgnored, ErrIgnored}, {KindEmptyPath, ErrEmptyPath}, {KindNoCgo, ErrNoCgo}}

// AnswerFor is the helper's answer for an analysis's result.
func AnswerFor(text string, err error) Answer {
	if err == nil {
		return Answer{Text: text}
	}
	kind := KindOther
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			kind = k.name
			break
		}
	}
	return Answer{Error: &AnswerError{Kind: kind, Message: err.Error()}}
}

// result turns an answer back into Analyze's result, the error matching
// its kind's sentinel.
func (a Answer) result() (string, error) {
	if a.Error == nil {
		return a.Text, nil
	}
	for _, k := range kinds {
		if a.Error.Kind == k.name {
			return "", &Error{Msg: a.Error.Message, Kind: k.err}
		}
	}
	if a.Error.Kind != KindOther {
		return "", fmt.Errorf("analyze: the helper answered an unknown error kind %q: %s", a.Error.Kind, a.Error.Message)
	}
	return "", errors.New(a.Error.Message)
}
