package openai

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// maxPathImageBytes bounds the file goose-style path detection will inline.
const maxPathImageBytes = 20 << 20

// imageFromPath is goose's detect_image_path + load_image_file: a user
// text naming an absolute path to an existing .png/.jpg/.jpeg file whose
// magic bytes are PNG or JPEG gets that image attached.
func imageFromPath(text string, role conversation.Role) (contentPart, bool) {
	if role != conversation.RoleUser {
		return contentPart{}, false
	}
	// Words are visited in place and their suffix compared without
	// lowering the word: a 31 MB prompt is not copied to find none.
	for word := range strings.FieldsSeq(text) {
		mime := ""
		switch {
		case hasSuffixFold(word, ".png"):
			mime = "image/png"
		case hasSuffixFold(word, ".jpg"), hasSuffixFold(word, ".jpeg"):
			mime = "image/jpeg"
		default:
			continue
		}
		if !filepath.IsAbs(word) {
			continue
		}
		info, err := os.Stat(word)
		if err != nil || !info.Mode().IsRegular() || info.Size() > maxPathImageBytes {
			continue
		}
		data, err := os.ReadFile(word)
		if err != nil || !isPNGOrJPEG(data) {
			continue
		}
		return imagePart(mime, base64.StdEncoding.EncodeToString(data)), true
	}
	return contentPart{}, false
}

// hasSuffixFold is strings.HasSuffix(strings.ToLower(s), suffix) for an
// ASCII lower-case suffix (no non-ASCII letter lowers to '.', p, n, g, j
// or e).
func hasSuffixFold(s, suffix string) bool {
	if len(s) < len(suffix) {
		return false
	}
	tail := s[len(s)-len(suffix):]
	for i := 0; i < len(suffix); i++ {
		c := tail[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != suffix[i] {
			return false
		}
	}
	return true
}

func isPNGOrJPEG(b []byte) bool {
	return bytes.HasPrefix(b, []byte{0x89, 'P', 'N', 'G'}) || bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF})
}
