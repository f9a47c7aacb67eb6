package fonts

import (
	"math"

	gofont "github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"
	"github.com/platen/platen/render/phantom/draw"
)

// inkSteps is how many lines a curve of an outline is cut into when
// measuring ink: a hundredth of an em is far finer than a pixel of text.
const inkSteps = 8

// Ink is the horizontal extent of glyph gid of font f's ink between lo and
// hi (in em, y up from the baseline), in em from the glyph's origin: what
// Skia's glyph intercepts give Chromium to skip ink when it draws an
// underline (text-decoration-skip-ink: auto). ok is false when the glyph
// has no ink there, no outline, or f is not a face of this Shaper.
func (s *Shaper) Ink(f *draw.Font, gid uint16, lo, hi float64) (x0, x1 float64, ok bool) {
	sf := s.inkFace
	if s.inkFont != f {
		sf = nil
		for fc, x := range s.faces {
			if x != nil && fc.font == f {
				sf = x
				break
			}
		}
		s.inkFont, s.inkFace = f, sf
	}
	if sf == nil {
		return 0, 0, false
	}
	o, isOutline := sf.face.GlyphData(gofont.GID(gid)).(gofont.GlyphOutline)
	if !isOutline {
		return 0, 0, false
	}
	upem := float64(sf.face.Upem())
	b := inkBand{lo: lo * upem, hi: hi * upem, x0: math.Inf(1), x1: math.Inf(-1)}
	var cur, start [2]float64
	pt := func(p gofont.SegmentPoint) [2]float64 { return [2]float64{float64(p.X), float64(p.Y)} }
	for _, sg := range o.Segments {
		switch sg.Op {
		case ot.SegmentOpMoveTo:
			b.edge(cur, start)
			cur = pt(sg.Args[0])
			start = cur
		case ot.SegmentOpLineTo:
			p := pt(sg.Args[0])
			b.edge(cur, p)
			cur = p
		case ot.SegmentOpQuadTo:
			c, p := pt(sg.Args[0]), pt(sg.Args[1])
			prev := cur
			for k := 1; k <= inkSteps; k++ {
				t := float64(k) / inkSteps
				u := 1 - t
				q := [2]float64{u*u*cur[0] + 2*u*t*c[0] + t*t*p[0], u*u*cur[1] + 2*u*t*c[1] + t*t*p[1]}
				b.edge(prev, q)
				prev = q
			}
			cur = p
		case ot.SegmentOpCubeTo:
			c1, c2, p := pt(sg.Args[0]), pt(sg.Args[1]), pt(sg.Args[2])
			prev := cur
			for k := 1; k <= inkSteps; k++ {
				t := float64(k) / inkSteps
				u := 1 - t
				q := [2]float64{
					u*u*u*cur[0] + 3*u*u*t*c1[0] + 3*u*t*t*c2[0] + t*t*t*p[0],
					u*u*u*cur[1] + 3*u*u*t*c1[1] + 3*u*t*t*c2[1] + t*t*t*p[1],
				}
				b.edge(prev, q)
				prev = q
			}
			cur = p
		}
	}
	b.edge(cur, start)
	if b.x0 > b.x1 {
		return 0, 0, false
	}
	return b.x0 / upem, b.x1 / upem, true
}

// inkBand gathers the horizontal extent of the outline's edges within a
// band of heights (font units).
type inkBand struct{ lo, hi, x0, x1 float64 }

// edge takes in the part of the line from a to b inside the band.
func (b *inkBand) edge(a, c [2]float64) {
	if (a[1] < b.lo && c[1] < b.lo) || (a[1] > b.hi && c[1] > b.hi) {
		return
	}
	take := func(x float64) {
		b.x0 = math.Min(b.x0, x)
		b.x1 = math.Max(b.x1, x)
	}
	for _, p := range [2][2]float64{a, c} {
		if p[1] >= b.lo && p[1] <= b.hi {
			take(p[0])
		}
	}
	if a[1] != c[1] {
		for _, y := range [2]float64{b.lo, b.hi} {
			if (a[1]-y)*(c[1]-y) < 0 {
				take(a[0] + (c[0]-a[0])*(y-a[1])/(c[1]-a[1]))
			}
		}
	}
}
