//go:build cgo

package engine

import "testing"

// The weak reference to ts_set_allocator must resolve in a real link, or
// every parser allocation goes back through go-tree-sitter's Go callbacks.
func TestTreeSitterUsesLibcAllocator(t *testing.T) {
	if !useLibcAllocator() {
		t.Fatal("ts_set_allocator did not resolve; tree-sitter still allocates through Go callbacks")
	}
}
