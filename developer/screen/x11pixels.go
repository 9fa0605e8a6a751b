//go:build unix && !darwin

package screen

import (
	"fmt"
	"image"
	"math/bits"

	"github.com/jezek/xgb/xproto"
)

// pixelFormat says how a ZPixmap of one depth is laid out.
type pixelFormat struct {
	bpp, pad      int // bits per pixel, scanline pad in bits
	msbFirst      bool
	r, g, b       uint32 // visual colour masks
	bytesPerPixel int
}

func (x *x11) format(depth byte, visual xproto.Visualid) (pixelFormat, error) {
	f := pixelFormat{msbFirst: x.setup.ImageByteOrder == xproto.ImageOrderMSBFirst}
	for _, pf := range x.setup.PixmapFormats {
		if pf.Depth == depth {
			f.bpp, f.pad = int(pf.BitsPerPixel), int(pf.ScanlinePad)
		}
	}
	if visual == 0 {
		visual = x.screen.RootVisual
	}
	for _, d := range x.screen.AllowedDepths {
		for _, v := range d.Visuals {
			if v.VisualId == visual {
				f.r, f.g, f.b = v.RedMask, v.GreenMask, v.BlueMask
			}
		}
	}
	switch {
	case f.bpp != 16 && f.bpp != 24 && f.bpp != 32:
		return f, fmt.Errorf("unsupported pixel format: depth %d, %d bits per pixel", depth, f.bpp)
	case f.r == 0 || f.g == 0 || f.b == 0:
		return f, fmt.Errorf("unsupported visual %d: not a TrueColor visual", visual)
	}
	f.bytesPerPixel = f.bpp / 8
	return f, nil
}

// decode writes a GetImage reply of w×h pixels into out starting at row y0.
func (x *x11) decode(reply *xproto.GetImageReply, out *image.RGBA, y0, w, h int) error {
	f, err := x.format(reply.Depth, reply.Visual)
	if err != nil {
		return err
	}
	stride := (w*f.bpp + f.pad - 1) / f.pad * f.pad / 8
	if len(reply.Data) < stride*h {
		return fmt.Errorf("short image reply: %d bytes for %dx%d", len(reply.Data), w, h)
	}
	for y := range h {
		src := reply.Data[y*stride:]
		dst := out.Pix[(y0+y)*out.Stride:]
		for px := range w {
			v := f.pixel(src[px*f.bytesPerPixel:])
			dst[4*px] = channel(v, f.r)
			dst[4*px+1] = channel(v, f.g)
			dst[4*px+2] = channel(v, f.b)
			dst[4*px+3] = 0xff
		}
	}
	return nil
}

func (f pixelFormat) pixel(b []byte) uint32 {
	var v uint32
	for i := range f.bytesPerPixel {
		if f.msbFirst {
			v = v<<8 | uint32(b[i])
		} else {
			v |= uint32(b[i]) << (8 * i)
		}
	}
	return v
}

// channel extracts the bits under mask and scales them to 8 bits.
func channel(v, mask uint32) uint8 {
	shift := bits.TrailingZeros32(mask)
	width := bits.OnesCount32(mask)
	c := (v & mask) >> shift
	if width >= 8 {
		return uint8(c >> (width - 8))
	}
	return uint8(c * 255 / (1<<width - 1))
}
