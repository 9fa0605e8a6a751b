package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Report is what a rewind did, path by path.
type Report struct {
	// Restored files got their saved content back; Removed files did not
	// exist before and were deleted.
	Restored, Removed []string
	// NotRestored are "path: why" for files that could not be put back.
	NotRestored []string
}

// Changed reports whether the rewind touched or named any file.
func (r Report) Changed() bool {
	return len(r.Restored)+len(r.Removed)+len(r.NotRestored) > 0
}

// Rewind puts back every file changed in the turns of markers (the ids of
// the user messages being undone) to its state before the earliest of
// them, then forgets those checkpoints. Contents are written through the
// session's FileIO (the editor's when delegated); files that did not exist
// are removed from local disk.
func (b *Book) Rewind(ctx context.Context, markers map[string]bool) (Report, error) {
	if b.shared != nil {
		return b.shared.Rewind(ctx, markers)
	}
	b.mu.Lock()
	inner := b.inner
	first := map[string]Entry{}
	gone := map[int]bool{}
	for _, e := range b.entries {
		if !markers[e.Marker] {
			continue
		}
		gone[e.Seq] = true
		if f, ok := first[e.Path]; !ok || e.Seq < f.Seq {
			first[e.Path] = e
		}
	}
	b.mu.Unlock()
	order := make([]Entry, 0, len(first))
	for _, e := range first {
		order = append(order, e)
	}
	sort.Slice(order, func(i, j int) bool { return order[i].Seq < order[j].Seq })
	var r Report
	for _, e := range order {
		if err := b.restore(ctx, inner, e, &r); err != nil {
			r.NotRestored = append(r.NotRestored, fmt.Sprintf("%s: %v", e.Path, err))
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return r, b.drop(gone)
}

func (b *Book) restore(ctx context.Context, inner Files, e Entry, r *Report) error {
	switch {
	case e.Skipped != "":
		return errors.New(e.Skipped)
	case !e.Existed:
		if err := os.Remove(e.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing it: %w", err)
		}
		r.Removed = append(r.Removed, e.Path)
		return nil
	}
	content, err := b.blob(e.Seq)
	if err != nil {
		return fmt.Errorf("its checkpoint is gone: %w", err)
	}
	if inner == nil {
		err = writeLocal(e.Path, content)
	} else {
		err = inner.WriteTextFile(ctx, e.Path, content)
	}
	if err != nil {
		return err
	}
	r.Restored = append(r.Restored, e.Path)
	return nil
}

func writeLocal(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

// Remove deletes a session's checkpoints (the session was deleted).
func Remove(dataDir, sessionID string) error {
	dir := Dir(dataDir, sessionID)
	if dir == "" {
		return nil
	}
	return os.RemoveAll(dir)
}
