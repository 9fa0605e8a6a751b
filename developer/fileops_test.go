package developer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// askedEditor is a delegated FileIO that answers every read with answer
// (or err) and counts the reads.
type askedEditor struct {
	answer string
	err    error
	reads  int
}

func (e *askedEditor) ReadTextFile(context.Context, string, int, int) (string, error) {
	e.reads++
	return e.answer, e.err
}

func (e *askedEditor) WriteTextFile(context.Context, string, string) error { return nil }

// TestReadExistingOneRule: the disk decides whether a file exists; a file
// missing on disk costs the editor at most one read, and an empty or
// failed answer for it is ErrNotExist; an empty file on disk is read as
// empty; a write's prior text of a new file asks nobody.
func TestReadExistingOneRule(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.txt")
	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, nil, 0o644)
	for _, tc := range []struct {
		name   string
		path   string
		editor askedEditor
		want   string
		err    error
		reads  int
	}{
		{"missing, editor answers empty (Zed)", missing, askedEditor{}, "", ErrNotExist, 1},
		{"missing, editor fails (VS Code -32603)", missing, askedEditor{err: errors.New("Internal error (code -32603)")}, "", ErrNotExist, 1},
		{"missing, editor holds a new buffer", missing, askedEditor{answer: "unsaved\n"}, "unsaved\n", nil, 1},
		{"empty on disk", empty, askedEditor{}, "", nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadExisting(ctx, &tc.editor, tc.path, 0, 0)
			if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil && err != nil) || tc.editor.reads != tc.reads {
				t.Errorf("ReadExisting = %q, %v after %d reads; want %q, %v after %d", got, err, tc.editor.reads, tc.want, tc.err, tc.reads)
			}
		})
	}
	if _, err := ReadExisting(ctx, LocalFileIO{}, missing, 0, 0); !errors.Is(err, ErrNotExist) {
		t.Errorf("local missing file: %v", err)
	}
	ed := &askedEditor{answer: "buffer"}
	if _, ok := PriorText(ctx, ed, missing); ok || ed.reads != 0 {
		t.Errorf("PriorText of a new file: exists=%v after %d editor reads, want false after 0", ok, ed.reads)
	}
	if text, ok := PriorText(ctx, ed, empty); !ok || text != "buffer" || ed.reads != 1 {
		t.Errorf("PriorText of a file on disk = %q %v after %d reads, want the editor's buffer", text, ok, ed.reads)
	}
	// An editor that fails to read a file that is on disk (VS Code's ACP
	// Client answers -32603 for what it cannot read): the file is not new.
	onDisk := filepath.Join(dir, "notes.txt")
	os.WriteFile(onDisk, []byte("old notes\n"), 0o644)
	failing := &askedEditor{err: errors.New("Internal error (code -32603)")}
	if text, ok := PriorText(ctx, failing, onDisk); !ok || text != "old notes\n" || failing.reads != 1 {
		t.Errorf("PriorText of a file on disk the editor cannot read = %q %v after %d reads, want the disk's text", text, ok, failing.reads)
	}
}
