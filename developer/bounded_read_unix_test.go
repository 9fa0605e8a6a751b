//go:build unix

package developer

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The file tools read regular files only: a FIFO in the working dir is
// refused at once (it used to block the call forever), /dev/zero and
// /proc/self/environ are refused by the path policy, and a hard link to
// .env is refused like .env itself.
func TestFileToolsRefuseNonRegularAndLinkedSecrets(t *testing.T) {
	h := newHarness(t, Options{Surface: Editor, ReadTool: true})
	fifo := filepath.Join(h.dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	os.WriteFile(filepath.Join(h.dir, ".env"), []byte("API_KEY=sk-hardlinked"), 0o600)
	if err := os.Link(filepath.Join(h.dir, ".env"), filepath.Join(h.dir, "notes.txt")); err != nil {
		t.Skip(err)
	}
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read", map[string]any{"path": "pipe"}, "Failed to read pipe: read " + fifo + ": '" + fifo + "' is a named pipe (FIFO), not a regular file; only regular files are read or written"},
		{"read", map[string]any{"path": "pipe", "line": 1, "limit": 5}, "is a named pipe (FIFO), not a regular file"},
		{"write", map[string]any{"path": "pipe", "content": "x"}, "is a named pipe (FIFO), not a regular file"},
		{"read_image", map[string]any{"source": "pipe"}, "is a named pipe (FIFO), not a regular file"},
		{"read_image", map[string]any{"source": "notes.txt"}, "it is a hard link to"},
		{"read", map[string]any{"path": "/dev/zero"}, "Access to '/dev/zero' is refused: /dev is a pseudo-filesystem, never read or written"},
		{"read", map[string]any{"path": "/proc/self/environ"}, "Access to '/proc/self/environ' is refused: /proc is a pseudo-filesystem"},
		{"read", map[string]any{"path": "notes.txt"}, "is restricted by .gooseignore: it is a hard link to '" + filepath.Join(h.dir, ".env") + "'"},
	}
	for _, c := range cases {
		done := make(chan *mcp.CallToolResult, 1)
		go func() { res, _ := h.call(t, c.tool, c.args); done <- res }()
		select {
		case res := <-done:
			if !res.IsError || !strings.Contains(texts(res)[0], c.want) || strings.Contains(texts(res)[0], "sk-hardlinked") {
				t.Errorf("%s %v = %q, want an error containing %q", c.tool, c.args, texts(res), c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s %v blocked", c.tool, c.args)
		}
	}
}

// tree counts a FIFO as 0 lines instead of blocking on it.
func TestTreeSkipsFIFOs(t *testing.T) {
	h := newHarness(t, Options{Surface: Editor, ReadTool: true})
	if err := syscall.Mkfifo(filepath.Join(h.dir, "pipe"), 0o600); err != nil {
		t.Skip(err)
	}
	os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("1\n2\n"), 0o644)
	done := make(chan *mcp.CallToolResult, 1)
	go func() { res, _ := h.call(t, "tree", map[string]any{"path": "."}); done <- res }()
	select {
	case res := <-done:
		if res.IsError || !strings.Contains(texts(res)[0], "a.txt") {
			t.Fatalf("tree = %q", texts(res))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("tree blocked on a FIFO")
	}
}

// The classic image_processor reads a FIFO as a refusal, not a hang.
func TestImageProcessorRefusesFIFO(t *testing.T) {
	h := newHarness(t, Options{Surface: Classic})
	fifo := filepath.Join(h.dir, "shot.png")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := h.call(t, "image_processor", map[string]any{"path": fifo}); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "is a named pipe (FIFO), not a regular file") {
			t.Fatalf("image_processor on a FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("image_processor blocked on a FIFO")
	}
}
