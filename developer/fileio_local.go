package developer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// LocalFileIO is the default FileIO: the local disk.
type LocalFileIO struct{}

// ReadTextFile reads path; line (1-based) and limit select a line window.
func (LocalFileIO) ReadTextFile(_ context.Context, path string, line, limit int) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return sliceLines(string(b), line, limit), nil
}

// WriteTextFile writes content, creating parent directories. An existing
// file keeps its permissions.
func (LocalFileIO) WriteTextFile(_ context.Context, path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create directory %s: %w", filepath.Dir(path), err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// sliceLines keeps lines [line, line+limit) of s (1-based; 0 = all),
// preserving the original line terminators.
func sliceLines(s string, line, limit int) string {
	if line <= 1 && limit <= 0 {
		return s
	}
	start := 0
	for i := 1; i < line && start < len(s); i++ {
		nl := strings.IndexByte(s[start:], '\n')
		if nl < 0 {
			return ""
		}
		start += nl + 1
	}
	if line > 1 && start >= len(s) {
		return ""
	}
	if limit <= 0 {
		return s[start:]
	}
	end := start
	for i := 0; i < limit && end < len(s); i++ {
		nl := strings.IndexByte(s[end:], '\n')
		if nl < 0 {
			end = len(s)
			break
		}
		end += nl + 1
	}
	return s[start:end]
}
