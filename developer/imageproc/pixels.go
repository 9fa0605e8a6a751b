package imageproc

import (
	"image"
	"image/color"
	"image/draw"
)

// opaqueRGB copies src into an opaque RGBA image keeping each pixel's
// straight (non-premultiplied) colour and discarding alpha, which is what
// goose's to_rgb8 does. Dropping alpha before scaling gives the same colours
// as scaling first, because the scaler treats channels independently.
func opaqueRGB(src image.Image) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	if o, ok := src.(interface{ Opaque() bool }); ok && o.Opaque() {
		draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Src)
		return dst
	}
	if n, ok := src.(*image.NRGBA); ok {
		for y := range b.Dy() {
			row := n.Pix[y*n.Stride : y*n.Stride+4*b.Dx()]
			out := dst.Pix[y*dst.Stride : y*dst.Stride+4*b.Dx()]
			copy(out, row)
			for i := 3; i < len(out); i += 4 {
				out[i] = 0xff
			}
		}
		return dst
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(src.At(x, y)).(color.NRGBA)
			dst.SetRGBA(x-b.Min.X, y-b.Min.Y, color.RGBA{c.R, c.G, c.B, 0xff})
		}
	}
	return dst
}
