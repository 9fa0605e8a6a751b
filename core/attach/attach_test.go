package attach

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

type countingEditor struct{ calls []string }

func (e *countingEditor) ReadTextFile(_ context.Context, path string, _, _ int) (string, error) {
	e.calls = append(e.calls, path)
	return "from the editor", nil
}

func fileURI(p string) string { return "file://" + filepath.ToSlash(p) }

func TestRefusedLinksBecomeVisibleNotes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	wd := t.TempDir()
	os.WriteFile(filepath.Join(wd, ".env"), []byte("OPENAI_API_KEY=sk-secret"), 0o600)
	pol := pathpolicy.New(pathpolicy.Options{WorkingDir: wd, ConfigDir: t.TempDir()})
	cases := map[string]string{
		fileURI(filepath.Join(wd, ".env")): "[.env](" + fileURI(filepath.Join(wd, ".env")) + ") was not attached: Access to '" + filepath.Join(wd, ".env") + "' is restricted by .gooseignore",
		"file:///proc/self/environ":        "[environ](file:///proc/self/environ) was not attached: Access to '/proc/self/environ' is refused: /proc is a pseudo-filesystem, never read or written",
		"file:///dev/zero":                 "[zero](file:///dev/zero) was not attached: Access to '/dev/zero' is refused: /dev is a pseudo-filesystem, never read or written",
		// A ".." spelling of an ignored file is the same refusal.
		fileURI(wd + "/sub/../.env"): "was not attached: Access to '" + filepath.Join(wd, ".env") + "' is restricted by .gooseignore",
	}
	for uri, want := range cases {
		name := filepath.Base(uri)
		ed := &countingEditor{}
		for _, editor := range []Reader{nil, ed} {
			got := Link(context.Background(), pol, name, uri, editor)
			if strings.Contains(got, "sk-secret") || !strings.Contains(got, want) {
				t.Errorf("Link(%s) = %q, want it to contain %q", uri, got, want)
			}
		}
		if strings.Contains(want, "Access") && len(ed.calls) > 0 {
			t.Errorf("the editor was asked for refused %s", uri)
		}
	}
}

// TestLinksJudgedByWhereTheyLead: the user attached the
// file, so it may lie outside the working dir and the roots; one file
// spelled absolutely, with "..", or through a symlink gets one answer; a
// symlink into /proc is refused like /proc itself.
func TestLinksJudgedByWhereTheyLead(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	wd, outside, extra := t.TempDir(), t.TempDir(), t.TempDir()
	x := filepath.Join(outside, "x.txt")
	os.WriteFile(x, []byte("outside-7\n"), 0o644)
	os.Symlink(x, filepath.Join(wd, "link.txt"))
	os.Symlink("/proc/self/environ", filepath.Join(wd, "env-link"))
	for _, roots := range [][]string{nil, {extra}} {
		pol := pathpolicy.New(pathpolicy.Options{WorkingDir: wd, Roots: roots, ConfigDir: t.TempDir()})
		for _, spelling := range []string{x, wd + "/../" + filepath.Base(outside) + "/x.txt", filepath.Join(wd, "link.txt")} {
			if got := Link(context.Background(), pol, "x", fileURI(spelling), nil); !strings.Contains(got, "outside-7") {
				t.Errorf("roots %v: %s = %q, want the file attached", roots, spelling, got)
			}
		}
		got := Link(context.Background(), pol, "env", fileURI(filepath.Join(wd, "env-link")), nil)
		if !strings.Contains(got, "was not attached: Access to '"+filepath.Join(wd, "env-link")+"' is refused: /proc is a pseudo-filesystem") {
			t.Errorf("symlink into /proc = %q", got)
		}
	}
}

// TestMissingLinkThroughEditor: a linked file missing on disk for which the
// editor answers "" (Zed, for a missing file in its project) is "does not
// exist", not an empty attachment.
func TestMissingLinkThroughEditor(t *testing.T) {
	wd := t.TempDir()
	pol := pathpolicy.New(pathpolicy.Options{WorkingDir: wd, ConfigDir: t.TempDir()})
	gone := fileURI(filepath.Join(wd, "gone.md"))
	if got := Link(context.Background(), pol, "gone.md", gone, emptyEditor{}); got != "[gone.md]("+gone+") was not attached: the file does not exist" {
		t.Errorf("missing link through an editor answering \"\" = %q", got)
	}
}

type emptyEditor struct{}

func (emptyEditor) ReadTextFile(context.Context, string, int, int) (string, error) { return "", nil }

func TestLinkReadsBoundedAndFormatsLikeGoose(t *testing.T) {
	wd := t.TempDir()
	pol := pathpolicy.New(pathpolicy.Options{WorkingDir: wd, ConfigDir: t.TempDir()})
	gone := fileURI(filepath.Join(wd, "gone"))
	if got := Link(context.Background(), pol, "gone", gone, nil); !strings.HasPrefix(got, "[gone]("+gone+") was not attached: ") {
		t.Errorf("missing file = %q", got)
	}
	p := filepath.Join(wd, "main.go")
	os.WriteFile(p, []byte("package main\n"), 0o644)
	if got := Link(context.Background(), pol, "main.go", fileURI(p), nil); got != "\n\n# "+p+"\n```\npackage main\n\n```" {
		t.Errorf("allowed link = %q", got)
	}
	big := filepath.Join(wd, "big.bin")
	f, _ := os.Create(big)
	if err := f.Truncate(2 << 30); err != nil {
		t.Skip(err)
	}
	f.Close()
	got := Link(context.Background(), pol, "big.bin", fileURI(big), nil)
	if want := "[big.bin](" + fileURI(big) + ") was not attached: '" + big + "' is a binary file (it has NUL bytes), not text"; got != want {
		t.Errorf("2 GB sparse link = %q", got)
	}
	long := filepath.Join(wd, "long.txt")
	os.WriteFile(long, []byte(strings.Repeat("line of text\n", 2*MaxLinkedFileBytes/13)), 0o644)
	got = Link(context.Background(), pol, "long.txt", fileURI(long), nil)
	if !strings.HasSuffix(got, "\n[truncated]\n```") || len(got) > MaxLinkedFileBytes+200 {
		t.Errorf("2 MiB link: %d bytes, suffix %q", len(got), got[max(0, len(got)-20):])
	}
}

func TestEmbeddedResourceWithIgnoredPath(t *testing.T) {
	wd := t.TempDir()
	pol := pathpolicy.New(pathpolicy.Options{WorkingDir: wd, ConfigDir: t.TempDir()})
	note, ok := Embedded(pol, "", fileURI(filepath.Join(wd, ".env")))
	if ok || !strings.Contains(note, "[.env]("+fileURI(filepath.Join(wd, ".env"))+") was not attached: Access to") {
		t.Errorf("embedded .env: %v %q", ok, note)
	}
	if _, ok := Embedded(pol, "", fileURI(filepath.Join(wd, "a.go"))); !ok {
		t.Error("embedded a.go refused")
	}
	if _, ok := Embedded(pol, "", "untitled:Untitled-1"); !ok {
		t.Error("non-file resource refused")
	}
}
