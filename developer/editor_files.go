package developer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxReadBytes is goose's MAX_READ_FILE_BYTES for an unbounded read.
const maxReadBytes = 1 << 20

// toolError is an editor-surface failure: an error result the model reads.
func toolError(format string, a ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{text(fmt.Sprintf(format, a...))}, IsError: true}
}

type readArgs struct {
	Path  string `json:"path"`
	Line  *int   `json:"line"`
	Limit *int   `json:"limit"`
}

func (s *service) readTool(ctx context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a readArgs
	if err := decodeArgs(raw, &a); err != nil {
		return toolError("Error: %s", errorText(err)), nil
	}
	p, err := s.resolveFile(a.Path, cc)
	if err != nil {
		return toolError("%s", err.Error()), nil
	}
	line, limit := deref(a.Line), deref(a.Limit)
	if a.Limit != nil && limit <= 0 {
		return toolError("Failed to read: limit must be greater than 0"), nil
	}
	if fi, err := os.Stat(p); err == nil && line == 0 && limit == 0 && fi.Size() > maxReadBytes {
		return toolError("%s exceeds max file size of %d bytes (actual: %d bytes). Retry with line and limit to read the file in chunks.", p, maxReadBytes, fi.Size()), nil
	}
	// A whole-file read names the file, not a line.
	var lines []int
	if line > 0 {
		lines = []int{line}
	}
	s.emit(ctx, cc, Event{Kind: "locations", Path: p, Lines: lines})
	content, err := ReadExisting(ctx, s.fileIO, p, line, limit)
	if err != nil {
		return toolError("Failed to read %s: %v", a.Path, err), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(content)}}, nil
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func (s *service) writeTool(ctx context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a writeArgs
	if err := decodeArgs(raw, &a); err != nil {
		return toolError("Error: %s", errorText(err)), nil
	}
	p, err := s.resolveFile(a.Path, cc)
	if err != nil {
		return toolError("%s", err.Error()), nil
	}
	old, existed := s.existingText(ctx, p)
	var oldPtr *string
	verb := "Created"
	if existed {
		oldPtr, verb = &old, "Wrote"
	}
	em, err := s.writeEdit(ctx, cc, p, oldPtr, a.Content, 1)
	if err != nil {
		return toolError("Failed to write %s: %v", a.Path, err), nil
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{text(fmt.Sprintf("%s %s (%d lines)", verb, a.Path, len(rustLines(a.Content))))}}
	return withMeta(res, MetaKeyEdit, em), nil
}

type editArgs struct {
	Path   string `json:"path"`
	Before string `json:"before"`
	After  string `json:"after"`
}

func (s *service) editTool(ctx context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a editArgs
	if err := decodeArgs(raw, &a); err != nil {
		return toolError("Error: %s", errorText(err)), nil
	}
	p, err := s.resolveFile(a.Path, cc)
	if err != nil {
		return toolError("%s", err.Error()), nil
	}
	content, err := s.readText(ctx, p)
	if err != nil {
		return toolError("Failed to read %s: %v", a.Path, err), nil
	}
	ed, err := replaceUnique(content, a.Before, a.After)
	var mm *multiMatchError
	switch {
	case errors.As(err, &mm):
		return toolError("%s", multipleMatchText(content, a.Before, mm.n)), nil
	case errors.Is(err, ErrNoMatch):
		return toolError("No match found for the specified text.\n\nFile preview:\n```\n%s\n```", filePreview(content)), nil
	case err != nil:
		return toolError("%s", err.Error()), nil
	}
	em, err := s.writeEdit(ctx, cc, p, &content, ed.content, ed.startLine)
	if err != nil {
		return toolError("Failed to write %s: %v", a.Path, err), nil
	}
	msg := fmt.Sprintf("Edited %s (%d lines -> %d lines)", a.Path, len(rustLines(a.Before)), len(rustLines(a.After)))
	return withMeta(&mcp.CallToolResult{Content: []mcp.Content{text(msg)}}, MetaKeyEdit, em), nil
}

// filePreview is goose's: the first 20 lines as "%4d: line".
func filePreview(content string) string {
	lines := rustLines(content)
	if len(lines) == 0 {
		return "(file is empty)"
	}
	var b strings.Builder
	for i, l := range lines[:min(20, len(lines))] {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%4d: %s", i+1, l)
	}
	if len(lines) > 20 {
		fmt.Fprintf(&b, "\n... (%d more lines)", len(lines)-20)
	}
	return b.String()
}

// multipleMatchText is goose's ambiguity message with the first two
// exact matches shown with one line of context.
func multipleMatchText(content, before string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Found %d matches. Please provide more context to identify a unique match:\n", n)
	lines := strings.Split(normalizeToLF(content), "\n")
	off := 0
	for i := 0; i < 2; i++ {
		j := strings.Index(content[off:], before)
		if j < 0 || before == "" {
			break
		}
		line := strings.Count(content[:off+j], "\n")
		lo, hi := max(line-1, 0), min(line+2, len(lines))
		fmt.Fprintf(&b, "\nMatch %d (line %d):\n```\n%s\n```", i+1, line+1, strings.Join(lines[lo:hi], "\n"))
		off += j + len(before)
	}
	if n > 2 {
		fmt.Fprintf(&b, "\n\n...and %d more", n-2)
	}
	return b.String()
}
