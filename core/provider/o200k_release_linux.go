//go:build linux

package provider

import (
	"bufio"
	"io/fs"
	"os"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// releaseAsset drops the embedded asset name's pages from the process's
// resident set once the table is built from them: reading the 3.6 MB
// o200k_base asset faults its read-only pages of the binary in, and they
// would stay counted in the agent's RSS for its lifetime. MADV_DONTNEED
// on a read-only file mapping only unmaps the pages (a later read faults
// them in again from the file), so it is done only when the bytes are
// found inside one such mapping.
func releaseAsset(name string) {
	s, ok := embeddedData(name)
	if !ok || len(s) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if !readOnlyMapped(start, start+uintptr(len(s))) {
		return
	}
	page := uintptr(os.Getpagesize())
	skip := (page - start%page) % page
	if uintptr(len(s)) <= skip {
		return
	}
	n := (uintptr(len(s)) - skip) &^ (page - 1)
	if n == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), skip)), n)
	_ = syscall.Madvise(b, syscall.MADV_DONTNEED)
}

// embeddedData is the embedded file's bytes as the binary holds them
// (embed.FS's Open returns a *openFile{f *file{name, data string}}), or
// false if embed's layout is not that or the length does not match.
func embeddedData(name string) (string, bool) {
	f, err := assets.Assets.Open(name)
	if err != nil {
		return "", false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", false
	}
	return embeddedString(f, info)
}

func embeddedString(f fs.File, info fs.FileInfo) (string, bool) {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return "", false
	}
	file := v.Elem().FieldByName("f")
	if file.Kind() != reflect.Pointer || file.IsNil() || file.Elem().Kind() != reflect.Struct {
		return "", false
	}
	data := file.Elem().FieldByName("data")
	if data.Kind() != reflect.String || int64(data.Len()) != info.Size() {
		return "", false
	}
	return data.String(), true
}

// readOnlyMapped reports whether [start, end) lies in one private mapping
// that is not writable, per /proc/self/maps.
func readOnlyMapped(start, end uintptr) bool {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "00400000-0105d000 r-xp 00002000 fe:00 12313906 /path"
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		a, err1 := strconv.ParseUint(lo, 16, 64)
		b, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || uint64(start) < a || uint64(start) >= b {
			continue
		}
		perms := fields[1]
		return uint64(end) <= b && len(perms) == 4 && perms[0] == 'r' && perms[1] == '-' && perms[3] == 'p'
	}
	return false
}
