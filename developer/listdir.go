package developer

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const maxDirItems = 50

// listDirectory is goose's view of a directory: the first 50 entries read,
// sorted, directories first, with a note when more exist.
func listDirectory(p string) (*mcp.CallToolResult, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, internalError("Failed to read directory: %v", err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, internalError("Failed to read directory: %v", err)
	}
	var dirs, files []string
	for _, e := range entries {
		if len(dirs)+len(files) >= maxDirItems {
			break
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(p + string(os.PathSeparator) + e.Name()); err == nil {
				isDir = fi.IsDir()
			}
		}
		if isDir {
			dirs = append(dirs, e.Name()+"/")
		} else {
			files = append(files, e.Name())
		}
	}
	sort.Strings(dirs)
	sort.Strings(files)
	var b strings.Builder
	fmt.Fprintf(&b, "'%s' is a directory. Contents:\n\n", p)
	if len(dirs) > 0 {
		b.WriteString("Directories:\n")
		for _, d := range dirs {
			fmt.Fprintf(&b, "  %s\n", d)
		}
		b.WriteString("\n")
	}
	if len(files) > 0 {
		b.WriteString("Files:\n")
		for _, f := range files {
			fmt.Fprintf(&b, "  %s\n", f)
		}
	}
	if len(dirs) == 0 && len(files) == 0 {
		b.WriteString("  (empty directory)\n")
	}
	if len(entries) > maxDirItems {
		fmt.Fprintf(&b, "\n... and %d more items (showing first %d items)\n", len(entries)-maxDirItems, maxDirItems)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(b.String())}}, nil
}

// newFileLineEnding is goose's choice for new files: CRLF on Windows.
func newFileLineEnding() string {
	if pathSeparatorIsBackslash {
		return "\r\n"
	}
	return "\n"
}

const pathSeparatorIsBackslash = os.PathSeparator == '\\'
