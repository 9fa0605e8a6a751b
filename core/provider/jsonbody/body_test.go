package jsonbody

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// quotingCorpus: every byte, HTML characters, separators, invalid UTF-8
// and seeded random byte strings.
func quotingCorpus() []string {
	out := []string{"", "plain", `a "q" \ b`, "<a href='x'>&amp;</a>", "l\u2028s\u2029p", "\b\f\n\r\t\x00\x1f\x7f",
		"😀 ünï 中文", "\xff\xfe", "\xe2\x80", "a\xe2\x80\xa8b", "\xed\xa0\x80"}
	for b := range 256 {
		out = append(out, "x"+string([]byte{byte(b)})+"y")
	}
	r := rand.New(rand.NewPCG(4, 16))
	for range 500 {
		buf := make([]byte, r.IntN(64))
		for i := range buf {
			buf[i] = byte(r.IntN(256))
		}
		out = append(out, string(buf))
	}
	return out
}

// TestAppendJoinedQuotedIsJSONMarshal: texts quoted apart and joined with
// an escaped newline are json.Marshal of their join, for single texts and
// for pairs cut inside multi-byte and invalid sequences.
func TestAppendJoinedQuotedIsJSONMarshal(t *testing.T) {
	corpus := quotingCorpus()
	lists := [][]string{}
	for i, s := range corpus {
		lists = append(lists, []string{s}, []string{s, corpus[(i*7+3)%len(corpus)]}, []string{"\xe2", s, "\x80\xa8"})
	}
	for _, texts := range lists {
		want, _ := json.Marshal(strings.Join(texts, "\n"))
		if got := appendJoinedQuoted(nil, texts); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, json.Marshal wrote %s", texts, got, want)
		}
		if n := joinedQuotedLen(texts); n != len(want) {
			t.Errorf("%q: joinedQuotedLen %d, want %d", texts, n, len(want))
		}
	}
}

// TestBodyQuotedAcrossPieces: a text quoted a piece at a time as the body
// is read is json.Marshal of the texts' join wherever a piece ends —
// inside a multi-byte rune, a U+2028, an invalid sequence — in reads of
// any size.
func TestBodyQuotedAcrossPieces(t *testing.T) {
	tricky := "\xe2\x80\xa8é\xe2\x80\xff😀<&>\"\\\n\x01"
	for k := quotePiece - 4; k <= quotePiece+2; k++ {
		s := strings.Repeat("x", k) + tricky + strings.Repeat("y", quotePiece)
		texts := []string{s, tricky + s[:k+3], ""}
		q, _ := json.Marshal(strings.Join(texts, "\n"))
		want := append(append([]byte(`{"content":`), q...), '}')
		var taken Taken
		enc := []byte(`{"content":` + string(mustJSON(taken.Take(texts...))) + `}`)
		b, ok := Splice(enc, &taken)
		if !ok {
			t.Fatal("placeholder not found")
		}
		if b.Len() != int64(len(want)) {
			t.Errorf("k=%d: length %d, want %d", k, b.Len(), len(want))
		}
		for _, size := range []int{1 << 20, 5, 4096} {
			got, err := readIn(b.Reader(), size)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("k=%d reads of %d: body differs from json.Marshal's (%d vs %d bytes) %v", k, size, len(got), len(want), err)
			}
		}
	}
}

func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// readIn reads r to its end in reads of at most size bytes.
func readIn(r io.Reader, size int) ([]byte, error) {
	var out []byte
	buf := make([]byte, size)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}
