package startpages

import (
	"bytes"
	"encoding/binary"
	"os"
	"syscall"
	"unsafe"
)

// prog64 and header64 are debug/elf's Prog64 and Header64 (the test
// checks the layouts), declared here so the binary does not link
// debug/elf, debug/dwarf and internal/zstd, whose package initialisation
// runs before an editor's process can open its session database.
type prog64 struct {
	Type, Flags                             uint32
	Off, Vaddr, Paddr, Filesz, Memsz, Align uint64
}

type header64 struct {
	Ident                                                [16]byte
	Type, Machine                                        uint16
	Version                                              uint32
	Entry, Phoff, Shoff                                  uint64
	Flags                                                uint32
	Ehsize, Phentsize, Phnum, Shentsize, Shnum, Shstrndx uint16
}

// The program header values Release reads (debug/elf's PT_LOAD, PT_PHDR,
// PF_W).
const (
	ptLoad = 1
	ptPhdr = 6
	pfW    = 0x2
)

// Release drops the resident pages of the executable's read-only,
// non-writable PT_LOAD segments from this process (see the package doc).
// It returns the number of bytes of address space advised.
func Release() int {
	if os.Getenv("GOOSE_ACP_KEEP_START_PAGES") != "" || traced() {
		return 0
	}
	phdr, phnum := auxPhdr()
	if phdr == 0 || phnum == 0 {
		return 0
	}
	// The headers are part of the mapped executable image, not Go memory.
	progs := unsafe.Slice(*(**prog64)(unsafe.Pointer(&phdr)), phnum)
	bias, ok := loadBias(progs, phdr)
	if !ok {
		return 0
	}
	page := uintptr(os.Getpagesize())
	n := 0
	for _, p := range progs {
		if p.Type != ptLoad || p.Flags&pfW != 0 {
			continue
		}
		// Only whole pages inside the segment: a page shared with a writable
		// segment (relocated data) must keep its private copy.
		start := (bias + uintptr(p.Vaddr) + page - 1) &^ (page - 1)
		end := (bias + uintptr(p.Vaddr+p.Filesz)) &^ (page - 1)
		if end <= start {
			continue
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_DONTNEED); errno == 0 {
			n += int(end - start)
		}
	}
	return n
}

// loadBias is where the executable was loaded relative to its link
// addresses: zero for a position-dependent executable, the PIE slide else.
func loadBias(progs []prog64, phdr uintptr) (uintptr, bool) {
	for _, p := range progs {
		if p.Type == ptPhdr {
			return phdr - uintptr(p.Vaddr), true
		}
	}
	// No PT_PHDR (a statically linked release build): the program headers
	// follow the ELF header at the start of the segment mapped from file
	// offset 0. The 64 bytes before them are in that segment (the headers
	// never start before offset 64); they must be an ELF header saying so.
	for _, p := range progs {
		if p.Type == ptLoad && p.Off == 0 {
			eh := (*header64)(unsafe.Add(*(*unsafe.Pointer)(unsafe.Pointer(&phdr)), -64))
			if string(eh.Ident[:4]) != "\x7fELF" || eh.Phoff != 64 {
				return 0, false
			}
			return phdr - 64 - uintptr(p.Vaddr), true
		}
	}
	return 0, false
}

// auxPhdr is the address and count of the executable's program headers
// from the auxiliary vector.
func auxPhdr() (uintptr, int) {
	b, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		return 0, 0
	}
	var phdr uintptr
	var phnum int
	for i := 0; i+16 <= len(b); i += 16 {
		k, v := binary.NativeEndian.Uint64(b[i:]), binary.NativeEndian.Uint64(b[i+8:])
		switch k {
		case 3: // AT_PHDR
			phdr = uintptr(v)
		case 5: // AT_PHNUM
			phnum = int(v)
		case 4: // AT_PHENT
			if v != uint64(unsafe.Sizeof(prog64{})) {
				return 0, 0
			}
		}
	}
	return phdr, phnum
}

// traced reports whether a debugger is attached (TracerPid in
// /proc/self/status is not 0).
func traced() bool {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return true
	}
	_, rest, ok := bytes.Cut(b, []byte("TracerPid:"))
	if !ok {
		return true
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	return string(bytes.TrimSpace(line)) != "0"
}
