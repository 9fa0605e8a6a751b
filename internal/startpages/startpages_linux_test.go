package startpages

import (
	"bytes"
	"debug/elf"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"testing"
	"unsafe"
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

// prog64 and header64 have debug/elf's layouts, field by field, and the
// constants are its values.
func TestELFLayoutsAreDebugELFs(t *testing.T) {
	for _, c := range []struct{ ours, elfs reflect.Type }{
		{reflect.TypeFor[prog64](), reflect.TypeFor[elf.Prog64]()},
		{reflect.TypeFor[header64](), reflect.TypeFor[elf.Header64]()},
	} {
		if c.ours.Size() != c.elfs.Size() || c.ours.NumField() != c.elfs.NumField() {
			t.Fatalf("%v: size %d, %d fields; %v: size %d, %d fields", c.ours, c.ours.Size(), c.ours.NumField(), c.elfs, c.elfs.Size(), c.elfs.NumField())
		}
		for i := range c.ours.NumField() {
			o, e := c.ours.Field(i), c.elfs.Field(i)
			if o.Name != e.Name || o.Offset != e.Offset || o.Type.Size() != e.Type.Size() {
				t.Errorf("%v.%s at %d (%d bytes); %v.%s at %d (%d bytes)", c.ours, o.Name, o.Offset, o.Type.Size(), c.elfs, e.Name, e.Offset, e.Type.Size())
			}
		}
	}
	if ptLoad != uint32(elf.PT_LOAD) || ptPhdr != uint32(elf.PT_PHDR) || pfW != uint32(elf.PF_W) {
		t.Fatalf("constants %d %d %d, debug/elf %d %d %d", ptLoad, ptPhdr, pfW, elf.PT_LOAD, elf.PT_PHDR, elf.PF_W)
	}
}

// The load bias comes from PT_PHDR when there is one, else (a static
// release build has none) from the ELF header just before the program
// headers, which must be one.
func TestLoadBias(t *testing.T) {
	buf := make([]byte, 64+2*56)
	eh := (*elf.Header64)(unsafe.Pointer(&buf[0]))
	copy(eh.Ident[:], elf.ELFMAG)
	eh.Phoff = 64
	phdr := uintptr(unsafe.Pointer(&buf[64]))
	// Written through debug/elf's types, read through ours.
	progs := unsafe.Slice((*elf.Prog64)(unsafe.Pointer(&buf[64])), 2)
	ours := unsafe.Slice((*prog64)(unsafe.Pointer(&buf[64])), 2)
	progs[0] = elf.Prog64{Type: uint32(elf.PT_LOAD), Flags: uint32(elf.PF_R), Off: 0, Vaddr: 0x400000, Filesz: 0x1000}
	progs[1] = elf.Prog64{Type: uint32(elf.PT_LOAD), Flags: uint32(elf.PF_R | elf.PF_X), Off: 0x1000, Vaddr: 0x401000, Filesz: 0x1000}
	if bias, ok := loadBias(ours, phdr); !ok || bias != phdr-64-0x400000 {
		t.Fatalf("static: bias %#x %v, want %#x", bias, ok, phdr-64-0x400000)
	}
	eh.Ident[1] = 'X'
	if _, ok := loadBias(ours, phdr); ok {
		t.Fatal("no ELF header before the program headers: want no bias (Release does nothing)")
	}
	progs[1] = elf.Prog64{Type: uint32(elf.PT_PHDR), Vaddr: 0x400040}
	if bias, ok := loadBias(ours, phdr); !ok || bias != phdr-0x400040 {
		t.Fatalf("PT_PHDR: bias %#x %v, want %#x", bias, ok, phdr-0x400040)
	}
	runtime.KeepAlive(buf)
}
