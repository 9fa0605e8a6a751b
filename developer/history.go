package developer

import "sync"

// maxUndoDepth bounds each file's undo stack so a long session cannot hold
// unbounded copies of large files.
const maxUndoDepth = 32

// editHistory is text_editor's per-path undo stack (str_replace and insert
// push; write does not, as in goose).
type editHistory struct {
	mu    sync.Mutex
	byKey map[string][]string
}

func newEditHistory() *editHistory { return &editHistory{byKey: map[string][]string{}} }

func (h *editHistory) push(path, content string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := append(h.byKey[path], content)
	if len(st) > maxUndoDepth {
		st = st[len(st)-maxUndoDepth:]
	}
	h.byKey[path] = st
}

func (h *editHistory) pop(path string) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := h.byKey[path]
	if len(st) == 0 {
		return "", false
	}
	last := st[len(st)-1]
	if len(st) == 1 {
		delete(h.byKey, path)
	} else {
		h.byKey[path] = st[:len(st)-1]
	}
	return last, true
}
