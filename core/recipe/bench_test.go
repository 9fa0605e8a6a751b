package recipe

import (
	"os"
	"testing"
)

func BenchmarkDecode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(workedConfig); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadFile(b *testing.B) {
	if _, err := os.Stat("testdata/recipes/code-review.yaml"); err != nil {
		b.Skip(err)
	}
	params := []Param{{Key: "language", Value: "go"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadFile("testdata/recipes/code-review.yaml", params, nil); err != nil {
			b.Fatal(err)
		}
	}
}
