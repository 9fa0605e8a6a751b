package sqlite

import (
	"runtime"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// parallelDecodeMin is the conversation length from which JSON decoding is
// spread over the CPUs; decoding dominates loading a long session.
const parallelDecodeMin = 512

type decoded struct {
	msg conversation.Message
	ok  bool
	err error
}

// decodeRows decodes stored rows, in parallel for long conversations, and
// returns the results in row order.
func decodeRows(rows []session.StoredMessage) []decoded {
	out := make([]decoded, len(rows))
	workers := min(runtime.GOMAXPROCS(0), len(rows)/parallelDecodeMin+1)
	chunk := (len(rows) + workers - 1) / max(workers, 1)
	var wg sync.WaitGroup
	for start := 0; start < len(rows); start += chunk {
		end := min(start+chunk, len(rows))
		wg.Go(func() {
			for i := start; i < end; i++ {
				m, ok, err := rows[i].Decode()
				out[i] = decoded{m, ok, err}
			}
		})
	}
	wg.Wait()
	return out
}
