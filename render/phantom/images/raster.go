package images

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	stddraw "image/draw"
	"image/gif"
	"image/png"
	"io"

	"golang.org/x/image/webp"

	"github.com/platen/platen/render/phantom/draw"
)

// decodeRaster sniffs and decodes a raster payload. Sizes are checked with
// DecodeConfig before any pixel is decoded.
func decodeRaster(data []byte) (*draw.Image, error) {
	switch sniff(data) {
	case "png":
		return decodeWith(data, png.DecodeConfig, png.Decode, "PNG")
	case "gif":
		return decodeGIF(data)
	case "webp":
		return decodeWith(data, webp.DecodeConfig, webp.Decode, "WebP")
	case "jpeg":
		return loadJPEG(data)
	case "bmp", "ico", "avif":
		return nil, fmt.Errorf("%w: BMP, ICO and AVIF are not supported by phantom", ErrUnsupported)
	}
	return nil, unsupported(data)
}

// checkSize refuses dimensions that are empty or over MaxPixels.
func checkSize(w, h int, format string) error {
	if w <= 0 || h <= 0 {
		return fmt.Errorf("%w: %s of %dx%d pixels", ErrCorrupt, format, w, h)
	}
	if int64(w)*int64(h) > MaxPixels {
		return fmt.Errorf("%w: %s of %dx%d pixels; the limit is %d megapixels", ErrTooLarge, format, w, h, MaxPixels/1_000_000)
	}
	return nil
}

func decodeWith(data []byte, config func(r io.Reader) (image.Config, error), dec func(r io.Reader) (image.Image, error), format string) (*draw.Image, error) {
	cfg, err := config(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, format, err)
	}
	if err := checkSize(cfg.Width, cfg.Height, format); err != nil {
		return nil, err
	}
	m, err := dec(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, format, err)
	}
	return toRaster(m), nil
}

// decodeGIF decodes a GIF's first frame onto its logical screen, transparent
// where the frame does not cover it, as Chromium shows a GIF in print.
func decodeGIF(data []byte) (*draw.Image, error) {
	cfg, err := gif.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: GIF: %v", ErrCorrupt, err)
	}
	if err := checkSize(cfg.Width, cfg.Height, "GIF"); err != nil {
		return nil, err
	}
	m, err := gif.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: GIF: %v", ErrCorrupt, err)
	}
	screen := image.Rect(0, 0, cfg.Width, cfg.Height)
	if m.Bounds() != screen {
		canvas := image.NewNRGBA(screen)
		stddraw.Draw(canvas, m.Bounds().Intersect(screen), m, m.Bounds().Min, stddraw.Src)
		return toRaster(canvas), nil
	}
	return toRaster(m), nil
}

// toRaster converts a decoded image into the display list's planes: 8-bit RGB
// or Gray colour and straight (not premultiplied) alpha. The alpha plane is
// dropped when every pixel is opaque, and RGB becomes Gray when every pixel
// is gray, so the PDF holds no more than the picture needs.
func toRaster(m image.Image) *draw.Image {
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	n := w * h
	rgb := make([]byte, 3*n)
	alpha := make([]byte, n)
	gray := false
	switch m := m.(type) {
	case *image.Gray:
		gray = true
		rgb = rgb[:n]
		for y := range h {
			copy(rgb[y*w:(y+1)*w], m.Pix[y*m.Stride:y*m.Stride+w])
		}
		for i := range alpha {
			alpha[i] = 255
		}
	case *image.Gray16:
		gray = true
		rgb = rgb[:n]
		for y := range h {
			row := m.Pix[y*m.Stride:]
			for x := range w {
				rgb[y*w+x] = row[2*x]
			}
		}
		for i := range alpha {
			alpha[i] = 255
		}
	case *image.NRGBA:
		for y := range h {
			row := m.Pix[y*m.Stride : y*m.Stride+4*w]
			o := y * w
			for x := range w {
				p := row[4*x : 4*x+4 : 4*x+4]
				rgb[3*(o+x)], rgb[3*(o+x)+1], rgb[3*(o+x)+2] = p[0], p[1], p[2]
				alpha[o+x] = p[3]
			}
		}
	case *image.NRGBA64:
		for y := range h {
			row := m.Pix[y*m.Stride : y*m.Stride+8*w]
			o := y * w
			for x := range w {
				p := row[8*x : 8*x+8 : 8*x+8]
				rgb[3*(o+x)], rgb[3*(o+x)+1], rgb[3*(o+x)+2] = p[0], p[2], p[4]
				alpha[o+x] = p[6]
			}
		}
	case *image.Paletted:
		var pal [256][4]byte
		for i, c := range m.Palette {
			nc := color.NRGBAModel.Convert(c).(color.NRGBA)
			pal[i] = [4]byte{nc.R, nc.G, nc.B, nc.A}
		}
		for y := range h {
			row := m.Pix[y*m.Stride : y*m.Stride+w]
			o := y * w
			for x, ci := range row {
				p := pal[ci]
				rgb[3*(o+x)], rgb[3*(o+x)+1], rgb[3*(o+x)+2] = p[0], p[1], p[2]
				alpha[o+x] = p[3]
			}
		}
	case *image.NYCbCrA:
		fromRGBA(toRGBA(&m.YCbCr), rgb, alpha)
		for y := range h {
			copy(alpha[y*w:(y+1)*w], m.A[y*m.AStride:y*m.AStride+w])
		}
	case *image.RGBA:
		fromRGBA(m, rgb, alpha)
	default:
		fromRGBA(toRGBA(m), rgb, alpha)
	}
	if !gray && allGray(rgb) {
		for i := range n {
			rgb[i] = rgb[3*i]
		}
		rgb, gray = rgb[:n], true
	}
	r := &draw.Image{Kind: draw.Raster, Width: w, Height: h, Data: rgb, Components: 3}
	if gray {
		r.Components = 1
	}
	if !allOpaque(alpha) {
		r.Alpha = alpha
	}
	return r
}

// toRGBA draws any image into an RGBA one; image/draw has fast paths for the
// types decoders return (YCbCr, CMYK, Gray).
func toRGBA(m image.Image) *image.RGBA {
	b := m.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	stddraw.Draw(out, out.Bounds(), m, b.Min, stddraw.Src)
	return out
}

// fromRGBA splits premultiplied RGBA into straight RGB and alpha.
func fromRGBA(m *image.RGBA, rgb, alpha []byte) {
	w, h := m.Bounds().Dx(), m.Bounds().Dy()
	for y := range h {
		row := m.Pix[y*m.Stride : y*m.Stride+4*w]
		o := y * w
		for x := range w {
			p := row[4*x : 4*x+4 : 4*x+4]
			r, g, bl, a := p[0], p[1], p[2], p[3]
			if a != 255 && a != 0 {
				r = byte((uint32(r)*255 + uint32(a)/2) / uint32(a))
				g = byte((uint32(g)*255 + uint32(a)/2) / uint32(a))
				bl = byte((uint32(bl)*255 + uint32(a)/2) / uint32(a))
			}
			rgb[3*(o+x)], rgb[3*(o+x)+1], rgb[3*(o+x)+2] = r, g, bl
			alpha[o+x] = a
		}
	}
}

func allGray(rgb []byte) bool {
	for i := 0; i+2 < len(rgb); i += 3 {
		if rgb[i] != rgb[i+1] || rgb[i] != rgb[i+2] {
			return false
		}
	}
	return true
}

func allOpaque(a []byte) bool {
	for _, v := range a {
		if v != 255 {
			return false
		}
	}
	return true
}
