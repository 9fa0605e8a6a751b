package diagnostics

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// MaxBundleLogs bounds how many log files go into a bundle, and
// maxBundleLogBytes how much of each.
const (
	MaxBundleLogs     = 10
	maxBundleLogBytes = 10 << 20
)

// Bundle is the bug-report zip goosed's /diagnostics/{session_id} answers:
// session.json (the session's export), system.txt (sys as indented JSON),
// config.yaml when configFile reads, and the newest MaxBundleLogs regular
// files under logsDir (each cut at 10 MiB) as logs/<path under logsDir>.
// A missing session is the store's error; an unreadable config or log is
// left out.
func Bundle(ctx context.Context, store SessionReader, id string, sys SystemInfo, configFile, logsDir string) ([]byte, error) {
	export, err := store.Export(ctx, id)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) error {
		f, err := zw.Create(name)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	if err := add("session.json", export); err != nil {
		return nil, err
	}
	sysJSON, _ := json.MarshalIndent(sys, "", "  ")
	if err := add("system.txt", sysJSON); err != nil {
		return nil, err
	}
	if configFile != "" {
		if b, err := os.ReadFile(configFile); err == nil {
			if err := add("config.yaml", b); err != nil {
				return nil, err
			}
		}
	}
	for _, p := range newestFiles(logsDir, MaxBundleLogs) {
		if err := addLog(zw, p, logsDir); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func addLog(zw *zip.Writer, path, base string) error {
	rel, err := filepath.Rel(base, path)
	if err != nil {
		return err
	}
	src, err := os.Open(path)
	if err != nil {
		return nil // rotated away meanwhile
	}
	defer src.Close()
	dst, err := zw.Create(filepath.ToSlash(filepath.Join("logs", rel)))
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, io.LimitReader(src, maxBundleLogBytes))
	return err
}

// newestFiles returns up to n regular files under dir, newest first; none
// for an empty dir.
func newestFiles(dir string, n int) []string {
	if dir == "" {
		return nil
	}
	type file struct {
		path string
		mod  int64
	}
	var files []file
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			files = append(files, file{p, info.ModTime().UnixNano()})
		}
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].mod > files[j].mod })
	var out []string
	for i := 0; i < len(files) && i < n; i++ {
		out = append(out, files[i].path)
	}
	return out
}
