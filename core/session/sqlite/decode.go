package sqlite

import (
	"log/slog"
	"runtime"
	"sort"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// decodeChunk is how many rows are decoded together. Rows are handed to a
// worker as soon as a chunk is full, so JSON decoding overlaps with
// stepping through SQLite, and a chunk's row structs are dropped once it
// is decoded: a long conversation never exists as a full list of rows
// next to its decoded messages (a decoded text is a substring of its
// row's content_json, so the row's text itself is not copied again).
const decodeChunk = 512

type chunk struct {
	rows   []session.StoredMessage // nil once decoded
	rowIDs []int64
	out    []decoded
}

type decoded struct {
	msg conversation.Message
	ok  bool
	err error
}

func (c *chunk) decode() {
	c.out = make([]decoded, len(c.rows))
	for i := range c.rows {
		m, ok, err := c.rows[i].Decode()
		c.out[i] = decoded{m, ok, err}
	}
	c.rows = nil
}

// rowDecoder decodes a conversation's rows in the order they are added
// (the index's row id order) and returns them in goose's order.
type rowDecoder struct {
	sem    chan struct{} // bounds the decoding workers
	wg     sync.WaitGroup
	chunks []*chunk
	cur    *chunk
	n      int
}

func newRowDecoder() *rowDecoder {
	return &rowDecoder{sem: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

func (d *rowDecoder) add(rowID int64, row session.StoredMessage) {
	if d.cur == nil {
		d.cur = &chunk{rows: make([]session.StoredMessage, 0, decodeChunk), rowIDs: make([]int64, 0, decodeChunk)}
		d.chunks = append(d.chunks, d.cur)
	}
	d.cur.rows = append(d.cur.rows, row)
	d.cur.rowIDs = append(d.cur.rowIDs, rowID)
	d.n++
	if len(d.cur.rows) == decodeChunk {
		c := d.cur
		d.cur = nil
		d.wg.Go(func() {
			d.sem <- struct{}{}
			defer func() { <-d.sem }()
			c.decode()
		})
	}
}

// finish waits for the workers (a short conversation, a single partial
// chunk, is decoded right here) and returns the messages ordered by
// created_timestamp, then row id, as goose's ORDER BY. Rows with other
// roles are skipped as goose skips them; a row whose content does not
// parse is skipped with a warning so the rest of the session stays
// readable.
func (d *rowDecoder) finish(log *slog.Logger, id string) []conversation.Message {
	if d.cur != nil {
		d.cur.decode()
		d.cur = nil
	}
	d.wg.Wait()
	n := 0
	for _, c := range d.chunks {
		for _, r := range c.out {
			if r.ok && r.err == nil {
				n++
			}
		}
	}
	out := make([]conversation.Message, 0, n)
	rowIDs := make([]int64, 0, n)
	for _, c := range d.chunks {
		for i, r := range c.out {
			if r.err != nil {
				log.Warn("skipping unreadable message", "session", id, "err", r.err)
				continue
			}
			if r.ok {
				out = append(out, r.msg)
				rowIDs = append(rowIDs, c.rowIDs[i])
			}
		}
		c.out = nil
	}
	d.chunks = nil
	if b := (byCreated{out, rowIDs}); !sort.IsSorted(b) {
		sort.Sort(b)
	}
	return out
}

// byCreated orders messages as goose's ORDER BY created_timestamp, id.
// The query has no ORDER BY: SQLite would drag every content_json through
// its sorter, while the index hands rows over in row id order, which is
// goose's order unless timestamps went backwards.
type byCreated struct {
	msgs   []conversation.Message
	rowIDs []int64
}

func (b byCreated) Len() int { return len(b.msgs) }
func (b byCreated) Less(i, j int) bool {
	if b.msgs[i].Created != b.msgs[j].Created {
		return b.msgs[i].Created < b.msgs[j].Created
	}
	return b.rowIDs[i] < b.rowIDs[j]
}
func (b byCreated) Swap(i, j int) {
	b.msgs[i], b.msgs[j] = b.msgs[j], b.msgs[i]
	b.rowIDs[i], b.rowIDs[j] = b.rowIDs[j], b.rowIDs[i]
}
