package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// LargeResponseLimit is goose's threshold (characters) above which a text
// tool output is written to a file.
const LargeResponseLimit = 200_000

// largeResponse replaces text blocks over the limit by goose's pointer to
// a file under tempDir (os.TempDir() when empty) holding the full text,
// named for now. Errors and images pass through.
func largeResponse(r conversation.CallToolResult, tempDir string, now time.Time) conversation.CallToolResult {
	if r.IsError {
		return r
	}
	var out []conversation.ToolContent
	for i, c := range r.Content {
		if c.Type != "text" || len(c.Text) <= LargeResponseLimit {
			if out != nil {
				out = append(out, c)
			}
			continue
		}
		n := utf8.RuneCountInString(c.Text)
		if n <= LargeResponseLimit {
			if out != nil {
				out = append(out, c)
			}
			continue
		}
		if out == nil {
			out = append([]conversation.ToolContent(nil), r.Content[:i]...)
		}
		out = append(out, conversation.TextBlock(storeLargeText(c.Text, n, tempDir, now)))
	}
	if out != nil {
		r.Content = out
	}
	return r
}

func storeLargeText(text string, n int, dir string, now time.Time) string {
	if dir == "" {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "goose_mcp_responses")
	path := filepath.Join(dir, "mcp_response_"+now.Format("20060102_150405.000000")+".txt")
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		err = os.WriteFile(path, []byte(text), 0o644)
	}
	if err != nil {
		return fmt.Sprintf("Warning: Failed to write large response to file: %s. Showing full content instead.\n\n%s", err, text)
	}
	return fmt.Sprintf("The response returned from the tool call was larger (%d characters) and is stored in the file which you can use other tools to examine or search in: %s", n, path)
}
