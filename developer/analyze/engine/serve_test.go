//go:build cgo

package engine

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// Serve answers each request line in turn: a line that is not a request
// is answered with its error and the next line still served; blank lines
// are skipped; an over-long line is answered and ends the loop.
func TestServeAnswersEachLine(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	in := "not json\n\n{\"path\":\"" + filepath.ToSlash(missing) + "\"}\n" + strings.Repeat("x", maxRequest+1) + "\n{\"path\":\"never\"}\n"
	var out bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(in), &out, "/opt/goose-acp-analyze"); err != nil {
		t.Fatal(err)
	}
	want := `{"text":"","error":{"kind":"other","message":"decoding the request: invalid character 'o' in literal null (expecting 'u')"}}` + "\n" +
		`{"text":"","error":{"kind":"not_found","message":"Path '` + missing + `' does not exist"}}` + "\n" +
		`{"text":"","error":{"kind":"other","message":"the request is over 1048576 bytes"}}` + "\n"
	if out.String() != want {
		t.Errorf("answers:\n%s\nwant\n%s", out.String(), want)
	}
}
