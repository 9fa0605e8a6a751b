package developer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/developer/shellrun"
	"github.com/goose-acp/goose-acp/internal/proctree"
)

// outputRoot is the process-wide temp dir that holds every server's saved
// shell outputs, so one Cleanup at exit removes them all.
var outputRoot struct {
	mu   sync.Mutex
	path string
}

// Cleanup removes every saved shell output of every developer server in
// this process, and ends the shells still running — on Linux with their
// background descendants — before returning. Call it once at exit (servers
// made later start afresh).
func Cleanup() error {
	proctree.StopAll(shellrun.KillGrace + time.Second)
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

// rootPrefix names process roots "goose-acp-shell-<pid>-<random>", so a
// later process can tell which ones a dead process left behind.
const rootPrefix = "goose-acp-shell-"

// sweepStaleRoots removes the roots of processes that are gone (killed
// before they could call Cleanup). A root whose pid is alive, or cannot be
// told, is left alone.
func sweepStaleRoots() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), rootPrefix+"*-*"))
	for _, dir := range matches {
		pidText, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(dir), rootPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		_ = os.RemoveAll(dir)
	}
}

// newOutputDir makes a server's own directory under the process root,
// recreating the root when Cleanup (or a tmp cleaner) removed it.
func newOutputDir() (string, error) {
	outputRoot.mu.Lock()
	defer outputRoot.mu.Unlock()
	for range 2 {
		if outputRoot.path == "" {
			sweepStaleRoots()
			root, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", rootPrefix, os.Getpid()))
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
