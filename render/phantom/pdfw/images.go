package pdfw

import (
	"github.com/platen/platen/render/phantom/draw"
)

// maxImagePixels bounds one image (a 16k × 16k picture); beyond it an image
// is not drawn.
const maxImagePixels = 1 << 28

// docImage is one image XObject of the document.
type docImage struct {
	img   *draw.Image
	ref   int
	index int
}

// imageIndex returns the resource index (/I<index>) of img, embedding it on
// first use; -1 when the image cannot be drawn (no pixels, data too short,
// an unknown kind): it is then skipped.
func (w *writer) imageIndex(img *draw.Image) int {
	if di, ok := w.imageOf[img]; ok {
		if di == nil {
			return -1
		}
		return di.index
	}
	if !validImage(img) {
		w.imageOf[img] = nil
		return -1
	}
	di := &docImage{img: img, ref: w.alloc(), index: len(w.images)}
	w.images = append(w.images, di)
	w.imageOf[img] = di
	return len(w.images) - 1
}

func validImage(img *draw.Image) bool {
	if img.Width <= 0 || img.Height <= 0 || img.Width > maxImagePixels || img.Height > maxImagePixels ||
		int64(img.Width)*int64(img.Height) > maxImagePixels {
		return false
	}
	n := int64(img.Width) * int64(img.Height)
	switch img.Kind {
	case draw.JPEG:
		return len(img.Data) > 0 && (img.Components == 1 || img.Components == 3 || img.Components == 4)
	case draw.Raster:
		if img.Components != 1 && img.Components != 3 {
			return false
		}
		if int64(len(img.Data)) < n*int64(img.Components) {
			return false
		}
		return img.Alpha == nil || int64(len(img.Alpha)) >= n
	}
	return false
}

// writeImages writes each image XObject: a JPEG as it is (DCTDecode), a
// raster compressed, with its alpha as a soft mask unless fully opaque.
func (w *writer) writeImages() {
	for _, di := range w.images {
		img := di.img
		n := img.Width * img.Height
		smask := 0
		if img.Kind == draw.Raster && img.Alpha != nil && !opaque(img.Alpha[:n]) {
			smask = w.alloc()
			d := imageDict(w.tmp[:0], img.Width, img.Height, "/DeviceGray")
			w.tmp = d
			w.putFlate(smask, d, img.Alpha[:n])
		}
		cs := "/DeviceRGB"
		switch img.Components {
		case 1:
			cs = "/DeviceGray"
		case 4:
			cs = "/DeviceCMYK"
		}
		d := imageDict(w.tmp[:0], img.Width, img.Height, cs)
		if smask > 0 {
			d = append(d, "/SMask "...)
			d = appendRef(d, smask)
		}
		if img.Kind == draw.JPEG {
			if img.Components == 4 && img.InvertCMYK {
				d = append(d, "/Decode[1 0 1 0 1 0 1 0]"...)
			}
			d = append(d, "/Filter/DCTDecode"...)
			w.tmp = d
			w.putStream(di.ref, d, img.Data)
			continue
		}
		w.tmp = d
		w.putFlate(di.ref, d, img.Data[:n*img.Components])
	}
}

func imageDict(b []byte, wd, ht int, cs string) []byte {
	b = append(b, "/Type/XObject/Subtype/Image/Width "...)
	b = appendInt(b, wd)
	b = append(b, "/Height "...)
	b = appendInt(b, ht)
	b = append(b, "/ColorSpace"...)
	b = append(b, cs...)
	return append(b, "/BitsPerComponent 8"...)
}

func opaque(a []byte) bool {
	for _, v := range a {
		if v != 255 {
			return false
		}
	}
	return true
}

// writeResources writes the one resource dictionary every page shares.
func (w *writer) writeResources() {
	b := append(w.tmp[:0], "<<"...)
	if len(w.fonts) > 0 {
		b = append(b, "/Font<<"...)
		for i, f := range w.fonts {
			b = append(b, "/F"...)
			b = appendInt(b, i)
			b = append(b, ' ')
			b = appendRef(b, f.ref)
		}
		b = append(b, ">>"...)
	}
	if len(w.images)+len(w.forms) > 0 {
		b = append(b, "/XObject<<"...)
		for i, im := range w.images {
			b = append(b, "/I"...)
			b = appendInt(b, i)
			b = append(b, ' ')
			b = appendRef(b, im.ref)
		}
		for i, f := range w.forms {
			b = append(b, "/X"...)
			b = appendInt(b, i)
			b = append(b, ' ')
			b = appendRef(b, f)
		}
		b = append(b, ">>"...)
	}
	if len(w.gstates) > 0 {
		b = append(b, "/ExtGState<<"...)
		for i, g := range w.gstates {
			b = append(b, "/G"...)
			b = appendInt(b, i)
			b = append(b, "<</ca "...)
			b = appendNum(b, float64(g.ca)/1000, 3)
			b = append(b, "/CA "...)
			b = appendNum(b, float64(g.CA)/1000, 3)
			b = append(b, ">>"...)
		}
		b = append(b, ">>"...)
	}
	b = append(b, ">>"...)
	w.tmp = b
	w.putObj(w.resources, b)
}
