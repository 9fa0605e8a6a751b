package deepstack

// Size is the stack Reserve leaves a goroutine with: what a request that
// reaches SQLite grew to.
const Size = 128 << 10

// frame is a little under Size so that, with the runtime's guard and the
// caller's frames, the stack doubles straight to Size.
const frame = Size - 8<<10

// never is false; the compiler cannot tell, so reserve keeps its frame.
var never bool

// Reserve grows the calling goroutine's stack to Size in one copy, now,
// while it is shallow (see the package doc).
func Reserve() { reserve() }

//go:noinline
func reserve() {
	if never {
		// Declared in the branch that never runs: the frame has room for it
		// (the prologue's stack check sees the whole frame) but nothing
		// zeroes or writes it.
		var pad [frame]byte
		sink(pad[:])
	}
}

//go:noinline
func sink([]byte) {}
