package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// disk is a FileIO on local disk that records its calls.
type disk struct {
	mu     sync.Mutex
	reads  []string
	writes []string
}

func (d *disk) ReadTextFile(_ context.Context, path string, _, _ int) (string, error) {
	d.mu.Lock()
	d.reads = append(d.reads, path)
	d.mu.Unlock()
	b, err := os.ReadFile(path)
	return string(b), err
}

func (d *disk) WriteTextFile(_ context.Context, path, content string) error {
	d.mu.Lock()
	d.writes = append(d.writes, path)
	d.mu.Unlock()
	return writeLocal(path, content)
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

// The first change of a file in a turn is what a rewind returns to; a
// rewind of the later turn only goes back to the state before it; a
// reopened book (a restarted process) still knows the checkpoints.
func TestRewindReturnsToTheTurnsFirstState(t *testing.T) {
	ctx := context.Background()
	wd, data := t.TempDir(), t.TempDir()
	a, b := filepath.Join(wd, "a.txt"), filepath.Join(wd, "sub", "b.txt")
	os.WriteFile(a, []byte("v0"), 0o644)
	book := New(Dir(data, "s1"))
	f := book.Wrap(&disk{})
	book.Begin("m1", nil)
	for _, v := range []string{"v1", "v2"} {
		if err := f.WriteTextFile(ctx, a, v); err != nil {
			t.Fatal(err)
		}
	}
	f.WriteTextFile(ctx, b, "new")
	book.Begin("m2", nil)
	f.WriteTextFile(ctx, a, "v3")
	if n := len(book.Entries()); n != 3 {
		t.Fatalf("entries = %+v, want a@m1, b@m1, a@m2", book.Entries())
	}

	reopened := New(Dir(data, "s1"))
	inner := &disk{}
	reopened.Wrap(inner)
	r, err := reopened.Rewind(ctx, map[string]bool{"m2": true})
	if err != nil || read(t, a) != "v2" || fmt.Sprint(r.Restored) != "["+a+"]" || fmt.Sprint(inner.writes) != "["+a+"]" {
		t.Fatalf("rewind m2: %+v %v, a=%q, writes %v", r, err, read(t, a), inner.writes)
	}
	r, err = reopened.Rewind(ctx, map[string]bool{"m1": true})
	if err != nil || read(t, a) != "v0" || read(t, b) != "<missing>" || fmt.Sprint(r.Removed) != "["+b+"]" {
		t.Fatalf("rewind m1: %+v %v, a=%q b=%q", r, err, read(t, a), read(t, b))
	}
	if idx := read(t, filepath.Join(Dir(data, "s1"), "index.jsonl")); idx != "" {
		t.Errorf("index after rewinding everything = %q", idx)
	}
	left, _ := os.ReadDir(Dir(data, "s1"))
	if len(left) != 1 {
		t.Errorf("saved contents left behind: %v", left)
	}
}

// An edit reads the file right before writing it: that read is the
// checkpoint, so the FileIO is not asked twice.
func TestEditReadIsTheCheckpoint(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "x.go")
	os.WriteFile(p, []byte("old"), 0o644)
	inner := &disk{}
	book := New("")
	f := book.Wrap(inner)
	book.Begin("m1", nil)
	f.ReadTextFile(ctx, p, 0, 0)
	f.WriteTextFile(ctx, p, "new")
	if len(inner.reads) != 1 {
		t.Errorf("reads = %v, want the edit's one", inner.reads)
	}
	book.Rewind(ctx, map[string]bool{"m1": true})
	if read(t, p) != "old" {
		t.Errorf("in-memory book restored %q", read(t, p))
	}
}

// A file over the limit is written anyway; the user is warned and the
// rewind says it was not restored.
func TestTooLargeIsWrittenAndReported(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "big")
	os.WriteFile(p, []byte(strings.Repeat("x", MaxFileBytes+1)), 0o644)
	book := New(t.TempDir())
	f := book.Wrap(&disk{})
	var warned []string
	book.Begin("m1", func(s string) { warned = append(warned, s) })
	if err := f.WriteTextFile(ctx, p, "small"); err != nil || read(t, p) != "small" {
		t.Fatalf("write: %v %q", err, read(t, p))
	}
	why := fmt.Sprintf("it is %d bytes, over the %d-byte checkpoint limit", MaxFileBytes+1, MaxFileBytes)
	if len(warned) != 1 || warned[0] != SkippedText(p, why) {
		t.Errorf("warned %q", warned)
	}
	r, _ := book.Rewind(ctx, map[string]bool{"m1": true})
	if fmt.Sprint(r.NotRestored) != "["+p+": "+why+"]" || read(t, p) != "small" {
		t.Errorf("report %+v", r)
	}
}

// The session bound: once the saved contents would pass MaxSessionBytes,
// further files are not saved (and say so).
func TestSessionBound(t *testing.T) {
	ctx := context.Background()
	wd := t.TempDir()
	book := New("")
	f := book.Wrap(&disk{})
	book.Begin("m1", nil)
	chunk := strings.Repeat("y", MaxFileBytes)
	n := MaxSessionBytes/MaxFileBytes + 1
	for i := range n {
		p := filepath.Join(wd, fmt.Sprint(i))
		os.WriteFile(p, []byte(chunk), 0o644)
		f.WriteTextFile(ctx, p, "z")
	}
	es := book.Entries()
	if es[n-2].Skipped != "" || !strings.Contains(es[n-1].Skipped, "checkpoints reached their") {
		t.Errorf("last two entries: %+v %+v", es[n-2].Skipped, es[n-1].Skipped)
	}
}

// Parallel writes of one file in a turn keep one checkpoint, the state
// before both.
func TestConcurrentWritesOneCheckpoint(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "c")
	os.WriteFile(p, []byte("orig"), 0o644)
	book := New(t.TempDir())
	f := book.Wrap(&disk{})
	book.Begin("m1", nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); f.WriteTextFile(ctx, p, fmt.Sprint(i)) }()
	}
	wg.Wait()
	if n := len(book.Entries()); n != 1 {
		t.Fatalf("entries = %d", n)
	}
	book.Rewind(ctx, map[string]bool{"m1": true})
	if read(t, p) != "orig" {
		t.Errorf("restored %q", read(t, p))
	}
}

type failing struct{ disk }

func (*failing) WriteTextFile(context.Context, string, string) error {
	return errors.New("editor refused")
}

// A restore the FileIO refuses is named with its reason.
func TestRestoreFailureIsReported(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("orig"), 0o644)
	book := New("")
	f := book.Wrap(&disk{})
	book.Begin("m1", nil)
	f.WriteTextFile(ctx, p, "changed")
	book.Wrap(&failing{})
	r, _ := book.Rewind(ctx, map[string]bool{"m1": true})
	if fmt.Sprint(r.NotRestored) != "["+p+": editor refused]" {
		t.Errorf("report %+v", r)
	}
}

// A child session's writes (summon's delegate, a sub-recipe) belong to the
// parent's turn: the parent's rewind restores them through the parent's
// FileIO, and the child's own turns do not move the parent's marker.
func TestChildWritesBelongToTheParentTurn(t *testing.T) {
	ctx := context.Background()
	wd := t.TempDir()
	p, q := filepath.Join(wd, "p"), filepath.Join(wd, "q")
	os.WriteFile(p, []byte("parent0"), 0o644)
	os.WriteFile(q, []byte("child0"), 0o644)
	parent := New(t.TempDir())
	parentIO := &disk{}
	pf := parent.Wrap(parentIO)
	parent.Begin("m1", nil)
	child := parent.Shared()
	childIO := &disk{}
	cf := child.Wrap(childIO)
	child.Begin("child-msg", nil)
	cf.WriteTextFile(ctx, q, "child1")
	pf.WriteTextFile(ctx, p, "parent1")
	for _, e := range parent.Entries() {
		if e.Marker != "m1" {
			t.Errorf("entry %+v has marker %q, want the parent's m1", e, e.Marker)
		}
	}
	r, err := parent.Rewind(ctx, map[string]bool{"m1": true})
	if err != nil || read(t, p) != "parent0" || read(t, q) != "child0" || len(r.Restored) != 2 {
		t.Fatalf("rewind: %+v %v p=%q q=%q", r, err, read(t, p), read(t, q))
	}
	if len(childIO.writes) != 1 || len(parentIO.writes) != 3 {
		t.Errorf("restores went through the child's FileIO: child %v parent %v", childIO.writes, parentIO.writes)
	}
}
