package imageproc

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func decodeJPEG(t *testing.T, im Image) image.Image {
	t.Helper()
	if im.MimeType != "image/jpeg" {
		t.Fatalf("mime = %q", im.MimeType)
	}
	img, err := jpeg.Decode(bytes.NewReader(im.Data))
	if err != nil {
		t.Fatalf("output is not a JPEG: %v", err)
	}
	return img
}

func TestResizeKeepsAspect(t *testing.T) {
	tests := []struct{ w, h, wantW, wantH int }{
		{800, 600, 800, 600},
		{1024, 1024, 1024, 1024},
		{1200, 600, 1024, 512},
		{500, 1500, 341, 1024},
		{1100, 1100, 1024, 1024},
		{1025, 1, 1024, 1},
		{4000, 1, 1024, 1}, // goose would truncate to 0; we keep 1 px
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%dx%d", tt.w, tt.h), func(t *testing.T) {
			if w, h := TargetSize(tt.w, tt.h); w != tt.wantW || h != tt.wantH {
				t.Fatalf("TargetSize = %dx%d, want %dx%d", w, h, tt.wantW, tt.wantH)
			}
			src := image.NewRGBA(image.Rect(0, 0, tt.w, tt.h))
			im, err := FromBytes(encodePNG(t, src))
			if err != nil {
				t.Fatal(err)
			}
			if b := decodeJPEG(t, im).Bounds(); b.Dx() != tt.wantW || b.Dy() != tt.wantH {
				t.Errorf("encoded %dx%d, want %dx%d", b.Dx(), b.Dy(), tt.wantW, tt.wantH)
			}
		})
	}
}

// Transparent pixels keep their colour, as goose's to_rgb8 drops alpha
// without compositing.
func TestAlphaIsDroppedNotComposited(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 16, 16))
	for i := 0; i < len(src.Pix); i += 4 {
		copy(src.Pix[i:], []byte{250, 10, 10, 0})
	}
	for _, tt := range []struct {
		name string
		img  image.Image
	}{
		{"nrgba", src},
		{"paletted", &image.Paletted{Pix: make([]uint8, 256), Stride: 16, Rect: src.Rect,
			Palette: color.Palette{color.NRGBA{250, 10, 10, 0}}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			im, err := FromBytes(encodePNG(t, tt.img))
			if err != nil {
				t.Fatal(err)
			}
			r, g, b, _ := decodeJPEG(t, im).At(8, 8).RGBA()
			if r>>8 < 200 || g>>8 > 60 || b>>8 > 60 {
				t.Errorf("pixel = (%d,%d,%d), want red", r>>8, g>>8, b>>8)
			}
		})
	}
}

func TestDecodesOtherFormats(t *testing.T) {
	for _, name := range []string{"blue-purple-pink.lossy.webp", "bmp_8bpp.bmp"} {
		t.Run(name, func(t *testing.T) {
			im, err := FromFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			decodeJPEG(t, im)
		})
	}
	gif := filepath.Join(t.TempDir(), "a.gif")
	if err := os.WriteFile(gif, []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\x00\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"), 0o644); err != nil {
		t.Fatal(err)
	}
	im, err := FromFile(gif)
	if err != nil {
		t.Fatal(err)
	}
	if b := decodeJPEG(t, im).Bounds(); b.Dx() != 1 || b.Dy() != 1 {
		t.Errorf("gif bounds %v", b)
	}
}

func TestFromFileErrors(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.png")
	if err := os.WriteFile(big, make([]byte, MaxFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(dir, "notes.png")
	if err := os.WriteFile(text, []byte("not an image"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.png")
	tests := []struct {
		path, msg string
		kind      error
	}{
		{missing, fmt.Sprintf("File '%s' does not exist", missing), ErrNotFound},
		{big, fmt.Sprintf("File '%s' is too large (10.00MB). Maximum size is 10MB.", big), ErrTooLarge},
		{text, "Failed to open image file: image: unknown format", ErrUnsupported},
	}
	for _, tt := range tests {
		_, err := FromFile(tt.path)
		if !errors.Is(err, tt.kind) || err.Error() != tt.msg {
			t.Errorf("FromFile(%s) = %v, want %q (%v)", filepath.Base(tt.path), err, tt.msg, tt.kind)
		}
	}
}

func TestNormalizeScreenshotPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/u/Desktop/Screenshot 2024-03-05 at 9.41.02 AM.png", "/u/Desktop/Screenshot 2024-03-05 at 9.41.02\u202fAM.png"},
		{"Screenshot 2024-03-05 at 12.01.59 pm (2).png", "Screenshot 2024-03-05 at 12.01.59\u202fpm (2).png"},
		{"/u/Screenshot 2024-03-05 at 9.41.02 AM.jpg", "/u/Screenshot 2024-03-05 at 9.41.02 AM.jpg"},
		{"/u/photo AM.png", "/u/photo AM.png"},
		{"/u/Screenshot 2024-03-05 at 9.41.02\u202fAM.png", "/u/Screenshot 2024-03-05 at 9.41.02\u202fAM.png"},
	}
	for _, tt := range tests {
		if got := NormalizeScreenshotPath(tt.in); got != tt.want {
			t.Errorf("NormalizeScreenshotPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFromFileFindsScreenshotWithNarrowSpace(t *testing.T) {
	dir := t.TempDir()
	onDisk := filepath.Join(dir, "Screenshot 2024-03-05 at 9.41.02\u202fAM.png")
	if err := os.WriteFile(onDisk, encodePNG(t, image.NewRGBA(image.Rect(0, 0, 3, 2))), 0o644); err != nil {
		t.Fatal(err)
	}
	im, err := FromFile(filepath.Join(dir, "Screenshot 2024-03-05 at 9.41.02 AM.png"))
	if err != nil {
		t.Fatal(err)
	}
	if b := decodeJPEG(t, im).Bounds(); b.Dx() != 3 || b.Dy() != 2 {
		t.Errorf("bounds %v", b)
	}
	if SuccessMessage("/x.png") != "Successfully processed image from /x.png" {
		t.Error("success text changed")
	}
}

func BenchmarkFromBytes4K(b *testing.B) {
	src := image.NewNRGBA(image.Rect(0, 0, 3840, 2160))
	for i := range src.Pix {
		src.Pix[i] = byte(i * 7)
	}
	data := encodePNG(b, src)
	b.ResetTimer()
	for b.Loop() {
		if _, err := FromBytes(data); err != nil {
			b.Fatal(err)
		}
	}
}
