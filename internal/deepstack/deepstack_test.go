package deepstack

import (
	"testing"
	"unsafe"
)

// deep uses about n bytes of stack.
//
//go:noinline
func deep(n int) int {
	var buf [1 << 10]byte
	buf[n%len(buf)] = byte(n)
	if n <= len(buf) {
		return int(buf[n%len(buf)])
	}
	return deep(n-len(buf)) + int(buf[n%len(buf)])
}

// moved reports whether a goroutine's stack was copied elsewhere while it
// went about 100 KiB deep (a copy moves every frame, its locals with it).
func moved(reserve bool) bool {
	res := make(chan bool)
	go func() {
		if reserve {
			Reserve()
		}
		var here byte
		before := uintptr(unsafe.Pointer(&here))
		deep(100 << 10)
		res <- uintptr(unsafe.Pointer(&here)) != before
	}()
	return <-res
}

func TestReserveGrowsTheStackOnceUpFront(t *testing.T) {
	if !moved(false) {
		t.Fatal("control: a goroutine going 100 KiB deep kept its first stack; the test cannot see growth")
	}
	if moved(true) {
		t.Fatal("after Reserve, going 100 KiB deep still copied the stack")
	}
}
