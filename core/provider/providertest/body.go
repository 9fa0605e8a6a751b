package providertest

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// AssertStreamedBody checks a request body carrying huge texts: build
// returns a body that reads as want (the encoder's own bytes) with Len
// its length, and building and reading it allocates less than a quarter
// of it (its texts are quoted as it is read, not copied into it).
func AssertStreamedBody(t testing.TB, want []byte, build func() (*jsonbody.Body, error)) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b, err := build()
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, b.Reader())
	runtime.ReadMemStats(&after)
	if err != nil || n != int64(len(want)) || b.Len() != n {
		t.Fatalf("read %d bytes (Len %d), want %d: %v", n, b.Len(), len(want), err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(n)/4 {
		t.Errorf("building and reading a %d-byte body allocated %d bytes", n, alloc)
	}
	if got := b.Bytes(); !bytes.Equal(got, want) {
		t.Fatalf("body differs from the encoder's (%d vs %d bytes)", len(got), len(want))
	}
}
