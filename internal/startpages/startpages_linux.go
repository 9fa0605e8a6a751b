package startpages

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"syscall"
	"unsafe"
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
	progs := unsafe.Slice(*(**elf.Prog64)(unsafe.Pointer(&phdr)), phnum)
	bias, ok := loadBias(progs, phdr)
	if !ok {
		return 0
	}
	page := uintptr(os.Getpagesize())
	n := 0
	for _, p := range progs {
		if elf.ProgType(p.Type) != elf.PT_LOAD || elf.ProgFlag(p.Flags)&elf.PF_W != 0 {
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
func loadBias(progs []elf.Prog64, phdr uintptr) (uintptr, bool) {
	for _, p := range progs {
		if elf.ProgType(p.Type) == elf.PT_PHDR {
			return phdr - uintptr(p.Vaddr), true
		}
	}
	// No PT_PHDR (a statically linked release build): the program headers
	// follow the ELF header at the start of the segment mapped from file
	// offset 0. The 64 bytes before them are in that segment (the headers
	// never start before offset 64); they must be an ELF header saying so.
	for _, p := range progs {
		if elf.ProgType(p.Type) == elf.PT_LOAD && p.Off == 0 {
			eh := (*elf.Header64)(unsafe.Add(*(*unsafe.Pointer)(unsafe.Pointer(&phdr)), -64))
			if string(eh.Ident[:4]) != elf.ELFMAG || eh.Phoff != 64 {
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
			if v != uint64(unsafe.Sizeof(elf.Prog64{})) {
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
