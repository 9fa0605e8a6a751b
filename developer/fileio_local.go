package developer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// LocalFileIO is the default FileIO: the local disk. It reads regular
// files only (a device, FIFO or socket is refused before it is read or
// blocks), never more than MaxLocalReadBytes, and stops when ctx ends.
type LocalFileIO struct{}

// MaxLocalReadBytes bounds what one local read keeps: the whole file for
// an edit, or the requested line window. The tools' own limits (1 MiB for
// read, 400 KiB for a text_editor view) are smaller; this bound is for the
// edit tools, which must hold the whole file.
const MaxLocalReadBytes = 64 << 20

// ReadTextFile reads path; line (1-based) and limit select a line window.
func (LocalFileIO) ReadTextFile(ctx context.Context, path string, line, limit int) (string, error) {
	if line <= 1 && limit <= 0 {
		text, truncated, err := pathpolicy.ReadText(ctx, path, MaxLocalReadBytes)
		if err != nil {
			return "", fmt.Errorf("read %s: %w", path, err)
		}
		if truncated {
			return "", tooLargeToRead(path)
		}
		return text, nil
	}
	return readWindow(ctx, path, line, limit)
}

// readWindow streams the file and keeps only lines [line, line+limit).
func readWindow(ctx context.Context, path string, line, limit int) (string, error) {
	f, _, err := pathpolicy.OpenRegular(path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(pathpolicy.ContextReader(ctx, f), 64<<10)
	var sb strings.Builder
	for n := 1; limit <= 0 || n < max(line, 1)+limit; n++ {
		keep := n >= line
		chunk, err := readLineChunks(r, func(b []byte) error {
			if !keep {
				return nil
			}
			if sb.Len()+len(b) > MaxLocalReadBytes {
				return tooLargeToRead(path)
			}
			sb.Write(b)
			return nil
		})
		if chunk != nil {
			return "", chunk
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return "", fmt.Errorf("read %s: %w", path, err)
		}
	}
	return sb.String(), nil
}

// readLineChunks passes one line (with its terminator) to keep in pieces,
// so a huge line is never held whole. It returns keep's error first, then
// the reader's (io.EOF at the end of the file).
func readLineChunks(r *bufio.Reader, keep func([]byte) error) (keepErr, err error) {
	for {
		b, err := r.ReadSlice('\n')
		if kerr := keep(b); kerr != nil {
			return kerr, nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == nil && len(b) == 0 {
			return nil, io.EOF
		}
		if errors.Is(err, io.EOF) && len(b) > 0 {
			return nil, nil
		}
		return nil, err
	}
}

func tooLargeToRead(path string) error {
	return fmt.Errorf("read %s: %w", path, &pathpolicy.Error{
		Msg:  fmt.Sprintf("%s is larger than %d bytes, the most a file tool reads at once", path, MaxLocalReadBytes),
		Kind: pathpolicy.ErrTooLarge})
}

// WriteTextFile writes content, creating parent directories. An existing
// file keeps its permissions; an existing non-regular file (a FIFO, a
// device) is refused rather than opened.
func (LocalFileIO) WriteTextFile(_ context.Context, path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create directory %s: %w", filepath.Dir(path), err)
	}
	f, err := pathpolicy.CreateRegular(path)
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

// LocalDisk marks FileIOs that are the local disk: a wrapper (core's
// checkpoints) forwards it, so a missing file is still known without asking.
func (LocalFileIO) LocalDisk() bool { return true }

func isLocal(f FileIO) bool {
	l, ok := f.(interface{ LocalDisk() bool })
	return ok && l.LocalDisk()
}
