//go:build cgo && linux

package engine

/*
#include <stddef.h>

// glibc's; weak, so a libc without it (musl) links and trimming is skipped.
extern int malloc_trim(size_t) __attribute__((weak));

static void trim_libc(void) {
	if (malloc_trim) malloc_trim(0);
}
*/
import "C"

// trimC returns the libc heap's free pages (tree-sitter's trees and
// parsers) to the OS where libc can.
func trimC() { C.trim_libc() }
