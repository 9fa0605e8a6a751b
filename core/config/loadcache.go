package config

import (
	"os"
	"slices"
	"sync"
	"time"
)

// loadCache keeps the last merged view of the config files with each
// file's stamp. Settings are read on every lookup (an edit to config.yaml
// applies without a restart, as in goose), but parsing and migrating the
// YAML again each time cost a new session ~1 ms of its 5 ms budget: a stat
// per file now tells whether anything changed.
type loadCache struct {
	mu     sync.Mutex
	stamps []fileStamp
	values map[string]any
}

type fileStamp struct {
	exists bool
	size   int64
	mod    time.Time
}

func stampFiles(paths []string) []fileStamp {
	out := make([]fileStamp, len(paths))
	for i, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			out[i] = fileStamp{exists: true, size: fi.Size(), mod: fi.ModTime()}
		}
	}
	return out
}

// get returns the cached view if the files still carry these stamps.
func (lc *loadCache) get(stamps []fileStamp) (map[string]any, bool) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.values == nil || !slices.Equal(lc.stamps, stamps) {
		return nil, false
	}
	return lc.values, true
}

func (lc *loadCache) put(stamps []fileStamp, values map[string]any) {
	lc.mu.Lock()
	lc.stamps, lc.values = stamps, values
	lc.mu.Unlock()
}

// invalidate forgets the view (after this process wrote a file, whose
// stamp may not change within the clock's resolution).
func (lc *loadCache) invalidate() {
	lc.mu.Lock()
	lc.values = nil
	lc.mu.Unlock()
}

// deepCopy copies a JSON-shaped value, so callers may change what they
// are given without changing the cached view.
func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, x := range t {
			s[i] = deepCopy(x)
		}
		return s
	default:
		return v
	}
}
