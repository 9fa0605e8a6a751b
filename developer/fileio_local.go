package developer

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// LocalFileIO is the default FileIO: the local disk.
type LocalFileIO struct{}

// ReadTextFile reads path; line (1-based) and limit select a line window.
func (LocalFileIO) ReadTextFile(_ context.Context, path string, line, limit int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	// One allocation of the file's size: a Builder grown up front, rather
	// than ReadFile's []byte plus a string copy (large edits stay fast).
	var sb strings.Builder
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		sb.Grow(int(fi.Size()) + 1)
	}
	if _, err := io.Copy(&sb, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return sliceLines(sb.String(), line, limit), nil
}

// WriteTextFile writes content, creating parent directories. An existing
// file keeps its permissions.
func (LocalFileIO) WriteTextFile(_ context.Context, path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create directory %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
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
