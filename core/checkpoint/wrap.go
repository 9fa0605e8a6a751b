package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Wrap returns inner with a checkpoint taken before each write. The
// returned Files is what the session's developer tools get; a nil Book
// returns inner unchanged. The last inner wrapped is what Rewind writes
// restored contents through.
func (b *Book) Wrap(inner Files) Files {
	if b == nil {
		return inner
	}
	if b.shared != nil {
		// A child's FileIO is not where the parent's restores go.
		return &files{b: b.shared, inner: inner}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.inner = inner
	return &files{b: b, inner: inner}
}

type files struct {
	b     *Book
	inner Files
}

// ReadTextFile reads through inner. A whole-file read is remembered until
// the next write of that path: an edit reads the file just before writing
// it, and that text is the checkpoint, so a delegated edit costs the editor
// no second fs/read_text_file.
func (f *files) ReadTextFile(ctx context.Context, path string, line, limit int) (string, error) {
	text, err := f.inner.ReadTextFile(ctx, path, line, limit)
	if err == nil && line == 0 && limit == 0 && len(text) <= MaxFileBytes {
		f.b.mu.Lock()
		if f.b.reads == nil {
			f.b.reads = map[string]string{}
		}
		f.b.reads[path] = text
		f.b.mu.Unlock()
	}
	return text, err
}

// WriteTextFile saves the file's current state, then writes. A file that
// cannot be saved is still written; the user is warned.
func (f *files) WriteTextFile(ctx context.Context, path, content string) error {
	if err := f.b.checkpoint(ctx, f.inner, path); err != nil {
		return err
	}
	return f.inner.WriteTextFile(ctx, path, content)
}

// checkpoint saves path's state before the turn's first change of it.
func (b *Book) checkpoint(ctx context.Context, inner Files, path string) error {
	b.mu.Lock()
	marker := b.marker
	cached, fresh := b.reads[path]
	delete(b.reads, path)
	done := b.has(marker, path)
	b.mu.Unlock()
	if done {
		return nil
	}
	e, content := Entry{Marker: marker, Path: path, Existed: true}, cached
	if !fresh {
		e, content = capture(ctx, inner, e)
	}
	e.Size = len(content)
	b.mu.Lock()
	if b.has(marker, path) {
		b.mu.Unlock()
		return nil
	}
	if e.Skipped == "" && e.Existed {
		switch {
		case e.Size > MaxFileBytes:
			e.Skipped = fmt.Sprintf("it is %d bytes, over the %d-byte checkpoint limit", e.Size, MaxFileBytes)
		case b.stored+e.Size > MaxSessionBytes:
			e.Skipped = fmt.Sprintf("this session's checkpoints reached their %d-byte limit", MaxSessionBytes)
		}
	}
	err := b.save(e, content)
	warn := b.warn
	b.mu.Unlock()
	if err != nil {
		return fmt.Errorf("%s was not changed: %w", path, err)
	}
	if e.Skipped != "" && warn != nil {
		warn(SkippedText(path, e.Skipped))
	}
	return nil
}

// SkippedText tells the user a changed file cannot be rewound.
func SkippedText(path, why string) string {
	return fmt.Sprintf("%s cannot be rewound: %s. The change was made; /rewind and /undo will not restore this file.", path, why)
}

// capture reads the file's current state through inner: "did not exist"
// when it is not on disk, the size limit checked on disk before reading.
func capture(ctx context.Context, inner Files, e Entry) (Entry, string) {
	fi, err := os.Stat(e.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e.Existed = false
		return e, ""
	case err == nil && fi.Size() > MaxFileBytes:
		e.Skipped = fmt.Sprintf("it is %d bytes, over the %d-byte checkpoint limit", fi.Size(), MaxFileBytes)
		return e, ""
	}
	text, err := inner.ReadTextFile(ctx, e.Path, 0, 0)
	if err != nil {
		e.Skipped = fmt.Sprintf("it could not be read before the change (%v)", err)
		return e, ""
	}
	return e, text
}

// LocalDisk forwards the inner FileIO's mark of being the local disk.
func (f *files) LocalDisk() bool {
	l, ok := f.inner.(interface{ LocalDisk() bool })
	return ok && l.LocalDisk()
}
