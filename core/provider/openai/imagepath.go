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
	for _, word := range strings.Fields(text) {
		lower := strings.ToLower(word)
		mime := ""
		switch {
		case strings.HasSuffix(lower, ".png"):
			mime = "image/png"
		case strings.HasSuffix(lower, ".jpg"), strings.HasSuffix(lower, ".jpeg"):
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

func isPNGOrJPEG(b []byte) bool {
	return bytes.HasPrefix(b, []byte{0x89, 'P', 'N', 'G'}) || bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF})
}
