package developer

import "sync"

// Undo bounds: each file keeps at most maxUndoDepth previous contents, and
// all files together at most maxUndoBytes (oldest entries go first; the
// newest entry of the file being edited is always kept), so a long session
// cannot hold unbounded copies of large files.
const (
	maxUndoDepth = 32
	maxUndoBytes = 64 << 20
)

// editHistory is text_editor's per-path undo stack (str_replace and insert
// push; write does not, as in goose).
type editHistory struct {
	mu    sync.Mutex
	byKey map[string][]undoEntry
	bytes int
	seq   uint64
}

// undoEntry is one previous content; seq orders entries across files.
type undoEntry struct {
	content string
	seq     uint64
}

func newEditHistory() *editHistory { return &editHistory{byKey: map[string][]undoEntry{}} }

func (h *editHistory) push(path, content string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	st := append(h.byKey[path], undoEntry{content, h.seq})
	h.bytes += len(content)
	for len(st) > maxUndoDepth {
		h.bytes -= len(st[0].content)
		st = st[1:]
	}
	h.byKey[path] = st
	for h.bytes > maxUndoBytes && h.dropOldest(path) {
	}
}

// dropOldest removes the oldest entry of any file, but never the newest
// entry of keep; it reports whether it removed one.
func (h *editHistory) dropOldest(keep string) bool {
	victim, oldest := "", uint64(0)
	for p, st := range h.byKey {
		if p == keep && len(st) == 1 {
			continue
		}
		if victim == "" || st[0].seq < oldest {
			victim, oldest = p, st[0].seq
		}
	}
	if victim == "" {
		return false
	}
	st := h.byKey[victim]
	h.bytes -= len(st[0].content)
	if len(st) == 1 {
		delete(h.byKey, victim)
	} else {
		h.byKey[victim] = st[1:]
	}
	return true
}

func (h *editHistory) pop(path string) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := h.byKey[path]
	if len(st) == 0 {
		return "", false
	}
	last := st[len(st)-1]
	h.bytes -= len(last.content)
	if len(st) == 1 {
		delete(h.byKey, path)
	} else {
		h.byKey[path] = st[:len(st)-1]
	}
	return last.content, true
}
