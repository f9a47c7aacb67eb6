package images

import (
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

func encodePNG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func uri(mime string, data []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}

func pngURI(t testing.TB, m image.Image) string { return uri("image/png", encodePNG(t, m)) }

func mustLoad(t *testing.T, src string) *Image {
	t.Helper()
	img, err := Load(src)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return img
}

func TestLoadPNGWithAlpha(t *testing.T) {
	m := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	m.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 128})
	m.SetNRGBA(1, 0, color.NRGBA{0, 255, 0, 255})
	img := mustLoad(t, pngURI(t, m))
	r := img.Raster
	if r == nil || r.Kind != draw.Raster || r.Width != 3 || r.Height != 2 || r.Components != 3 {
		t.Fatalf("raster = %+v", r)
	}
	if img.Width != 3 || img.Height != 2 || img.Ratio != 1.5 || img.SVG != nil {
		t.Errorf("image = %+v", img)
	}
	if len(r.Alpha) != 6 || r.Alpha[0] != 128 || r.Alpha[1] != 255 || r.Alpha[2] != 0 {
		t.Errorf("alpha = %v", r.Alpha)
	}
	if !bytes.Equal(r.Data[:6], []byte{255, 0, 0, 0, 255, 0}) {
		t.Errorf("data = %v, want straight (not premultiplied) colour", r.Data[:6])
	}
}

func TestLoadPNGKinds(t *testing.T) {
	opaque := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	for i := range opaque.Pix {
		opaque.Pix[i] = 255
	}
	opaque.SetNRGBA(0, 0, color.NRGBA{10, 20, 30, 255})

	grayAlpha := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	grayAlpha.SetNRGBA(0, 0, color.NRGBA{77, 77, 77, 200})
	grayAlpha.SetNRGBA(1, 0, color.NRGBA{9, 9, 9, 255})

	gray := image.NewGray(image.Rect(0, 0, 2, 1))
	gray.Pix = []byte{5, 250}

	gray16 := image.NewGray16(image.Rect(0, 0, 1, 1))
	gray16.SetGray16(0, 0, color.Gray16{Y: 0xABCD})

	rgba64 := image.NewNRGBA64(image.Rect(0, 0, 1, 1))
	rgba64.SetNRGBA64(0, 0, color.NRGBA64{R: 0x1234, G: 0x5678, B: 0x9ABC, A: 0x8000})

	pal := image.NewPaletted(image.Rect(0, 0, 2, 1), color.Palette{color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 0}})
	pal.Pix = []byte{0, 1}

	for _, tc := range []struct {
		name  string
		m     image.Image
		comps int
		data  []byte
		alpha []byte // nil: no alpha plane
	}{
		{"opaque RGBA drops its alpha", opaque, 3, []byte{10, 20, 30, 255, 255, 255, 255, 255, 255, 255, 255, 255}, nil},
		{"gray and alpha", grayAlpha, 1, []byte{77, 9}, []byte{200, 255}},
		{"gray", gray, 1, []byte{5, 250}, nil},
		{"16-bit gray to 8", gray16, 1, []byte{0xAB}, nil},
		{"16-bit RGBA to 8", rgba64, 3, []byte{0x12, 0x56, 0x9A}, []byte{0x80}},
		{"palette with transparency", pal, 3, []byte{255, 0, 0, 0, 0, 255}, []byte{255, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustLoad(t, pngURI(t, tc.m)).Raster
			if r.Kind != draw.Raster || r.Components != tc.comps || !bytes.Equal(r.Data, tc.data) || !bytes.Equal(r.Alpha, tc.alpha) {
				t.Errorf("got comps %d data %v alpha %v; want %d %v %v", r.Components, r.Data, r.Alpha, tc.comps, tc.data, tc.alpha)
			}
			if (tc.alpha == nil) != (r.Alpha == nil) {
				t.Errorf("alpha plane present = %v", r.Alpha != nil)
			}
		})
	}
}

// interlacedPNG writes an Adam7-interlaced 8-bit RGB PNG of m (the standard
// library only writes non-interlaced ones).
func interlacedPNG(t *testing.T, m *image.NRGBA) []byte {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	passes := [7][4]int{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}}
	var raw bytes.Buffer
	for _, p := range passes {
		for y := p[1]; y < h; y += p[3] {
			if p[0] >= w {
				break
			}
			raw.WriteByte(0)
			for x := p[0]; x < w; x += p[2] {
				c := m.NRGBAAt(x, y)
				raw.Write([]byte{c.R, c.G, c.B})
			}
		}
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(raw.Bytes())
	zw.Close()
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr, uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9], ihdr[12] = 8, 2, 1 // 8-bit RGB, Adam7
	return pngFile(ihdr, z.Bytes())
}

func pngChunk(buf *bytes.Buffer, typ string, data []byte) {
	binary.Write(buf, binary.BigEndian, uint32(len(data)))
	buf.WriteString(typ)
	buf.Write(data)
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	binary.Write(buf, binary.BigEndian, crc.Sum32())
}

func pngFile(ihdr, idat []byte) []byte {
	var buf bytes.Buffer
	buf.WriteString("\x89PNG\r\n\x1a\n")
	pngChunk(&buf, "IHDR", ihdr)
	if idat != nil {
		pngChunk(&buf, "IDAT", idat)
	}
	pngChunk(&buf, "IEND", nil)
	return buf.Bytes()
}

func TestLoadInterlacedPNG(t *testing.T) {
	m := image.NewNRGBA(image.Rect(0, 0, 9, 5))
	for y := range 5 {
		for x := range 9 {
			m.SetNRGBA(x, y, color.NRGBA{uint8(20 * x), uint8(40 * y), 7, 255})
		}
	}
	r := mustLoad(t, uri("image/png", interlacedPNG(t, m))).Raster
	if r.Width != 9 || r.Height != 5 || r.Alpha != nil {
		t.Fatalf("raster %dx%d alpha %v", r.Width, r.Height, r.Alpha != nil)
	}
	for y := range 5 {
		for x := range 9 {
			i := 3 * (y*9 + x)
			if r.Data[i] != uint8(20*x) || r.Data[i+1] != uint8(40*y) || r.Data[i+2] != 7 {
				t.Fatalf("pixel %d,%d = %v", x, y, r.Data[i:i+3])
			}
		}
	}
}

func encodeJPEG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLoadJPEGPassesThrough(t *testing.T) {
	rgb := encodeJPEG(t, image.NewRGBA(image.Rect(0, 0, 7, 3)))
	gray := encodeJPEG(t, image.NewGray(image.Rect(0, 0, 4, 5)))
	for _, tc := range []struct {
		data        []byte
		w, h, comps int
	}{{rgb, 7, 3, 3}, {gray, 4, 5, 1}} {
		img := mustLoad(t, uri("image/jpeg", tc.data))
		r := img.Raster
		if r.Kind != draw.JPEG || !bytes.Equal(r.Data, tc.data) || r.Width != tc.w || r.Height != tc.h || r.Components != tc.comps || r.InvertCMYK {
			t.Errorf("raster = kind %v %dx%d comps %d invert %v, untouched %v", r.Kind, r.Width, r.Height, r.Components, r.InvertCMYK, bytes.Equal(r.Data, tc.data))
		}
		if img.Width != float64(tc.w) || img.Height != float64(tc.h) {
			t.Errorf("intrinsic %vx%v", img.Width, img.Height)
		}
	}
}

// jpegMarkers builds a JPEG's header: SOI, the given segments, a frame
// header of comps components, and the start of a scan (enough for the
// pass-through, which reads no further).
func jpegMarkers(w, h, comps int, segs ...[]byte) []byte {
	var b bytes.Buffer
	b.Write([]byte{0xFF, 0xD8})
	for _, s := range segs {
		b.Write(s)
	}
	sof := []byte{0xFF, 0xC0, 0, byte(8 + 3*comps), 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(comps)}
	for i := range comps {
		sof = append(sof, byte(i+1), 0x11, 0)
	}
	b.Write(sof)
	b.Write([]byte{0xFF, 0xDA, 0, 2})
	b.Write([]byte{0, 0, 0xFF, 0xD9})
	return b.Bytes()
}

var adobeAPP14 = []byte{0xFF, 0xEE, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 2}

func TestLoadCMYKJPEG(t *testing.T) {
	for _, tc := range []struct {
		name   string
		data   []byte
		comps  int
		invert bool
	}{
		{"Adobe CMYK is stored inverted", jpegMarkers(10, 20, 4, adobeAPP14), 4, true},
		{"CMYK without Adobe marker", jpegMarkers(10, 20, 4), 4, false},
		{"Adobe RGB is not inverted", jpegMarkers(10, 20, 3, adobeAPP14), 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustLoad(t, uri("image/jpeg", tc.data)).Raster
			if r.Kind != draw.JPEG || r.Components != tc.comps || r.InvertCMYK != tc.invert || r.Width != 10 || r.Height != 20 {
				t.Errorf("got %+v", *r)
			}
		})
	}
}

// exifAPP1 is an APP1 Exif segment holding only an orientation tag.
func exifAPP1(orientation int, bo binary.ByteOrder) []byte {
	tiff := make([]byte, 8+2+12+4)
	if bo == binary.LittleEndian {
		copy(tiff, "II*\x00")
	} else {
		copy(tiff, "MM\x00*")
	}
	bo.PutUint32(tiff[4:], 8)
	bo.PutUint16(tiff[8:], 1)
	bo.PutUint16(tiff[10:], 0x0112)
	bo.PutUint16(tiff[12:], 3)
	bo.PutUint32(tiff[14:], 1)
	bo.PutUint16(tiff[18:], uint16(orientation))
	seg := append([]byte("Exif\x00\x00"), tiff...)
	return append([]byte{0xFF, 0xE1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)}, seg...)
}

func withSegment(jpg, seg []byte) []byte {
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

func TestLoadJPEGAppliesEXIFOrientation(t *testing.T) {
	// 32x16: the left half red, the right half blue; in 8x8 blocks so the
	// colours survive JPEG.
	m := image.NewRGBA(image.Rect(0, 0, 32, 16))
	for y := range 16 {
		for x := range 32 {
			c := color.RGBA{255, 0, 0, 255}
			if x >= 16 {
				c = color.RGBA{0, 0, 255, 255}
			}
			m.SetRGBA(x, y, c)
		}
	}
	src := encodeJPEG(t, m)
	red := func(c color.Color) bool { r, g, b, _ := c.RGBA(); return r > 0xC000 && g < 0x4000 && b < 0x4000 }
	blue := func(c color.Color) bool { r, g, b, _ := c.RGBA(); return b > 0xC000 && g < 0x4000 && r < 0x4000 }
	for _, tc := range []struct {
		o             int
		w, h          int
		redAt, blueAt image.Point
	}{
		{1, 32, 16, image.Pt(4, 8), image.Pt(28, 8)},
		{2, 32, 16, image.Pt(28, 8), image.Pt(4, 8)}, // mirrored
		{3, 32, 16, image.Pt(28, 8), image.Pt(4, 8)}, // half turn
		{6, 16, 32, image.Pt(8, 4), image.Pt(8, 28)}, // turned clockwise: left goes up
		{8, 16, 32, image.Pt(8, 28), image.Pt(8, 4)}, // counter-clockwise: left goes down
		{5, 16, 32, image.Pt(8, 4), image.Pt(8, 28)}, // transpose
		{7, 16, 32, image.Pt(8, 28), image.Pt(8, 4)}, // transverse
	} {
		data := withSegment(src, exifAPP1(tc.o, binary.BigEndian))
		if tc.o == 6 {
			data = withSegment(src, exifAPP1(tc.o, binary.LittleEndian))
		}
		img := mustLoad(t, uri("image/jpeg", data))
		r := img.Raster
		if r.Kind != draw.JPEG || r.Width != tc.w || r.Height != tc.h || img.Width != float64(tc.w) || img.Height != float64(tc.h) {
			t.Errorf("orientation %d: kind %v %dx%d (intrinsic %vx%v), want %dx%d", tc.o, r.Kind, r.Width, r.Height, img.Width, img.Height, tc.w, tc.h)
			continue
		}
		if tc.o == 1 && !bytes.Equal(r.Data, data) {
			t.Errorf("orientation 1: not passed through")
		}
		dec, err := jpeg.Decode(bytes.NewReader(r.Data))
		if err != nil {
			t.Fatalf("orientation %d: stored JPEG does not decode: %v", tc.o, err)
		}
		if !red(dec.At(tc.redAt.X, tc.redAt.Y)) || !blue(dec.At(tc.blueAt.X, tc.blueAt.Y)) {
			t.Errorf("orientation %d: red at %v is %v, blue at %v is %v", tc.o, tc.redAt, dec.At(tc.redAt.X, tc.redAt.Y), tc.blueAt, dec.At(tc.blueAt.X, tc.blueAt.Y))
		}
	}
}

func TestLoadGIFFirstFrame(t *testing.T) {
	pal := color.Palette{color.RGBA{0, 0, 0, 0}, color.RGBA{0, 200, 0, 255}, color.RGBA{200, 0, 0, 255}}
	f1 := image.NewPaletted(image.Rect(1, 1, 3, 2), pal) // smaller than the screen
	f1.Pix = []byte{1, 0}
	f2 := image.NewPaletted(image.Rect(0, 0, 4, 3), pal)
	for i := range f2.Pix {
		f2.Pix[i] = 2
	}
	var buf bytes.Buffer
	err := gif.EncodeAll(&buf, &gif.GIF{
		Image: []*image.Paletted{f1, f2}, Delay: []int{10, 10},
		Config: image.Config{ColorModel: pal, Width: 4, Height: 3},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := mustLoad(t, uri("image/gif", buf.Bytes())).Raster
	if r.Width != 4 || r.Height != 3 || r.Components != 3 || r.Alpha == nil {
		t.Fatalf("raster %dx%d comps %d alpha %v", r.Width, r.Height, r.Components, r.Alpha != nil)
	}
	// Only (1,1) is painted (green); the rest of the screen is transparent.
	for i, a := range r.Alpha {
		want := byte(0)
		if i == 1*4+1 {
			want = 255
		}
		if a != want {
			t.Fatalf("alpha[%d] = %d, want %d (plane %v)", i, a, want, r.Alpha)
		}
	}
	if g := r.Data[3*5 : 3*5+3]; !bytes.Equal(g, []byte{0, 200, 0}) {
		t.Errorf("pixel (1,1) = %v", g)
	}
}

func TestLoadWebP(t *testing.T) {
	for _, tc := range []struct {
		file string
		w, h int
	}{{"gopher-doc.1bpp.lossless.webp", 0, 0}, {"blue-purple-pink.lossy.webp", 0, 0}} {
		data, err := os.ReadFile("testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		img := mustLoad(t, uri("image/webp", data))
		r := img.Raster
		if r.Kind != draw.Raster || r.Width <= 0 || len(r.Data) != r.Width*r.Height*r.Components {
			t.Errorf("%s: %dx%d comps %d, %d bytes", tc.file, r.Width, r.Height, r.Components, len(r.Data))
		}
	}
}

func TestSniffingIgnoresDeclaredType(t *testing.T) {
	data := encodePNG(t, image.NewGray(image.Rect(0, 0, 2, 2)))
	for _, src := range []string{
		uri("image/jpeg", data),
		uri("", data),
		"data:;base64," + base64.StdEncoding.EncodeToString(data),
		"data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(data),
	} {
		img, err := Load(src)
		if err != nil || img.Raster == nil || img.Raster.Width != 2 {
			t.Errorf("Load(%.40q) = %v, %v", src, img, err)
		}
	}
}

func TestDataURIForms(t *testing.T) {
	data := encodePNG(t, image.NewGray(image.Rect(0, 0, 3, 1)))
	b64 := base64.StdEncoding.EncodeToString(data)
	want := mustLoad(t, uri("image/png", data))
	for name, src := range map[string]string{
		"percent-encoded":         "data:image/png," + url.PathEscape(string(data)),
		"upper-case scheme":       "DATA:image/png;BASE64," + b64,
		"whitespace and newlines": "  data:image/png;base64," + b64[:10] + "\n  " + b64[10:] + " ",
		"no padding":              "data:image/png;base64," + strings.TrimRight(b64, "="),
		"parameters":              "data:image/png;name=logo.png;base64," + b64,
		"base64 after spaces":     "data:image/png; base64," + b64,
		"percent-encoded base64":  "data:image/png;base64," + strings.ReplaceAll(b64, "+", "%2B"),
	} {
		img, err := Load(src)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if img != want {
			t.Errorf("%s: a different *Image for the same bytes", name)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	png1 := encodePNG(t, image.NewGray(image.Rect(0, 0, 4, 4)))
	giant := make([]byte, 13)
	binary.BigEndian.PutUint32(giant, 100_000)
	binary.BigEndian.PutUint32(giant[4:], 100_000)
	giant[8], giant[9] = 8, 6
	for _, tc := range []struct {
		name string
		src  string
		want error
	}{
		{"http URL", "http://example.com/logo.png", ErrNotDataURI},
		{"https URL", "https://example.com/logo.png", ErrNotDataURI},
		{"file URL", "file:///etc/passwd", ErrNotDataURI},
		{"relative path", "img/logo.png", ErrNotDataURI},
		{"empty", "", ErrNotDataURI},
		{"no comma", "data:image/png;base64", ErrBadDataURI},
		{"bad base64", "data:image/png;base64,@@@@", ErrBadDataURI},
		{"base64 of impossible length", "data:image/png;base64,AAAAA", ErrBadDataURI},
		{"truncated PNG", uri("image/png", png1[:len(png1)/2]), ErrCorrupt},
		{"PNG header only", uri("image/png", png1[:8]), ErrCorrupt},
		{"giant PNG", uri("image/png", pngFile(giant, []byte{1, 2, 3})), ErrTooLarge},
		{"giant JPEG", uri("image/jpeg", jpegMarkers(65535, 65535, 3)), ErrTooLarge},
		{"zero-height JPEG", uri("image/jpeg", jpegMarkers(10, 0, 3)), ErrCorrupt},
		{"truncated JPEG", uri("image/jpeg", []byte{0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8}), ErrCorrupt},
		{"12-bit JPEG", uri("image/jpeg", bytes.Replace(jpegMarkers(10, 10, 3), []byte{0xFF, 0xC0, 0, 17, 8}, []byte{0xFF, 0xC0, 0, 17, 12}, 1)), ErrUnsupported},
		{"text", "data:text/plain,hello", ErrUnsupported},
		{"SVG as image/png", uri("image/png", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)), ErrUnsupported},
		{"SVG without a type", "data:," + url.PathEscape(`<svg xmlns="http://www.w3.org/2000/svg"/>`), ErrUnsupported},
		{"BMP", uri("image/bmp", []byte("BM\x00\x00\x00\x00")), ErrUnsupported},
		{"over 20 MB", "data:image/png;base64," + strings.Repeat("A", (MaxBytes/3+10)*4), ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img, err := Load(tc.src)
			if !errors.Is(err, tc.want) || img != nil {
				t.Errorf("Load = %v, %v; want %v", img, err, tc.want)
			}
		})
	}
}

func TestErrorNamesTheScheme(t *testing.T) {
	_, err := Load("https://cdn.example.com/" + strings.Repeat("x", 5000) + ".png")
	if err == nil || !strings.Contains(err.Error(), "https:") || len(err.Error()) > 200 {
		t.Errorf("error = %v", err)
	}
}

func TestCacheReturnsTheSameImage(t *testing.T) {
	m := image.NewRGBA(image.Rect(0, 0, 5, 5))
	m.Pix[0] = 42 // unlike other tests' images
	src := pngURI(t, m)
	var wg sync.WaitGroup
	got := make([]*Image, 16)
	for i := range got {
		wg.Go(func() {
			img, err := Load(src)
			if err != nil {
				t.Error(err)
			}
			got[i] = img
		})
	}
	wg.Wait()
	for _, img := range got {
		if img != got[0] || img == nil {
			t.Fatalf("concurrent loads gave different images")
		}
	}
	// Errors are cached too, and the same bytes under another URI are the
	// same image.
	if img := mustLoad(t, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(encodePNG(t, m))); img != got[0] {
		t.Errorf("same bytes, new URI string: different image")
	}
}

func TestCacheDecodesOnce(t *testing.T) {
	c := newLRU(10, 1000)
	calls := 0
	var mu sync.Mutex
	load := func() (*Image, int, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		return &Image{}, 10, nil
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { c.get(cacheKey{sum: [32]byte{1}}, nil, load) })
	}
	wg.Wait()
	if calls != 1 {
		t.Errorf("load ran %d times", calls)
	}
}

func TestCacheBounds(t *testing.T) {
	c := newLRU(3, 100)
	key := func(i byte) cacheKey { return cacheKey{sum: [32]byte{i}} }
	imgs := map[byte]*Image{}
	for i := range byte(5) {
		img, _ := c.get(key(i), nil, func() (*Image, int, error) { return &Image{}, 10, nil })
		imgs[i] = img
	}
	if n, b := c.stats(); n != 3 || b != 30 {
		t.Errorf("entries %d bytes %d, want 3 and 30", n, b)
	}
	// The oldest were evicted: loading key 0 runs load again.
	again, _ := c.get(key(0), nil, func() (*Image, int, error) { return &Image{}, 10, nil })
	if again == imgs[0] {
		t.Errorf("evicted entry still cached")
	}
	// Key 4 is still there.
	if img, _ := c.get(key(4), nil, func() (*Image, int, error) { return &Image{}, 10, nil }); img != imgs[4] {
		t.Errorf("recent entry evicted")
	}
	// The byte bound evicts too; an image larger than the bound is not kept.
	c.get(key(9), nil, func() (*Image, int, error) { return &Image{}, 90, nil })
	if n, b := c.stats(); b > 100 || n > 3 {
		t.Errorf("entries %d bytes %d over the bounds", n, b)
	}
	big, _ := c.get(key(10), nil, func() (*Image, int, error) { return &Image{}, 1000, nil })
	if again, _ := c.get(key(10), nil, func() (*Image, int, error) { return &Image{}, 1000, nil }); again == big {
		t.Errorf("an image over the whole bound was kept")
	}
}

func TestDecoderPanicIsAnError(t *testing.T) {
	c := newLRU(3, 100)
	_, err := c.get(cacheKey{sum: [32]byte{7}}, nil, func() (*Image, int, error) { panic("boom") })
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("err = %v", err)
	}
}

// bench200KB is a PNG of about 200 KB: a photograph-like noise image that
// does not compress away.
func bench200KB(b testing.TB) string {
	m := image.NewNRGBA(image.Rect(0, 0, 300, 240))
	seed := uint32(1)
	for i := range m.Pix {
		seed = seed*1664525 + 1013904223
		m.Pix[i] = byte(seed >> 24)
		if i%4 == 3 {
			m.Pix[i] = 255
		}
	}
	return pngURI(b, m)
}

// BenchmarkLoadPNG200KBCold is Load's work on a miss: the data URI decoded,
// hashed, and the PNG decoded (the cache itself bypassed).
func BenchmarkLoadPNG200KBCold(b *testing.B) {
	src := bench200KB(b)
	_, data, _ := dataURI(src)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		hashString(src)
		mime, data, err := dataURI(src)
		if err != nil {
			b.Fatal(err)
		}
		_ = sha256.Sum256(data)
		if _, _, err := decode(mime, data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadPNG200KBCached(b *testing.B) {
	src := bench200KB(b)
	_, data, _ := dataURI(src)
	b.SetBytes(int64(len(data)))
	if _, err := Load(src); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Load(src); err != nil {
			b.Fatal(err)
		}
	}
}
