package pathpolicy

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func newWD(t *testing.T) (string, *Policy) {
	t.Helper()
	wd := t.TempDir()
	return wd, New(Options{WorkingDir: wd, ConfigDir: t.TempDir()})
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestResolveRefusals(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	wd, pol := newWD(t)
	write(t, filepath.Join(wd, ".env"), "OPENAI_API_KEY=sk-x")
	write(t, filepath.Join(wd, "ok.txt"), "fine")
	os.Symlink(filepath.Join(wd, ".env"), filepath.Join(wd, "innocent"))
	cases := []struct {
		path string
		kind error
		msg  string
	}{
		{filepath.Join(wd, ".env"), ErrIgnored, "Access to '" + filepath.Join(wd, ".env") + "' is restricted by .gooseignore"},
		{filepath.Join(wd, "innocent"), ErrIgnored, "restricted by .gooseignore"},
		{"/proc/self/environ", ErrPseudoFS, "Access to '/proc/self/environ' is refused: /proc is a pseudo-filesystem, never read or written"},
		{"/dev/zero", ErrPseudoFS, "/dev is a pseudo-filesystem"},
		{"/sys/kernel/mm", ErrPseudoFS, "/sys is a pseudo-filesystem"},
		{wd + "/../../x", ErrOutsideRoots, "resolves outside the working directory"},
		{"../x", ErrOutsideRoots, "resolves outside the working directory"},
	}
	for _, c := range cases {
		_, err := pol.Resolve(c.path)
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Resolve(%s) = %v, want %v containing %q", c.path, err, c.kind, c.msg)
		}
	}
	if got, err := pol.Resolve(filepath.Join(wd, "ok.txt")); err != nil || got != filepath.Join(wd, "ok.txt") {
		t.Errorf("ok.txt: %q %v", got, err)
	}
	// Without roots absolute paths are free, as goose's read tool.
	if _, err := pol.Resolve("/etc/hostname"); err != nil {
		t.Errorf("unconfined /etc/hostname: %v", err)
	}
}

func TestRootsConfineAbsolutePaths(t *testing.T) {
	wd, extra := t.TempDir(), t.TempDir()
	pol := New(Options{WorkingDir: wd, Roots: []string{extra}})
	if _, err := pol.Resolve(filepath.Join(extra, "a.txt")); err != nil {
		t.Errorf("extra root: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "shadow")
	if _, err := pol.Resolve(outside); !errors.Is(err, ErrOutsideRoots) ||
		err.Error() != "Path '"+outside+"' is outside the working directory and the allowed roots" {
		t.Errorf("outside: %v", err)
	}
	os.Symlink(t.TempDir(), filepath.Join(wd, "escape"))
	if _, err := pol.Resolve(filepath.Join(wd, "escape", "x")); !errors.Is(err, ErrSymlinkEscape) {
		t.Errorf("symlink escape: %v", err)
	}
}

func TestFileUnderIgnoredDirectory(t *testing.T) {
	wd, pol := newWD(t)
	write(t, filepath.Join(wd, ".gooseignore"), "private/\n")
	write(t, filepath.Join(wd, "private", "deep", "k.txt"), "k")
	if _, err := pol.Resolve(filepath.Join(wd, "private", "deep", "k.txt")); !errors.Is(err, ErrIgnored) {
		t.Errorf("file under an ignored dir: %v", err)
	}
}

func TestHardLinkToIgnoredFileIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no link count on Windows (doc.go)")
	}
	wd, pol := newWD(t)
	write(t, filepath.Join(wd, ".env"), "SECRET=1")
	link := filepath.Join(wd, "notes.txt")
	if err := os.Link(filepath.Join(wd, ".env"), link); err != nil {
		t.Skip(err)
	}
	_, err := pol.Resolve(link)
	if !errors.Is(err, ErrIgnored) || !strings.Contains(err.Error(), "is a hard link to '"+filepath.Join(wd, ".env")+"'") {
		t.Fatalf("hard link: %v", err)
	}
	// A hard link between two ordinary files stays readable.
	write(t, filepath.Join(wd, "a.txt"), "a")
	os.Link(filepath.Join(wd, "a.txt"), filepath.Join(wd, "b.txt"))
	if _, err := pol.Resolve(filepath.Join(wd, "b.txt")); err != nil {
		t.Fatalf("ordinary hard link: %v", err)
	}
}

// A huge (sparse) file costs only the limit: the read stops at limit+1.
func TestReadTextReadsOnlyTheLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sparse")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Skip(err)
	}
	f.Close()
	start := time.Now()
	text, truncated, err := ReadText(context.Background(), p, 1000)
	if err != nil || !truncated || len(text) != 1000 {
		t.Fatalf("len %d truncated %v err %v", len(text), truncated, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("read took %v", d)
	}
	text, truncated, _ = ReadText(context.Background(), p, 0)
	if text != "" || !truncated {
		t.Fatalf("limit 0: %q %v", text, truncated)
	}
}

func TestReadTextStopsWhenCancelled(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	write(t, p, strings.Repeat("x", 100))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := ReadText(ctx, p, 1<<20); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled read: %v", err)
	}
}
