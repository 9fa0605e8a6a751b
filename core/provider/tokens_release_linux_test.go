package provider

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// TestReleaseAssetDropsResidentPages: once the table is built the
// embedded o200k_base bytes (read-only pages of the binary) leave the
// resident set, and still read back unchanged.
func TestReleaseAssetDropsResidentPages(t *testing.T) {
	name := tokenEncoding + ".tiktoken"
	want, err := assets.Assets.ReadFile(name) // faults every page in
	if err != nil {
		t.Fatal(err)
	}
	s, ok := embeddedData(name)
	if !ok || s != string(want) {
		t.Fatalf("embedded bytes of %s not found (embed's layout changed?)", name)
	}
	addr := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if !readOnlyMapped(addr, addr+uintptr(len(s))) {
		t.Fatal("asset is not in a read-only mapping")
	}
	before := mappingRssKB(t, addr)
	releaseAsset(name)
	after := mappingRssKB(t, addr)
	t.Logf("mapping's Rss %d kB -> %d kB (asset %d kB)", before, after, len(s)/1024)
	if dropped := before - after; dropped < len(s)/1024-2*os.Getpagesize()/1024 {
		t.Errorf("mapping's Rss %d kB -> %d kB, want the asset's %d kB gone", before, after, len(s)/1024)
	}
	if s != string(want) {
		t.Error("asset reads back changed after release")
	}
}

// mappingRssKB is the Rss of the /proc/self/smaps mapping holding addr.
func mappingRssKB(t *testing.T, addr uintptr) int {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(fields[0], "-"); ok {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uint64(addr) >= a && uint64(addr) < b
				continue
			}
		}
		if rss, ok := strings.CutPrefix(line, "Rss:"); in && ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rss), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatal("no mapping holds the asset")
	return 0
}
