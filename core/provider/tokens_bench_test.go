package provider

import (
	"strings"
	"testing"
)

// hugeTexts are the huge prompt (31 MB without a space: the long-run
// cut makes it 128-byte segments) and 31 MB of log lines (one segment).
func hugeTexts() map[string]string {
	line := "2026-01-01 12:00:00 INFO something happened here, user=42 path=/srv/app\n"
	return map[string]string{
		"run":  strings.Repeat("0123456789abcdef", (31<<20)/16),
		"logs": strings.Repeat(line, (31<<20)/len(line)),
	}
}

// BenchmarkCountTokensHuge counts a 31 MB text once per op (the count
// cache is bypassed: each op counts a fresh variant).
//
//	go test ./core/provider -run XXX -bench CountTokensHuge -benchtime 1x
func BenchmarkCountTokensHuge(b *testing.B) {
	if _, err := o200kRanks(); err != nil {
		b.Skip(err)
	}
	for name, text := range hugeTexts() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				countUncached(strings.Repeat("z", i) + text)
			}
		})
	}
}
