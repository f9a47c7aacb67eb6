package images

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/platen/platen/render/phantom/draw"
)

// MaxPixels is the largest raster accepted (50 megapixels): decoding one
// takes 200 MB of RGBA, which is as much as a worker may spend on an image.
const MaxPixels = 50_000_000

// MaxBytes is the largest payload accepted (20 MB decoded from the URI).
// Template assets are at most 1 MB; data from a request is bounded too.
const MaxBytes = 20 << 20

// ErrTooLarge is returned for an image over MaxPixels or MaxBytes, found
// before its pixels are decoded.
var ErrTooLarge = errors.New("images: image too large")

// ErrUnsupported is returned for a payload that is no image type phantom (and
// Chromium) reads, or an SVG served under another media type.
var ErrUnsupported = errors.New("images: unsupported image type")

// ErrCorrupt is returned for an image whose data cannot be decoded.
var ErrCorrupt = errors.New("images: corrupt image")

// Image is a loaded image: exactly one of Raster and SVG is set. It is shared
// by every document that uses the same bytes, so it is read-only.
type Image struct {
	Raster *draw.Image // nil for SVG
	SVG    *SVG
	// Width and Height are the intrinsic size in CSS px (0 when unknown). For
	// a raster they are its pixel dimensions, after EXIF orientation, as
	// Chromium ignores PNG pHYs and JPEG density for layout. For an SVG they
	// come from the root's width and height attributes in absolute units, the
	// missing one derived from the ratio; with no ratio either, a missing one
	// is CSS's default 300 or 150 (Chromium: <svg width="100"> is 100x150).
	// An SVG with a viewBox and neither attribute (or percentages) has
	// Width = Height = 0 and only a Ratio: Chromium then fills the
	// containing block's width in a block (600px wide gives 600x300 for a
	// 2:1 viewBox) and shrinks to 0x0 in a shrink-to-fit context.
	Width, Height float64
	// Ratio is the intrinsic aspect ratio, width / height, 0 when none. With
	// a CSS width only, layout derives the height from Ratio, never from
	// Width and Height (an SVG without one keeps its 150px height).
	Ratio float64
}

// Load decodes an <img src> or CSS url(): data: URIs only; anything else is
// an error the caller records as a failed asset. Results, errors included,
// are cached process-wide by the SHA-256 of the decoded bytes, so the same
// logo in every document is decoded once and is the same *Image each time.
func Load(src string) (*Image, error) {
	if !isDataURI(src) {
		_, _, err := dataURI(src)
		return nil, err
	}
	alias := hashString(src)
	if img, err, ok := cache.lookup(alias); ok {
		return img, err
	}
	mime, data, err := dataURI(src)
	if err != nil {
		return nil, err
	}
	key := cacheKey{sum: sha256.Sum256(data), kind: kindOf(mime)}
	return cache.get(key, &alias, func() (*Image, int, error) {
		return decode(mime, data)
	})
}

// InlineSVG loads an <svg> element of an HTML document, serialised with
// html.Render: the same drawing as an SVG image, except that the markup is
// not a URL (no percent-decoding, '#' is no fragment), elements without a
// namespace are SVG's, and HTML entities are known. It is cached like Load.
// An inline <svg> also takes the page's CSS, which this does not apply.
func InlineSVG(markup string) (*Image, error) {
	if len(markup) > MaxBytes {
		return nil, fmt.Errorf("%w: inline SVG of %d bytes; the limit is %d", ErrTooLarge, len(markup), MaxBytes)
	}
	key := cacheKey{sum: hashString(markup), kind: keyInlineSVG}
	return cache.get(key, nil, func() (*Image, int, error) {
		return decodeSVG([]byte(markup), true)
	})
}

// hashString is the SHA-256 of s, without copying s whole into a []byte.
func hashString(s string) [32]byte {
	h := sha256.New()
	var buf [4096]byte
	for len(s) > 0 {
		n := copy(buf[:], s)
		h.Write(buf[:n])
		s = s[n:]
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// isSVGType reports whether Chromium would treat a payload of this MIME type
// as SVG: only image/svg+xml is (an SVG under any other type is not drawn).
func isSVGType(mime string) bool { return mime == "image/svg+xml" }

// decode builds an Image from a payload and returns its size in bytes for the
// cache's bound.
func decode(mime string, data []byte) (*Image, int, error) {
	if isSVGType(mime) {
		return decodeSVG(data, false)
	}
	r, err := decodeRaster(data)
	if err != nil {
		return nil, 0, err
	}
	img := &Image{Raster: r, Width: float64(r.Width), Height: float64(r.Height)}
	if r.Height > 0 {
		img.Ratio = float64(r.Width) / float64(r.Height)
	}
	return img, len(r.Data) + len(r.Alpha), nil
}

func decodeSVG(data []byte, inline bool) (*Image, int, error) {
	s, err := parseSVG(data, inline)
	if err != nil {
		return nil, 0, err
	}
	img := &Image{SVG: s}
	img.Width, img.Height, img.Ratio = s.intrinsic()
	return img, s.cost, nil
}

// sniff names the raster format of data from its signature, as Chromium's
// ImageDecoder does: the declared media type plays no part.
func sniff(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "jpeg"
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "gif"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "webp"
	case bytes.HasPrefix(data, []byte("BM")):
		return "bmp"
	case bytes.HasPrefix(data, []byte("\x00\x00\x01\x00")), bytes.HasPrefix(data, []byte("\x00\x00\x02\x00")):
		return "ico"
	case len(data) >= 12 && string(data[4:8]) == "ftyp":
		return "avif"
	}
	return ""
}

func unsupported(data []byte) error {
	if looksLikeSVG(data) {
		return fmt.Errorf("%w: SVG content must be declared as image/svg+xml (Chromium draws nothing otherwise)", ErrUnsupported)
	}
	return fmt.Errorf("%w: not PNG, JPEG, GIF, WebP or SVG", ErrUnsupported)
}

func looksLikeSVG(data []byte) bool {
	head := data[:min(len(data), 1024)]
	return bytes.Contains(head, []byte("<svg"))
}
