//go:build cgo

package engine

/*
#include <stdlib.h>

// tree-sitter's own setter (tree_sitter/api.h), linked in through
// go-tree-sitter. Weak, so that cgo's per-package link check, which does not
// see go-tree-sitter's objects, accepts the reference.
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t),
	void *(*)(void *, size_t), void (*)(void *)) __attribute__((weak));

static int use_libc_allocator(void) {
	if (!ts_set_allocator) return 0;
	ts_set_allocator(malloc, calloc, realloc, free);
	return 1;
}
*/
import "C"

import "sync"

// useLibcAllocator points tree-sitter's allocations straight at libc.
// go-tree-sitter routes every malloc and free of the parser through
// exported Go functions that then call libc, a C→Go→C round trip that cost
// ~20% of an analysis. Memory comes from libc's malloc either way, so
// switching (once, on first use rather than at start-up) mixes nothing.
var useLibcAllocator = sync.OnceValue(func() bool { return C.use_libc_allocator() == 1 })
