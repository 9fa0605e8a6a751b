package pathpolicy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// OpenRegular opens path for reading if, and only if, it is a regular
// file. It stats first (so a device is never opened: opening some has
// side effects), opens without blocking (a FIFO with no writer would block
// open itself) and checks the opened descriptor again (the path may have
// been swapped between stat and open).
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, notRegular(path, fi.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	ofi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !ofi.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(path, ofi.Mode())
	}
	return f, ofi, nil
}

func notRegular(path string, m fs.FileMode) error {
	kind := "not a regular file"
	switch {
	case m.IsDir():
		kind = "a directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeCharDevice != 0:
		kind = "a character device"
	case m&fs.ModeDevice != 0:
		kind = "a block device"
	}
	return refuse(ErrNotRegular, "'%s' is %s, not a regular file; only regular files are read or written", path, kind)
}

// ReadText reads at most limit bytes of the regular file at path, stopping
// when ctx ends. truncated reports that the file had more. Nothing beyond
// limit+1 bytes is ever read, whatever the file claims its size is.
func ReadText(ctx context.Context, path string, limit int64) (text string, truncated bool, err error) {
	var sb strings.Builder
	n, err := readInto(ctx, path, limit, &sb, sb.Grow)
	if err != nil {
		return "", false, err
	}
	if n > limit {
		return sb.String()[:limit], true, nil
	}
	return sb.String(), false, nil
}

// ReadBytes is ReadText for binary content (images).
func ReadBytes(ctx context.Context, path string, limit int64) (data []byte, truncated bool, err error) {
	var buf bytes.Buffer
	n, err := readInto(ctx, path, limit, &buf, buf.Grow)
	if err != nil {
		return nil, false, err
	}
	if n > limit {
		return buf.Bytes()[:limit], true, nil
	}
	return buf.Bytes(), false, nil
}

func readInto(ctx context.Context, path string, limit int64, w io.Writer, grow func(int)) (int64, error) {
	f, fi, err := OpenRegular(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	grow(int(min(max(fi.Size(), 0), limit) + 1))
	n, err := io.Copy(w, io.LimitReader(ContextReader(ctx, f), limit+1))
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	return n, nil
}

// CreateRegular opens path for writing (created, truncated) unless it
// exists as something other than a regular file: writing to a FIFO would
// block until a reader comes, writing to a device has effects. The opened
// descriptor is checked again, as in OpenRegular.
func CreateRegular(path string) (*os.File, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, notRegular(path, fi.Mode())
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|openNonblock, 0o644)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(path, fi.Mode())
	}
	return f, nil
}

// ContextReader stops reading once ctx ends (checked before every read, so
// a long read of a large file ends within one buffer).
func ContextReader(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
