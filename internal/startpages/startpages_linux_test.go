package startpages

import (
	"bytes"
	"os"
	"strconv"
	"testing"
)

// written is in a writable data segment, changed at run time: Release
// must keep it (a dropped private page would read back the file's value).
var written = []int{1, 2, 3}

func rssFileKiB(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := bytes.Cut(b, []byte("RssFile:"))
	line, _, _ := bytes.Cut(rest, []byte("kB"))
	n, err := strconv.Atoi(string(bytes.TrimSpace(line)))
	if err != nil {
		t.Fatalf("RssFile: %v", err)
	}
	return n
}

func TestReleaseDropsCleanPagesKeepsWritten(t *testing.T) {
	if traced() {
		t.Skip("under a debugger Release does nothing")
	}
	t.Setenv("GOOSE_ACP_KEEP_START_PAGES", "")
	written[1] = 42
	before := rssFileKiB(t)
	n := Release()
	after := rssFileKiB(t)
	if n < 1<<20 {
		t.Fatalf("Release advised %d bytes, want the executable's read-only segments (> 1 MiB)", n)
	}
	if after >= before-512 {
		t.Fatalf("file-backed RSS %d KiB -> %d KiB after Release: want the start-up pages gone", before, after)
	}
	if written[0] != 1 || written[1] != 42 || written[2] != 3 {
		t.Fatalf("writable data changed by Release: %v", written)
	}
	// The code runs on from the page cache.
	if got := strconv.Itoa(written[1]); got != "42" {
		t.Fatal(got)
	}
}

func TestReleaseCanBeTurnedOff(t *testing.T) {
	t.Setenv("GOOSE_ACP_KEEP_START_PAGES", "1")
	if n := Release(); n != 0 {
		t.Fatalf("Release with GOOSE_ACP_KEEP_START_PAGES=1 advised %d bytes", n)
	}
}
