package pdfw

import (
	"sync"
	"weak"

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
		var enc *encodedImage
		if img.Kind == draw.Raster {
			enc = w.encodeRaster(img)
		}
		smask := 0
		if enc != nil && enc.alpha.data != nil {
			smask = w.alloc()
			d := imageDict(w.tmp[:0], img.Width, img.Height, "/DeviceGray")
			d = enc.alpha.appendFilter(d, img.Width, 1)
			w.tmp = d
			w.putStream(smask, d, enc.alpha.data)
		}
		cs := "/DeviceRGB"
		switch img.Components {
		case 1:
			cs = "/DeviceGray"
		case 4:
			cs = "/DeviceCMYK"
			if w.opt.PDFA != "" && w.err == nil {
				// An sRGB output intent gives CMYK no meaning.
				w.err = ErrPDFACMYK
			}
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
		d = enc.color.appendFilter(d, img.Width, img.Components)
		w.tmp = d
		w.putStream(di.ref, d, enc.color.data)
	}
}

// encodedPlane is one compressed image plane.
type encodedPlane struct {
	data      []byte
	predicted bool // PNG-filtered rows (/Predictor 15)
}

func (p encodedPlane) appendFilter(d []byte, width, colors int) []byte {
	d = append(d, "/Filter/FlateDecode"...)
	if p.predicted {
		d = append(d, "/DecodeParms<</Predictor 15/Colors "...)
		d = appendInt(d, colors)
		d = append(d, "/Columns "...)
		d = appendInt(d, width)
		d = append(d, ">>"...)
	}
	return d
}

// encodedImage is a raster's compressed colour and alpha (alpha.data nil
// when the image is opaque).
type encodedImage struct {
	color, alpha encodedPlane
}

// encodeRaster compresses a raster, from the process-wide cache when the
// same image (the same pointer: images are cached and shared) was written
// before at this level.
func (w *writer) encodeRaster(img *draw.Image) *encodedImage {
	key := imageKey{weak.Make(img), w.level}
	if e := rasterCache.get(key); e != nil {
		return e
	}
	n := img.Width * img.Height
	e := &encodedImage{color: w.encodePlane(img.Data[:n*img.Components], img.Width, img.Height, img.Components)}
	if img.Alpha != nil && !opaque(img.Alpha[:n]) {
		e.alpha = w.encodePlane(img.Alpha[:n], img.Width, img.Height, 1)
	}
	rasterCache.put(key, e)
	return e
}

// encodePlane compresses pixels both as they are and PNG-filtered, and
// keeps the smaller: filtering halves photographs and gradients, while flat
// artwork (most logos) compresses best unfiltered.
func (w *writer) encodePlane(px []byte, width, height, n int) encodedPlane {
	plain := appendDeflate(nil, px, w.level)
	w.raw = appendPredicted(w.raw[:0], px, width, height, n, &w.rows)
	if len(w.raw) > maxRetained { // do not keep a huge buffer for the next document
		defer func() { w.raw = nil }()
	}
	w.zbuf.b = appendDeflate(w.zbuf.b[:0], w.raw, w.level)
	if len(w.zbuf.b) < len(plain) {
		return encodedPlane{data: append([]byte(nil), w.zbuf.b...), predicted: true}
	}
	return encodedPlane{data: plain}
}

// imageKey identifies an encoded raster: the image (weakly: the cache must
// not keep images alive) and the flate level.
type imageKey struct {
	img   weak.Pointer[draw.Image]
	level int
}

// rasterCacheBytes bounds the compressed rasters kept between documents:
// the logos and letterheads that every document of a template repeats.
const rasterCacheBytes = 16 << 20

var rasterCache = lruCache{max: rasterCacheBytes}

// lruCache keeps encoded rasters up to max bytes, dropping the least
// recently used first.
type lruCache struct {
	mu    sync.Mutex // guards all below
	max   int
	size  int
	tick  uint64
	items map[imageKey]*lruItem
}

type lruItem struct {
	e    *encodedImage
	size int
	used uint64
}

func (c *lruCache) get(k imageKey) *encodedImage {
	c.mu.Lock()
	defer c.mu.Unlock()
	it := c.items[k]
	if it == nil {
		return nil
	}
	c.tick++
	it.used = c.tick
	return it.e
}

func (c *lruCache) put(k imageKey, e *encodedImage) {
	size := len(e.color.data) + len(e.alpha.data)
	if size > c.max/4 {
		return // one image must not empty the cache
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = make(map[imageKey]*lruItem)
	}
	if _, ok := c.items[k]; ok {
		return
	}
	for c.size+size > c.max {
		var oldest imageKey
		var o *lruItem
		for k2, it := range c.items { // a scan: the cache holds few images
			if o == nil || it.used < o.used {
				oldest, o = k2, it
			}
		}
		delete(c.items, oldest)
		c.size -= o.size
	}
	c.tick++
	c.items[k] = &lruItem{e: e, size: size, used: c.tick}
	c.size += size
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
	if len(w.fonts)+len(w.t3) > 0 {
		b = append(b, "/Font<<"...)
		for i, f := range w.fonts {
			b = append(b, "/F"...)
			b = appendInt(b, i)
			b = append(b, ' ')
			b = appendRef(b, f.ref)
		}
		for i, f := range w.t3 {
			b = append(b, "/T"...)
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
	if len(w.shadings) > 0 {
		b = append(b, "/Shading<<"...)
		for i, s := range w.shadings {
			b = append(b, "/S"...)
			b = appendInt(b, i)
			b = append(b, ' ')
			b = appendRef(b, s)
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
