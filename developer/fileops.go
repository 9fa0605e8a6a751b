package developer

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errNotExist marks a file neither the disk nor the FileIO could provide.
var errNotExist = errors.New("file does not exist")

// readText reads a whole file through FileIO. With the local default a
// missing file is reported as errNotExist; a delegated FileIO may know
// buffers that are not on disk, so it is always asked.
func (s *service) readText(ctx context.Context, path string) (string, error) {
	if isLocal(s.fileIO) {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return "", errNotExist
		}
	}
	return s.fileIO.ReadTextFile(ctx, path, 0, 0)
}

// existingText returns the current content and whether the file exists.
func (s *service) existingText(ctx context.Context, path string) (string, bool) {
	if _, err := os.Stat(path); err != nil {
		if isLocal(s.fileIO) {
			return "", false
		}
	}
	old, err := s.fileIO.ReadTextFile(ctx, path, 0, 0)
	if err != nil {
		return "", false
	}
	return old, true
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
