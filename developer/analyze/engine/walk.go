package engine

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

type entryKind int

const (
	entryFile entryKind = iota
	entryDir            // a directory at the depth limit, listed but not entered
	entrySymlinkDir
	entrySymlinkFile
)

// entry is one line of a directory overview.
type entry struct {
	path   string
	rel    []string // path components relative to the analysed root
	kind   entryKind
	target string // symlink target as stored in the link
	result *fileResult
}

// walker lists a tree the way goose's FileTraverser does: it honours only
// the caller's ignore function (goose's .gooseignore), not .gitignore or
// hidden-file rules, and reads directories in name order.
type walker struct {
	ignored  func(string) bool
	maxDepth int // 0 = unlimited
}

func (w walker) skip(path string) bool { return w.ignored != nil && w.ignored(path) }

func readDir(dir string) ([]fs.DirEntry, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("Failed to read directory: %w", err)
	}
	return ents, nil
}

// directoryEntries collects the overview entries under root; file entries
// still need their results filled in.
func (w walker) directoryEntries(root string) ([]entry, error) {
	var out []entry
	var walk func(dir string, rel []string, depth int) error
	walk = func(dir string, rel []string, depth int) error {
		if w.maxDepth > 0 && depth >= w.maxDepth {
			return nil
		}
		ents, err := readDir(dir)
		if err != nil {
			return err
		}
		for _, de := range ents {
			p := filepath.Join(dir, de.Name())
			if w.skip(p) {
				continue
			}
			r := append(append([]string(nil), rel...), de.Name())
			switch {
			case de.Type()&fs.ModeSymlink != 0:
				if e, ok := symlinkEntry(p, r); ok {
					out = append(out, e)
				}
			case de.IsDir():
				if w.maxDepth > 0 && depth+1 >= w.maxDepth {
					out = append(out, entry{path: p, rel: r, kind: entryDir})
				} else if err := walk(p, r, depth+1); err != nil {
					return err
				}
			case de.Type().IsRegular() && languageOf(p) != "":
				out = append(out, entry{path: p, rel: r, kind: entryFile})
			}
		}
		return nil
	}
	return out, walk(root, nil, 0)
}

// symlinkEntry describes a link; broken links are skipped.
func symlinkEntry(p string, rel []string) (entry, bool) {
	target, err := os.Readlink(p)
	if err != nil {
		return entry{}, false
	}
	st, err := os.Stat(p)
	switch {
	case err != nil:
		return entry{}, false
	case st.IsDir():
		return entry{path: p, rel: rel, kind: entrySymlinkDir, target: target}, true
	case st.Mode().IsRegular():
		return entry{path: p, rel: rel, kind: entrySymlinkFile, target: target}, true
	}
	return entry{}, false
}

// focusFiles lists the files a focused analysis reads: every file with a
// known language in root and in directories up to maxDepth levels below it.
// Symlinked directories are not entered, so link cycles cannot loop.
func (w walker) focusFiles(root string) ([]string, error) {
	var out []string
	var walk func(dir string, depth int) error
	walk = func(dir string, depth int) error {
		ents, err := readDir(dir)
		if err != nil {
			return err
		}
		for _, de := range ents {
			p := filepath.Join(dir, de.Name())
			if w.skip(p) {
				continue
			}
			st, err := os.Stat(p)
			if err != nil {
				continue
			}
			switch {
			case st.Mode().IsRegular() && languageOf(p) != "":
				out = append(out, p)
			case st.IsDir() && de.Type()&fs.ModeSymlink == 0 && (w.maxDepth == 0 || depth+1 <= w.maxDepth):
				if err := walk(p, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return out, walk(root, 0)
}

// analyzeAll parses files concurrently. A file that fails is left nil and
// skipped by callers, as goose logs and continues.
func analyzeAll(ctx context.Context, paths []string, withCalls bool) ([]*fileResult, error) {
	results := make([]*fileResult, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(paths), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if r, err := analyzeFile(paths[i], withCalls); err == nil {
					results[i] = r
				}
			}
		}()
	}
	var err error
feed:
	for i := range paths {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	return results, err
}
