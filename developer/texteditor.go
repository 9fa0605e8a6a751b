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

// goose's text_editor limits.
const (
	maxViewBytes  = 400 * 1024
	lineReadLimit = 2000
	snippetLines  = 4
)

type textEditorArgs struct {
	Path       string  `json:"path"`
	Command    string  `json:"command"`
	ViewRange  []int64 `json:"view_range"`
	FileText   *string `json:"file_text"`
	OldStr     *string `json:"old_str"`
	NewStr     *string `json:"new_str"`
	InsertLine *int64  `json:"insert_line"`
}

func (s *service) textEditor(ctx context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a textEditorArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	p, err := s.paths.resolve(a.Path, cc.workingDir)
	if err != nil {
		return nil, invalidParams("%s", err.Error())
	}
	if err := s.checkIgnored(p, cc.workingDir); err != nil {
		return nil, internalError("%s", err.Error())
	}
	switch a.Command {
	case "view":
		return s.teView(ctx, p, a.ViewRange)
	case "write":
		if a.FileText == nil {
			return nil, invalidParams("Missing 'file_text' parameter for write command")
		}
		return s.teWrite(ctx, cc, p, *a.FileText)
	case "str_replace":
		if a.OldStr == nil {
			return nil, invalidParams("Missing 'old_str' parameter for str_replace command")
		}
		if a.NewStr == nil {
			return nil, invalidParams("Missing 'new_str' parameter for str_replace command")
		}
		return s.teReplace(ctx, cc, p, *a.OldStr, *a.NewStr)
	case "insert":
		if a.InsertLine == nil {
			return nil, invalidParams("Missing 'insert_line' parameter for insert command")
		}
		if a.NewStr == nil {
			return nil, invalidParams("Missing 'new_str' parameter for insert command")
		}
		return s.teInsert(ctx, cc, p, *a.InsertLine, *a.NewStr)
	case "undo_edit":
		return s.teUndo(ctx, cc, p)
	}
	return nil, invalidParams("Unknown command '%s'", a.Command)
}

func (s *service) teView(ctx context.Context, p string, viewRange []int64) (*mcp.CallToolResult, error) {
	if fi, err := os.Stat(p); err == nil {
		if fi.IsDir() {
			return listDirectory(p)
		}
		if fi.Size() > maxViewBytes {
			return nil, tooLarge(p, fi.Size())
		}
	}
	content, err := s.readText(ctx, p)
	if err != nil {
		return nil, internalError("The path '%s' does not exist or is not accessible.", p)
	}
	if len(content) > maxViewBytes {
		return nil, tooLarge(p, int64(len(content)))
	}
	lines := rustLines(content)
	hasRange := len(viewRange) == 2 // goose ignores any other length
	if !hasRange && len(lines) > lineReadLimit {
		return nil, internalError("File '%s' is %d lines long, recommended to read in with view_range (or searching) to get bite size content. If you do wish to read all the file, please pass in view_range with [1, %d] to read it all at once", p, len(lines), len(lines))
	}
	start, end := 0, len(lines)
	header := "### " + p
	if hasRange {
		if start, end, err = viewWindow(viewRange[0], viewRange[1], len(lines)); err != nil {
			return nil, err
		}
		endText := fmt.Sprint(viewRange[1])
		if viewRange[1] == -1 {
			endText = "end"
		}
		header = fmt.Sprintf("### %s (lines %d-%s)", p, viewRange[0], endText)
	}
	numbered := make([]string, 0, end-start)
	for i := start; i < end; i++ {
		numbered = append(numbered, fmt.Sprintf("%d: %s", i+1, lines[i]))
	}
	out := fmt.Sprintf("%s\n```%s\n%s\n```\n", header, languageFor(p), strings.Join(numbered, "\n"))
	return &mcp.CallToolResult{Content: []mcp.Content{forAssistant(out), forUser(out, 0)}}, nil
}

func tooLarge(p string, size int64) error {
	return internalError("File '%s' is too large (%.2fKB). Maximum size is 400KB to prevent memory issues.", p, float64(size)/1024)
}

// viewWindow is goose's calculate_view_range: 1-based start (0 = 1), end
// -1 = to the end, end clamped to the file.
func viewWindow(startLine, endLine int64, total int) (int, int, error) {
	start := 0
	if startLine > 0 {
		start = int(startLine - 1)
	}
	end := total
	if endLine != -1 {
		end = min(int(max(endLine, 0)), total)
	}
	if start >= total {
		return 0, 0, invalidParams("Start line %d is beyond the end of the file (total lines: %d)", startLine, total)
	}
	if start >= end {
		return 0, 0, invalidParams("Start line %d must be less than end line %d", startLine, endLine)
	}
	return start, end, nil
}

func (s *service) teWrite(ctx context.Context, cc callContext, p, fileText string) (*mcp.CallToolResult, error) {
	old, existed := s.existingText(ctx, p)
	ending := newFileLineEnding()
	hadBOM := false
	if existed {
		var body string
		body, hadBOM = stripBOM(old)
		ending = detectLineEnding(body)
	}
	normalized := normalizeToLF(fileText)
	if !strings.HasSuffix(normalized, "\n") {
		normalized += "\n"
	}
	final := restoreLineEndings(normalized, ending)
	if hadBOM && !strings.HasPrefix(final, bom) {
		final = bom + final
	}
	var oldPtr *string
	if existed {
		oldPtr = &old
	}
	em, err := s.writeEdit(ctx, cc, p, oldPtr, final, 1)
	if err != nil {
		return nil, internalError("Failed to write file: %v", err)
	}
	user := fmt.Sprintf("### %s\n```%s\n%s\n```\n", p, languageFor(p), normalized)
	res := &mcp.CallToolResult{Content: []mcp.Content{forAssistant("Successfully wrote to " + p), forUser(user, 0.2)}}
	return withMeta(res, MetaKeyEdit, em), nil
}

func (s *service) teReplace(ctx context.Context, cc callContext, p, oldStr, newStr string) (*mcp.CallToolResult, error) {
	content, err := s.readText(ctx, p)
	if err != nil {
		return nil, invalidParams("File '%s' does not exist, you can write a new file with the `write` command", p)
	}
	ed, err := replaceUnique(content, oldStr, newStr)
	switch {
	case errors.Is(err, ErrNoMatch):
		return nil, invalidParams("'old_str' must appear exactly once in the file, but it does not appear in the file. Make sure the string exactly matches existing file content, including whitespace!")
	case errors.Is(err, errMultipleMatch):
		return nil, invalidParams("'old_str' must appear exactly once in the file, but it appears multiple times")
	case err != nil:
		return nil, invalidParams("%s", err.Error())
	}
	final := ensureTrailingNewline(ed.content)
	s.history.push(p, content)
	em, err := s.writeEdit(ctx, cc, p, &content, final, ed.startLine)
	if err != nil {
		return nil, internalError("Failed to write file: %v", err)
	}
	snippet := snippetAround(final, ed.startLine-1, ed.newLines-1)
	lang := languageFor(p)
	assistant := fmt.Sprintf("The file %s has been edited, and the section now reads:\n```%s\n%s\n```\nReview the changes above for errors. Undo and edit the file again if necessary!\n", p, lang, snippet)
	user := fmt.Sprintf("```%s\n%s\n```\n", lang, snippet)
	res := &mcp.CallToolResult{Content: []mcp.Content{forAssistant(assistant), forUser(user, 0.2)}}
	return withMeta(res, MetaKeyEdit, em), nil
}

// snippetAround is goose's str_replace snippet: from 4 lines before the
// replacement line to 4 lines plus the new text's newlines after it. It
// scans only the window, so large files cost no full split.
func snippetAround(content string, line0, extraNewlines int) string {
	body, _ := stripBOM(content)
	start := max(line0-snippetLines, 0)
	count := line0 + snippetLines + extraNewlines + 1 - start
	off := lineOffset(body, start)
	if off < 0 || count <= 0 {
		return ""
	}
	end := off
	for i := 0; i < count; i++ {
		nl := strings.IndexByte(body[end:], '\n')
		if nl < 0 {
			end = len(body)
			break
		}
		if i == count-1 {
			end += nl
			break
		}
		end += nl + 1
	}
	return normalizeToLF(body[off:end])
}

// lineOffset is the byte offset where 0-based line n starts, or -1.
func lineOffset(s string, n int) int {
	off := 0
	for i := 0; i < n; i++ {
		nl := strings.IndexByte(s[off:], '\n')
		if nl < 0 {
			return -1
		}
		off += nl + 1
	}
	return off
}

func ensureTrailingNewline(content string) string {
	body, _ := stripBOM(content)
	if body == "" || strings.HasSuffix(body, "\n") {
		return content
	}
	return content + detectLineEnding(body)
}

func (s *service) teUndo(ctx context.Context, cc callContext, p string) (*mcp.CallToolResult, error) {
	prev, ok := s.history.pop(p)
	if !ok {
		return nil, invalidParams("No edit history available to undo")
	}
	cur, existed := s.existingText(ctx, p)
	var curPtr *string
	if existed {
		curPtr = &cur
	}
	em, err := s.writeEdit(ctx, cc, p, curPtr, prev, 1)
	if err != nil {
		s.history.push(p, prev)
		return nil, internalError("Failed to write file: %v", err)
	}
	return withMeta(&mcp.CallToolResult{Content: []mcp.Content{text("Undid the last edit")}}, MetaKeyEdit, em), nil
}
