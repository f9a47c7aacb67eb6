package pdfw

import (
	"math"

	"github.com/platen/platen/render/phantom/draw"
)

// pxToPt is the size of a CSS pixel in PDF points.
const pxToPt = 0.75

// Limits and precision of what the content streams hold.
const (
	// maxPagePt bounds a page side (PDF 1.7 Annex C: 14400 units); a page
	// of no size (or NaN) becomes A4, and no side is below minPagePt.
	maxPagePt             = 14400
	minPagePt             = 1
	a4WidthPx, a4HeightPx = 793.7007874015749, 1122.51968503937
	// maxDepth bounds the nesting of clips, transforms and opacities; the
	// pushes beyond it are ignored (and their pops with them).
	maxDepth    = 256
	maxFontSize = 1e5 // px; a run beyond is not drawn
	// textEps is how far (px) a glyph may sit from its place before a TJ
	// number moves it: 0.015 pt, far below what a reader can see or
	// pdftotext reports, while sparing a number after nearly every glyph
	// when layout's advances differ from the font's widths by rounding.
	textEps = 0.02
	// zwShift is how far (px) left of its place a zero-width glyph in an
	// ActualText span is set (see text): more than coordDecimals rounds.
	zwShift = 0.01
	// skewFakeItalic is Skia's fake italic skew (x' = x - y*(-1/4) in its
	// y-down space), as Chromium draws a synthetic oblique.
	skewFakeItalic    = 0.25
	defaultMiterLimit = 4  // SVG's and Skia's, which Chromium strokes with
	pdfMiterLimit     = 10 // a content stream's initial miter limit
	// Decimals written: coordinates in px (0.0075 pt), more under a scaling
	// transform; matrices; colours (8-bit channels need three); glyph widths
	// and TJ numbers in thousandths of an em, as precisely as Chromium's
	// float32s, since poppler splits a word at a gap of more than 0.1 em and
	// letter-spacing: 0.1em sits on that edge (Chromium's gap is a hair
	// under it; widths and TJ numbers rounded to a tenth made it exactly
	// 0.1 em or more).
	coordDecimals    = 2
	maxCoordDecimals = 5
	matrixDecimals   = 5
	colorDecimals    = 3
	widthDecimals    = 3
	tjDecimals       = 2
	// maxToUnicodeRunes bounds the text one glyph maps to.
	maxToUnicodeRunes = 64
	// groupBoxPadding widens a transparency group's box beyond the page (px).
	groupBoxPadding = 1
)

// pageSize is a page's size in points, sanitised.
func pageSize(p *draw.Page) (w, h float64) {
	if p == nil {
		return a4WidthPx * pxToPt, a4HeightPx * pxToPt
	}
	w, h = p.Width, p.Height
	if !(w > 0) || !(h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		w, h = a4WidthPx, a4HeightPx
	}
	w = math.Min(math.Max(w*pxToPt, minPagePt), maxPagePt)
	h = math.Min(math.Max(h*pxToPt, minPagePt), maxPagePt)
	return w, h
}

// rgbKey is a colour as written, in thousandths.
type rgbKey struct{ r, g, b int16 }

func rgbOf(c draw.Color) rgbKey {
	return rgbKey{q1000(c.R), q1000(c.G), q1000(c.B)}
}

// q1000 quantises a [0, 1] value to thousandths, NaN as 0.
func q1000(v float64) int16 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 1000
	}
	return int16(math.Round(v * 1000))
}

// gsKey is an ExtGState: the fill and stroke alpha in thousandths.
type gsKey struct{ ca, CA int16 }

// gstate is what the content stream has set, so that only changes are
// written. It follows q and Q.
type gstate struct {
	fill, stroke rgbKey
	alpha        gsKey
	lineWidth    float64
	cap, join    draw.LineCap
	dash         []float64
	dashPhase    float64
	miter        float64 // the miter limit
	font         *docFont
	t3           *type3Font // the Type 3 font set instead of font
	size         float64
	rise         float64
}

func initialState() gstate {
	return gstate{alpha: gsKey{1000, 1000}, lineWidth: 1, miter: pdfMiterLimit}
}

// frame is one open push.
type frame struct {
	kind  uint8
	saved gstate
	ctm   [6]float64
	clip  box
	dec   int
	mul   float64
	outer []byte // frameGroup: the enclosing stream
	alpha float64
}

const (
	frameQ     uint8 = iota // q ... Q: a clip or a transform
	frameMul                // opacity multiplied into what follows
	frameGroup              // opacity as a transparency group XObject
	frameNone               // a push beyond maxDepth, ignored
)

// content builds one content stream.
type content struct {
	b      []byte
	st     gstate
	stack  []frame
	inText bool
	dec    int        // decimals for coordinates in the current space
	ctm    [6]float64 // the current space in page pixels
	clip   box        // the bounds of the current clip, in page pixels
	mul    float64
	pageW  float64 // in px, for group bounding boxes
	pageH  float64
	spare  [][]byte // buffers for groups
	dashes []float64
}

func (c *content) reset() {
	c.b = c.b[:0]
	c.stack = c.stack[:0]
	c.inText = false
	c.st = initialState()
	c.dec = coordDecimals
	c.ctm = [6]float64{1, 0, 0, 1, 0, 0}
	c.mul = 1
	c.dashes = c.dashes[:0]
}

func (c *content) num(v float64) { c.b = appendNum(c.b, v, c.dec) }

func (c *content) op(s string) { c.b = append(c.b, s...) }

func (c *content) sp() { c.b = append(c.b, ' ') }

// setFont writes a Tf selecting the font resource prefix+index (/F for the
// Type0 fonts, /T for fake bold's Type 3 ones) at size, and records the size.
func (c *content) setFont(prefix string, index int, size float64) {
	c.b = append(c.b, prefix...)
	c.b = appendInt(c.b, index)
	c.sp()
	c.b = appendNum(c.b, size, 3)
	c.op(" Tf\n")
	c.st.size = size
}

func (c *content) endText() {
	if c.inText {
		c.b = append(c.b, "ET\n"...)
		c.inText = false
	}
}

func (c *content) beginText() {
	if !c.inText {
		c.b = append(c.b, "BT\n"...)
		c.inText = true
	}
}

func (c *content) appendColor(k rgbKey, gray, rgb string) {
	if k.r == k.g && k.g == k.b {
		c.b = appendNum(c.b, float64(k.r)/1000, colorDecimals)
		c.op(gray)
		return
	}
	c.b = appendNum(c.b, float64(k.r)/1000, colorDecimals)
	c.sp()
	c.b = appendNum(c.b, float64(k.g)/1000, colorDecimals)
	c.sp()
	c.b = appendNum(c.b, float64(k.b)/1000, colorDecimals)
	c.op(rgb)
}

func (c *content) setFill(col draw.Color) {
	if k := rgbOf(col); k != c.st.fill {
		c.appendColor(k, " g\n", " rg\n")
		c.st.fill = k
	}
}

func (c *content) setStroke(col draw.Color) {
	if k := rgbOf(col); k != c.st.stroke {
		c.appendColor(k, " G\n", " RG\n")
		c.st.stroke = k
	}
}

// setAlpha selects the ExtGState with these alphas (in thousandths).
func (w *writer) setAlpha(k gsKey) {
	c := &w.c
	if k == c.st.alpha {
		return
	}
	i, ok := w.gsOf[k]
	if !ok {
		i = len(w.gstates)
		w.gstates = append(w.gstates, k)
		w.gsOf[k] = i
	}
	c.b = append(c.b, "/G"...)
	c.b = appendInt(c.b, i)
	c.op(" gs\n")
	c.st.alpha = k
}

// alphaQ is an alpha in thousandths, with the group opacity multiplied in.
func (c *content) alphaQ(a float64) int16 {
	if !(a > 0) {
		return 0
	}
	return q1000(math.Min(a, 1) * c.mul)
}

func (c *content) setLineWidth(v float64) {
	if v != c.st.lineWidth {
		c.num(v)
		c.op(" w\n")
		c.st.lineWidth = v
	}
}

// page writes one page: its content stream, its annotations and its dictionary.
func (w *writer) page(i int, p *draw.Page, nav *navState) {
	if p == nil {
		p = &draw.Page{}
	}
	c := &w.c
	c.reset()
	wPt, hPt := pageSize(p)
	c.pageW, c.pageH = wPt/pxToPt, hPt/pxToPt
	c.clip = box{0, 0, c.pageW, c.pageH}
	// The page's space becomes CSS pixels with y down through Chromium's two
	// matrices: Skia maps its 300 dpi canvas to points by the float32 of
	// 72/300, written .23999999, and Chromium CSS pixels onto that canvas by
	// 300/96, so a pixel is 0.74999997 pt, not 0.75. A reader rounds an
	// edge on half a pixel at 72 dpi (every odd CSS pixel) to the pixel
	// this product puts it in, so with the same matrices phantom's rules,
	// bars and borders land on the same pixels as Chromium's.
	c.op(".23999999 0 0 -.23999999 0 ")
	c.b = appendNum(c.b, hPt, 4)
	c.op(" cm\n3.125 0 0 3.125 0 0 cm\n")
	start := len(c.b)
	ops := p.Ops
	tg := &w.tags
	if tg.on {
		tg.startPage(i)
	}
	for k := 0; k < len(ops); k++ {
		if tg.on {
			switch op := ops[k].(type) {
			case draw.BeginMark:
				if op.Elem != nil {
					tg.mark(c, op.Elem, op.Order)
				}
				continue
			case draw.EndMark:
				tg.endMark(c)
				continue
			case draw.PushClip, *draw.PushClip, draw.PushTransform, *draw.PushTransform, draw.PushOpacity, *draw.PushOpacity, draw.PopClip, *draw.PopClip:
				tg.closeArtifact(c)
			default:
				tg.paint(c)
			}
		}
		switch op := ops[k].(type) {
		case draw.Fill:
			w.fill(&op)
		case *draw.Fill:
			if op != nil {
				w.fill(op)
			}
		case draw.Stroke:
			w.stroke(&op)
		case *draw.Stroke:
			if op != nil {
				w.stroke(op)
			}
		case draw.Text:
			w.text(&op)
		case *draw.Text:
			if op != nil {
				w.text(op)
			}
		case draw.DrawImage:
			w.drawImage(&op)
		case *draw.DrawImage:
			if op != nil {
				w.drawImage(op)
			}
		case draw.PushClip:
			w.pushClip(op.Path, op.EvenOdd)
		case *draw.PushClip:
			if op != nil {
				w.pushClip(op.Path, op.EvenOdd)
			}
		case draw.PushTransform:
			w.pushTransform(op.M)
		case *draw.PushTransform:
			if op != nil {
				w.pushTransform(op.M)
			}
		case draw.PushOpacity:
			w.pushOpacity(op.Alpha, ops[k+1:])
		case *draw.PushOpacity:
			if op != nil {
				w.pushOpacity(op.Alpha, ops[k+1:])
			}
		case draw.LinearGradient:
			w.gradient(&op)
		case *draw.LinearGradient:
			if op != nil {
				w.gradient(op)
			}
		case draw.PopClip, *draw.PopClip:
			w.pop()
		}
	}
	if tg.on {
		tg.endMark(c)
		tg.closeArtifact(c)
	}
	for len(c.stack) > 0 {
		w.pop()
	}
	c.endText()

	contents := 0
	if len(c.b) > start {
		contents = w.alloc()
		w.putFlate(contents, nil, c.b)
	}
	annots := w.writeLinks(i, p, hPt, nav)

	b := append(w.tmp[:0], "<</Type/Page/Parent "...)
	b = appendRef(b, w.pages)
	b = append(b, "/MediaBox[0 0 "...)
	b = appendNum(b, wPt, 3)
	b = append(b, ' ')
	b = appendNum(b, hPt, 3)
	b = append(b, ']')
	if contents > 0 {
		b = append(b, "/Contents "...)
		b = appendRef(b, contents)
	}
	if tg.on {
		b = append(b, "/StructParents "...)
		b = appendInt(b, tg.pageKey)
		b = append(b, "/Tabs/S"...)
	}
	if len(annots) > 0 {
		b = append(b, "/Annots["...)
		for k, a := range annots {
			if k > 0 {
				b = append(b, ' ')
			}
			b = appendRef(b, a)
		}
		b = append(b, ']')
	}
	b = append(b, ">>"...)
	w.tmp = b
	w.putObj(w.pageRefs[i], b)
}

// pathOps appends the path construction operators for p. A sub-path that is
// an axis-aligned rectangle becomes "re" unless keepStart (a dashed stroke,
// whose pattern starts where the path does). Segments without a current
// point start a sub-path, a close without a segment is dropped, and a
// segment after a close starts again from the sub-path's start, so that
// every reader sees a well-formed path. It reports whether anything was
// drawn.
func (c *content) pathOps(p draw.Path, keepStart bool) bool {
	drawn := false
	var ps pathState
	for i := 0; i < len(p); {
		// One sub-path: from a MoveTo (or the start) to the next MoveTo.
		j := i + 1
		for j < len(p) && p[j].Kind != draw.MoveTo {
			j++
		}
		sub := p[i:j]
		i = j
		if !keepStart {
			if x, y, w, h, ok := rectOf(sub); ok {
				c.num(x)
				c.sp()
				c.num(y)
				c.sp()
				c.num(w)
				c.sp()
				c.num(h)
				c.op(" re\n")
				drawn = true
				ps = pathState{}
				continue
			}
		}
		for _, s := range sub {
			if c.segment(&ps, s) {
				drawn = true
			}
		}
	}
	return drawn
}

// pathState follows a path being written: whether there is a current
// point, where the sub-path started, and whether it has segments to close.
type pathState struct {
	current, open, closed bool
	start                 draw.Point
}

// segment writes one segment and reports whether it draws.
func (c *content) segment(ps *pathState, s draw.Segment) bool {
	move := func(p draw.Point) {
		c.point(p)
		c.op(" m\n")
		ps.current, ps.open, ps.closed, ps.start = true, false, false, p
	}
	switch s.Kind {
	case draw.MoveTo:
		move(s.P[0])
	case draw.LineTo, draw.CubicTo:
		if !ps.current {
			if s.Kind == draw.LineTo {
				move(s.P[0])
			} else {
				move(s.P[2])
			}
			return false
		}
		if ps.closed {
			move(ps.start)
		}
		if s.Kind == draw.LineTo {
			c.point(s.P[0])
			c.op(" l\n")
		} else {
			c.point(s.P[0])
			c.sp()
			c.point(s.P[1])
			c.sp()
			c.point(s.P[2])
			c.op(" c\n")
		}
		ps.open = true
		return true
	case draw.Close:
		if ps.open {
			c.op("h\n")
			ps.open, ps.closed = false, true
		}
	}
	return false
}

func (c *content) point(p draw.Point) {
	c.num(p.X)
	c.sp()
	c.num(p.Y)
}

// rectOf recognises a sub-path that is an axis-aligned rectangle: four
// corners, optionally back to the first, optionally closed. The rectangle is
// returned so that "re" traces the same corners in the same turning
// direction (which the nonzero rule depends on).
func rectOf(s draw.Path) (x, y, w, h float64, ok bool) {
	n := len(s)
	if n > 0 && s[n-1].Kind == draw.Close {
		n--
	}
	if n == 5 && s[4].Kind == draw.LineTo && s[4].P[0] == s[0].P[0] {
		n--
	}
	if n != 4 || s[0].Kind != draw.MoveTo || len(s) > 6 {
		return
	}
	for k := 1; k < 4; k++ {
		if s[k].Kind != draw.LineTo {
			return
		}
	}
	for k := 4; k < len(s); k++ {
		if s[k].Kind != draw.Close && s[k].Kind != draw.LineTo {
			return
		}
	}
	p0, p1, p2, p3 := s[0].P[0], s[1].P[0], s[2].P[0], s[3].P[0]
	switch {
	case p0.Y == p1.Y && p1.X == p2.X && p2.Y == p3.Y && p3.X == p0.X:
		return p0.X, p0.Y, p1.X - p0.X, p2.Y - p1.Y, true
	case p0.X == p1.X && p1.Y == p2.Y && p2.X == p3.X && p3.Y == p0.Y:
		return p1.X, p1.Y, p2.X - p1.X, p3.Y - p2.Y, true
	}
	return
}

func (w *writer) fill(f *draw.Fill) {
	c := &w.c
	a := c.alphaQ(f.Color.A)
	if a == 0 || len(f.Path) == 0 {
		return
	}
	c.endText()
	c.setFill(f.Color)
	w.setAlpha(gsKey{a, c.st.alpha.CA})
	mark := len(c.b)
	if !c.pathOps(f.Path, false) {
		c.b = c.b[:mark]
		return
	}
	if f.EvenOdd {
		c.op("f*\n")
	} else {
		c.op("f\n")
	}
}

func (w *writer) stroke(s *draw.Stroke) {
	c := &w.c
	a := c.alphaQ(s.Color.A)
	if a == 0 || len(s.Path) == 0 || !(s.Width > 0) || math.IsInf(s.Width, 0) {
		return
	}
	c.endText()
	c.setStroke(s.Color)
	w.setAlpha(gsKey{c.st.alpha.ca, a})
	c.setLineWidth(s.Width)
	if s.Cap != c.st.cap && s.Cap <= 2 {
		c.b = appendInt(c.b, int(s.Cap))
		c.op(" J\n")
		c.st.cap = s.Cap
	}
	if draw.LineCap(s.Join) != c.st.join && s.Join <= 2 {
		c.b = appendInt(c.b, int(s.Join))
		c.op(" j\n")
		c.st.join = draw.LineCap(s.Join)
	}
	if s.Join == 0 {
		// Only miter joins look at the limit; PDF's must be at least 1.
		m := s.MiterLimit
		if m == 0 || math.IsNaN(m) || math.IsInf(m, 0) {
			m = defaultMiterLimit
		}
		m = math.Min(math.Max(m, 1), 1000)
		if m != c.st.miter {
			c.b = appendNum(c.b, m, 3)
			c.op(" M\n")
			c.st.miter = m
		}
	}
	dash := s.Dash
	if !validDash(dash) {
		dash = nil
	}
	if !equalDash(dash, s.DashPhase, c.st.dash, c.st.dashPhase) {
		c.b = append(c.b, '[')
		for k, d := range dash {
			if k > 0 {
				c.sp()
			}
			c.num(d)
		}
		c.op("] ")
		phase := 0.0
		if len(dash) > 0 && !math.IsNaN(s.DashPhase) && !math.IsInf(s.DashPhase, 0) {
			phase = s.DashPhase
		}
		c.num(phase)
		c.op(" d\n")
		// Keep our own copy: the caller's slice may change after Write.
		start := len(c.dashes)
		c.dashes = append(c.dashes, dash...)
		c.st.dash = c.dashes[start:len(c.dashes):len(c.dashes)]
		c.st.dashPhase = phase
	}
	mark := len(c.b)
	if !c.pathOps(s.Path, len(dash) > 0) {
		c.b = c.b[:mark]
		return
	}
	c.op("S\n")
}

// validDash reports whether a dash array is one PDF accepts: no negative or
// non-finite entries, and not all zero.
func validDash(d []float64) bool {
	if len(d) == 0 || len(d) > 64 {
		return false
	}
	sum := 0.0
	for _, v := range d {
		if !(v >= 0) || math.IsInf(v, 0) {
			return false
		}
		sum += v
	}
	return sum > 0
}

func equalDash(a []float64, pa float64, b []float64, pb float64) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return pa == pb
}

// gradient paints a linear gradient in its path: an axial shading (type
// 2) whose function stitches one exponential interpolation per pair of
// stops, extended past both ends.
func (w *writer) gradient(g *draw.LinearGradient) {
	if len(g.Stops) < 2 || len(g.Path) == 0 {
		return
	}
	if g.Repeat {
		w.repeatingGradient(g)
		return
	}
	c := &w.c
	w.pushClip(g.Path, false)
	w.setAlpha(gsKey{1000, c.st.alpha.CA})
	num := w.alloc()
	b := append([]byte(nil), "<</ShadingType 2/ColorSpace/DeviceRGB/Extend[true true]/Coords["...)
	b = appendNums(b, 3, g.X0, g.Y0, g.X1, g.Y1)
	b = append(b, "]/Function"...)
	rgb := func(b []byte, col draw.Color) []byte {
		b = append(b, '[')
		b = appendNums(b, 4, col.R, col.G, col.B)
		return append(b, ']')
	}
	interp := func(b []byte, c0, c1 draw.Color) []byte {
		b = append(b, "<</FunctionType 2/Domain[0 1]/N 1/C0"...)
		b = rgb(b, c0)
		b = append(b, "/C1"...)
		b = rgb(b, c1)
		return append(b, ">>"...)
	}
	st := g.Stops
	if len(st) == 2 {
		b = interp(b, st[0].Color, st[1].Color)
	} else {
		b = append(b, "<</FunctionType 3/Domain[0 1]/Functions["...)
		for i := 0; i+1 < len(st); i++ {
			b = interp(b, st[i].Color, st[i+1].Color)
		}
		b = append(b, "]/Bounds["...)
		prev := 0.0
		for i := 1; i+1 < len(st); i++ {
			// Bounds must increase: a hard stop becomes a sliver.
			v := math.Min(math.Max(st[i].Offset, prev+1e-5), 1)
			prev = v
			if i > 1 {
				b = append(b, ' ')
			}
			b = appendNum(b, v, 5)
		}
		b = append(b, "]/Encode["...)
		for i := 0; i+1 < len(st); i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, "0 1"...)
		}
		b = append(b, "]>>"...)
	}
	b = append(b, ">>"...)
	w.paintShading(num, b)
}

// paintShading writes shading dictionary b as object num, paints it
// (sh) in the current clip, and ends the clip the caller pushed.
func (w *writer) paintShading(num int, b []byte) {
	c := &w.c
	w.putObj(num, b)
	c.op("/S")
	c.b = appendInt(c.b, len(w.shadings))
	c.op(" sh\n")
	w.shadings = append(w.shadings, num)
	w.pop()
}

// repeatingGradient paints a repeating linear gradient as Chromium (Skia)
// writes one: a function-based shading (type 1) over the path's bounds,
// in a space whose first axis runs along the gradient line in periods,
// and a PostScript calculator function (type 4) that keeps the fraction
// of that position and looks it up in the period's stops. One shading
// covers the box however many periods it holds, and a reader samples it
// as it samples Chromium's.
func (w *writer) repeatingGradient(g *draw.LinearGradient) {
	ax, ay := g.X1-g.X0, g.Y1-g.Y0
	d := ax*ax + ay*ay
	if !(d > 1e-12) || d > maxNum {
		// A period too long to write (or none): its first colour.
		w.fill(&draw.Fill{Path: g.Path, Color: g.Stops[0].Color})
		return
	}
	// The path's bounds in the shading's space (u along the line, in
	// periods; v across it).
	u0, v0, u1, v1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range g.Path {
		for _, pt := range segmentPoints(&g.Path[i]) {
			dx, dy := pt.X-g.X0, pt.Y-g.Y0
			u, v := (dx*ax+dy*ay)/d, (dy*ax-dx*ay)/d
			if math.IsNaN(u+v) || math.IsInf(u+v, 0) {
				continue
			}
			u0, u1 = math.Min(u0, u), math.Max(u1, u)
			v0, v1 = math.Min(v0, v), math.Max(v1, v)
		}
	}
	if !(u1 > u0) || !(v1 > v0) || u1-u0 > maxNum || v1-v0 > maxNum {
		return
	}
	c := &w.c
	w.pushClip(g.Path, false)
	w.setAlpha(gsKey{1000, c.st.alpha.CA})

	dom := appendNums([]byte("/Domain["), 0, math.Floor(u0), math.Ceil(u1), math.Floor(v0), math.Ceil(v1))
	dom = append(dom, ']')

	fn := []byte("{pop dup floor sub ")
	fn = appendStopLookup(fn, g.Stops, 0, len(g.Stops)-2)
	fn = append(fn, '}')
	fnum := w.alloc()
	w.putStream(fnum, append(append([]byte("/FunctionType 4"), dom...), "/Range[0 1 0 1 0 1]"...), fn)

	num := w.alloc()
	b := append([]byte(nil), "<</ShadingType 1/ColorSpace/DeviceRGB"...)
	b = append(b, dom...)
	b = append(b, "/Matrix["...)
	b = appendNums(b, 6, ax, ay, -ay, ax, g.X0, g.Y0)
	b = append(b, "]/Function "...)
	b = appendInt(b, fnum)
	b = append(b, " 0 R>>"...)
	w.paintShading(num, b)
}

// appendStopLookup writes the PostScript that maps the position t on the
// stack (0 to 1) to the colour of the stops' segments lo to hi (segment i
// runs from stop i to stop i+1): a binary search of nested ifelse, then
// the segment's interpolation.
func appendStopLookup(b []byte, st []draw.GradientStop, lo, hi int) []byte {
	if lo < hi {
		mid := (lo + hi + 1) / 2
		b = append(b, "dup "...)
		b = appendNum(b, st[mid].Offset, 6)
		b = append(b, " lt {"...)
		b = appendStopLookup(b, st, lo, mid-1)
		b = append(b, "} {"...)
		b = appendStopLookup(b, st, mid, hi)
		return append(b, "} ifelse "...)
	}
	c0, c1 := st[lo].Color, st[lo+1].Color
	span := st[lo+1].Offset - st[lo].Offset
	if span < 1e-9 || (c0.R == c1.R && c0.G == c1.G && c0.B == c1.B) {
		b = append(b, "pop "...)
		for _, v := range [3]float64{c1.R, c1.G, c1.B} {
			b = appendNum(b, v, 4)
			b = append(b, ' ')
		}
		return b
	}
	// s = (t - offset) / span; then each channel c0 + s * (c1 - c0).
	b = appendNum(b, st[lo].Offset, 6)
	b = append(b, " sub "...)
	b = appendNum(b, 1/span, 6)
	b = append(b, " mul "...)
	ch := [3][2]float64{{c0.R, c1.R - c0.R}, {c0.G, c1.G - c0.G}, {c0.B, c1.B - c0.B}}
	for i, c := range ch {
		if i < 2 {
			b = append(b, "dup "...)
		}
		b = appendNum(b, c[1], 6)
		b = append(b, " mul "...)
		b = appendNum(b, c[0], 6)
		b = append(b, " add "...)
		if i < 2 {
			b = append(b, "exch "...)
		}
	}
	return b
}

func (w *writer) pushClip(p draw.Path, evenOdd bool) {
	c := &w.c
	if len(c.stack) >= maxDepth {
		w.push(frameNone)
		return
	}
	c.endText()
	w.push(frameQ)
	c.op("q\n")
	mark := len(c.b)
	if !c.pathOps(p, false) {
		// Nothing inside: clip everything away.
		c.b = append(c.b[:mark], "0 0 0 0 re\n"...)
		c.clip = box{}
	} else {
		c.clip = c.clip.intersect(c.pathBounds(p))
	}
	if evenOdd {
		c.op("W* n\n")
		return
	}
	c.op("W n\n")
}

// box is an axis-aligned rectangle in page pixels, empty when x1 <= x0 or
// y1 <= y0.
type box struct{ x0, y0, x1, y1 float64 }

func (b box) intersect(o box) box {
	return box{math.Max(b.x0, o.x0), math.Max(b.y0, o.y0), math.Min(b.x1, o.x1), math.Min(b.y1, o.y1)}
}

// overlaps is Skia's SkRect::Intersects: the boxes share some area.
func (b box) overlaps(o box) bool {
	return b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1
}

// holds is Skia's SkRect::contains of a point: left and top edges inside,
// right and bottom outside.
func (b box) holds(x, y float64) bool {
	return b.x0 <= x && x < b.x1 && b.y0 <= y && y < b.y1
}

// mapBox is the bounds, in page pixels, of box b of the current space.
func (c *content) mapBox(b box) box {
	m := &c.ctm
	out := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range [4][2]float64{{b.x0, b.y0}, {b.x1, b.y0}, {b.x0, b.y1}, {b.x1, b.y1}} {
		x := p[0]*m[0] + p[1]*m[2] + m[4]
		y := p[0]*m[1] + p[1]*m[3] + m[5]
		out.x0, out.y0 = math.Min(out.x0, x), math.Min(out.y0, y)
		out.x1, out.y1 = math.Max(out.x1, x), math.Max(out.y1, y)
	}
	return out
}

// segmentPoints are the points a path segment names: its end, and a
// curve's two control points before it.
func segmentPoints(sg *draw.Segment) []draw.Point {
	switch sg.Kind {
	case draw.MoveTo, draw.LineTo:
		return sg.P[:1]
	case draw.CubicTo:
		return sg.P[:3]
	}
	return nil
}

// pathBounds is the bounds, in page pixels, of path p's points (control
// points included, as Skia's clip stack bounds a rounded rectangle by its
// rectangle).
func (c *content) pathBounds(p draw.Path) box {
	b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for i := range p {
		for _, pt := range segmentPoints(&p[i]) {
			if math.IsNaN(pt.X+pt.Y) || math.IsInf(pt.X+pt.Y, 0) {
				continue
			}
			b.x0, b.y0 = math.Min(b.x0, pt.X), math.Min(b.y0, pt.Y)
			b.x1, b.y1 = math.Max(b.x1, pt.X), math.Max(b.y1, pt.Y)
		}
	}
	return c.mapBox(b)
}

func (w *writer) pushTransform(m [6]float64) {
	c := &w.c
	if len(c.stack) >= maxDepth {
		w.push(frameNone)
		return
	}
	c.endText()
	w.push(frameQ)
	c.op("q\n")
	det := m[0]*m[3] - m[1]*m[2]
	finite := true
	for _, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > maxNum {
			finite = false
		}
	}
	if !finite || math.Abs(det) < 1e-12 {
		// A singular space paints nothing: clip everything away.
		c.op("0 0 0 0 re W n\n")
		c.clip = box{}
		return
	}
	for k, v := range m {
		if k > 0 {
			c.sp()
		}
		if k < 4 {
			c.b = appendNum(c.b, v, matrixDecimals)
		} else {
			c.num(v)
		}
	}
	c.op(" cm\n")
	c.ctm = mul(m, c.ctm)
	scale := math.Sqrt(math.Abs(c.ctm[0]*c.ctm[3] - c.ctm[1]*c.ctm[2]))
	c.dec = coordDecimals
	for s := scale; s > 1.5 && c.dec < maxCoordDecimals; s /= 10 {
		c.dec++
	}
}

// mul is the matrix product m × n (m applied first), as PDF's cm composes.
func mul(m, n [6]float64) [6]float64 {
	return [6]float64{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// push opens a frame, saving what its pop restores.
func (w *writer) push(kind uint8) {
	c := &w.c
	c.stack = append(c.stack, frame{kind: kind, saved: c.st, ctm: c.ctm, clip: c.clip, dec: c.dec, mul: c.mul})
}

// pop closes the innermost push; a pop without a push is ignored.
func (w *writer) pop() {
	c := &w.c
	if len(c.stack) == 0 {
		return
	}
	f := c.stack[len(c.stack)-1]
	c.stack = c.stack[:len(c.stack)-1]
	c.ctm, c.clip, c.dec, c.mul = f.ctm, f.clip, f.dec, f.mul
	switch f.kind {
	case frameQ:
		c.endText()
		c.op("Q\n")
		c.st = f.saved
	case frameGroup:
		c.endText()
		w.endGroup(&f)
		c.st = f.saved
	}
}

// pushOpacity applies alpha to what follows up to the matching pop. When
// that is at most one painting operation, the alpha is multiplied into it;
// otherwise the operations become a transparency group painted with the
// alpha, so that overlapping parts do not show through each other, as in a
// browser.
func (w *writer) pushOpacity(alpha float64, rest []draw.Op) {
	c := &w.c
	if math.IsNaN(alpha) {
		alpha = 1
	}
	alpha = math.Min(math.Max(alpha, 0), 1)
	if alpha == 1 || c.mul == 0 || alpha == 0 || paintsAtMostOne(rest) || len(c.stack) >= maxDepth {
		w.push(frameMul)
		c.mul *= alpha
		return
	}
	c.endText()
	w.push(frameGroup)
	if w.tags.on {
		w.tags.group++
	}
	f := &c.stack[len(c.stack)-1]
	f.alpha = alpha
	f.outer = c.b
	var nb []byte
	if n := len(c.spare); n > 0 {
		nb, c.spare = c.spare[n-1][:0], c.spare[:n-1]
	}
	c.b = nb
	// A transparency group starts with alpha 1 (11.6.6); the rest of the
	// state is inherited from where it is painted. The enclosing opacity
	// applies to the group as a whole, not again inside it.
	c.st.alpha = gsKey{1000, 1000}
	c.mul = 1
}

// paintsAtMostOne reports whether the ops up to the pop matching a push
// paint at most once.
func paintsAtMostOne(ops []draw.Op) bool {
	depth, paints := 0, 0
	for _, op := range ops {
		switch op.(type) {
		case draw.Fill, *draw.Fill, draw.Stroke, *draw.Stroke, draw.Text, *draw.Text, draw.DrawImage, *draw.DrawImage, draw.LinearGradient, *draw.LinearGradient:
			paints++
			if paints > 1 {
				return false
			}
		case draw.PushClip, *draw.PushClip, draw.PushOpacity, *draw.PushOpacity, draw.PushTransform, *draw.PushTransform:
			depth++
		case draw.PopClip, *draw.PopClip:
			if depth == 0 {
				return true
			}
			depth--
		}
	}
	return true
}

// endGroup writes the group's operations as a form XObject and paints it
// into the enclosing stream with the group's alpha.
func (w *writer) endGroup(f *frame) {
	c := &w.c
	inner := c.b
	c.b = f.outer
	tg := &w.tags
	outermost := false
	if tg.on {
		tg.group--
		outermost = tg.group == 0
	}
	if len(inner) == 0 {
		c.spare = append(c.spare, inner)
		if outermost {
			tg.groupElem = nil
		}
		return
	}
	num := w.alloc()
	idx := len(w.forms)
	w.forms = append(w.forms, num)
	// The bounding box is the page, in the group's space.
	x0, y0, x1, y1 := boxInSpace(f.ctm, c.pageW, c.pageH)
	d := append(w.tmp[:0], "/Type/XObject/Subtype/Form/BBox["...)
	for k, v := range [4]float64{x0, y0, x1, y1} {
		if k > 0 {
			d = append(d, ' ')
		}
		d = appendNum(d, v, 3)
	}
	d = append(d, "]/Group<</S/Transparency>>/Resources "...)
	d = appendRef(d, w.resources)
	w.tmp = d
	w.putFlate(num, d, inner)
	c.spare = append(c.spare, inner)

	// In a tagged document the group is painted as one marked sequence:
	// of the first element marked in it, or an artifact.
	if outermost {
		if e := tg.groupElem; e != nil {
			tg.mark(c, e, tg.groupOrder)
		} else {
			tg.paint(c)
		}
	}
	c.op("q\n")
	c.st = f.saved
	a := q1000(f.alpha * f.mul)
	w.setAlpha(gsKey{a, a})
	c.b = append(c.b, "/X"...)
	c.b = appendInt(c.b, idx)
	c.op(" Do\nQ\n")
	if outermost {
		tg.endMark(c)
		tg.closeArtifact(c)
		tg.groupElem = nil
	}
}

// boxInSpace is the page's box, in pixels, as seen in the space of ctm.
func boxInSpace(m [6]float64, w, h float64) (x0, y0, x1, y1 float64) {
	det := m[0]*m[3] - m[1]*m[2]
	if det == 0 {
		return 0, 0, w, h
	}
	// The inverse of m maps page pixels into the space.
	inv := [6]float64{m[3] / det, -m[1] / det, -m[2] / det, m[0] / det,
		(m[2]*m[5] - m[3]*m[4]) / det, (m[1]*m[4] - m[0]*m[5]) / det}
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, p := range [4][2]float64{{0, 0}, {w, 0}, {0, h}, {w, h}} {
		x := inv[0]*p[0] + inv[2]*p[1] + inv[4]
		y := inv[1]*p[0] + inv[3]*p[1] + inv[5]
		x0, y0 = math.Min(x0, x), math.Min(y0, y)
		x1, y1 = math.Max(x1, x), math.Max(y1, y)
	}
	return x0 - groupBoxPadding, y0 - groupBoxPadding, x1 + groupBoxPadding, y1 + groupBoxPadding
}

func (w *writer) drawImage(d *draw.DrawImage) {
	c := &w.c
	a := c.alphaQ(1)
	r := d.Rect
	if a == 0 || d.Image == nil || !(r.W > 0) || !(r.H > 0) || math.IsInf(r.W, 0) || math.IsInf(r.H, 0) {
		return
	}
	idx := w.imageIndex(d.Image)
	if idx < 0 {
		return
	}
	c.endText()
	w.setAlpha(gsKey{a, c.st.alpha.CA})
	// The image's unit square, first row at the top, onto the rectangle.
	c.op("q ")
	c.num(r.W)
	c.op(" 0 0 ")
	c.num(-r.H)
	c.sp()
	c.num(r.X)
	c.sp()
	c.num(r.Y + r.H)
	c.op(" cm /I")
	c.b = appendInt(c.b, idx)
	c.op(" Do Q\n")
}

// text writes a run with one TJ (split around ActualText spans): each glyph
// lands where layout put it, the difference between its advance and the
// font's width being a TJ number.
// The text matrix flips y back so glyphs stand upright in the y-down space.
// A right-to-left run of more than one cluster is marked /ReversedChars,
// as Skia marks a glyph run whose clusters decrease (SkClusterator).
func (w *writer) text(t *draw.Text) {
	c := &w.c
	if t.Font == nil || !(t.Size > 0) || t.Size > maxFontSize || len(t.Glyphs) == 0 {
		return
	}
	a := c.alphaQ(t.Color.A)
	if a == 0 {
		return
	}
	// Fake bold is Type 3 fonts (type3.go), whose glyphs fill and stroke
	// their outlines in the current colours.
	var f *docFont
	var t3 *fontInfo
	var stroke float64
	if fakeBold(t) {
		fi, err := loadFont(t.Font)
		if err != nil {
			return // recorded when the glyphs were collected
		}
		t3, stroke = fi, t3Stroke(t)
	} else if f = w.font(t.Font); f == nil {
		return
	}
	c.beginText()
	c.setFill(t.Color)
	if t3 != nil {
		c.setStroke(t.Color)
		w.setAlpha(gsKey{a, a})
	} else {
		w.setAlpha(gsKey{a, c.st.alpha.CA})
	}
	size := t.Size
	if f != nil && (f != c.st.font || size != c.st.size) {
		c.setFont("/F", f.index, size)
		c.st.font, c.st.t3 = f, nil
	}
	reversed := t.Reversed && clusters(t.Glyphs) > 1
	if reversed {
		c.op("/ReversedChars BMC\n")
	}
	skew := 0.0
	if t.FakeItalic {
		skew = skewFakeItalic
		c.op("1 0 .25 -1 ")
	} else {
		c.op("1 0 0 -1 ")
	}
	c.num(t.X)
	c.sp()
	c.num(t.Y)
	c.op(" Tm\n")

	k := 1000 / size
	fi := t3
	if f != nil {
		fi = f.info
	}
	cull := c.mayCull(t, fi)
	pen, cur := 0.0, 0.0
	arr := -1 // where the open TJ array starts, -1 when none
	str := false
	strs, nums := 0, 0
	closeArr := func() {
		if str {
			c.b = append(c.b, ')')
			str = false
		}
		if arr < 0 {
			return
		}
		if nums == 0 && strs == 1 {
			// [(...)] TJ is (...) Tj.
			copy(c.b[arr:], c.b[arr+1:])
			c.b = c.b[:len(c.b)-1]
			c.op("Tj\n")
		} else {
			c.op("]TJ\n")
		}
		arr = -1
	}
	move := func(n float64) {
		if str {
			c.b = append(c.b, ')')
			str = false
		}
		c.b = appendNum(c.b, n, tjDecimals)
		nums++
		cur -= n / k
	}
	span := false // inside an ActualText span
	for i := range t.Glyphs {
		g := &t.Glyphs[i]
		var tf *type3Font
		var code byte
		var cid uint16
		var width float64 // in glyph space
		var known string  // what the ToUnicode map reads for the glyph
		if t3 != nil {
			tf, code = w.type3(t.Font, t3, stroke, g.ID)
			if tf != c.st.t3 || size != c.st.size {
				closeArr()
				c.setFont("/T", tf.index, size)
				c.st.font, c.st.t3 = nil, tf
			}
			width, known = tf.width(code), tf.texts[code]
		} else {
			cid = f.cid(g.ID)
			width, known = f.widths[cid], f.texts[cid]
		}
		if g.ID == 0 && (w.opt.PDFA != "" || w.opt.PDFUA) || cull && !c.inClip(fi, g.ID, t.X+pen+finite(g.XOffset), t.Y+finite(g.YOffset), size) {
			// As Skia does, a glyph wholly outside the clip is not
			// written, so the text layer lacks clipped-away text too.
			// In PDF/A neither is .notdef, a character no font has: PDF/A
			// forbids showing it (ISO 19005-2/3 6.2.11.8); its place is
			// left blank instead of a box.
			if g.Text != "" && span {
				closeArr()
				c.op("EMC\n")
				span = false
			}
			pen += finite(g.Advance)
			continue
		}
		zw := false // a zero-width cluster drawn with a glyph that has width
		if n := clusterLen(t.Glyphs, i, t.Reversed); n > 0 {
			// A cluster whose text the ToUnicode map does not give (a soft
			// hyphen or zero-width space shown as a space glyph, a small
			// capital, a second text of one glyph) or of more than one
			// glyph (a base and its marks) is marked with its text, as
			// Skia does, so a reader extracts the source text, over the
			// cluster's glyphs from the first in the run.
			if span {
				closeArr()
				c.op("EMC\n")
				span = false
			}
			text := g.Text
			if t.Reversed {
				// Right to left the text is on the cluster's last glyph.
				j := i + n - 1
				text = t.Glyphs[j].Text
				if j != i {
					if t3 != nil {
						tj, cj := w.type3(t.Font, t3, stroke, t.Glyphs[j].ID)
						known = tj.texts[cj]
					} else {
						known = f.texts[f.cid(t.Glyphs[j].ID)]
					}
				}
			}
			if text != known || n > 1 {
				closeArr()
				c.op("/Span<</ActualText")
				c.b = appendTextString(c.b, text)
				c.op(">>BDC\n")
				span = true
				zw = n == 1 && finite(g.Advance) == 0 && width > 0
			}
		}
		xo, yo := finite(g.XOffset), finite(g.YOffset)
		rise := -yo
		if math.Abs(rise-c.st.rise) > 0.001 {
			closeArr()
			c.num(rise)
			c.op(" Ts\n")
			c.st.rise = rise
		}
		if arr < 0 {
			arr = len(c.b)
			c.b = append(c.b, '[')
			strs, nums = 0, 0
		}
		target := pen + xo - skew*c.st.rise
		d := target - cur
		switch {
		case zw:
			// pdftotext may split a word where the glyph after a marked
			// zero-width glyph (whose width the pen takes back) starts even
			// a hair left of it, as rounded TJ numbers and Tm can set it.
			// So the marked glyph goes zwShift left of its place, more
			// than a rounded Tm moves the text that follows, and what
			// follows in this run 0.1 thousandths of an em right of it.
			if n := math.Ceil((zwShift-d)*k*100) / 100; n != 0 { // tjDecimals
				move(n)
			}
		case math.Abs(d) > textEps:
			if n := math.Round(-d*k*100) / 100; n != 0 { // tjDecimals
				move(n)
			}
		}
		if !str {
			c.b = append(c.b, '(')
			str = true
			strs++
		}
		if tf != nil {
			c.b = appendCIDByte(c.b, code)
		} else {
			c.b = appendCIDByte(c.b, byte(cid>>8))
			c.b = appendCIDByte(c.b, byte(cid))
		}
		cur += width / k
		pen += finite(g.Advance)
		if zw {
			move(width - 0.1)
		}
	}
	closeArr()
	if span {
		c.op("EMC\n")
	}
	if reversed {
		c.op("EMC\n")
	}
}

// mayCull reports whether a glyph of run t may lie outside the clip: the
// run's box, from its glyph positions and the font's bounding box, is not
// inside the clip's bounds. Most runs are, and skip the test by glyph.
func (c *content) mayCull(t *draw.Text, fi *fontInfo) bool {
	pen, x0, x1, y0, y1 := 0.0, 0.0, 0.0, 0.0, 0.0
	for i := range t.Glyphs {
		g := &t.Glyphs[i]
		x, y := pen+finite(g.XOffset), finite(g.YOffset)
		x0, x1, y0, y1 = math.Min(x0, x), math.Max(x1, x), math.Min(y0, y), math.Max(y1, y)
		pen += finite(g.Advance)
	}
	s := t.Size / 1000
	slant := 0.0
	if t.FakeItalic {
		slant = skewFakeItalic * math.Max(fi.bbox[3], -fi.bbox[1]) * s
	}
	b := c.mapBox(box{t.X + x0 + fi.bbox[0]*s - slant, t.Y + y0 - fi.bbox[3]*s,
		t.X + x1 + fi.bbox[2]*s + slant, t.Y + y1 - fi.bbox[1]*s})
	cl := c.clip
	return !(cl.x0 <= b.x0 && b.x1 <= cl.x1 && cl.y0 <= b.y0 && b.y1 <= cl.y1)
}

// inClip reports whether glyph gid at size, its origin at (x, y) in the
// current space, is drawn, as Skia's PDF device decides: its bounding box
// must share area with the clip's bounds, or, for a glyph without ink (a
// space), its origin must lie in them. Skia measures the box on the
// outline at the font's units per em, which for TrueType is the box the
// glyph records.
func (c *content) inClip(fi *fontInfo, gid uint16, x, y, size float64) bool {
	gx0, gy0, gx1, gy1, ink := fi.glyphBounds(gid)
	if !ink {
		p := c.mapBox(box{x, y, x, y})
		return c.clip.holds(p.x0, p.y0)
	}
	s := size / fi.upem
	return c.clip.overlaps(c.mapBox(box{x + gx0*s, y - gy1*s, x + gx1*s, y - gy0*s}))
}

// clusterLen is the number of glyphs of the cluster beginning at glyph i of
// a run, 0 when none begins there. A cluster is a glyph holding text and
// the glyphs without text after it, or, in a reversed run, before it.
func clusterLen(gs []draw.Glyph, i int, reversed bool) int {
	if reversed {
		if i > 0 && gs[i-1].Text == "" {
			return 0
		}
		j := i
		for j < len(gs) && gs[j].Text == "" {
			j++
		}
		if j == len(gs) {
			return 0 // marks without their base, in another run
		}
		return j - i + 1
	}
	if gs[i].Text == "" {
		return 0
	}
	j := i + 1
	for j < len(gs) && gs[j].Text == "" {
		j++
	}
	return j - i
}

// clusters counts the clusters of a run (a glyph with text begins one).
func clusters(gs []draw.Glyph) int {
	n := 0
	for i := range gs {
		if gs[i].Text != "" {
			n++
		}
	}
	return n
}

// appendCIDByte appends one byte of a two-byte code inside a literal string.
func appendCIDByte(b []byte, v byte) []byte {
	switch v {
	case '(', ')', '\\':
		return append(b, '\\', v)
	case '\r':
		return append(b, '\\', 'r')
	}
	return append(b, v)
}

// finite is v, or 0 when v is NaN or infinite.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
