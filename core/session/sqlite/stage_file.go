package sqlite

import (
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// stageFile is a read-only SQLite database made on the fly
// (https://sqlite.org/fileformat2.html): page 1 holds the header and the
// schema (one table per staged message, shaped as messages, with
// messages' indexes), then each table's root page, its index pages and
// its row's overflow pages. The row and its index entries exist once the
// table is bound (stageTable.bind), as its pages are read.
type stageFile struct {
	mu      sync.Mutex
	page1   []byte
	tables  []*stageTable
	npages  int
	scratch []byte
}

// stagePageSize is the staging file's page size, SQLite's largest: the
// schema of several tables fits page 1 and a 31 MB row is ~500 overflow
// pages.
const stagePageSize = 1 << 16

// stageTable is one staged message's table: its pages and, once bound,
// its row. Its overflow pages are reserved at attach time for the record
// an insert makes of the message, with room to spare (stageSlack) for a
// rewritten row's stored columns.
type stageTable struct {
	name     string
	root     int   // the table's root page (a leaf with the one row)
	idxPages []int // each index's root page (a leaf with the one entry)
	ovFirst  int   // first overflow page
	ovCap    int   // overflow pages reserved
	estSize  int   // the inserted record's size, laid out for
	head     session.StoredMessage
	msg      conversation.Message

	// Set by bind.
	src     *recordSource
	rowid   int64
	idxRec  [][]byte
	recSize int
	local   int // the record's bytes on the root page
	ovCount int
}

// stageSlack is the room a staged table's pages leave beyond the
// inserted record: a kept row's stored columns (its timestamp, tokens)
// may be longer than an insert's.
const stageSlack = 4 << 10

// Table b-tree leaf and index b-tree leaf page types.
const (
	leafTable = 0x0d
	leafIndex = 0x0a
)

// payloadLocal is how many of a payload's p bytes SQLite keeps on a
// leaf page of usable size u (the rest goes to overflow pages).
func payloadLocal(p, u int, table bool) int {
	maxLocal := u - 35
	if !table {
		maxLocal = (u-12)*64/255 - 23
	}
	minLocal := (u-12)*32/255 - 23
	if p <= maxLocal {
		return p
	}
	if s := minLocal + (p-minLocal)%(u-4); s <= maxLocal {
		return s
	}
	return minLocal
}

// layout numbers the pages: page 1, then each table's root page, index
// pages and overflow pages.
func (f *stageFile) layout(nIdx int) {
	next := 2
	for _, t := range f.tables {
		t.root = next
		next++
		t.idxPages = make([]int, nIdx)
		for i := range t.idxPages {
			t.idxPages[i] = next
			next++
		}
		t.ovCap = overflowPages(t.estSize+stageSlack) + 1
		t.ovFirst = next
		next += t.ovCap
	}
	f.npages = next - 1
}

// overflowPages is how many overflow pages a record of size bytes takes.
func overflowPages(size int) int {
	local := payloadLocal(size, stagePageSize, true)
	return (size - local + stagePageSize - 5) / (stagePageSize - 4)
}

// schemaRow is one row of sqlite_schema.
type schemaRow struct {
	typ, name, table, sql string
	root                  int
}

// buildPage1 writes the database header and sqlite_schema's one leaf.
func (f *stageFile) buildPage1(rows []schemaRow) error {
	p := make([]byte, stagePageSize)
	copy(p, "SQLite format 3\x00")
	binary.BigEndian.PutUint16(p[16:], 1) // 65536
	p[18], p[19] = 1, 1                   // legacy (rollback journal) file format
	p[21], p[22], p[23] = 64, 32, 32
	binary.BigEndian.PutUint32(p[24:], 1) // change counter
	binary.BigEndian.PutUint32(p[28:], uint32(f.npages))
	binary.BigEndian.PutUint32(p[40:], 1) // schema cookie
	binary.BigEndian.PutUint32(p[44:], 4) // schema format
	binary.BigEndian.PutUint32(p[56:], 1) // UTF-8
	binary.BigEndian.PutUint32(p[92:], 1) // version-valid-for: the page count above holds
	binary.BigEndian.PutUint32(p[96:], 3053000)
	cells := make([][]byte, len(rows))
	for i, r := range rows {
		rec := makeRecord([]recVal{{kind: valText, s: r.typ}, {kind: valText, s: r.name},
			{kind: valText, s: r.table}, {kind: valInt, i: int64(r.root)}, {kind: valText, s: r.sql}}, 0).bytes()
		if len(rec) > stagePageSize-35 {
			return fmt.Errorf("staging schema: %s's entry is %d bytes", r.name, len(rec))
		}
		cell := appendVarint(nil, uint64(len(rec)))
		cell = appendVarint(cell, uint64(i+1))
		cells[i] = append(cell, rec...)
	}
	if err := writeLeaf(p, 100, leafTable, cells); err != nil {
		return fmt.Errorf("staging schema: %w", err)
	}
	f.page1 = p
	return nil
}

// writeLeaf writes a leaf b-tree page's header at hdr, its cell pointers
// and its cells packed at the page's end.
func writeLeaf(p []byte, hdr int, typ byte, cells [][]byte) error {
	top := len(p)
	ptr := hdr + 8
	for _, c := range cells {
		top -= len(c)
		if top < ptr+2 {
			return fmt.Errorf("%d cells do not fit one page", len(cells))
		}
		copy(p[top:], c)
		binary.BigEndian.PutUint16(p[ptr:], uint16(top))
		ptr += 2
	}
	p[hdr] = typ
	binary.BigEndian.PutUint16(p[hdr+3:], uint16(len(cells)))
	binary.BigEndian.PutUint16(p[hdr+5:], uint16(top)) // top < 65536: there is a cell
	return nil
}

func (f *stageFile) Size() (int64, error) { return int64(f.npages) * stagePageSize, nil }

// ReadAt reads the pages p covers, each made as it is read.
func (f *stageFile) ReadAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	size, _ := f.Size()
	n := 0
	for len(p) > 0 {
		if off >= size {
			return n, io.EOF
		}
		pg, in := int(off/stagePageSize)+1, int(off%stagePageSize)
		page, err := f.page(pg)
		if err != nil {
			return n, err
		}
		c := copy(p, page[in:])
		p, off, n = p[c:], off+int64(c), n+c
	}
	return n, nil
}

// page makes page pg.
func (f *stageFile) page(pg int) ([]byte, error) {
	if pg == 1 {
		return f.page1, nil
	}
	if f.scratch == nil {
		f.scratch = make([]byte, stagePageSize)
	}
	p := f.scratch
	clear(p)
	for _, t := range f.tables {
		if pg < t.root || pg >= t.ovFirst+t.ovCap {
			continue
		}
		if t.src == nil {
			return nil, fmt.Errorf("staging table %s read before its row was bound", t.name)
		}
		switch {
		case pg == t.root:
			cell := appendVarint(nil, uint64(t.recSize))
			cell = appendVarint(cell, uint64(t.rowid))
			head := len(cell)
			cell = append(cell, make([]byte, t.local)...)
			if err := t.src.readAt(cell[head:], 0); err != nil {
				return nil, err
			}
			if t.ovCount > 0 {
				cell = binary.BigEndian.AppendUint32(cell, uint32(t.ovFirst))
			}
			return p, writeLeaf(p, 0, leafTable, [][]byte{cell})
		case pg < t.ovFirst:
			rec := t.idxRec[pg-t.root-1]
			cell := append(appendVarint(nil, uint64(len(rec))), rec...)
			return p, writeLeaf(p, 0, leafIndex, [][]byte{cell})
		case pg >= t.ovFirst+t.ovCount:
			return p, nil // reserved, not part of the row
		default:
			i := pg - t.ovFirst
			if i+1 < t.ovCount {
				binary.BigEndian.PutUint32(p, uint32(pg+1))
			}
			start := t.local + i*(stagePageSize-4)
			n := min(stagePageSize-4, t.recSize-start)
			return p, t.src.readAt(p[4:4+n], start)
		}
	}
	return nil, fmt.Errorf("staging file: no page %d", pg)
}
