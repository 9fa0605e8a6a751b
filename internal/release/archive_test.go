package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var stamp = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func archiveInputs(t *testing.T) []entry {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "goose-acp")
	readme := filepath.Join(dir, "README.md")
	if err := os.WriteFile(bin, []byte("\x7fELF binary"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(readme, []byte("# goose-acp\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return []entry{{name: "goose-acp", src: bin, mode: 0o755}, {name: "README.md", src: readme, mode: 0o644}}
}

type member struct {
	mode  os.FileMode
	mtime time.Time
	data  string
}

func TestTarGzArchive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.tar.gz")
	if err := writeArchive(path, archiveInputs(t), stamp); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]member{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		got[h.Name] = member{os.FileMode(h.Mode), h.ModTime.UTC(), string(data)}
	}
	checkMembers(t, got)
}

func TestZipArchive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.zip")
	if err := writeArchive(path, archiveInputs(t), stamp); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	got := map[string]member{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		rc.Close()
		got[f.Name] = member{f.Mode().Perm(), f.Modified.UTC(), string(data)}
	}
	checkMembers(t, got)
}

func checkMembers(t *testing.T, got map[string]member) {
	t.Helper()
	want := map[string]member{
		"goose-acp": {0o755, stamp, "\x7fELF binary"},
		"README.md": {0o644, stamp, "# goose-acp\n"},
	}
	if len(got) != len(want) {
		t.Fatalf("members %v, want %v", got, want)
	}
	for name, w := range want {
		if g := got[name]; g.mode != w.mode || !g.mtime.Equal(w.mtime) || g.data != w.data {
			t.Errorf("%s: %+v, want %+v", name, g, w)
		}
	}
}

// Same inputs, same bytes: the published sha256 can be rebuilt.
func TestArchivesAreReproducible(t *testing.T) {
	in := archiveInputs(t)
	for _, name := range []string{"a.tar.gz", "a.zip"} {
		dir := t.TempDir()
		one, two := filepath.Join(dir, "1-"+name), filepath.Join(dir, "2-"+name)
		if err := writeArchive(one, in, stamp); err != nil {
			t.Fatal(err)
		}
		if err := writeArchive(two, in, stamp); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(one)
		b, _ := os.ReadFile(two)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two builds from the same inputs differ", name)
		}
	}
}
