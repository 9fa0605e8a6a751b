package openai

import (
	"strings"
	"testing"
)

// TestHasSuffixFoldIsToLower: the copy-free suffix check decides as
// strings.HasSuffix(strings.ToLower(word), suffix) did.
func TestHasSuffixFoldIsToLower(t *testing.T) {
	words := []string{"", "png", ".png", "/a/b.PNG", "/a/b.Png", "x.JpEg", "x.JPG", "x.jpg ", "\u212a.png",
		"/tmp/İ.png", "/tmp/a.pnG\u0301", "/x.ｐｎｇ", "/x.P\u0143G", "/x.jpeg\x00", "ᴘɴɢ", ".JPEG"}
	for _, w := range words {
		for _, suf := range []string{".png", ".jpg", ".jpeg"} {
			if got, want := hasSuffixFold(w, suf), strings.HasSuffix(strings.ToLower(w), suf); got != want {
				t.Errorf("hasSuffixFold(%q, %q) = %v, ToLower says %v", w, suf, got, want)
			}
		}
	}
}
