//go:build !windows

package developer

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// savedOutputPath runs an editor shell past the 2,000-line bound on a
// NewServer server and returns the file its full output was saved to.
func savedOutputPath(t *testing.T) string {
	t.Helper()
	srv := NewServer(Options{Surface: Editor, WorkingDir: t.TempDir()})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "shell", Arguments: map[string]any{"command": "seq 1 2500"}})
	if err != nil {
		t.Fatal(err)
	}
	notice := texts(res)[1]
	path := strings.TrimSuffix(strings.Fields(strings.SplitAfter(notice, "saved to ")[1])[0], ".")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("saved output: %v (notice %q)", err, notice)
	}
	return path
}

// A server dropped by its owner (sessions closed) takes its saved outputs
// with it: the agent makes one per session and never closes it explicitly.
func TestNewServerOutputsRemovedWhenServerIsCollected(t *testing.T) {
	t.Cleanup(func() { _ = Cleanup() })
	dir := filepath.Dir(savedOutputPath(t))
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still exists after the server was dropped", dir)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestCleanupRemovesEveryServersOutputs(t *testing.T) {
	first := savedOutputPath(t)
	root := filepath.Dir(filepath.Dir(first))
	if !strings.HasPrefix(filepath.Base(root), "goose-acp-shell-") {
		t.Fatalf("root = %s", root)
	}
	if err := Cleanup(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("root after Cleanup: %v", err)
	}
	// Later servers, and the same one, save again under a fresh root.
	second := savedOutputPath(t)
	if filepath.Dir(filepath.Dir(second)) == root {
		t.Fatalf("second output reused the removed root %s", root)
	}
	if err := Cleanup(); err != nil {
		t.Fatal(err)
	}
	if err := Cleanup(); err != nil {
		t.Fatalf("second Cleanup: %v", err)
	}
}

func TestOutputDirRecreatedAfterExternalRemoval(t *testing.T) {
	t.Cleanup(func() { _ = Cleanup() })
	var d lazyTempDir
	p1, err := d.get()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Dir(p1)); err != nil {
		t.Fatal(err)
	}
	p2, err := d.get()
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p2); err != nil || !fi.IsDir() {
		t.Fatalf("recreated dir %s: %v", p2, err)
	}
	d.remove()
	if _, err := os.Stat(p2); !os.IsNotExist(err) {
		t.Fatalf("after remove: %v", err)
	}
}

// Roots left by killed processes are swept when a new root is made; roots
// of live processes, and other entries, stay.
func TestStaleRootsOfDeadProcessesAreSwept(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if err := Cleanup(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = Cleanup() })
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(tmp, fmt.Sprintf("goose-acp-shell-%d-123", dead.Process.Pid))
	live := filepath.Join(tmp, fmt.Sprintf("goose-acp-shell-%d-456", os.Getppid()))
	other := filepath.Join(tmp, "goose-acp-shell-notapid-789")
	for _, d := range []string{stale, live, other} {
		if err := os.MkdirAll(filepath.Join(d, "server-1"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	saved := savedOutputPath(t)
	if !strings.HasPrefix(saved, filepath.Join(tmp, fmt.Sprintf("goose-acp-shell-%d-", os.Getpid()))) {
		t.Fatalf("saved under %s, want a root named after this pid in %s", saved, tmp)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale root of dead pid %d kept: %v", dead.Process.Pid, err)
	}
	for _, d := range []string{live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("%s removed: %v", d, err)
		}
	}
}
