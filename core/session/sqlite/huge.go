package sqlite

import (
	"runtime/debug"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// hugeRow is the encoded row size from which a write gives SQLite's memory
// back.
const hugeRow = 8 << 20

// releaseMemory closes the pool's idle connections after a row of size
// bytes was written, when it is huge. Each connection's SQLite runs in a
// WebAssembly memory of its own, which grew to hold such a row (the
// staged record it copied; twice for a row written in place: the value
// and the record SQLite builds from it) and never shrinks; a
// closed connection gives all of it back, and the next query opens a new
// one. Without this a 31 MB prompt kept ~64 MB resident for the life of
// the process, and the next huge write grew another connection the same.
// The row's encoding, garbage now, goes back to the OS too.
func (s *Store) releaseMemory(size int) {
	if size < hugeRow {
		return
	}
	s.stmts.borrowing.Lock() // a statement being prepared gives its connection back first
	s.db.SetMaxIdleConns(0)
	s.db.SetMaxIdleConns(s.maxConns)
	s.stmts.borrowing.Unlock()
	debug.FreeOSMemory()
}

// largestMessage is the text size of msgs' largest message, a lower bound
// of its row's size.
func largestMessage(msgs []conversation.Message) int {
	largest := 0
	for _, m := range msgs {
		n := 0
		for _, c := range m.Content {
			if c.Text != nil {
				n += len(c.Text.Text)
			}
		}
		largest = max(largest, n)
	}
	return largest
}
