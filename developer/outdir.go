package developer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
)

// outputRoot is the process-wide temp dir that holds every server's saved
// shell outputs, so one Cleanup at exit removes them all.
var outputRoot struct {
	mu   sync.Mutex
	path string
}

// Cleanup removes every saved shell output of every developer server in
// this process. Call it once at exit (servers made later start afresh).
func Cleanup() error {
	outputRoot.mu.Lock()
	defer outputRoot.mu.Unlock()
	if outputRoot.path == "" {
		return nil
	}
	err := os.RemoveAll(outputRoot.path)
	outputRoot.path = ""
	if err != nil {
		return fmt.Errorf("remove shell output dir: %w", err)
	}
	return nil
}

// newOutputDir makes a server's own directory under the process root,
// recreating the root when Cleanup (or a tmp cleaner) removed it.
func newOutputDir() (string, error) {
	outputRoot.mu.Lock()
	defer outputRoot.mu.Unlock()
	for range 2 {
		if outputRoot.path == "" {
			root, err := os.MkdirTemp("", "goose-acp-shell-")
			if err != nil {
				return "", fmt.Errorf("create shell output dir: %w", err)
			}
			outputRoot.path = root
		}
		p, err := os.MkdirTemp(outputRoot.path, "server-")
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("create shell output dir: %w", err)
		}
		outputRoot.path = ""
	}
	return "", fmt.Errorf("create shell output dir: %w", fs.ErrNotExist)
}

// lazyTempDir is one server's directory for saved full shell outputs, made
// on first use and made again if something removed it meanwhile.
type lazyTempDir struct {
	mu   sync.Mutex
	path string
}

func (d *lazyTempDir) get() (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.path != "" {
		if _, err := os.Stat(d.path); err == nil {
			return d.path, nil
		}
	}
	p, err := newOutputDir()
	if err != nil {
		return "", err
	}
	d.path = p
	return p, nil
}

func (d *lazyTempDir) remove() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.path != "" {
		_ = os.RemoveAll(d.path)
		d.path = ""
	}
}
