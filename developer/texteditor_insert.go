package developer

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (s *service) teInsert(ctx context.Context, cc callContext, p string, insertLine int64, newStr string) (*mcp.CallToolResult, error) {
	content, err := s.readText(ctx, p)
	if err != nil {
		return nil, invalidParams("File '%s' does not exist, you can write a new file with the `write` command", p)
	}
	body, hadBOM := stripBOM(content)
	total := len(rustLines(body))
	at := insertLine
	if at < 0 {
		at = int64(total) + 1 + at // -1 = after the last line
	}
	if at < 0 || at > int64(total) {
		return nil, invalidParams("Insert line %d is beyond the end of the file (total lines: %d). Use 0 to insert at the beginning or %d to insert at the end.", insertLine, total, total)
	}
	out, inserted := insertAfterLine(body, int(at), newStr)
	if hadBOM {
		out = bom + out
	}
	s.history.push(p, content)
	em, err := s.writeEdit(ctx, cc, p, &content, out, int(at)+1)
	if err != nil {
		return nil, internalError("Failed to write file: %v", err)
	}
	snippet := numberedSnippet(out, int(at), inserted)
	lang := languageFor(p)
	assistant := fmt.Sprintf("Text has been inserted at line %d in %s. The section now reads:\n```%s\n%s\n```\nReview the changes above for errors. Undo and edit the file again if necessary!\n", at+1, p, lang, snippet)
	user := fmt.Sprintf("```%s\n%s\n```\n", lang, snippet)
	res := &mcp.CallToolResult{Content: []mcp.Content{forAssistant(assistant), forUser(user, 0.2)}}
	return withMeta(res, MetaKeyEdit, em), nil
}

// insertAfterLine inserts text after line n (0 = at the start) without
// touching the other lines' bytes; the text takes the file's line ending
// and always ends in one. It returns the new body and the inserted line count.
func insertAfterLine(body string, n int, newStr string) (string, int) {
	ending := detectLineEnding(body)
	ins := normalizeToLF(newStr)
	if !strings.HasSuffix(ins, "\n") {
		ins += "\n"
	}
	count := strings.Count(ins, "\n")
	ins = restoreLineEndings(ins, ending)
	off := 0
	for i := 0; i < n; i++ {
		nl := strings.IndexByte(body[off:], '\n')
		if nl < 0 {
			off = len(body)
			break
		}
		off += nl + 1
	}
	prefix := body[:off]
	if off == len(body) && body != "" && !strings.HasSuffix(body, "\n") {
		prefix += ending // the last line gains its terminator before the insert
	}
	return prefix + ins + body[off:], count
}

// numberedSnippet shows "n: line" for 4 lines around an insert at line at.
func numberedSnippet(content string, at, inserted int) string {
	body, _ := stripBOM(content)
	lines := rustLines(body)
	start := max(at-snippetLines, 0)
	end := min(at+inserted+snippetLines, len(lines))
	out := make([]string, 0, end-start)
	for i := start; i < end; i++ {
		out = append(out, fmt.Sprintf("%d: %s", i+1, lines[i]))
	}
	return strings.Join(out, "\n")
}
