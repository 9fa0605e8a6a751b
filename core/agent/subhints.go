package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Dynamic subdirectory hints (goose's load_agents_from_directory,
// maybe_load_directory_context and prune_stale_directory_contexts).
const (
	// SubdirHintLoadingKey switches the feature on ("1" or "true"); goose
	// ships it off.
	SubdirHintLoadingKey = "DYNAMIC_SUBDIRECTORY_HINT_LOADING"
	// SubdirHintPruningKey is how many turns a loaded directory may go
	// unused before its hints leave the system prompt.
	SubdirHintPruningKey = "DYNAMIC_SUBDIRECTORY_HINT_PRUNING_TURNS"
	// DefaultMaxIdleTurns is goose's DEFAULT_MAX_IDLE_TURNS.
	DefaultMaxIdleTurns = 10
)

// dirContext is goose's DirectoryContext: when a directory was last
// touched, and the tag of its system prompt extra.
type dirContext struct {
	lastAccess int
	tag        string
}

type taggedExtra struct {
	tag, content string
}

// subdirHints is one session's state: the loop's turn counter, the
// directories looked at (with or without hint files) and the tagged
// extras, in load order. The zero value is ready to use.
type subdirHints struct {
	mu      sync.Mutex
	turn    int
	dirs    map[string]*dirContext
	extras  []taggedExtra
	changed int64 // bumped whenever extras changes
}

// nextTurn counts one loop iteration and removes the directories unused
// for maxIdle turns or more; it returns the new turn.
func (h *subdirHints) nextTurn(maxIdle int) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.turn++
	for dir, c := range h.dirs {
		if h.turn-c.lastAccess < maxIdle {
			continue
		}
		delete(h.dirs, dir)
		h.removeTag(c.tag)
	}
	return h.turn
}

func (h *subdirHints) removeTag(tag string) {
	kept := h.extras[:0]
	for _, e := range h.extras {
		if e.tag != tag {
			kept = append(kept, e)
		}
	}
	if len(kept) != len(h.extras) {
		clear(h.extras[len(kept):])
		h.extras = kept
		h.changed++
	}
}

// touch marks dir accessed now and reports whether it was already known.
func (h *subdirHints) touch(dir string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.dirs[dir]
	if ok {
		c.lastAccess = h.turn
	}
	return ok
}

// add records dir as loaded this turn, with its extra when content is
// not empty (an empty directory is remembered so it is not read again).
func (h *subdirHints) add(dir, content string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.dirs == nil {
		h.dirs = map[string]*dirContext{}
	}
	tag := "agents_md:" + dir
	h.dirs[dir] = &dirContext{lastAccess: h.turn, tag: tag}
	if content != "" {
		h.extras = append(h.extras, taggedExtra{tag: tag, content: content})
		h.changed++
	}
}

// snapshot returns the extras' contents in load order.
func (h *subdirHints) snapshot() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, len(h.extras))
	for i, e := range h.extras {
		out[i] = e.content
	}
	return out
}

func (h *subdirHints) version() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

// subdirHintsTurn starts a loop iteration: goose increments its turn
// counter and prunes stale directory contexts before calling the model.
func (t *turn) subdirHintsTurn() {
	t.s.subHints.nextTurn(t.a.cfg.maxIdleTurns())
}

// maxIdleTurns reads DYNAMIC_SUBDIRECTORY_HINT_PRUNING_TURNS (an unsigned
// integer; anything else means the default).
func (c settings) maxIdleTurns() int {
	s, ok := c.lookup(SubdirHintPruningKey)
	if !ok {
		return DefaultMaxIdleTurns
	}
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 32)
	if err != nil {
		return DefaultMaxIdleTurns
	}
	return int(n)
}

func (c settings) subdirHintsEnabled() bool {
	s, ok := c.lookup(SubdirHintLoadingKey)
	return ok && (s == "1" || strings.EqualFold(s, "true"))
}

// observeToolPath runs after a tool call returned (successfully or not):
// the path of a tool that declares it works on a text file (goose: its
// text editor; here also the editor surface's read, write and edit),
// inside the trust boundary, makes its directory's hint files part of the
// system prompt (refreshTools rebuilds it before the next model call,
// where goose sets tools_updated).
func (t *turn) observeToolPath(name string, args map[string]any) {
	info := t.toolInfo(name)
	if !info.TextFile {
		return
	}
	p, ok := info.PathOf(args)
	if !ok {
		return
	}
	dir, ok := hintDirectory(p, t.wd)
	if !ok || t.s.subHints.touch(dir) {
		return
	}
	content := ""
	if t.a.cfg.subdirHintsEnabled() {
		content = loadDirectoryHints(dir, t.a.contextFileNames())
	}
	t.s.subHints.add(dir, content)
}

// hintDirectory maps a tool's path to the directory whose hints apply:
// the path itself when it is a directory, its parent when it is a file,
// nothing when it does not exist, is relative, or lies outside the git
// root of the working dir (the working dir when there is no git root).
func hintDirectory(p, wd string) (string, bool) {
	if !filepath.IsAbs(p) || wd == "" {
		return "", false
	}
	p = filepath.Clean(p)
	st, err := os.Stat(p)
	if err != nil {
		return "", false
	}
	dir := p
	if st.Mode().IsRegular() {
		dir = filepath.Dir(p)
	} else if !st.IsDir() {
		return "", false
	}
	boundary := gitRoot(wd)
	if boundary == "" {
		boundary = filepath.Clean(wd)
	}
	if !within(dir, boundary) {
		return "", false
	}
	return dir, true
}

// within reports whether dir is boundary or below it, after resolving
// symlinks on both so a link cannot lead the check outside.
func within(dir, boundary string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	b, err := filepath.EvalSymlinks(boundary)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(b, d)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// loadDirectoryHints reads the hint files of dir alone (not its parents),
// expanding @imports that stay inside dir, under goose's scope header.
func loadDirectoryHints(dir string, names []string) string {
	var contents []string
	for _, n := range names {
		p := filepath.Join(dir, n)
		if !isFile(p) {
			continue
		}
		if s := expandHintFile(p, dir); s != "" {
			contents = append(contents, s)
		}
	}
	if len(contents) == 0 {
		return ""
	}
	return fmt.Sprintf("### Directory-Specific Context: %s\n**Scope**: The following instructions apply ONLY when working with files in the `%s` directory and its subdirectories.\n\n%s",
		dir, dir, strings.Join(contents, "\n"))
}
