// Package deepstack gives a goroutine that is about to call deep (JSON
// encoders over nested types, the SQLite engine's translated C, a turn's
// call chain) its full stack at once. It imports nothing of ours.
//
// A goroutine starts with an 8 KiB stack; each time it runs out the runtime
// copies it to one twice as large and, to adjust the frames, walks every
// frame on it through the function table (.gopclntab). A request handler
// that ends in SQLite grew 8 → 128 KiB in four copies, each walking up to
// 50 frames: the table entries of functions all over the binary, and this
// kernel maps a 64 KiB page-cache folio for each first touch — stack
// growth alone kept ~4 MiB of the table resident in a fresh ACP process.
// Reserve, called first thing in such a goroutine, grows it once while it
// holds two frames. The stack is memory the goroutine would have used
// anyway; Reserve writes none of it.
package deepstack
