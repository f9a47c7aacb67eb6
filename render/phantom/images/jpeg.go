package images

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"

	"github.com/platen/platen/render/phantom/draw"
)

// jpegInfo is what the PDF writer needs to pass a JPEG through untouched,
// read from its markers without decoding it.
type jpegInfo struct {
	width, height int
	components    int
	precision     int
	sof           byte // the frame marker: 0xC0 baseline, 0xC1 extended, 0xC2 progressive, ...
	adobe         bool // an APP14 "Adobe" segment is present
	orientation   int  // EXIF orientation, 1..8 (1 when absent or invalid)
}

// readJPEG walks a JPEG's marker segments up to the first scan.
func readJPEG(data []byte) (jpegInfo, error) {
	info := jpegInfo{orientation: 1}
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return info, fmt.Errorf("%w: JPEG: no start of image", ErrCorrupt)
	}
	p := 2
	for {
		// Markers may be preceded by fill bytes (0xFF).
		if p >= len(data) || data[p] != 0xFF {
			return info, fmt.Errorf("%w: JPEG: bad marker at byte %d", ErrCorrupt, p)
		}
		for p < len(data) && data[p] == 0xFF {
			p++
		}
		if p >= len(data) {
			return info, fmt.Errorf("%w: JPEG: truncated", ErrCorrupt)
		}
		m := data[p]
		p++
		switch {
		case m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7):
			continue // no length
		case m == 0xD9:
			return info, fmt.Errorf("%w: JPEG: no image before its end", ErrCorrupt)
		}
		if p+2 > len(data) {
			return info, fmt.Errorf("%w: JPEG: truncated", ErrCorrupt)
		}
		n := int(binary.BigEndian.Uint16(data[p:]))
		if n < 2 || p+n > len(data) {
			return info, fmt.Errorf("%w: JPEG: truncated segment", ErrCorrupt)
		}
		seg := data[p+2 : p+n]
		p += n
		switch {
		case m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC:
			if len(seg) < 6 {
				return info, fmt.Errorf("%w: JPEG: short frame header", ErrCorrupt)
			}
			info.sof = m
			info.precision = int(seg[0])
			info.height = int(binary.BigEndian.Uint16(seg[1:]))
			info.width = int(binary.BigEndian.Uint16(seg[3:]))
			info.components = int(seg[5])
		case m == 0xEE:
			if bytes.HasPrefix(seg, []byte("Adobe")) {
				info.adobe = true
			}
		case m == 0xE1:
			if bytes.HasPrefix(seg, []byte("Exif\x00\x00")) && info.orientation == 1 {
				info.orientation = exifOrientation(seg[6:])
			}
		case m == 0xDA:
			if info.sof == 0 {
				return info, fmt.Errorf("%w: JPEG: scan before frame header", ErrCorrupt)
			}
			return info, nil
		}
	}
}

// exifOrientation reads tag 0x0112 from a TIFF structure's first IFD; 1 when
// it is absent or out of range.
func exifOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:4]) {
	case "II*\x00":
		bo = binary.LittleEndian
	case "MM\x00*":
		bo = binary.BigEndian
	default:
		return 1
	}
	off := int(bo.Uint32(t[4:]))
	if off < 8 || off+2 > len(t) {
		return 1
	}
	count := int(bo.Uint16(t[off:]))
	for i := range count {
		e := off + 2 + 12*i
		if e+12 > len(t) {
			return 1
		}
		if bo.Uint16(t[e:]) != 0x0112 {
			continue
		}
		if bo.Uint16(t[e+2:]) != 3 { // SHORT
			return 1
		}
		v := int(bo.Uint16(t[e+8:]))
		if v < 1 || v > 8 {
			return 1
		}
		return v
	}
	return 1
}

// loadJPEG passes a JPEG through as it is, with the facts the PDF writer
// needs. A JPEG with an EXIF orientation other than 1 is decoded, turned
// upright (Chromium applies image-orientation: from-image) and encoded again
// at high quality: that keeps it a JPEG (a tenth of the size of the same
// photograph as Flate pixels) and the display list free of orientation.
func loadJPEG(data []byte) (*draw.Image, error) {
	info, err := readJPEG(data)
	if err != nil {
		return nil, err
	}
	if err := checkSize(info.width, info.height, "JPEG"); err != nil {
		return nil, err
	}
	switch {
	case info.precision != 8:
		return nil, fmt.Errorf("%w: JPEG of %d-bit samples", ErrUnsupported, info.precision)
	case info.sof > 0xC2:
		return nil, fmt.Errorf("%w: JPEG coding (marker 0x%X) other than baseline or progressive Huffman", ErrUnsupported, info.sof)
	case info.components != 1 && info.components != 3 && info.components != 4:
		return nil, fmt.Errorf("%w: JPEG of %d components", ErrUnsupported, info.components)
	}
	if info.orientation != 1 {
		return orientJPEG(data, info.orientation)
	}
	return &draw.Image{
		Kind:       draw.JPEG,
		Width:      info.width,
		Height:     info.height,
		Data:       data,
		Components: info.components,
		InvertCMYK: info.components == 4 && info.adobe,
	}, nil
}

// jpegQuality is the quality of a re-encoded (re-oriented) JPEG: high
// enough that the second generation cannot be told from the first in print.
const jpegQuality = 95

func orientJPEG(data []byte, orientation int) (*draw.Image, error) {
	m, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: JPEG: %v", ErrCorrupt, err)
	}
	var src image.Image
	if g, ok := m.(*image.Gray); ok {
		w, h := orientedSize(g.Rect.Dx(), g.Rect.Dy(), orientation)
		src = &image.Gray{Pix: orient(g.Pix, g.Stride, 1, g.Rect.Dx(), g.Rect.Dy(), orientation), Stride: w, Rect: image.Rect(0, 0, w, h)}
	} else {
		c := toRGBA(m)
		w, h := orientedSize(c.Rect.Dx(), c.Rect.Dy(), orientation)
		src = &image.RGBA{Pix: orient(c.Pix, c.Stride, 4, c.Rect.Dx(), c.Rect.Dy(), orientation), Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, src, &jpeg.Options{Quality: jpegQuality}); err != nil {
		return nil, fmt.Errorf("%w: JPEG: re-encoding: %v", ErrCorrupt, err)
	}
	b := src.Bounds()
	comps := 3
	if _, ok := src.(*image.Gray); ok {
		comps = 1
	}
	return &draw.Image{Kind: draw.JPEG, Width: b.Dx(), Height: b.Dy(), Data: buf.Bytes(), Components: comps}, nil
}

// orientedSize is the size of a w x h picture once turned upright.
func orientedSize(w, h, o int) (int, int) {
	if o >= 5 {
		return h, w
	}
	return w, h
}

// orient returns the pixels (bpp bytes each) of a w x h picture turned
// upright for an EXIF orientation: flips for 2 and 4, a half turn for 3, the
// transpose for 5, quarter turns for 6 (the picture turned clockwise) and 8,
// and the transverse for 7. The result's stride is its width times bpp.
func orient(pix []byte, stride, bpp, w, h, o int) []byte {
	dw, dh := orientedSize(w, h, o)
	out := make([]byte, dw*dh*bpp)
	for y := range h {
		row := pix[y*stride:]
		for x := range w {
			var dx, dy int
			switch o {
			case 2:
				dx, dy = w-1-x, y
			case 3:
				dx, dy = w-1-x, h-1-y
			case 4:
				dx, dy = x, h-1-y
			case 5:
				dx, dy = y, x
			case 6:
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8:
				dx, dy = y, w-1-x
			default:
				dx, dy = x, y
			}
			d := (dy*dw + dx) * bpp
			copy(out[d:d+bpp], row[x*bpp:(x+1)*bpp])
		}
	}
	return out
}
