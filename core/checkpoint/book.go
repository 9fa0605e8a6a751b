package checkpoint

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Bounds of what is saved.
const (
	// MaxFileBytes is the largest file content a checkpoint keeps.
	MaxFileBytes = 2 << 20
	// MaxSessionBytes bounds all saved contents of one session.
	MaxSessionBytes = 64 << 20
)

// Files is the FileIO a developer tool writes through (the same method set
// as developer.FileIO, so either converts to the other).
type Files interface {
	ReadTextFile(ctx context.Context, path string, line, limit int) (string, error)
	WriteTextFile(ctx context.Context, path, content string) error
}

// Entry is one saved state of a file.
type Entry struct {
	Seq int `json:"seq"`
	// Marker is the id of the user message whose turn changed the file.
	Marker string `json:"marker"`
	Path   string `json:"path"`
	// Existed is false when the file did not exist before the change.
	Existed bool `json:"existed"`
	Size    int  `json:"size"`
	// Skipped, when set, says why the content was not saved.
	Skipped string `json:"skipped,omitempty"`
}

// Book is one session's checkpoints. It is safe for concurrent use (tool
// calls of a turn run in parallel).
type Book struct {
	dir string
	// shared, when set, is the parent book this view records into (see
	// Shared); the view's own fields are unused.
	shared *Book

	mu      sync.Mutex
	marker  string
	warn    func(string)
	entries []Entry
	blobs   map[int]string // contents when dir is "" (no data dir)
	next    int
	stored  int
	inner   Files
	// reads are whole-file reads since the path's last write (wrap.go).
	reads map[string]string
}

// New opens the checkpoints kept in dir (created on the first save); ""
// keeps them in memory. An unreadable index starts an empty book.
func New(dir string) *Book {
	b := &Book{dir: dir, blobs: map[int]string{}, next: 1}
	if dir != "" {
		b.load()
	}
	return b
}

// Dir is <data>/sessions/<id>/checkpoints.
func Dir(dataDir, sessionID string) string {
	if dataDir == "" {
		return ""
	}
	return filepath.Join(dataDir, "sessions", sessionID, "checkpoints")
}

// Begin starts a turn: changes from now on belong to the user message
// marker; warn tells the user about a file that cannot be saved.
func (b *Book) Begin(marker string, warn func(string)) {
	if b == nil || b.shared != nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.marker, b.warn = marker, warn
	b.reads = nil
}

// Shared returns a view of b for a child session (a delegate or
// sub-recipe run inside a turn): its writes are checkpointed in b under
// the turn's marker, so rewinding the turn restores them too, and its own
// turns do not move the marker. nil for a nil book.
func (b *Book) Shared() *Book {
	if b == nil {
		return nil
	}
	for b.shared != nil {
		b = b.shared
	}
	return &Book{shared: b}
}

// Entries returns a copy of the saved entries, oldest first.
func (b *Book) Entries() []Entry {
	if b.shared != nil {
		return b.shared.Entries()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Entry(nil), b.entries...)
}

func (b *Book) load() {
	f, err := os.Open(filepath.Join(b.dir, "index.jsonl"))
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		b.entries = append(b.entries, e)
		b.next = max(b.next, e.Seq+1)
		if e.Skipped == "" {
			b.stored += e.Size
		}
	}
}

// has reports whether path already has a checkpoint for marker. b.mu held.
func (b *Book) has(marker, path string) bool {
	for _, e := range b.entries {
		if e.Marker == marker && e.Path == path {
			return true
		}
	}
	return false
}

// save records e with content. b.mu held.
func (b *Book) save(e Entry, content string) error {
	e.Seq = b.next
	if b.dir != "" {
		if err := os.MkdirAll(b.dir, 0o700); err != nil {
			return fmt.Errorf("checkpoint dir: %w", err)
		}
	}
	if e.Existed && e.Skipped == "" {
		if b.dir == "" {
			b.blobs[e.Seq] = content
		} else {
			if err := os.WriteFile(b.blobPath(e.Seq), []byte(content), 0o600); err != nil {
				return fmt.Errorf("saving checkpoint of %s: %w", e.Path, err)
			}
		}
		b.stored += e.Size
	}
	b.next++
	b.entries = append(b.entries, e)
	return b.appendIndex(e)
}

// appendIndex adds e's line to index.jsonl (a save costs one line, not a
// rewrite of the whole index).
func (b *Book) appendIndex(e Entry) error {
	if b.dir == "" {
		return nil
	}
	line, _ := json.Marshal(e)
	f, err := os.OpenFile(filepath.Join(b.dir, "index.jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("writing checkpoint index: %w", err)
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing checkpoint index: %w", err)
	}
	return nil
}

func (b *Book) blobPath(seq int) string { return filepath.Join(b.dir, strconv.Itoa(seq)) }

func (b *Book) blob(seq int) (string, error) {
	if b.dir == "" {
		c, ok := b.blobs[seq]
		if !ok {
			return "", fs.ErrNotExist
		}
		return c, nil
	}
	data, err := os.ReadFile(b.blobPath(seq))
	return string(data), err
}

// writeIndex rewrites index.jsonl (small: one line per checkpoint).
func (b *Book) writeIndex() error {
	if b.dir == "" {
		return nil
	}
	if err := os.MkdirAll(b.dir, 0o700); err != nil {
		return fmt.Errorf("checkpoint dir: %w", err)
	}
	var buf []byte
	for _, e := range b.entries {
		line, _ := json.Marshal(e)
		buf = append(append(buf, line...), '\n')
	}
	tmp := filepath.Join(b.dir, "index.jsonl.tmp")
	if err := os.WriteFile(tmp, buf, 0o600); err != nil {
		return fmt.Errorf("writing checkpoint index: %w", err)
	}
	return os.Rename(tmp, filepath.Join(b.dir, "index.jsonl"))
}

// drop forgets entries and their saved contents. b.mu held.
func (b *Book) drop(gone map[int]bool) error {
	kept := b.entries[:0]
	for _, e := range b.entries {
		if !gone[e.Seq] {
			kept = append(kept, e)
			continue
		}
		if e.Existed && e.Skipped == "" {
			b.stored -= e.Size
			delete(b.blobs, e.Seq)
			if b.dir != "" {
				if err := os.Remove(b.blobPath(e.Seq)); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("removing checkpoint: %w", err)
				}
			}
		}
	}
	b.entries = kept
	return b.writeIndex()
}
