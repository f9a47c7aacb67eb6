package pdfw

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// richDoc uses every feature once or more.
func richDoc(t testing.TB) *draw.Document {
	sans := loadFace(t, liberationSans, 0)
	nimbus := loadFace(t, nimbusSans, 0)
	logo := &draw.Image{Kind: draw.Raster, Width: 2, Height: 1, Components: 3, Data: []byte{1, 2, 3, 4, 5, 6}, Alpha: []byte{0, 200}}
	doc := navDoc()
	doc.Pages[0].Ops = []draw.Op{
		draw.Fill{Path: rect(10, 10, 100, 20), Color: draw.Color{R: 0.2, G: 0.4, B: 0.6, A: 0.8}},
		sans.textOp(12, 10, 50, "Reproducible bytes"),
		nimbus.textOp(12, 10, 70, "in two fonts"),
		draw.PushOpacity{Alpha: 0.5},
		draw.DrawImage{Image: logo, Rect: draw.Rect{X: 10, Y: 90, W: 20, H: 10}},
		draw.Stroke{Path: line(0, 0, 50, 50), Color: red, Width: 1, Dash: []float64{3, 1}},
		draw.PopClip{},
	}
	doc.Pages[1].Ops = []draw.Op{sans.textOp(12, 10, 50, "Page two"), draw.DrawImage{Image: logo, Rect: draw.Rect{X: 10, Y: 90, W: 20, H: 10}}}
	return doc
}

// TestReproducible writes the same document again, after another one and
// from several goroutines at once: the bytes never change.
func TestReproducible(t *testing.T) {
	for _, opt := range []Options{{}, {NoObjectStreams: true}, {Compression: 1}} {
		var first bytes.Buffer
		if err := Write(&first, richDoc(t), opt); err != nil {
			t.Fatal(err)
		}
		validate(t, first.Bytes())
		sans := loadFace(t, liberationSans, 0)
		other := &draw.Document{Pages: []*draw.Page{{Width: 100, Height: 100, Ops: []draw.Op{sans.textOp(10, 0, 10, "other glyphs xyz")}}}}
		if err := Write(&bytes.Buffer{}, other, opt); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		outs := make([][]byte, 4)
		for i := range outs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var b bytes.Buffer
				if err := Write(&b, richDoc(t), opt); err != nil {
					t.Error(err)
				}
				outs[i] = b.Bytes()
			}()
		}
		wg.Wait()
		for i, o := range outs {
			if !bytes.Equal(o, first.Bytes()) {
				t.Errorf("%+v: write %d differs from the first (%d vs %d bytes)", opt, i, len(o), first.Len())
			}
		}
	}
}

// makeTTC builds a font collection of the given font files.
func makeTTC(t *testing.T, fonts ...[]byte) []byte {
	t.Helper()
	type table struct {
		tag  string
		data []byte
	}
	var dirs [][]table
	for _, f := range fonts {
		n := int(binary.BigEndian.Uint16(f[4:]))
		var ts []table
		for i := 0; i < n; i++ {
			rec := f[12+16*i:]
			off, l := binary.BigEndian.Uint32(rec[8:]), binary.BigEndian.Uint32(rec[12:])
			ts = append(ts, table{string(rec[:4]), f[off : off+l]})
		}
		dirs = append(dirs, ts)
	}
	out := make([]byte, 12+4*len(fonts))
	copy(out, "ttcf")
	binary.BigEndian.PutUint32(out[4:], 0x00010000)
	binary.BigEndian.PutUint32(out[8:], uint32(len(fonts)))
	dirAt := make([]int, len(fonts))
	for i, ts := range dirs {
		dirAt[i] = len(out)
		binary.BigEndian.PutUint32(out[12+4*i:], uint32(len(out)))
		out = append(out, make([]byte, 12+16*len(ts))...)
	}
	for i, ts := range dirs {
		d := out[dirAt[i]:]
		binary.BigEndian.PutUint32(d, 0x00010000)
		binary.BigEndian.PutUint16(d[4:], uint16(len(ts)))
		for k, tb := range ts {
			for len(out)%4 != 0 {
				out = append(out, 0)
			}
			rec := out[dirAt[i]+12+16*k:]
			copy(rec, tb.tag)
			binary.BigEndian.PutUint32(rec[4:], checksum(tb.data))
			binary.BigEndian.PutUint32(rec[8:], uint32(len(out)))
			binary.BigEndian.PutUint32(rec[12:], uint32(len(tb.data)))
			out = append(out, tb.data...)
		}
	}
	for len(out)%4 != 0 {
		out = append(out, 0)
	}
	return out
}

// TestCollections embeds the second face of a .ttc, and fails clearly for
// a face index the collection does not have.
func TestCollections(t *testing.T) {
	regular, err := os.ReadFile(liberationSans)
	if err != nil {
		t.Fatal(err)
	}
	bold, err := os.ReadFile(liberationBold)
	if err != nil {
		t.Fatal(err)
	}
	ttc := makeTTC(t, regular, bold)
	face := faceFromData(t, "/test/Liberation.ttc", ttc, 1)
	face.font.PostScriptName = "LiberationSans-Bold"
	op := face.textOp(20, 20, 40, "Bold from a collection")
	path, pdf := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: 400, Height: 100, Ops: []draw.Op{op}}}}, Options{})
	validate(t, pdf)
	if text := run(t, "pdftotext", path, "-"); !strings.Contains(text, "Bold from a collection") {
		t.Errorf("text %q", text)
	}
	if out := run(t, "pdffonts", path); !strings.Contains(out, "+LiberationSans-Bold") || !strings.Contains(out, "CID TrueType") {
		t.Errorf("pdffonts:\n%s", out)
	}
	// The glyphs are the bold face's: compare with the bold file itself.
	boldFace := loadFace(t, liberationBold, 0)
	ref := boldFace.textOp(20, 20, 40, "Bold from a collection")
	_, refPDF := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: 400, Height: 100, Ops: []draw.Op{ref}}}}, Options{})
	_ = refPDF
	a, b := render(t, path, 96), renderBytes(t, refPDF)
	if !sameImage(a, b) {
		t.Error("the collection's face renders differently from the bold file")
	}

	bad := &draw.Font{Key: "/test/Liberation.ttc#5", Data: ttc, Index: 5, PostScriptName: "X", UnitsPerEm: 2048}
	badOp := draw.Text{Font: bad, Size: 10, Glyphs: []draw.Glyph{{ID: 1}}, Color: black}
	err = Write(&bytes.Buffer{}, &draw.Document{Pages: []*draw.Page{{Ops: []draw.Op{badOp}}}}, Options{})
	if !errors.Is(err, ErrFont) || !strings.Contains(err.Error(), "face index 5 outside the collection's 2 faces") {
		t.Errorf("face 5 of 2: %v, want ErrFont naming the index", err)
	}
	junk := &draw.Font{Key: "junk", Data: []byte("not a font at all, not at all"), PostScriptName: "Junk"}
	err = Write(&bytes.Buffer{}, &draw.Document{Pages: []*draw.Page{{Ops: []draw.Op{draw.Text{Font: junk, Size: 10, Glyphs: []draw.Glyph{{ID: 1}}, Color: black}}}}}, Options{})
	if !errors.Is(err, ErrFont) {
		t.Errorf("junk font: %v, want ErrFont", err)
	}
	if err := Write(&bytes.Buffer{}, &draw.Document{}, Options{}); !errors.Is(err, ErrNoPages) {
		t.Errorf("no pages: %v", err)
	}
}

// TestOddInputNeverPanics writes random documents full of odd values:
// NaNs, infinities, empty and degenerate paths, bad images, glyph ids out
// of range, unbalanced pushes and pops, empty and nil pages. Each must
// write without panicking into a file pdfcpu accepts; some are rendered.
func TestOddInputNeverPanics(t *testing.T) {
	sans := loadFace(t, liberationSans, 0)
	nimbus := loadFace(t, nimbusSans, 0)
	rng := rand.New(rand.NewSource(1))
	num := func() float64 {
		switch rng.Intn(12) {
		case 0:
			return math.NaN()
		case 1:
			return math.Inf(1 - 2*rng.Intn(2))
		case 2:
			return 0
		case 3:
			return -rng.Float64() * 100
		case 4:
			return rng.Float64() * 1e12
		}
		return rng.Float64() * 800
	}
	path := func() draw.Path {
		n := rng.Intn(6)
		p := make(draw.Path, n)
		for i := range p {
			p[i] = draw.Segment{Kind: draw.SegmentKind(rng.Intn(5)), P: [3]draw.Point{{X: num(), Y: num()}, {X: num(), Y: num()}, {X: num(), Y: num()}}}
		}
		return p
	}
	color := func() draw.Color { return draw.Color{R: num(), G: rng.Float64(), B: rng.Float64(), A: num() / 400} }
	img := &draw.Image{Kind: draw.Raster, Width: 2, Height: 2, Components: 3, Data: make([]byte, 12)}
	images := []*draw.Image{nil, img, {}, {Kind: draw.Raster, Width: 5, Height: 5, Components: 3, Data: make([]byte, 3)},
		{Kind: draw.JPEG, Width: 3, Height: 3, Components: 2, Data: []byte{1}}, {Kind: 9, Width: 1, Height: 1},
		{Kind: draw.Raster, Width: -1, Height: 4, Components: 1}, {Kind: draw.Raster, Width: 1 << 30, Height: 1 << 30, Components: 1}}
	fonts := []*draw.Font{sans.font, nimbus.font}
	op := func() draw.Op {
		switch rng.Intn(10) {
		case 0:
			return draw.Fill{Path: path(), Color: color(), EvenOdd: rng.Intn(2) == 0}
		case 1:
			dash := make([]float64, rng.Intn(4))
			for i := range dash {
				dash[i] = num()
			}
			return draw.Stroke{Path: path(), Color: color(), Width: num() / 100, Dash: dash, DashPhase: num(),
				Cap: draw.LineCap(rng.Intn(4)), Join: draw.LineJoin(rng.Intn(4))}
		case 2:
			gs := make([]draw.Glyph, rng.Intn(8))
			for i := range gs {
				gs[i] = draw.Glyph{ID: uint16(rng.Intn(70000)), Advance: num() / 10, XOffset: num() / 100, YOffset: num() / 100, Text: string(rune(rng.Intn(0x11000)))}
			}
			return draw.Text{Font: fonts[rng.Intn(2)], Size: num() / 10, X: num(), Y: num(), Glyphs: gs, Color: color(),
				FakeBold: num() / 100, FakeItalic: rng.Intn(2) == 0}
		case 3:
			return draw.DrawImage{Image: images[rng.Intn(len(images))], Rect: draw.Rect{X: num(), Y: num(), W: num(), H: num()}}
		case 4:
			return draw.PushClip{Path: path()}
		case 5, 6:
			return draw.PopClip{}
		case 7:
			return draw.PushOpacity{Alpha: num() / 400}
		case 8:
			return draw.PushTransform{M: [6]float64{num() / 400, num() / 800, num() / 800, num() / 400, num(), num()}}
		}
		return &draw.Fill{Path: path(), Color: color()}
	}
	for i := 0; i < 80; i++ {
		doc := &draw.Document{Title: string(rune(rng.Intn(0x11000))), Lang: "x(\\"}
		for p := rng.Intn(4) + 1; p > 0; p-- {
			if rng.Intn(8) == 0 {
				doc.Pages = append(doc.Pages, nil)
				continue
			}
			pg := &draw.Page{Width: num(), Height: num()}
			for k := rng.Intn(40); k > 0; k-- {
				pg.Ops = append(pg.Ops, op())
			}
			pg.Links = append(pg.Links, draw.Link{Rect: draw.Rect{X: num(), Y: num(), W: num(), H: num()}, URI: "a)b"},
				draw.Link{Rect: draw.Rect{W: 1, H: 1}, Dest: "a"})
			pg.Anchors = append(pg.Anchors, draw.Anchor{Name: "a", Y: num()})
			doc.Pages = append(doc.Pages, pg)
		}
		doc.Outline = append(doc.Outline, draw.OutlineItem{Title: "x", Level: rng.Intn(9) - 1, Page: rng.Intn(9) - 2, Y: num()})
		var buf bytes.Buffer
		if err := Write(&buf, doc, Options{}); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		validate(t, buf.Bytes())
		if i%20 == 0 {
			renderBytes(t, buf.Bytes())
		}
	}
}

// TestDeepNesting pushes far more clips, transforms and opacities than the
// writer nests: the stream stays balanced and readable, the deep pushes
// being ignored.
func TestDeepNesting(t *testing.T) {
	var ops []draw.Op
	for i := 0; i < 3000; i++ {
		switch i % 3 {
		case 0:
			ops = append(ops, draw.PushClip{Path: rect(0, 0, 100, 100)})
		case 1:
			ops = append(ops, draw.PushTransform{M: [6]float64{1, 0, 0, 1, 0, 0}})
		case 2:
			ops = append(ops, draw.PushOpacity{Alpha: 0.999})
		}
	}
	ops = append(ops, draw.Fill{Path: rect(10, 10, 20, 20), Color: red}, draw.Fill{Path: rect(15, 15, 20, 20), Color: red})
	for i := 0; i < 3000; i++ {
		ops = append(ops, draw.PopClip{})
	}
	ops = append(ops, draw.Fill{Path: rect(50, 50, 20, 20), Color: blue})
	img := renderPage(t, 100, 100, ops...)
	// A thousand alphas of 0.999 leave 0.37 (poppler, compositing 85 nested
	// groups in 8 bits, makes it nearer 0.64): pink, neither red nor white.
	if c := rgbAt(img, 20, 20); c[0] != 255 || c[1] < 40 || c[1] > 200 || c[1] != c[2] {
		t.Errorf("inside: %v, want pink", c)
	}
	checkPixels(t, img, []probe{{"after", 60, 60, cBlue}})
	path, _ := writePDF(t, &draw.Document{Pages: []*draw.Page{{Width: 100, Height: 100, Ops: ops}}}, Options{})
	if out := run(t, "pdftotext", path, "-"); strings.TrimSpace(out) != "" {
		t.Errorf("text %q", out)
	}
}
