package provider

import (
	"math/rand/v2"
	"runtime"
	"testing"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// TestO200kTableEqualsLoaderMap: the table gives every token the rank
// tiktoken-go-loader's map gives it, and finds no text the map lacks
// (every token with a byte added or cut, random byte strings).
func TestO200kTableEqualsLoaderMap(t *testing.T) {
	table, err := o200kRanks()
	if err != nil {
		t.Fatal(err)
	}
	want, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(tokenEncoding + ".tiktoken")
	if err != nil {
		t.Fatal(err)
	}
	check := func(s string) {
		t.Helper()
		r, ok := table.rank(s)
		wr, wok := want[s]
		if r != wr || ok != wok {
			t.Fatalf("%q: rank %d %v, loader %d %v", s, r, ok, wr, wok)
		}
	}
	rng := rand.New(rand.NewPCG(17, 3))
	for tok := range want {
		check(tok)
		check(tok + string(rune('a'+rng.IntN(26))))
		check("\x00" + tok)
		check(tok[1:])
	}
	check("")
	for range 100_000 {
		b := make([]byte, 1+rng.IntN(12))
		for k := range b {
			b[k] = byte(rng.IntN(256))
		}
		check(string(b))
	}
	if got := table.size(); got > 3_000_000 {
		t.Errorf("table holds %d bytes, want at most 3 MB", got)
	}
}

// BenchmarkO200kTableHeap reports the live heap of a freshly built table
// (HeapAlloc after GC, before and after the build) and the bytes its
// build allocated.
//
//	go test ./core/provider -run '^$' -bench O200kTableHeap -benchtime 3x
func BenchmarkO200kTableHeap(b *testing.B) {
	var ms runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before, total := ms.HeapAlloc, ms.TotalAlloc
		table, err := loadO200kTable(tokenEncoding + ".tiktoken")
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc-before)/1e6, "MB-live")
		b.ReportMetric(float64(ms.TotalAlloc-total)/1e6, "MB-built")
		runtime.KeepAlive(table)
	}
}
