package developer

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrNotExist is a file that neither the disk nor the FileIO has.
var ErrNotExist = errors.New("file does not exist")

// MissingOnDisk reports whether path does not exist on the local disk.
// The editor and goose-acp share the machine, so the disk decides whether
// a file exists; only "does not exist" counts (a permission error leaves
// the question to the FileIO). Callers have already put path to the
// session's path policy.
func MissingOnDisk(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// ReadExisting reads a file through f (line and limit as in
// FileIO.ReadTextFile), or returns ErrNotExist: one rule for every tool.
// A file on disk is read through f and its answer trusted, empty or not.
// A file missing on disk is ErrNotExist without a read on the local disk;
// through an editor's FileIO it is asked for once (it may hold an unsaved
// new buffer), and an error or an empty answer then means the file does
// not exist, whatever error code the editor used (Zed answers "" for a
// missing file in its project, VS Code's ACP Client -32603).
func ReadExisting(ctx context.Context, f FileIO, path string, line, limit int) (string, error) {
	if !MissingOnDisk(path) {
		return f.ReadTextFile(ctx, path, line, limit)
	}
	if isLocal(f) {
		return "", ErrNotExist
	}
	text, err := f.ReadTextFile(ctx, path, line, limit)
	if err != nil || text == "" {
		return "", ErrNotExist
	}
	return text, nil
}

// PriorText is what a whole-file write replaces: the current text and
// true, or false for a new file. A file missing on disk is new without
// asking anyone, so creating a file never starts with failed reads. A
// file on disk the editor fails to read is not new either: its text is
// then read from the disk (a write over it is "Wrote", with the text it
// replaces), and only a file nobody can read counts as new.
func PriorText(ctx context.Context, f FileIO, path string) (string, bool) {
	if MissingOnDisk(path) {
		return "", false
	}
	old, err := f.ReadTextFile(ctx, path, 0, 0)
	if err != nil && !isLocal(f) {
		old, err = LocalFileIO{}.ReadTextFile(ctx, path, 0, 0)
	}
	if err != nil {
		return "", false
	}
	return old, true
}

// readText reads a whole file through FileIO (ReadExisting).
func (s *service) readText(ctx context.Context, path string) (string, error) {
	return ReadExisting(ctx, s.fileIO, path, 0, 0)
}

// existingText returns the current content and whether the file exists
// (PriorText).
func (s *service) existingText(ctx context.Context, path string) (string, bool) {
	return PriorText(ctx, s.fileIO, path)
}

// writeEdit writes content through FileIO, then reports the change as
// result _meta and emitter events. old is nil for a new file.
func (s *service) writeEdit(ctx context.Context, cc callContext, path string, old *string, content string, line int) (EditMeta, error) {
	if err := s.fileIO.WriteTextFile(ctx, path, content); err != nil {
		return EditMeta{}, err
	}
	if line < 1 {
		line = 1
	}
	em := EditMeta{Path: path, OldText: old, NewText: content, Locations: []Location{{Path: path, Line: line}}}
	s.emitEdit(ctx, cc, em)
	return em, nil
}

// resolveFile applies the path policy and .gooseignore to a tool path.
func (s *service) resolveFile(raw string, cc callContext) (string, error) {
	p, err := s.paths.resolve(raw, cc.workingDir)
	if err != nil {
		return "", err
	}
	if err := s.checkIgnored(p, cc.workingDir); err != nil {
		return "", err
	}
	return p, nil
}

func text(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }

func forAssistant(s string) *mcp.TextContent {
	return &mcp.TextContent{Text: s, Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}}}
}

// forUser is user-facing text; priority 0 is goose's "show but unimportant".
func forUser(s string, priority float64) *mcp.TextContent {
	return &mcp.TextContent{Text: s, Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: priority}}
}
