package imageproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // decoders register themselves with image.Decode
	"image/jpeg"
	_ "image/png"
	"os"

	_ "golang.org/x/image/bmp"
	"golang.org/x/image/draw"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// ToolDescription is goose's description of the image_processor tool.
const ToolDescription = "Process an image file from disk. Resizes to max 1024px, converts to JPEG (85% quality), and returns as base64 data for optimized LLM consumption."

const (
	// MaxDimension is the longest side, in pixels, of a prepared image.
	MaxDimension = 1024
	// MaxFileSize is the largest image file FromFile reads (10 MiB).
	MaxFileSize = 10 * 1024 * 1024
	// JPEGQuality is the encoder quality goose uses.
	JPEGQuality = 85
	// MimeType is the type of every prepared image.
	MimeType = "image/jpeg"
)

// Sentinel errors; the returned errors carry goose's message and match
// these with errors.Is.
var (
	ErrNotFound    = errors.New("imageproc: file does not exist")
	ErrTooLarge    = errors.New("imageproc: file is too large")
	ErrUnsupported = errors.New("imageproc: cannot decode image")
)

// Image is an image ready to send to a model.
type Image struct {
	Data     []byte // encoded bytes (not base64)
	MimeType string
}

type goError struct {
	msg  string
	kind error
}

func (e *goError) Error() string { return e.msg }
func (e *goError) Unwrap() error { return e.kind }

// SuccessMessage is the text goose returns next to a processed image.
func SuccessMessage(path string) string {
	return "Successfully processed image from " + path
}

// FromFile reads, checks and prepares an image file. A macOS screenshot
// name typed with a plain space before AM/PM is retried with U+202F (see
// NormalizeScreenshotPath). Errors use goose's texts: "File '…' does not
// exist", "File '…' is too large (N.NNMB). Maximum size is 10MB.",
// "Failed to open image file: …".
func FromFile(path string) (Image, error) {
	path = existingPath(path)
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return Image{}, &goError{fmt.Sprintf("File '%s' does not exist", path), ErrNotFound}
	}
	if err != nil {
		return Image{}, fmt.Errorf("Failed to get file metadata: %w", err)
	}
	if st.Size() > MaxFileSize {
		msg := fmt.Sprintf("File '%s' is too large (%.2fMB). Maximum size is 10MB.", path, float64(st.Size())/(1024*1024))
		return Image{}, &goError{msg, ErrTooLarge}
	}
	// Bounded before reading: regular files only (a FIFO would block, a
	// device never ends), never more than MaxFileSize.
	b, truncated, err := pathpolicy.ReadBytes(context.Background(), path, MaxFileSize)
	if err != nil {
		return Image{}, &goError{fmt.Sprintf("Failed to open image file: %v", err), ErrUnsupported}
	}
	if truncated {
		return Image{}, &goError{fmt.Sprintf("File '%s' is too large (more than 10MB). Maximum size is 10MB.", path), ErrTooLarge}
	}
	return FromBytes(b)
}

// existingPath applies the screenshot-name fix only when the path as given
// is missing and the fixed one exists, so it can never break a real path.
func existingPath(path string) string {
	if _, err := os.Lstat(path); err == nil {
		return path
	}
	fixed := NormalizeScreenshotPath(path)
	if fixed == path {
		return path
	}
	if _, err := os.Lstat(fixed); err == nil {
		return fixed
	}
	return path
}

// FromBytes decodes an encoded image and prepares it: scaled so neither side
// exceeds MaxDimension, alpha dropped, JPEG at JPEGQuality.
func FromBytes(b []byte) (Image, error) {
	src, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return Image{}, &goError{fmt.Sprintf("Failed to open image file: %v", err), ErrUnsupported}
	}
	return FromImage(src)
}

// FromImage prepares an already decoded image (a screen capture, say).
func FromImage(src image.Image) (Image, error) {
	rgb := resize(opaqueRGB(src))
	var out bytes.Buffer
	if err := jpeg.Encode(&out, rgb, &jpeg.Options{Quality: JPEGQuality}); err != nil {
		return Image{}, fmt.Errorf("Failed to encode image as JPEG: %w", err)
	}
	return Image{Data: out.Bytes(), MimeType: MimeType}, nil
}

// TargetSize is goose's scaled size: the longer side becomes MaxDimension
// (height wins a tie) and the other is scaled in float32 and truncated.
// Images within the limit keep their size. Sides never drop below 1 px.
func TargetSize(w, h int) (int, int) {
	if w <= MaxDimension && h <= MaxDimension {
		return w, h
	}
	if w > h {
		scale := float32(MaxDimension) / float32(w)
		return MaxDimension, max(int(float32(h)*scale), 1)
	}
	scale := float32(MaxDimension) / float32(h)
	return max(int(float32(w)*scale), 1), MaxDimension
}

func resize(src *image.RGBA) *image.RGBA {
	b := src.Bounds()
	w, h := TargetSize(b.Dx(), b.Dy())
	if w == b.Dx() && h == b.Dy() {
		return src
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	// Catmull-Rom is the sharpest windowed filter x/image/draw offers;
	// goose uses Lanczos3.
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	return dst
}
