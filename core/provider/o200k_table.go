package provider

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"hash/maphash"
	"math/bits"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// o200kTable holds o200k_base's ranks (token bytes → rank, what
// tiktoken-go-loader returns as a map[string]int) in flat slices:
// 2.9 MB live instead of the map's 9.8 MB of groups, string headers and
// separately allocated keys; building it allocates only those slices and
// a line buffer (the map's build allocated 35 MB).
type o200kTable struct {
	seed maphash.Seed
	data []byte // every token's bytes, in file order
	// Token i starts at offBase[i/offBlock] + offRel[i] and ends where
	// token i+1 starts (offRel has n+1 entries): 2 bytes a token instead
	// of a uint32 offset's 4.
	offBase []uint32
	offRel  []uint16
	ranks   []uint32 // token i's rank; nil when every token i has rank i
	// slots is an open-addressing index (linear probing) by the hash of
	// a token's bytes: 0 is empty, else the hash's top bits above
	// idxBits (a tag that rules out most mismatches without reading the
	// token) and i+1 in the low idxBits.
	slots   []uint32
	idxBits uint
}

// rank returns s's rank, or false if s is not a token.
func (t *o200kTable) rank(s string) (int, bool) {
	h := maphash.String(t.seed, s)
	idxMask := uint32(1)<<t.idxBits - 1
	tag := uint32(h>>32) &^ idxMask
	mask := uint64(len(t.slots) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		v := t.slots[j]
		if v == 0 {
			return 0, false
		}
		if v&^idxMask != tag {
			continue
		}
		i := v&idxMask - 1
		if string(t.token(i)) == s {
			if t.ranks != nil {
				return int(t.ranks[i]), true
			}
			return int(i), true
		}
	}
}

// offBlock is how many tokens share an offBase entry: offRel stays below
// 1<<16 while tokens are under 1<<16/offBlock = 1024 bytes.
const offBlock = 64

// token is token i's bytes.
func (t *o200kTable) token(i uint32) []byte {
	return t.data[t.start(i):t.start(i+1)]
}

func (t *o200kTable) start(i uint32) uint32 {
	return t.offBase[i/offBlock] + uint32(t.offRel[i])
}

// size is the bytes the table's slices hold.
func (t *o200kTable) size() int {
	return cap(t.data) + 2*cap(t.offRel) + 4*(cap(t.offBase)+cap(t.ranks)+cap(t.slots))
}

// loadO200kTable reads the embedded name (lines "base64-token rank", as
// tiktoken-go-loader reads them; a token listed twice takes its last
// rank) in two passes: the first sizes the slices, the second fills them.
func loadO200kTable(name string) (*o200kTable, error) {
	n, size := 0, 0
	err := eachTokenLine(name, func(tok, _ []byte) error {
		l, err := decodedLen(tok)
		n++
		size += l
		return err
	})
	if err != nil {
		return nil, err
	}
	if n == 0 || n >= 1<<24 || size >= 1<<32 {
		return nil, fmt.Errorf("%s: %d tokens of %d bytes", name, n, size)
	}
	t := &o200kTable{
		seed:    maphash.MakeSeed(),
		data:    make([]byte, size),
		offBase: make([]uint32, n/offBlock+1),
		offRel:  make([]uint16, n+1),
		slots:   make([]uint32, 1<<bits.Len(uint(n+n/4))), // load ≤ 4/5
		idxBits: uint(bits.Len(uint(n))),                  // i+1 ≤ n < 1<<idxBits
	}
	i, off := 0, 0
	err = eachTokenLine(name, func(tok, rankText []byte) error {
		if i == n {
			return fmt.Errorf("%s changed while loading", name)
		}
		l, err := base64.StdEncoding.Decode(t.data[off:], tok)
		if err != nil {
			return fmt.Errorf("%s: token %q: %w", name, tok, err)
		}
		rank, ok := parseRank(rankText)
		if !ok {
			return fmt.Errorf("%s: rank %q", name, rankText)
		}
		if rank != uint32(i) && t.ranks == nil {
			t.ranks = make([]uint32, n)
			for k := range i {
				t.ranks[k] = uint32(k)
			}
		}
		if t.ranks != nil {
			t.ranks[i] = rank
		}
		off += l
		if (i+1)%offBlock == 0 {
			t.offBase[(i+1)/offBlock] = uint32(off)
		}
		rel := off - int(t.offBase[(i+1)/offBlock])
		if rel >= 1<<16 {
			return fmt.Errorf("%s: tokens of over %d bytes", name, 1<<16/offBlock)
		}
		t.offRel[i+1] = uint16(rel)
		t.insert(uint32(i))
		i++
		return nil
	})
	if err != nil {
		return nil, err
	}
	if i != n || off != size {
		return nil, fmt.Errorf("%s changed while loading", name)
	}
	return t, nil
}

// insert indexes token i, replacing an earlier token of the same bytes.
func (t *o200kTable) insert(i uint32) {
	s := t.token(i)
	h := maphash.Bytes(t.seed, s)
	idxMask := uint32(1)<<t.idxBits - 1
	v := uint32(h>>32)&^idxMask | (i + 1)
	mask := uint64(len(t.slots) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		old := t.slots[j]
		if old == 0 {
			t.slots[j] = v
			return
		}
		k := old&idxMask - 1
		if old&^idxMask == v&^idxMask && bytes.Equal(t.token(k), s) {
			t.slots[j] = v
			return
		}
	}
}

// eachTokenLine calls fn with the two first space-separated fields of
// each non-empty line of the embedded asset name.
func eachTokenLine(name string, fn func(tok, rank []byte) error) error {
	f, err := assets.Assets.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		tok, rest, _ := bytes.Cut(line, []byte(" "))
		rank, _, _ := bytes.Cut(rest, []byte(" "))
		if err := fn(tok, rank); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// decodedLen is the length of padded standard base64 b decoded.
func decodedLen(b []byte) (int, error) {
	if len(b)%4 != 0 {
		return 0, fmt.Errorf("token %q: %w", b, base64.CorruptInputError(len(b)))
	}
	n := len(b) / 4 * 3
	for k := len(b) - 1; k >= 0 && k >= len(b)-2 && b[k] == '='; k-- {
		n--
	}
	return n, nil
}

// parseRank parses a decimal rank below 1<<32.
func parseRank(b []byte) (uint32, bool) {
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	var r uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		r = r*10 + uint64(c-'0')
	}
	return uint32(r), r < 1<<32
}
