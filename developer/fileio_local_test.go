package developer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// The streamed line window is the same as slicing the whole text.
func TestReadWindowMatchesSliceLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.txt")
	for _, content := range []string{"", "a", "a\n", "a\nb", "a\r\nb\r\nc\r\n", "one\ntwo\nthree\nfour\n", "\n\n\nx"} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		for line := 0; line <= 6; line++ {
			for limit := 0; limit <= 5; limit++ {
				got, err := LocalFileIO{}.ReadTextFile(context.Background(), p, line, limit)
				if want := sliceLines(content, line, limit); err != nil || got != want {
					t.Errorf("%q line %d limit %d = %q (%v), want %q", content, line, limit, got, err, want)
				}
			}
		}
	}
}

// A whole-file read past MaxLocalReadBytes fails with a clear error
// instead of holding the file.
func TestWholeReadIsBounded(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sparse")
	f, _ := os.Create(p)
	if err := f.Truncate(MaxLocalReadBytes + 1); err != nil {
		t.Skip(err)
	}
	f.Close()
	_, err := LocalFileIO{}.ReadTextFile(context.Background(), p, 0, 0)
	if !errors.Is(err, pathpolicy.ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
	if got, err := (LocalFileIO{}).ReadTextFile(context.Background(), p, 1, 1); !errors.Is(err, pathpolicy.ErrTooLarge) {
		t.Fatalf("one huge line: %d bytes, %v", len(got), err)
	}
}
