package release

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// entry is one file in an archive.
type entry struct {
	name string // path inside the archive
	src  string // file on disk
	mode os.FileMode
}

// writeArchive packs entries into path: a .zip for windows targets, a
// .tar.gz otherwise, every file stamped with mtime so the same inputs give
// the same bytes (and the same sha256).
func writeArchive(path string, entries []entry, mtime time.Time) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	if filepath.Ext(path) == ".zip" {
		return writeZip(f, entries, mtime)
	}
	return writeTarGz(f, entries, mtime)
}

func writeTarGz(w io.Writer, entries []entry, mtime time.Time) error {
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		data, err := os.ReadFile(e.src)
		if err != nil {
			return err
		}
		hdr := &tar.Header{Name: e.name, Mode: int64(e.mode.Perm()), Size: int64(len(data)), ModTime: mtime, Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("tar %s: %w", e.name, err)
		}
		if _, err := tw.Write(data); err != nil {
			return fmt.Errorf("tar %s: %w", e.name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, entries []entry, mtime time.Time) error {
	zw := zip.NewWriter(w)
	for _, e := range entries {
		data, err := os.ReadFile(e.src)
		if err != nil {
			return err
		}
		hdr := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mtime}
		hdr.SetMode(e.mode)
		fw, err := zw.CreateHeader(hdr)
		if err != nil {
			return fmt.Errorf("zip %s: %w", e.name, err)
		}
		if _, err := fw.Write(data); err != nil {
			return fmt.Errorf("zip %s: %w", e.name, err)
		}
	}
	return zw.Close()
}
