package pdfw

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// byteSource reads a document description from fuzz input: every value
// comes from the bytes, zero when they run out.
type byteSource struct{ b []byte }

func (s *byteSource) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	v := s.b[0]
	s.b = s.b[1:]
	return v
}

// num reads a number, with the odd values (NaN, infinities, huge, negative
// zero) as likely as ordinary ones.
func (s *byteSource) num() float64 {
	switch k := s.byte(); k {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1)
	case 2:
		return math.Inf(-1)
	case 3:
		return 1e300
	case 4:
		return math.Copysign(0, -1)
	default:
		var v [2]byte
		v[0], v[1] = s.byte(), k
		return float64(int16(binary.BigEndian.Uint16(v[:]))) / 16
	}
}

func (s *byteSource) path() draw.Path {
	p := make(draw.Path, s.byte()%8)
	for i := range p {
		p[i] = draw.Segment{Kind: draw.SegmentKind(s.byte() % 5)}
		for k := range p[i].P {
			p[i].P[k] = draw.Point{X: s.num(), Y: s.num()}
		}
	}
	return p
}

func (s *byteSource) color() draw.Color {
	return draw.Color{R: s.num() / 100, G: s.num() / 100, B: s.num() / 100, A: s.num() / 100}
}

// fuzzDoc builds a document of up to three pages from the bytes.
func fuzzDoc(data []byte, fonts []*draw.Font) *draw.Document {
	s := &byteSource{b: data}
	img := &draw.Image{Kind: draw.Raster, Width: 3, Height: 2, Components: 3, Data: bytes.Repeat([]byte{9}, 18), Alpha: []byte{0, 1, 2, 3, 4, 5}}
	doc := &draw.Document{Title: string(s.b[:min(len(s.b), 8)]), Lang: "en"}
	for p := int(s.byte()%3) + 1; p > 0; p-- {
		pg := &draw.Page{Width: s.num() * 10, Height: s.num() * 10}
		for n := int(s.byte()); n > 0 && len(s.b) > 0; n-- {
			switch s.byte() % 9 {
			case 0:
				pg.Ops = append(pg.Ops, draw.Fill{Path: s.path(), Color: s.color(), EvenOdd: s.byte()%2 == 0})
			case 1:
				pg.Ops = append(pg.Ops, draw.Stroke{Path: s.path(), Color: s.color(), Width: s.num(),
					Dash: []float64{s.num(), s.num()}[:s.byte()%3], DashPhase: s.num(),
					Cap: draw.LineCap(s.byte() % 4), Join: draw.LineJoin(s.byte() % 4), MiterLimit: s.num()})
			case 2:
				gs := make([]draw.Glyph, s.byte()%12)
				for i := range gs {
					gs[i] = draw.Glyph{ID: uint16(s.byte()) | uint16(s.byte())<<8, Advance: s.num(), XOffset: s.num(), YOffset: s.num(),
						Text: string(rune(s.byte()) | rune(s.byte())<<8)}
				}
				pg.Ops = append(pg.Ops, draw.Text{Font: fonts[int(s.byte())%len(fonts)], Size: s.num(), X: s.num(), Y: s.num(),
					Glyphs: gs, Color: s.color(), FakeBold: s.num() / 10, FakeItalic: s.byte()%2 == 0})
			case 3:
				pg.Ops = append(pg.Ops, draw.DrawImage{Image: img, Rect: draw.Rect{X: s.num(), Y: s.num(), W: s.num(), H: s.num()}})
			case 4:
				pg.Ops = append(pg.Ops, draw.PushClip{Path: s.path()})
			case 5:
				pg.Ops = append(pg.Ops, draw.PushOpacity{Alpha: s.num() / 100})
			case 6:
				pg.Ops = append(pg.Ops, draw.PushTransform{M: [6]float64{s.num(), s.num(), s.num(), s.num(), s.num(), s.num()}})
			default:
				pg.Ops = append(pg.Ops, draw.PopClip{})
			}
		}
		pg.Links = []draw.Link{{Rect: draw.Rect{X: s.num(), Y: s.num(), W: s.num(), H: s.num()}, URI: "https://x/" + string(rune(s.byte()))}}
		pg.Anchors = []draw.Anchor{{Name: string(rune(s.byte())), Y: s.num()}}
		doc.Pages = append(doc.Pages, pg)
	}
	doc.Outline = []draw.OutlineItem{{Title: "a", Level: int(s.byte()), Page: int(s.byte()), Y: s.num()}}
	return doc
}

// FuzzWrite writes documents made from fuzz input: never a panic, never
// an error (every font is valid), always a file pdfcpu can read.
func FuzzWrite(f *testing.F) {
	fonts := []*draw.Font{loadFace(f, liberationSans, 0).font, loadFace(f, nimbusSans, 0).font}
	f.Add([]byte{})
	f.Add([]byte("\x01\x09\x00\x05\x40\x40\x40\x40\x02\x03\x41\x00\x42\x01\x20\x30\x30\x30\x30\x30\x30\x30"))
	f.Add(bytes.Repeat([]byte{7, 200, 3, 1, 2, 0, 9, 4}, 40))
	f.Add(bytes.Repeat([]byte{2, 5, 40, 90, 1, 0, 66, 8}, 60))
	f.Fuzz(func(t *testing.T, data []byte) {
		var buf bytes.Buffer
		if err := Write(&buf, fuzzDoc(data, fonts), Options{}); err != nil {
			t.Fatal(err)
		}
		if _, err := readContextErr(buf.Bytes()); err != nil {
			t.Fatalf("pdfcpu cannot read the file: %v", err)
		}
	})
}
