package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkWrite: what a checkpoint adds to a tool's write of a 10 KB file
// on local disk — the turn's first change of the file (stat, read, saved
// copy, index) and a later change in the same turn (a lookup only).
func BenchmarkWrite(b *testing.B) {
	ctx := context.Background()
	content := strings.Repeat("line of code\n", 800)
	for _, mode := range []string{"direct", "first-change", "later-change"} {
		b.Run(mode, func(b *testing.B) {
			wd := b.TempDir()
			p := filepath.Join(wd, "f.go")
			os.WriteFile(p, []byte(content), 0o644)
			book := New(b.TempDir())
			var f Files = &disk{}
			if mode != "direct" {
				f = book.Wrap(&disk{})
			}
			book.Begin("m0", nil)
			f.WriteTextFile(ctx, p, content)
			for i := 0; b.Loop(); i++ {
				if mode == "first-change" {
					book.Begin(fmt.Sprint("m", i+1), nil)
				}
				if err := f.WriteTextFile(ctx, p, content); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
