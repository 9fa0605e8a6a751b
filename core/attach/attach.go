package attach

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// MaxLinkedFileBytes bounds the text of a file attached by resource_link.
const MaxLinkedFileBytes = 1 << 20

// Reader is the editor's fs/read_text_file.
type Reader interface {
	ReadTextFile(ctx context.Context, path string, line, limit int) (string, error)
}

// Options say how a prompt's links are attached.
type Options struct {
	// Editor is the editor's fs/read_text_file; nil when the client
	// offers none (files are read from disk).
	Editor Reader
	// FetchHTTP allows fetching http(s) links (FetchLinksKey).
	FetchHTTP bool
	// HTTP is the client fetches use (default: one with FetchTimeout).
	HTTP *http.Client
}

// Result is what a link became. Note is set when its content was not
// attached: Text then is the same note, which the model gets, and the
// user is to be told it too.
type Result struct {
	Text string
	Note string
}

// Link returns the text for a resource_link (see Attach).
func Link(ctx context.Context, pol *pathpolicy.Policy, name, uri string, editor Reader) string {
	return Attach(ctx, pol, name, uri, Options{Editor: editor}).Text
}

// Attach turns a resource_link into what the model sees: the file's
// content for an allowed file:// link, the page for an http(s) link when
// fetching is allowed, otherwise a "was not attached: why" note.
func Attach(ctx context.Context, pol *pathpolicy.Policy, name, uri string, o Options) Result {
	path, ok := filePath(uri)
	if !ok {
		return other(ctx, name, uri, o)
	}
	abs, err := pol.Attachable(path)
	if err != nil {
		return noteResult(name, uri, err)
	}
	text, truncated, err := read(ctx, abs, o.Editor)
	if err != nil {
		return noteResult(name, uri, err)
	}
	if binary(text) {
		return noteResult(name, uri, fmt.Errorf("'%s' is a binary file (it has NUL bytes), not text", path))
	}
	return Result{Text: section(path, text, truncated)}
}

func section(title, text string, truncated bool) string {
	if truncated {
		text += "\n[truncated]"
	}
	return fmt.Sprintf("\n\n# %s\n```\n%s\n```", title, text)
}

func noteResult(name, uri string, err error) Result {
	n := notAttached(name, uri, err)
	return Result{Text: n, Note: n}
}

// Embedded reports whether an embedded resource may reach the model: its
// content came with the prompt, but a file:// URI still names a path the
// policy may refuse (an editor attaching .env is not a reason to send it).
// When refused, note is the text to attach instead.
func Embedded(pol *pathpolicy.Policy, name, uri string) (note string, ok bool) {
	path, isFile := filePath(uri)
	if !isFile {
		return "", true
	}
	if _, err := pol.Attachable(path); err != nil {
		if name == "" {
			name = filepath.Base(path)
		}
		return notAttached(name, uri, err), false
	}
	return "", true
}

func notAttached(name, uri string, err error) string {
	return fmt.Sprintf("[%s](%s) was not attached: %v", name, uri, err)
}

// binarySniff is how much of a file is looked at for NUL bytes (git's
// heuristic): a model cannot use NULs, and a sparse or binary file would
// otherwise cost a MiB of \u0000 escapes in every request of the session.
const binarySniff = 8000

func binary(text string) bool {
	return strings.IndexByte(text[:min(len(text), binarySniff)], 0) >= 0
}

// filePath returns the local path of a file:// URI.
func filePath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	p := u.Path
	if filepath.Separator == '\\' && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x
	}
	return filepath.FromSlash(p), true
}

// errNotExist is a linked file that neither the disk nor the editor has.
var errNotExist = errors.New("the file does not exist")

// read reads through the editor when given (its answer is already in
// memory, so it can only be cut), else from disk bounded before reading.
// A file missing on disk is read through the editor too (it may be an
// unsaved new buffer), but an empty or failed answer for it means it does
// not exist (Zed answers "" for a missing file in its project).
func read(ctx context.Context, path string, editor Reader) (string, bool, error) {
	if editor == nil {
		return pathpolicy.ReadText(ctx, path, MaxLinkedFileBytes)
	}
	_, statErr := os.Stat(path)
	missing := errors.Is(statErr, fs.ErrNotExist)
	text, err := editor.ReadTextFile(ctx, path, 0, 0)
	if missing && (err != nil || text == "") {
		return "", false, errNotExist
	}
	if err != nil {
		return "", false, err
	}
	if len(text) > MaxLinkedFileBytes {
		return text[:MaxLinkedFileBytes], true, nil
	}
	return text, false, nil
}
