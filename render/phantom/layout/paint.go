package layout

import (
	"math"
	"sort"
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/style"
)

// painter paints the fragment tree onto one page, in the order of CSS 2.1
// Appendix E: for each stacking context, its background and borders, the
// negative z-index contexts, the in-flow blocks' backgrounds, the inline
// content, the positioned descendants with z-index auto or 0 in tree
// order, then the positive z-index contexts.
type painter struct {
	l      *layouter
	pg     *draw.Page
	ox, oy float64 // flow (stitched) to page coordinates
	// rootFrag is the root element's fragment.
	rootFrag *Frag
	top      float64 // stitched range of the page
	bottom   float64
	index    int
	// clips is the stack of clipping fragments currently pushed.
	clips []*Frag
	// noMarks paints content unmarked, as an artifact: what repeats on
	// every page, in a tagged document.
	noMarks bool
}

// paint paints each page.
func (l *layouter) paint(root *Frag, pages []page) error {
	if root != nil {
		computeInk(root)
		for _, f := range l.fixedFrags {
			computeInk(f)
		}
	}
	if len(pages) > 0 {
		l.header = l.template(l.opt.Header, pages[0].geom)
		l.footer = l.template(l.opt.Footer, pages[0].geom)
	}
	for i := range pages {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		if l.err != nil {
			return l.err
		}
		pgc := &pages[i]
		g := pgc.geom
		dp := &draw.Page{Width: g.w, Height: g.h}
		p := &painter{l: l, pg: dp, ox: g.areaX, oy: g.areaY - pgc.start, top: pgc.start, bottom: pgc.start + g.flowH, index: i, rootFrag: root}
		scaled := l.scale != 1
		if scaled {
			p.ox, p.oy = 0, -pgc.start
		}
		if root != nil && root.Box.Style.Direction == "rtl" {
			// A right-to-left document hangs from the page area's true
			// right edge: laid out a whole pixel wide, it starts the
			// rounding left of the area (as Chromium prints it).
			p.ox += g.trueW - g.areaW
			// And by what rounding took off both side margins (measured
			// on A4 and A5 with margins of 10, 12 and 13 mm on either
			// side: Chromium's right edge moves by their sum).
			m := g.style.Margin
			p.ox += m[style.Left] - g.areaX + m[style.Right] - math.Round(m[style.Right])
		}
		if root != nil {
			p.canvas(root, g)
			// Chromium clips the flow to the page area: what hangs into
			// the margins (or past a shrunk page's right edge) is cut
			// off (measured).
			p.op(draw.PushClip{Path: rectPath(g.areaX, g.areaY, g.areaW, g.areaH)})
			if scaled {
				p.op(draw.PushTransform{M: [6]float64{l.scale, 0, 0, l.scale, g.areaX, g.areaY}})
			}
			p.stackingContext(root, true)
			// What repeats on every page (table headers and footers
			// repeated, fixed elements after the first page) is read
			// once: elsewhere it is an artifact.
			p.noMarks = true
			for _, f := range pgc.repeats {
				// Copies made by pagination, after the tree's ink was measured.
				computeInk(f)
				p.stackingContext(f, false)
			}
			p.noMarks = i > 0
			for _, f := range l.fixedFrags {
				save, st, sb := p.oy, p.top, p.bottom
				p.oy, p.top, p.bottom = g.areaY, math.Inf(-1), math.Inf(1)
				if scaled {
					p.oy = 0
				}
				p.stackingContext(f, false)
				p.oy, p.top, p.bottom = save, st, sb
			}
			if scaled {
				p.op(draw.PopClip{})
			}
			p.op(draw.PopClip{})
		}
		// Running headers, footers and page margin boxes are artifacts.
		p.noMarks = true
		if l.header != nil || l.footer != nil {
			p.ox, p.oy, p.top, p.bottom = 0, 0, math.Inf(-1), math.Inf(1)
			for k, t := range []*hfTemplate{l.header, l.footer} {
				if t == nil {
					continue
				}
				for _, f := range l.headerFooter(t, k == 1, g, i+1, len(pages)) {
					p.stackingContext(f, false)
				}
			}
		}
		if boxes := l.marginBoxFrags(g, i, len(pages)); len(boxes) > 0 {
			p.ox, p.oy, p.top, p.bottom = 0, 0, math.Inf(-1), math.Inf(1)
			for _, f := range boxes {
				p.stackingContext(f, false)
			}
		}
		l.doc.Pages = append(l.doc.Pages, dp)
	}
	if l.err != nil {
		return l.err
	}
	if root != nil {
		l.annotate(root, pages)
	}
	return nil
}

func (p *painter) op(o draw.Op) { p.pg.Ops = append(p.pg.Ops, o) }

// canvas paints the root background over the whole page (CSS 2.1 §14.2:
// the root's, or the body's when the root has none): its colour, and its
// image positioned in the root element's box and clipped to the page, as
// Chromium prints it.
func (p *painter) canvas(root *Frag, g pageGeom) {
	src := canvasSource(root)
	if src == nil {
		return
	}
	bg := src.Box.Style.Background
	// Chromium paints it in the page area: the page's margins stay white
	// (measured).
	if bg.Color.A > 0 {
		p.op(draw.Fill{Path: rectPath(g.areaX, g.areaY, g.areaW, g.areaH), Color: bg.Color})
	}
	if bg.Image == "" {
		return
	}
	scaled := p.l.scale != 1
	cx, cy, cw, ch := g.areaX, g.areaY, g.areaW, g.areaH
	if scaled {
		// The flow is drawn scaled into the page area: so is the image.
		sc := p.l.scale
		p.op(draw.PushTransform{M: [6]float64{sc, 0, 0, sc, g.areaX, g.areaY}})
		cx, cy, cw, ch = 0, 0, g.areaW/sc, g.areaH/sc
	}
	rs := root.Box.Style
	x, y, w, h := p.snapRect(root.X, root.Y, root.W, root.H)
	// The image's style is the source's; its box the root's.
	s := *rs
	s.Background = bg
	p.backgroundImage(root, &s, x, y, w, h, boxBorders(rs), boxPadding(rs, root.W), cx, cy, cw, ch, [4][2]float64{})
	if scaled {
		p.op(draw.PopClip{})
	}
}

// canvasSource is the fragment whose background is the canvas's: the
// root's, or when it has none the body's (nil when neither has one).
func canvasSource(root *Frag) *Frag {
	if bg := root.Box.Style.Background; bg.Color.A > 0 || bg.Image != "" {
		return root
	}
	if b := bodyFrag(root); b != nil {
		if bg := b.Box.Style.Background; bg.Color.A > 0 || bg.Image != "" {
			return b
		}
	}
	return nil
}

// bodyFrag is the root's <body> child fragment, if any.
func bodyFrag(root *Frag) *Frag {
	for _, c := range root.Children {
		if c.Box != nil && c.Box.Node != nil && c.Box.Node.DataAtom == atom.Body {
			return c
		}
	}
	return nil
}

// manyChildren is how many children a fragment must have for painting to
// find a page's children by their ink envelopes rather than one by one.
const manyChildren = 32

// inkEnvelope bounds a fragment's children's ink: maxBottom[i] is the
// lowest ink bottom of children[:i+1], minTop[i] the highest ink top of
// children[i:]. Both are monotonic, so a page's children are found by
// binary search, and painting a long document costs linear time rather
// than pages × fragments.
type inkEnvelope struct {
	maxBottom, minTop []float64
}

// visibleChildren is the run of f's children that may paint on this page
// (each still to be checked with visible).
func (p *painter) visibleChildren(f *Frag) []*Frag {
	e := f.ink
	if e == nil || len(e.maxBottom) != len(f.Children) || math.IsInf(p.top, -1) {
		return f.Children
	}
	lo := sort.Search(len(e.maxBottom), func(i int) bool { return e.maxBottom[i] >= p.top })
	hi := sort.Search(len(e.minTop), func(i int) bool { return e.minTop[i] >= p.bottom })
	if hi < lo {
		hi = lo
	}
	return f.Children[lo:hi]
}

// visible reports whether f may paint anything on this page.
func (p *painter) visible(f *Frag) bool {
	return f.inkBottom >= p.top && f.inkTop < p.bottom
}

// isPositionedFrag reports whether f is a positioned box (painted in the
// positioned phases).
func isPositionedFrag(f *Frag) bool {
	if f.Kind == FragInline {
		return f.Box != nil && f.Box.Style.Position == style.Relative
	}
	return f.Kind == FragBox && f.Box != nil && !f.Box.Anonymous && f.Box.Style.Position != style.Static && f.Box.Kind != KindText
}

// makesContext reports whether f establishes a stacking context of its own
// (positioned with a z-index, opacity below 1, fixed).
func makesContext(f *Frag) bool {
	if f.Kind != FragBox || f.Box == nil {
		return false
	}
	s := f.Box.Style
	if s.Opacity < 1 || len(s.Transform) > 0 {
		return true
	}
	if s.Position == style.Fixed {
		return true
	}
	return s.Position != style.Static && !s.ZIndexAuto
}

func zOf(f *Frag) int {
	if f.Box == nil || f.Box.Style.ZIndexAuto {
		return 0
	}
	return f.Box.Style.ZIndex
}

// layered is a positioned descendant found while painting a context, with
// the clipping boxes between the context and it.
type layered struct {
	f     *Frag
	clips []*Frag
}

// stackingContext paints f as a stacking context (or as the root, or as a
// positioned box with z-index auto, which paints like one).
func (p *painter) stackingContext(f *Frag, root bool) {
	if !p.visible(f) {
		return
	}
	s := f.Box.Style
	transformed := len(s.Transform) > 0 && !root && f.Kind == FragBox
	if transformed {
		p.op(draw.PushTransform{M: p.transformMatrix(f)})
	}
	opacity := s.Opacity < 1 && !root
	if opacity {
		if s.Opacity <= 0 {
			if transformed {
				p.op(draw.PopClip{})
			}
			return
		}
		p.op(draw.PushOpacity{Alpha: s.Opacity})
	}
	base := len(p.clips)
	if !root && f.Kind != FragInline {
		p.decorations(f)
	}
	var neg, zero, pos []layered
	p.collect(f, nil, &neg, &zero, &pos)
	sort.SliceStable(neg, func(i, j int) bool { return zOf(neg[i].f) < zOf(neg[j].f) })
	sort.SliceStable(pos, func(i, j int) bool { return zOf(pos[i].f) < zOf(pos[j].f) })
	clipSelf := p.clipsContent(f)
	if clipSelf {
		p.pushClip(f)
	}
	for _, d := range neg {
		p.withClips(d.clips, base+b2i(clipSelf), func() { p.stackingContext(d.f, false) })
	}
	if f.Kind == FragInline {
		p.line(f) // a relatively positioned inline box: its line content
	} else {
		p.blocks(f, true)
		p.floats(f)
		p.inlines(f, true)
	}
	for _, d := range zero {
		p.withClips(d.clips, base+b2i(clipSelf), func() { p.stackingContext(d.f, false) })
	}
	for _, d := range pos {
		p.withClips(d.clips, base+b2i(clipSelf), func() { p.stackingContext(d.f, false) })
	}
	p.popClipsTo(base)
	p.outlines(f, root)
	if opacity {
		p.op(draw.PopClip{})
	}
	if transformed {
		p.op(draw.PopClip{})
	}
}

// transformMatrix is f's transform in page coordinates.
func (p *painter) transformMatrix(f *Frag) [6]float64 { return fragTransform(f, p.ox, p.oy) }

// fragTransform is f's transform in coordinates offset by (dx, dy) from
// the flow's: its functions composed in order about its transform-origin
// (CSS Transforms 1 §6), percentages of its border box.
func fragTransform(f *Frag, dx, dy float64) [6]float64 {
	s := f.Box.Style
	mul := func(m1, m2 [6]float64) [6]float64 {
		return [6]float64{
			m1[0]*m2[0] + m1[2]*m2[1], m1[1]*m2[0] + m1[3]*m2[1],
			m1[0]*m2[2] + m1[2]*m2[3], m1[1]*m2[2] + m1[3]*m2[3],
			m1[0]*m2[4] + m1[2]*m2[5] + m1[4], m1[1]*m2[4] + m1[3]*m2[5] + m1[5],
		}
	}
	ox := dx + f.X + s.TransformOrigin[0].Resolve(f.W, 0)
	oy := dy + f.Y + s.TransformOrigin[1].Resolve(f.H, 0)
	m := [6]float64{1, 0, 0, 1, ox, oy}
	for _, fn := range s.Transform {
		var t [6]float64
		switch fn.Kind {
		case "translate":
			t = [6]float64{1, 0, 0, 1, fn.X.Resolve(f.W, 0), fn.Y.Resolve(f.H, 0)}
		case "rotate":
			sin, cos := math.Sincos(fn.Angle)
			t = [6]float64{cos, sin, -sin, cos, 0, 0}
		case "skew":
			t = [6]float64{1, math.Tan(fn.Angle2), math.Tan(fn.Angle), 1, 0, 0}
		default: // matrix, scale
			t = fn.M
		}
		m = mul(m, t)
	}
	return mul(m, [6]float64{1, 0, 0, 1, -ox, -oy})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// withClips paints with the given clipping boxes pushed (after the first
// keep entries of the stack), then pops them.
func (p *painter) withClips(clips []*Frag, keep int, paint func()) {
	n := len(p.clips)
	for _, c := range clips {
		p.pushClip(c)
	}
	paint()
	p.popClipsTo(n)
	_ = keep
}

// collect gathers f's positioned descendants that belong to f's context,
// by z-index, with the clipping boxes on the way.
func (p *painter) collect(f *Frag, clips []*Frag, neg, zero, pos *[]layered) {
	for _, c := range p.visibleChildren(f) {
		if c.Kind == FragText {
			continue
		}
		if isPositionedFrag(c) || makesContext(c) {
			d := layered{f: c, clips: clips}
			switch z := zOf(c); {
			case z < 0:
				*neg = append(*neg, d)
			case z > 0:
				*pos = append(*pos, d)
			default:
				*zero = append(*zero, d)
			}
			continue
		}
		if c.Kind == FragBox && c.Box != nil && (c.Box.Inline && c.Box.Kind != KindText || c.Box.isFloat()) {
			continue // an atomic inline or a float paints as a whole in its phase
		}
		cc := clips
		if p.clipsContent(c) {
			cc = append(append([]*Frag(nil), clips...), c)
		}
		p.collect(c, cc, neg, zero, pos)
	}
}

// blocks paints the backgrounds and borders of the in-flow, non-positioned
// block-level descendants of f, in tree order.
func (p *painter) blocks(f *Frag, top bool) {
	for _, c := range p.visibleChildren(f) {
		if c.Kind != FragBox || isPositionedFrag(c) || makesContext(c) || !p.visible(c) {
			continue
		}
		if c.Box != nil && (c.Box.Inline || c.Box.isFloat()) {
			continue
		}
		p.decorations(c)
		clip := p.clipsContent(c)
		n := len(p.clips)
		if clip {
			p.pushClip(c)
		}
		p.blocks(c, false)
		p.popClipsTo(n)
	}
}

// floats paints the floats among f's in-flow block descendants, each as
// if it were a stacking context (CSS 2.1 Appendix E: after the blocks'
// backgrounds, before the lines).
func (p *painter) floats(f *Frag) {
	for _, c := range p.visibleChildren(f) {
		if c.Kind != FragBox || isPositionedFrag(c) || makesContext(c) || !p.visible(c) || c.Box == nil || c.Box.Inline {
			continue
		}
		if c.Box.isFloat() {
			p.stackingContext(c, false)
			continue
		}
		clip := p.clipsContent(c)
		n := len(p.clips)
		if clip {
			p.pushClip(c)
		}
		p.floats(c)
		p.popClipsTo(n)
	}
}

// inlines paints the line boxes' content of f and its in-flow block
// descendants.
func (p *painter) inlines(f *Frag, top bool) {
	for _, c := range p.visibleChildren(f) {
		if !p.visible(c) {
			continue
		}
		switch c.Kind {
		case FragLine:
			p.line(c)
		case FragBox:
			if isPositionedFrag(c) || makesContext(c) || c.Box != nil && c.Box.isFloat() {
				continue
			}
			clip := p.clipsContent(c)
			n := len(p.clips)
			if clip {
				p.pushClip(c)
			}
			p.inlines(c, false)
			p.popClipsTo(n)
		}
	}
}

// line paints a line box: inline boxes' backgrounds and borders, then
// text and atomic inlines in order.
func (p *painter) line(ln *Frag) {
	if ln.Kind == FragInline {
		p.decorations(ln)
	}
	for _, c := range ln.Children {
		if c.Kind == FragInline && !isPositionedFrag(c) {
			p.decorations(c)
		}
	}
	for _, c := range ln.Children {
		switch c.Kind {
		case FragText:
			p.text(c)
		case FragBox:
			if c.symbol != 0 {
				p.symbol(c)
				continue
			}
			if isPositionedFrag(c) || makesContext(c) {
				// collect gathered it: it paints with its stacking
				// context's layers (CSS 2 Appendix E), not here as well.
				continue
			}
			// An atomic inline paints as if it were a stacking context.
			p.stackingContext(c, false)
		}
	}
}

// clipsContent reports whether f clips its content (overflow other than
// visible).
func (p *painter) clipsContent(f *Frag) bool {
	return f.Kind == FragBox && f.Box != nil && f.Box.Style.Overflow != "visible" && f.Box.Style.Overflow != "" && f.Box.Kind != KindText && f.Box.Parent != nil
}

// pushClip clips to f's padding box (rounded by its inner radii).
func (p *painter) pushClip(f *Frag) {
	s := f.Box.Style
	bd := boxBorders(s)
	x, y, w, h := p.snapRect(f.X, f.Y, f.W, f.H)
	rr := outerRadii(s, w, h)
	path := roundedRectPath(x+bd[style.Left], y+bd[style.Top], w-bd.h(), h-bd.v(), innerRadii(rr, bd))
	p.op(draw.PushClip{Path: path})
	p.clips = append(p.clips, f)
}

func (p *painter) popClipsTo(n int) {
	for len(p.clips) > n {
		p.op(draw.PopClip{})
		p.clips = p.clips[:len(p.clips)-1]
	}
}

// snapRect is Blink's PixelSnappedIntRect of a flow rectangle, in page
// coordinates: edges rounded to whole pixels, and a side that rounds to
// nothing one pixel long all the same (SnapSizeToPixel), so that half of
// a 1px collapsed border still paints a pixel.
func (p *painter) snapRect(x, y, w, h float64) (float64, float64, float64, float64) {
	x0, y0 := math.Floor(x+p.ox+0.5), math.Floor(y+p.oy+0.5)
	x1, y1 := math.Floor(x+w+p.ox+0.5), math.Floor(y+h+p.oy+0.5)
	return x0, y0, snapSize(x1-x0, w), snapSize(y1-y0, h)
}

// snapSize is a snapped length n of a length v: at least one pixel when v
// is more than Blink's four LayoutUnits.
func snapSize(n, v float64) float64 {
	if n == 0 && v > 4.0/64 {
		return 1
	}
	return n
}

// decorations paints a box's (or an inline box part's) background and
// borders, and an image's content.
func (p *painter) decorations(f *Frag) {
	if f.Box == nil && f.multicol != nil && f.multicol.s.Visibility == "visible" {
		p.columnRules(f) // a row of columns on a page of its own
		return
	}
	if f.Box == nil || f.symbol != 0 {
		return
	}
	s := f.Box.Style
	if s.Visibility != "visible" {
		return
	}
	if f.Box.Parent == nil {
		return // the root's background is the canvas's
	}
	bgDone := f.Box.Node != nil && f.Box.Node.DataAtom == atom.Body && f.Box.Parent.Parent == nil && f.Box.Pseudo == PseudoNone &&
		canvasSource(p.rootFrag) == f // the body's background is the canvas's
	x, y, w, h := p.snapRect(f.X, f.Y, f.W, f.H)
	bd := boxBorders(s)
	rr := outerRadii(s, w, h)
	if f.Kind == FragInline {
		// A part of an inline box without its start or end has no edge
		// there: on the left and right, or right to left the other way.
		noLeft, noRight := f.NoStart, f.NoEnd
		if s.Direction == "rtl" {
			noLeft, noRight = noRight, noLeft
		}
		if noLeft {
			bd[style.Left] = 0
			rr[style.TopLeft], rr[style.BottomLeft] = [2]float64{}, [2]float64{}
		}
		if noRight {
			bd[style.Right] = 0
			rr[style.TopRight], rr[style.BottomRight] = [2]float64{}, [2]float64{}
		}
	}
	if len(s.BoxShadow) > 0 {
		p.boxShadows(s, false, x, y, w, h, bd, rr)
	}
	if !bgDone {
		p.background(f, s, x, y, w, h, bd, rr)
	}
	if len(s.BoxShadow) > 0 {
		p.boxShadows(s, true, x, y, w, h, bd, rr)
	}
	if f.Box.Kind == KindReplaced {
		p.mark(f.Box, func() { p.replaced(f, x, y, w, h, bd) })
	}
	p.borders(s, x, y, w, h, bd, rr, f.Box.Kind == KindTable || f.Box.Kind == KindCell)
	if f.multicol != nil {
		p.columnRules(f)
	}
}

// columnRules paints a multi-column container's rules: one in the middle
// of each gap between columns (those that hold content), as tall as the
// columns, drawn as a box's left side.
func (p *painter) columnRules(f *Frag) {
	m := f.multicol
	s := m.s
	rule := s.ColumnRule
	if rule.Width <= 0 || rule.Style == style.BorderNone || rule.Style == style.BorderHidden || rule.Color.A == 0 {
		return
	}
	rs := *s
	rs.Border = [4]style.Border{}
	rs.Border[style.Left] = rule
	var bd edges
	bd[style.Left] = rule.Width
	for i := 0; i+1 < len(m.xs); i++ {
		left, right := math.Min(m.xs[i], m.xs[i+1]), math.Max(m.xs[i], m.xs[i+1])
		mid := left + m.w + (right-left-m.w)/2
		x, y, w, h := p.snapRect(mid-rule.Width/2, m.top, rule.Width, m.h)
		p.borders(&rs, x, y, w, h, bd, [4][2]float64{}, false)
	}
}

// background paints the background colour and image into the clip box.
func (p *painter) background(f *Frag, s *style.Computed, x, y, w, h float64, bd edges, rr [4][2]float64) {
	bg := &s.Background
	if bg.Color.A == 0 && bg.Image == "" && bg.Gradient == nil {
		return
	}
	cx, cy, cw, ch := x, y, w, h
	cr := rr
	pd := boxPadding(s, f.W)
	switch bg.Clip {
	case "padding-box":
		cx, cy, cw, ch = x+bd[style.Left], y+bd[style.Top], w-bd.h(), h-bd.v()
		cr = innerRadii(rr, bd)
	case "content-box":
		cx, cy = x+bd[style.Left]+pd[style.Left], y+bd[style.Top]+pd[style.Top]
		cw, ch = w-bd.h()-pd.h(), h-bd.v()-pd.v()
		cr = innerRadii(rr, edges{bd[0] + pd[0], bd[1] + pd[1], bd[2] + pd[2], bd[3] + pd[3]})
	}
	if cw <= 0 || ch <= 0 {
		return
	}
	if bg.Color.A > 0 {
		p.op(draw.Fill{Path: roundedRectPath(cx, cy, cw, ch, cr), Color: bg.Color})
	}
	if bg.Image != "" {
		p.backgroundImage(f, s, x, y, w, h, bd, pd, cx, cy, cw, ch, cr)
	}
	if g := bg.Gradient; g != nil {
		ox, oy, ow, oh := originBox(bg, x, y, w, h, bd, pd)
		p.gradientTiles(g, bg.Repeat, ox, oy, ow, oh, cx, cy, cw, ch, cr)
	}
}

// gradientTiles paints gradient g as the background image of positioning
// area (ox, oy, ow, oh) in the clip box (cx, cy, cw, ch): one tile the
// area's size, repeated over the clip box as repeat says (the border area
// shows the next tiles, as in Chromium).
func (p *painter) gradientTiles(g *style.Gradient, repeat string, ox, oy, ow, oh, cx, cy, cw, ch float64, cr [4][2]float64) {
	tile, ok := linearGradient(g, ox, oy, ow, oh)
	if !ok {
		return
	}
	repX := repeat == "repeat" || repeat == "repeat-x" || repeat == ""
	repY := repeat == "repeat" || repeat == "repeat-y" || repeat == ""
	x0, x1 := ox, ox+ow
	if repX {
		x0 = ox - math.Ceil((ox-cx)/ow-1e-9)*ow
		x1 = cx + cw
	}
	y0, y1 := oy, oy+oh
	if repY {
		y0 = oy - math.Ceil((oy-cy)/oh-1e-9)*oh
		y1 = cy + ch
	}
	p.op(draw.PushClip{Path: roundedRectPath(cx, cy, cw, ch, cr)})
	n := 0
	for ty := y0; ty < y1-0.01; ty += oh {
		for tx := x0; tx < x1-0.01; tx += ow {
			if n++; n > maxTiles {
				break
			}
			op := tile
			dx, dy := tx-ox, ty-oy
			op.X0, op.Y0, op.X1, op.Y1 = op.X0+dx, op.Y0+dy, op.X1+dx, op.Y1+dy
			op.Path = rectPath(tx, ty, ow, oh)
			p.op(op)
		}
	}
	p.op(draw.PopClip{})
}

// linearGradient lays a linear-gradient() over the box (x, y, w, h) (CSS
// Images 3 §3.1): the gradient line through the box's centre at the
// gradient's angle, as long as the box's corners reach along it; stops
// resolved along it (missing positions spread evenly, none before an
// earlier one), and the shading's ends moved to the first and last stops.
func linearGradient(g *style.Gradient, x, y, w, h float64) (draw.LinearGradient, bool) {
	if w <= 0 || h <= 0 || len(g.Stops) < 2 {
		return draw.LinearGradient{}, false
	}
	theta := g.Angle
	if g.Corner {
		// "to <corner>": perpendicular to the diagonal between the other
		// two corners.
		theta = math.Atan2(float64(g.CornerX)*h, -float64(g.CornerY)*w)
	}
	dx, dy := math.Sin(theta), -math.Cos(theta)
	l := math.Abs(w*dx) + math.Abs(h*dy)
	if l <= 0 {
		return draw.LinearGradient{}, false
	}
	n := len(g.Stops)
	pos := make([]float64, n)
	set := make([]bool, n)
	for i, s := range g.Stops {
		if s.HasPos {
			pos[i], set[i] = s.Pos.Resolve(l, 0)/l, true
		}
	}
	if !set[0] {
		pos[0], set[0] = 0, true
	}
	if !set[n-1] {
		pos[n-1], set[n-1] = 1, true
	}
	for i := 1; i < n; i++ {
		if set[i] && pos[i] < pos[i-1] {
			pos[i] = pos[i-1]
		}
		if !set[i] {
			j := i
			for !set[j] {
				j++
			}
			for k := i; k < j; k++ {
				pos[k] = pos[i-1] + (pos[j]-pos[i-1])*float64(k-i+1)/float64(j-i+1)
			}
			for k := i; k < j; k++ {
				set[k] = true
			}
		}
		if pos[i] < pos[i-1] {
			pos[i] = pos[i-1]
		}
	}
	colors := make([]draw.Color, n)
	for i, s := range g.Stops {
		colors[i] = s.Color
	}
	repeat := false
	if g.Repeating {
		if p := pos[n-1] - pos[0]; p > 1e-9 && 1/p <= maxRepeats {
			// One period, which the shading repeats.
			repeat = true
		} else {
			pos, colors = meanStops(pos, colors)
			n = len(pos)
		}
	}
	t0, t1 := pos[0], pos[n-1]
	if t1-t0 < 1e-6 {
		t1 = t0 + 1e-6
	}
	cx, cy := x+w/2, y+h/2
	sx, sy := cx-dx*l/2, cy-dy*l/2
	op := draw.LinearGradient{
		X0: sx + dx*l*t0, Y0: sy + dy*l*t0,
		X1: sx + dx*l*t1, Y1: sy + dy*l*t1,
		Repeat: repeat,
	}
	for i := range pos {
		op.Stops = append(op.Stops, draw.GradientStop{Offset: (pos[i] - t0) / (t1 - t0), Color: colors[i]})
	}
	return op, true
}

// maxRepeats bounds the periods a repeating gradient shows along its
// line: a period far shorter than its box is painted as its colours'
// mean, as a renderer shows such a fine pattern.
const maxRepeats = 4096

// meanStops is a repeating gradient's period as one colour: the mean over
// the period (the last stop's when the period is empty).
func meanStops(pos []float64, colors []draw.Color) ([]float64, []draw.Color) {
	n := len(pos)
	period := pos[n-1] - pos[0]
	mean := colors[n-1]
	if period > 1e-9 {
		mean = draw.Color{}
		for i := 1; i < n; i++ {
			w := (pos[i] - pos[i-1]) / period
			a, b := colors[i-1], colors[i]
			mean.R += w * (a.R + b.R) / 2
			mean.G += w * (a.G + b.G) / 2
			mean.B += w * (a.B + b.B) / 2
			mean.A += w * (a.A + b.A) / 2
		}
	}
	return []float64{0, 1}, []draw.Color{mean, mean}
}

// borders paints the four borders as Blink's BoxBorderPainter does, since
// the PDF keeps the shapes it paints and readers rasterise them differently
// (poppler snaps a lone rectangle to whole pixels, not a ring): four solid
// sides of one colour and width without radii are one stroked rectangle,
// of one colour otherwise one ring (a translucent colour on fewer sides,
// one path of the sides' rectangles); anything else is painted side by
// side in Blink's order, a solid side as its whole rectangle unless a side
// painted before it meets it in another colour or style, where it is
// mitred.
func (p *painter) borders(s *style.Computed, x, y, w, h float64, bd edges, rr [4][2]float64, tablePart bool) {
	bs := s.Border
	for i := range bs {
		if bs[i].Style == style.BorderInset || bs[i].Style == style.BorderOutset {
			bs[i].Color = insetOutsetColor(bs[i], i, tablePart)
		}
	}
	var first *style.Border
	uniform, sameColor, all := true, true, true
	for i := 0; i < 4; i++ {
		if bd[i] == 0 {
			all = false
			continue
		}
		b := &bs[i]
		if first == nil {
			first = b
			continue
		}
		uniform = uniform && b.Style == first.Style
		sameColor = sameColor && b.Color == first.Color
	}
	if first == nil {
		return
	}
	hasRadius := rr != [4][2]float64{}
	inner := innerRadii(rr, bd)
	if uniform && sameColor {
		if first.Color.A == 0 {
			return
		}
		switch {
		case first.Style == style.BorderSolid && all:
			p.ring(first.Color, x, y, w, h, rr, bd)
			return
		case first.Style == style.BorderSolid && !all && !hasRadius && first.Color.A < 1:
			var path draw.Path
			for _, side := range [4]int{style.Top, style.Right, style.Bottom, style.Left} {
				if bd[side] > 0 {
					sx, sy, sw, sh := sideRect(side, x, y, w, h, bd)
					path = append(path, rectPath(sx, sy, sw, sh)...)
				}
			}
			p.op(draw.Fill{Path: path, Color: first.Color})
			return
		case first.Style == style.BorderDouble:
			p.doubleBorder(first.Color, x, y, w, h, bd, rr)
			return
		case first.Style == style.BorderInset || first.Style == style.BorderOutset ||
			(first.Style == style.BorderGroove || first.Style == style.BorderRidge) && hasRadius:
			path := roundedRectPath(x, y, w, h, rr)
			path = append(path, roundedRectPath(x+bd[style.Left], y+bd[style.Top], w-bd.h(), h-bd.v(), inner)...)
			p.op(draw.Fill{Path: path, Color: first.Color, EvenOdd: true})
			return
		}
	}
	var done [4]bool
	for _, side := range borderPaintOrder(&bs, bd) {
		b := bs[side]
		if b.Color.A == 0 {
			done[side] = true
			continue
		}
		switch b.Style {
		case style.BorderDashed, style.BorderDotted:
			if m1, m2 := mitres(&bs, bd, side, &done); !hasRadius && m1 == 0 && m2 == 0 {
				// Blink clips a dashed or dotted side only to mitre it.
				p.dashedSide(side, b, x, y, w, h, bd)
				break
			}
			p.op(draw.PushClip{Path: sideTrapezoid(side, x, y, w, h, bd)})
			if hasRadius {
				ring := roundedRectPath(x, y, w, h, rr)
				ring = append(ring, roundedRectPath(x+bd[style.Left], y+bd[style.Top], w-bd.h(), h-bd.v(), inner)...)
				p.op(draw.PushClip{Path: ring})
			}
			p.dashedSide(side, b, x, y, w, h, bd)
			if hasRadius {
				p.op(draw.PopClip{})
			}
			p.op(draw.PopClip{})
		case style.BorderDouble:
			p.op(draw.PushClip{Path: sideTrapezoid(side, x, y, w, h, bd)})
			p.doubleBorder(b.Color, x, y, w, h, bd, rr)
			p.op(draw.PopClip{})
		case style.BorderGroove, style.BorderRidge:
			if hasRadius || b.Color.A < 1 {
				p.op(draw.Fill{Path: sideTrapezoid(side, x, y, w, h, bd), Color: b.Color})
				break
			}
			p.grooveSide(s.Border, side, x, y, w, h, bd, &done, tablePart)
		default:
			switch {
			case hasRadius:
				p.op(draw.PushClip{Path: sideTrapezoid(side, x, y, w, h, bd)})
				ring := roundedRectPath(x, y, w, h, rr)
				ring = append(ring, roundedRectPath(x+bd[style.Left], y+bd[style.Top], w-bd.h(), h-bd.v(), inner)...)
				p.op(draw.Fill{Path: ring, Color: b.Color, EvenOdd: true})
				p.op(draw.PopClip{})
			case b.Color.A < 1:
				p.op(draw.Fill{Path: sideTrapezoid(side, x, y, w, h, bd), Color: b.Color})
			default:
				m1, m2 := mitres(&bs, bd, side, &done)
				p.op(draw.Fill{Path: solidSide(side, x, y, w, h, bd, [2]float64{m1, m2}), Color: b.Color})
			}
		}
		done[side] = true
	}
}

// grooveSide paints one side of a groove or ridge border as Blink does: an
// inset outer half and an outset inner half (ridge: the other way round),
// the outer half ceil(width / 2) wide, each half mitred where it meets a
// half painted before it in another colour. bs are the computed borders
// (their colours before shading).
func (p *painter) grooveSide(bs [4]style.Border, side int, x, y, w, h float64, bd edges, done *[4]bool, tablePart bool) {
	var ob, ib edges
	var outer, inner [4]style.Border
	for k := 0; k < 4; k++ {
		ob[k] = math.Ceil(bd[k] / 2)
		ib[k] = bd[k] - ob[k]
		outer[k], inner[k] = bs[k], bs[k]
		if bs[k].Style == style.BorderGroove || bs[k].Style == style.BorderRidge {
			in, out := style.BorderInset, style.BorderOutset
			if bs[k].Style == style.BorderRidge {
				in, out = out, in
			}
			outer[k].Style, inner[k].Style = in, out
			outer[k].Color = insetOutsetColor(outer[k], k, tablePart)
			inner[k].Color = insetOutsetColor(inner[k], k, tablePart)
		}
	}
	m1, m2 := mitres(&outer, ob, side, done)
	p.op(draw.Fill{Path: solidSide(side, x, y, w, h, ob, [2]float64{m1, m2}), Color: outer[side].Color})
	if ib[side] > 0 {
		m1, m2 = mitres(&inner, ib, side, done)
		p.op(draw.Fill{Path: solidSide(side, x+ob[style.Left], y+ob[style.Top], w-ob.h(), h-ob.v(), ib, [2]float64{m1, m2}), Color: inner[side].Color})
	}
}

// insetOutsetColor is the colour of one side of an inset or outset border
// as Chromium 156 paints it (measured colour by colour; Blink's
// CalculateBorderStyleColor with Color::Dark and Color::Light): the top and
// left take the dark shade and the bottom and right the light one for
// inset, the other way round for outset. A colour as dark as #202020 is
// lightened first and is its own dark shade; one lighter than #ebebeb is
// its own light shade. A border in currentColor is #eee, except on a table
// or a cell, whose borders take the colour.
func insetOutsetColor(b style.Border, side int, tablePart bool) draw.Color {
	c := b.Color
	if b.CurrentColor && !tablePart {
		c = draw.Color{R: 238.0 / 255, G: 238.0 / 255, B: 238.0 / 255, A: c.A}
	}
	darkSide := (side == style.Top || side == style.Left) == (b.Style == style.BorderInset)
	sq := func(v float64) float64 { return v * v * 255 * 255 }
	switch {
	case sq(c.R)+sq(c.G)+sq(c.B) <= 3*32*32+1e-6:
		c = lighter(c)
		if !darkSide {
			c = lighter(c)
		}
	case darkSide:
		c = darker(c)
	case sq(1-c.R)+sq(1-c.G)+sq(1-c.B) >= 3*20*20-1e-6:
		c = lighter(c)
	}
	return c
}

// darker and lighter are Blink's Color::Dark and Color::Light: the largest
// channel v moved by a third (v - 0.33, or up to min(1, v + 0.33)), the
// others scaled with it, truncated to 8 bits; black lightens to #545454.
func darker(c draw.Color) draw.Color {
	v := math.Max(c.R, math.Max(c.G, c.B))
	m := 0.0
	if v > 0 {
		m = math.Max(0, (v-0.33)/v)
	}
	return scaleColor(c, m)
}

func lighter(c draw.Color) draw.Color {
	v := math.Max(c.R, math.Max(c.G, c.B))
	if v == 0 {
		return draw.Color{R: 0x54 / 255.0, G: 0x54 / 255.0, B: 0x54 / 255.0, A: c.A}
	}
	return scaleColor(c, math.Min(1, v+0.33)/v)
}

// scaleColor multiplies the channels by m, to whole 8-bit values as Blink
// truncates them (nextafterf(256, 0) a channel).
func scaleColor(c draw.Color, m float64) draw.Color {
	ch := func(v float64) float64 { return math.Min(255, math.Floor(v*m*255.99998)) / 255 }
	return draw.Color{R: ch(c.R), G: ch(c.G), B: ch(c.B), A: c.A}
}

// strokable reports whether a ring of width t with outer radii rr is a
// stroke of its centre line, as Blink's IsSimpleDRRect decides: every
// corner square or circular with a radius of at least t.
func strokable(rr [4][2]float64, t float64) bool {
	for _, r := range rr {
		if r[0] != r[1] || (r[0] > 0 && r[0] < t) {
			return false
		}
	}
	return true
}

// borderPaintOrder is the order in which Blink paints the visible sides
// (BoxBorderPainter's ComplexBorderInfo): the more transparent first, then
// dashed, dotted and double before inset, outset, groove and ridge before
// solid, then top, bottom, right, left, so that opposite sides go first
// and need no mitres.
func borderPaintOrder(bs *[4]style.Border, bd edges) []int {
	var order [4]int
	n := 0
	for _, side := range [4]int{style.Top, style.Bottom, style.Right, style.Left} {
		if bd[side] > 0 {
			order[n] = side
			n++
		}
	}
	rank := func(side int) (float64, int) {
		b := bs[side]
		prio := 1
		switch b.Style {
		case style.BorderSolid:
			prio = 3
		case style.BorderInset, style.BorderOutset, style.BorderGroove, style.BorderRidge:
			prio = 2
		}
		return b.Color.A, prio
	}
	// An insertion sort keeps the side order among equals.
	for i := 1; i < n; i++ {
		for j := i; j > 0; j-- {
			a1, p1 := rank(order[j-1])
			a2, p2 := rank(order[j])
			if a1 < a2 || (a1 == a2 && p1 <= p2) {
				break
			}
			order[j-1], order[j] = order[j], order[j-1]
		}
	}
	return order[:n]
}

// mitres are the widths of the two sides adjacent to side (before and
// after it, clockwise) at which it is mitred, 0 where it is not: Blink's
// ComputeMiter mitres a side only where it meets a side already painted
// in another colour or another style, which its mitre then leaves showing.
func mitres(bs *[4]style.Border, bd edges, side int, done *[4]bool) (m1, m2 float64) {
	b := bs[side]
	miter := func(adj int) float64 {
		a := bs[adj]
		if bd[adj] == 0 || !done[adj] {
			return 0
		}
		if a.Color != b.Color || a.Style != b.Style {
			return bd[adj]
		}
		return 0
	}
	return miter((side + 3) % 4), miter((side + 1) % 4)
}

// sideRect is a side's whole rectangle, across both corners (Blink's
// CalculateSideRect).
func sideRect(side int, x, y, w, h float64, bd edges) (sx, sy, sw, sh float64) {
	switch side {
	case style.Top:
		return x, y, w, bd[style.Top]
	case style.Right:
		return x + w - bd[style.Right], y, bd[style.Right], h
	case style.Bottom:
		return x, y + h - bd[style.Bottom], w, bd[style.Bottom]
	}
	return x, y, bd[style.Left], h
}

// solidSide is a solid side's area: its rectangle, cut diagonally at a
// corner where m1 (the side before it, clockwise) or m2 (the side after)
// is not 0, as Blink's DrawSolidBoxSide fills it.
func solidSide(side int, x, y, w, h float64, bd edges, m [2]float64) draw.Path {
	sx, sy, sw, sh := sideRect(side, x, y, w, h, bd)
	if m[0] == 0 && m[1] == 0 {
		return rectPath(sx, sy, sw, sh)
	}
	x1, y1, x2, y2 := sx, sy, sx+sw, sy+sh
	var q [4]draw.Point
	switch side {
	case style.Top: // before: left, after: right
		q = [4]draw.Point{{X: x1, Y: y1}, {X: x1 + m[0], Y: y2}, {X: x2 - m[1], Y: y2}, {X: x2, Y: y1}}
	case style.Right: // before: top, after: bottom
		q = [4]draw.Point{{X: x1, Y: y1 + m[0]}, {X: x1, Y: y2 - m[1]}, {X: x2, Y: y2}, {X: x2, Y: y1}}
	case style.Bottom: // before: right, after: left
		q = [4]draw.Point{{X: x1 + m[1], Y: y1}, {X: x1, Y: y2}, {X: x2, Y: y2}, {X: x2 - m[0], Y: y1}}
	default: // left; before: bottom, after: top
		q = [4]draw.Point{{X: x1, Y: y1}, {X: x1, Y: y2}, {X: x2, Y: y2 - m[0]}, {X: x2, Y: y1 + m[1]}}
	}
	return draw.Path{
		{Kind: draw.MoveTo, P: [3]draw.Point{q[0]}},
		{Kind: draw.LineTo, P: [3]draw.Point{q[1]}},
		{Kind: draw.LineTo, P: [3]draw.Point{q[2]}},
		{Kind: draw.LineTo, P: [3]draw.Point{q[3]}},
		{Kind: draw.Close},
	}
}

// sideTrapezoid is the area of one border side with mitred corners.
func sideTrapezoid(side int, x, y, w, h float64, bd edges) draw.Path {
	l, t, r, b := bd[style.Left], bd[style.Top], bd[style.Right], bd[style.Bottom]
	var pts [4]draw.Point
	switch side {
	case style.Top:
		pts = [4]draw.Point{{X: x, Y: y}, {X: x + w, Y: y}, {X: x + w - r, Y: y + t}, {X: x + l, Y: y + t}}
	case style.Right:
		pts = [4]draw.Point{{X: x + w, Y: y}, {X: x + w, Y: y + h}, {X: x + w - r, Y: y + h - b}, {X: x + w - r, Y: y + t}}
	case style.Bottom:
		pts = [4]draw.Point{{X: x + w, Y: y + h}, {X: x, Y: y + h}, {X: x + l, Y: y + h - b}, {X: x + w - r, Y: y + h - b}}
	default:
		pts = [4]draw.Point{{X: x, Y: y + h}, {X: x, Y: y}, {X: x + l, Y: y + t}, {X: x + l, Y: y + h - b}}
	}
	return draw.Path{
		{Kind: draw.MoveTo, P: [3]draw.Point{pts[0]}},
		{Kind: draw.LineTo, P: [3]draw.Point{pts[1]}},
		{Kind: draw.LineTo, P: [3]draw.Point{pts[2]}},
		{Kind: draw.LineTo, P: [3]draw.Point{pts[3]}},
		{Kind: draw.Close},
	}
}

// doubleBorder paints a double border: the outer and inner thirds, each a
// ring as Blink's FillDRRect paints it: a stroke of its centre line when
// its sides are one width and its corners strokable, else an even-odd fill.
func (p *painter) doubleBorder(c draw.Color, x, y, w, h float64, bd edges, rr [4][2]float64) {
	var o, i edges
	for k := 0; k < 4; k++ {
		third := math.Floor((bd[k] + 1) / 3)
		o[k] = third
		i[k] = bd[k] - third
	}
	p.ring(c, x, y, w, h, rr, o)
	p.ring(c, x+i[style.Left], y+i[style.Top], w-i.h(), h-i.v(), innerRadii(rr, i), edges{bd[0] - i[0], bd[1] - i[1], bd[2] - i[2], bd[3] - i[3]})
}

// ring paints the ring of widths e inside the box x, y, w, h with outer
// radii rr.
func (p *painter) ring(c draw.Color, x, y, w, h float64, rr [4][2]float64, e edges) {
	if t := e[0]; e == (edges{t, t, t, t}) && strokable(rr, t) {
		var mid [4][2]float64
		for k, r := range rr {
			if r[0] > 0 {
				mid[k] = [2]float64{r[0] - t/2, r[1] - t/2}
			}
		}
		p.op(draw.Stroke{Path: roundedRectPath(x+t/2, y+t/2, w-t, h-t, mid), Color: c, Width: t})
		return
	}
	path := roundedRectPath(x, y, w, h, rr)
	path = append(path, roundedRectPath(x+e[style.Left], y+e[style.Top], w-e.h(), h-e.v(), innerRadii(rr, e))...)
	p.op(draw.Fill{Path: path, Color: c, EvenOdd: true})
}

// dashedSide paints one dashed or dotted side in the shapes Chromium's PDF
// holds (Blink's DrawDashedOrDottedBoxSide and GraphicsContext::DrawLine,
// which Skia turns into fills):
//
//   - dashes three widths long with gaps of two below 3 px, else two and
//     one, along the whole side, the gap stretched so that it starts and
//     ends with a dash (StrokeData::SelectBestDashGap); one path of
//     rectangles, the whole side when two dashes do not fit;
//   - dots up to 3 px wide are squares, each its own rectangle: one at each
//     end, and between them as many as fit at two widths apart with a
//     pixel at least on either side, the slack split between the two ends;
//   - wider dots are round, from the centre of one end's square to the
//     other's, spaced by the best gap for dots of one width apart over the
//     whole side plus one width less Blink's 0.01 px (which keeps the last
//     dot on the line); one path of circles.
func (p *painter) dashedSide(side int, b style.Border, x, y, w, h float64, bd edges) {
	t := bd[side]
	// The side as a band: from s0 to s1 along it, from c0 to c0+t across.
	vertical := side == style.Left || side == style.Right
	s0, s1, c0 := x, x+w, y
	switch side {
	case style.Bottom:
		c0 = y + h - t
	case style.Left:
		s0, s1, c0 = y, y+h, x
	case style.Right:
		s0, s1, c0 = y, y+h, x+w-t
	}
	rect := func(a, l float64) draw.Path {
		if vertical {
			return rectPath(c0, a, t, l)
		}
		return rectPath(a, c0, l, t)
	}
	length := s1 - s0
	switch {
	case b.Style == style.BorderDashed:
		dash, gap := 3*t, 2*t
		if t >= 3 {
			dash, gap = 2*t, t
		}
		if length <= 2*dash {
			p.op(draw.Fill{Path: rect(s0, length), Color: b.Color})
			return
		}
		period := dash + bestDashGap(length, dash, gap)
		var path draw.Path
		for a := s0; a < s1-1e-6; a += period {
			path = append(path, rect(a, math.Min(dash, s1-a))...)
		}
		p.op(draw.Fill{Path: path, Color: b.Color})
	case t <= 3:
		p.op(draw.Fill{Path: rect(s0, t), Color: b.Color})
		if length < 2*t {
			return
		}
		p.op(draw.Fill{Path: rect(s1-t, t), Color: b.Color})
		inner := length - 2*t
		n := math.Floor((inner - 2 + t) / (2 * t))
		if n < 1 {
			return
		}
		slack := inner - (2*n-1)*t
		a := s0 + t + math.Floor((slack+math.Mod(t, 2))/2)
		for k := 0.0; k < n; k++ {
			p.op(draw.Fill{Path: rect(a+2*k*t, t), Color: b.Color})
		}
	default:
		r := t / 2
		period := bestDashGap(length, t, t) + t - 0.01
		var path draw.Path
		for a := s0 + r; a <= s1-r+1e-6; a += period {
			cx, cy := a, c0+r
			if vertical {
				cx, cy = c0+r, a
			}
			path = append(path, roundedRectPath(cx-r, cy-r, t, t, [4][2]float64{{r, r}, {r, r}, {r, r}, {r, r}})...)
		}
		p.op(draw.Fill{Path: path, Color: b.Color})
	}
}

// bestDashGap is Blink's StrokeData::SelectBestDashGap for an open path:
// the gap nearest the wanted one that makes the path start and end with a
// dash.
func bestDashGap(length, dash, gap float64) float64 {
	avail := length + gap
	minN := math.Floor(avail / (dash + gap))
	maxN := minN + 1
	minGap := (length - minN*dash) / (minN - 1)
	maxGap := (length - maxN*dash) / (maxN - 1)
	if minN <= 1 {
		return gap
	}
	if maxGap <= 0 || math.Abs(minGap-gap) < math.Abs(maxGap-gap) {
		return minGap
	}
	return maxGap
}

// outerRadii resolves border-radius for a box w×h, scaled down together
// when adjacent radii overlap (CSS Backgrounds 3 §5.5).
func outerRadii(s *style.Computed, w, h float64) [4][2]float64 {
	var r [4][2]float64
	any := false
	for i := 0; i < 4; i++ {
		r[i][0] = math.Max(0, s.Radius[i].H.Resolve(w, 0))
		r[i][1] = math.Max(0, s.Radius[i].V.Resolve(h, 0))
		if r[i][0] == 0 || r[i][1] == 0 {
			r[i] = [2]float64{}
		} else {
			any = true
		}
	}
	if !any {
		return r
	}
	f := 1.0
	check := func(sum, side float64) {
		if sum > side && sum > 0 {
			f = math.Min(f, side/sum)
		}
	}
	check(r[style.TopLeft][0]+r[style.TopRight][0], w)
	check(r[style.BottomLeft][0]+r[style.BottomRight][0], w)
	check(r[style.TopLeft][1]+r[style.BottomLeft][1], h)
	check(r[style.TopRight][1]+r[style.BottomRight][1], h)
	if f < 1 {
		for i := range r {
			r[i][0] *= f
			r[i][1] *= f
		}
	}
	return r
}

// innerRadii are the radii of the edge inset by e.
func innerRadii(r [4][2]float64, e edges) [4][2]float64 {
	var o [4][2]float64
	o[style.TopLeft] = [2]float64{math.Max(0, r[style.TopLeft][0]-e[style.Left]), math.Max(0, r[style.TopLeft][1]-e[style.Top])}
	o[style.TopRight] = [2]float64{math.Max(0, r[style.TopRight][0]-e[style.Right]), math.Max(0, r[style.TopRight][1]-e[style.Top])}
	o[style.BottomRight] = [2]float64{math.Max(0, r[style.BottomRight][0]-e[style.Right]), math.Max(0, r[style.BottomRight][1]-e[style.Bottom])}
	o[style.BottomLeft] = [2]float64{math.Max(0, r[style.BottomLeft][0]-e[style.Left]), math.Max(0, r[style.BottomLeft][1]-e[style.Bottom])}
	for i := range o {
		if o[i][0] == 0 || o[i][1] == 0 {
			o[i] = [2]float64{}
		}
	}
	return o
}

// kappa places cubic control points to approximate a quarter ellipse.
const kappa = 0.5522847498

// roundedRectPath is a rectangle with elliptical corners, clockwise.
func roundedRectPath(x, y, w, h float64, r [4][2]float64) draw.Path {
	if w < 0 {
		w = 0
	}
	if h < 0 {
		h = 0
	}
	if r == [4][2]float64{} {
		return rectPath(x, y, w, h)
	}
	tl, tr, br, bl := r[style.TopLeft], r[style.TopRight], r[style.BottomRight], r[style.BottomLeft]
	pt := func(px, py float64) draw.Point { return draw.Point{X: px, Y: py} }
	path := draw.Path{{Kind: draw.MoveTo, P: [3]draw.Point{pt(x+tl[0], y)}}}
	path = append(path, draw.Segment{Kind: draw.LineTo, P: [3]draw.Point{pt(x+w-tr[0], y)}})
	if tr[0] > 0 {
		path = append(path, draw.Segment{Kind: draw.CubicTo, P: [3]draw.Point{pt(x+w-tr[0]+tr[0]*kappa, y), pt(x+w, y+tr[1]-tr[1]*kappa), pt(x+w, y+tr[1])}})
	}
	path = append(path, draw.Segment{Kind: draw.LineTo, P: [3]draw.Point{pt(x+w, y+h-br[1])}})
	if br[0] > 0 {
		path = append(path, draw.Segment{Kind: draw.CubicTo, P: [3]draw.Point{pt(x+w, y+h-br[1]+br[1]*kappa), pt(x+w-br[0]+br[0]*kappa, y+h), pt(x+w-br[0], y+h)}})
	}
	path = append(path, draw.Segment{Kind: draw.LineTo, P: [3]draw.Point{pt(x+bl[0], y+h)}})
	if bl[0] > 0 {
		path = append(path, draw.Segment{Kind: draw.CubicTo, P: [3]draw.Point{pt(x+bl[0]-bl[0]*kappa, y+h), pt(x, y+h-bl[1]+bl[1]*kappa), pt(x, y+h-bl[1])}})
	}
	path = append(path, draw.Segment{Kind: draw.LineTo, P: [3]draw.Point{pt(x, y+tl[1])}})
	if tl[0] > 0 {
		path = append(path, draw.Segment{Kind: draw.CubicTo, P: [3]draw.Point{pt(x, y+tl[1]-tl[1]*kappa), pt(x+tl[0]-tl[0]*kappa, y), pt(x+tl[0], y)}})
	}
	return append(path, draw.Segment{Kind: draw.Close})
}

// rectPath is a closed rectangle.
func rectPath(x, y, w, h float64) draw.Path {
	return draw.Path{
		{Kind: draw.MoveTo, P: [3]draw.Point{{X: x, Y: y}}},
		{Kind: draw.LineTo, P: [3]draw.Point{{X: x + w, Y: y}}},
		{Kind: draw.LineTo, P: [3]draw.Point{{X: x + w, Y: y + h}}},
		{Kind: draw.LineTo, P: [3]draw.Point{{X: x, Y: y + h}}},
		{Kind: draw.Close},
	}
}

// outlines paints the outlines of f's in-flow descendants and f itself
// (after the content, as Blink's outline phase).
func (p *painter) outlines(f *Frag, root bool) {
	var walk func(f *Frag, self bool)
	walk = func(f *Frag, self bool) {
		if !self && (isPositionedFrag(f) || makesContext(f)) {
			return
		}
		if f.Box != nil && (f.Kind == FragBox || f.Kind == FragInline) {
			o := f.Box.Style.Outline
			if o.Style != style.BorderNone && o.Style != style.BorderHidden && o.Width > 0 && f.Box.Style.Visibility == "visible" && o.Color.A > 0 {
				w := borderWidth(o)
				off := f.Box.Style.OutlineOffset
				x, y, ww, hh := p.snapRect(f.X-w-off, f.Y-w-off, f.W+2*(w+off), f.H+2*(w+off))
				ow := edges{w, w, w, w}
				os := style.Computed{}
				for i := range os.Border {
					os.Border[i] = o
				}
				p.borders(&os, x, y, ww, hh, ow, [4][2]float64{}, false)
			}
		}
		for _, c := range p.visibleChildren(f) {
			if c.Kind == FragText {
				continue
			}
			walk(c, false)
		}
	}
	if !p.visible(f) {
		return
	}
	walk(f, true)
}

// text paints a text fragment and its decorations.
func (p *painter) text(f *Frag) {
	t := f.Text
	if t == nil || len(t.Glyphs) == 0 || t.Font == nil || f.Box == nil {
		return
	}
	if f.Baseline < p.top || f.Baseline >= p.bottom {
		return // on another page (the clip would hide it, but not from text extraction)
	}
	s := f.Box.Style
	if s.Visibility != "visible" {
		return
	}
	// Blink paints a line box at whole pixels vertically ("consistent line
	// heights") and the text at its offset in the line.
	by := math.Floor(f.lineTop+p.oy+0.5) + (f.Baseline - f.lineTop)
	decos := textDecorations(f.Box)
	for _, d := range decos {
		if d.Underline || d.Overline {
			p.decoration(f, t, d, by, false)
		}
	}
	p.mark(f.Box, func() {
		p.op(draw.Text{Font: t.Font, Size: t.Size, X: f.X + p.ox, Y: by, Glyphs: t.Glyphs, Color: s.Color, FakeBold: t.FakeBold, FakeItalic: t.FakeItalic, Reversed: t.RTL})
	})
	for _, d := range decos {
		if d.LineThrough {
			p.decoration(f, t, d, by, true)
		}
	}
}

// decorating is a text decoration and the font size of the box that
// declared it, which sizes its lines for all the text it decorates (as in
// Chromium: a big span in an underlined paragraph has the paragraph's
// underline).
type decorating struct {
	style.Decoration
	fontSize float64
}

// textDecorations are the decorations applying to text of box b: its own
// and those of its ancestors up to an atomic inline or out-of-flow box
// (CSS Text Decoration 3 §2: decorations propagate to in-flow
// descendants).
func textDecorations(b *Box) []decorating {
	var out []decorating
	for x := b; x != nil; x = x.Parent {
		if x.Kind != KindText {
			d := x.Style.Decoration
			if d.Underline || d.Overline || d.LineThrough {
				out = append(out, decorating{d, x.Style.FontSize})
			}
			if x.IsAtomicInline() || x.IsOutOfFlow() {
				break
			}
		}
	}
	if b.Kind == KindText && b.Parent == nil {
		d := b.Style.Decoration
		if d.Underline || d.Overline || d.LineThrough {
			out = append(out, decorating{d, b.Style.FontSize})
		}
	}
	return out
}

// decoration paints one text's underline and overline (or line-through)
// as Blink places them: thickness T = max(1, font-size / 10) of the
// decorating box when auto; a solid line T in whole pixels thick,
// underline below the baseline by max(1, ceil(T / 2)) (T unrounded: 2 px
// at 22 px, 1 at 20), overline just above
// the text top, line-through at two thirds of the ascent, at whole pixels
// (measured against Chromium); the hanging spaces that end a line left
// out. The other styles follow Chromium's content streams (Blink's
// DecorationLinePainter and GraphicsContext::DrawLine over the whole
// pixels the line spans): double, a second line round(T + 1) below the
// first; dotted and dashed, T high around the solid line's middle (on a
// half pixel when round(T) is odd), with w = round(T): dots w long and w
// apart, or round ones from end to end spaced as on borders when w > 3;
// dashes as on borders.
func (p *painter) decoration(f *Frag, t *TextRun, d decorating, by float64, through bool) {
	t0 := math.Max(1, d.fontSize/10)
	if d.Thickness.Unit == style.Px {
		t0 = math.Max(1, d.Thickness.V)
	} else if d.Thickness.Unit == style.Percent {
		t0 = math.Max(1, d.Thickness.V*d.fontSize/100)
	}
	th := math.Floor(t0) // whole pixels, as Chromium paints them (measured)
	ascent := math.Round(t.Metrics.Ascent)
	color := d.Color
	if color.A == 0 {
		return
	}
	line := func(y float64, skipInk bool) {
		y = math.Floor(y + 0.5)
		x := f.X + p.ox
		w := f.W - f.hangW
		if w <= 0 {
			return
		}
		if skipInk {
			bottom := y + th
			switch d.Style {
			case style.BorderDouble:
				bottom = y + math.Round(t0+1) + th
			case style.BorderDotted, style.BorderDashed:
				bottom = y + math.Floor(th/2) + t0/2 + 0.5
			}
			if p.skipInk(f, t, by, y, bottom, math.Min(t0, 13), x, x+w) {
				defer p.op(draw.PopClip{})
			}
		}
		switch d.Style {
		case style.BorderDotted, style.BorderDashed:
			p.patternedLine(d.Style, color, math.Floor(x), math.Floor(x+w), y+math.Floor(th/2), t0)
		case style.BorderDouble:
			p.op(draw.Fill{Path: rectPath(x, y, w, th), Color: color})
			p.op(draw.Fill{Path: rectPath(x, y+math.Round(t0+1), w, th), Color: color})
		default:
			p.op(draw.Fill{Path: rectPath(x, y, w, th), Color: color})
		}
	}
	if through {
		line(by-ascent+math.Floor(2*ascent/3)-th/2, false)
		return
	}
	if d.Underline {
		gap := math.Max(1, math.Ceil(t0/2))
		line(by+gap, true)
	}
	if d.Overline {
		line(by-ascent-th, true)
	}
}

// skipInk clips what follows out around the glyphs of text fragment f
// whose ink crosses the band from y0 to y1 (a decoration line; by is the
// baseline), as Chromium skips ink (text-decoration-skip-ink: auto, Blink's
// DecorationsStripeIntercepts): each glyph's ink extent in the band widened
// by dil on either side, the holes a pixel taller than the band. It
// reports whether it pushed a clip, which the caller pops.
func (p *painter) skipInk(f *Frag, t *TextRun, by, y0, y1, dil, x0, x1 float64) bool {
	if t.Size <= 0 {
		return false
	}
	lo, hi := (by-y1)/t.Size, (by-y0)/t.Size
	var holes [][2]float64
	pen := x0
	for _, g := range t.Glyphs {
		if a, b, ok := p.l.sh.Ink(t.Font, g.ID, lo, hi); ok {
			gx := pen + g.XOffset
			a, b = gx+a*t.Size-dil, gx+b*t.Size+dil
			if n := len(holes); n > 0 && a <= holes[n-1][1] {
				holes[n-1][1] = math.Max(holes[n-1][1], b)
			} else {
				holes = append(holes, [2]float64{a, b})
			}
		}
		pen += g.Advance
	}
	if len(holes) == 0 {
		return false
	}
	// The line's surroundings clockwise, each hole anticlockwise: the
	// nonzero rule leaves the holes out.
	top, bot := y0-1, y1+1
	path := rectPath(x0-1, top-1, x1-x0+2, bot-top+2)
	for _, h := range holes {
		a, b := math.Max(h[0], x0-1), math.Min(h[1], x1+1)
		if b <= a {
			continue
		}
		path = append(path,
			draw.Segment{Kind: draw.MoveTo, P: [3]draw.Point{{X: a, Y: top}}},
			draw.Segment{Kind: draw.LineTo, P: [3]draw.Point{{X: a, Y: bot}}},
			draw.Segment{Kind: draw.LineTo, P: [3]draw.Point{{X: b, Y: bot}}},
			draw.Segment{Kind: draw.LineTo, P: [3]draw.Point{{X: b, Y: top}}},
			draw.Segment{Kind: draw.Close})
	}
	p.op(draw.PushClip{Path: path})
	return true
}

// patternedLine paints a dotted or dashed decoration from x0 to x1 (whole
// pixels) around y, t thick (see decoration).
func (p *painter) patternedLine(st style.BorderStyle, c draw.Color, x0, x1, y, t float64) {
	w := math.Round(t)
	if math.Mod(w, 2) == 1 {
		y += 0.5 // Blink's DrawLine moves an odd-width line onto pixel centres
	}
	length := x1 - x0
	var path draw.Path
	switch {
	case st == style.BorderDashed:
		dash, gap := 3*w, 2*w
		if w >= 3 {
			dash, gap = 2*w, w
		}
		if length <= 2*dash {
			p.op(draw.Fill{Path: rectPath(x0, y-t/2, length, t), Color: c})
			return
		}
		period := dash + bestDashGap(length, dash, gap)
		for a := x0; a < x1-1e-6; a += period {
			path = append(path, rectPath(a, y-t/2, math.Min(dash, x1-a), t)...)
		}
	case w <= 3:
		for a := x0; a < x1-1e-6; a += 2 * w {
			p.op(draw.Fill{Path: rectPath(a, y-t/2, math.Min(w, x1-a), t), Color: c})
		}
		return
	default:
		r := t / 2
		period := bestDashGap(length, w, w) + w - 0.01
		for a := x0 + r; a <= x1-r+1e-6; a += period {
			path = append(path, ellipsePath(a-r, y-r, t, t)...)
		}
	}
	p.op(draw.Fill{Path: path, Color: c})
}

// symbol paints a disc, circle or square list marker.
func (p *painter) symbol(f *Frag) {
	s := f.Box.Style
	if s.Visibility != "visible" || s.Color.A == 0 {
		return
	}
	x, y, w, h := f.X+p.ox, f.Y+p.oy, f.W, f.H
	switch f.symbol {
	case csSquare:
		p.op(draw.Fill{Path: rectPath(x, y, w, h), Color: s.Color})
	case csCircle:
		lw := math.Max(1, math.Round(w/10))
		p.op(draw.Stroke{Path: ellipsePath(x+lw/2, y+lw/2, w-lw, h-lw), Color: s.Color, Width: lw})
	default:
		p.op(draw.Fill{Path: ellipsePath(x, y, w, h), Color: s.Color})
	}
}

// ellipsePath is the ellipse inscribed in a rectangle.
func ellipsePath(x, y, w, h float64) draw.Path {
	r := [2]float64{w / 2, h / 2}
	return roundedRectPath(x, y, w, h, [4][2]float64{r, r, r, r})
}

// annotate adds the links, the anchors of elements with an id and the
// outline of headings, page by page.
func (l *layouter) annotate(root *Frag, pages []page) {
	seen := map[*Box]bool{}
	pageOf := func(y float64) int {
		i := sort.Search(len(pages), func(i int) bool { return pages[i].start > y+0.01 }) - 1
		if i < 0 {
			i = 0
		}
		return i
	}
	var walk func(f *Frag, href string, link *Box, depth int)
	walk = func(f *Frag, href string, link *Box, depth int) {
		if depth > 4*l.opt.MaxDepth {
			return
		}
		b := f.Box
		if b != nil && (f.Kind == FragBox || f.Kind == FragInline) && b.Kind != KindText {
			if b.href != "" && b.Style.Visibility == "visible" {
				href, link = b.href, b
			}
			if !seen[b] && (b.id != "" || isHeading(b)) && b.Pseudo == PseudoNone {
				seen[b] = true
				pi := pageOf(f.Y)
				pg := pages[pi]
				y := (f.Y-pg.start)*l.scale + pg.geom.areaY
				if b.id != "" {
					dp := l.doc.Pages[pi]
					dp.Anchors = append(dp.Anchors, draw.Anchor{Name: b.id, Y: y})
				}
				if isHeading(b) {
					title := collapseWhite(textContent(b.Node))
					if title != "" {
						l.doc.Outline = append(l.doc.Outline, draw.OutlineItem{Title: title, Level: int(b.Node.Data[1] - '0'), Page: pi, Y: y})
					}
				}
			}
		}
		if href != "" && b != nil && (f.Kind == FragInline || (f.Kind == FragBox && b.href != "")) && f.W > 0 && f.H > 0 {
			pi := pageOf(f.Y)
			pg := pages[pi]
			sc := l.scale
			r := draw.Rect{X: f.X*sc + pg.geom.areaX, Y: (f.Y-pg.start)*sc + pg.geom.areaY, W: f.W * sc, H: f.H * sc}
			lk := draw.Link{Rect: r}
			if l.tags != nil && link != nil {
				lk.Elem = link.tagOwn
			}
			if strings.HasPrefix(href, "#") {
				lk.Dest = href[1:]
			} else {
				lk.URI = href
			}
			dp := l.doc.Pages[pi]
			dp.Links = append(dp.Links, lk)
			if f.Kind == FragInline {
				href = "" // the inline box's rectangle covers its content
			}
		}
		for _, c := range f.Children {
			if c.Kind == FragText {
				continue
			}
			h := href
			if c.Kind == FragInline && c.Box != nil && c.Box.href == "" && b != nil && b.href != "" {
				h = ""
			}
			walk(c, h, link, depth+1)
		}
	}
	walk(root, "", nil, 0)
}

func isHeading(b *Box) bool {
	if b.Node == nil || b.Anonymous {
		return false
	}
	switch b.Node.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// computeInk sets every fragment's inkTop and inkBottom: the vertical
// extent of what it and its descendants paint (shadows aside), for
// skipping subtrees on other pages.
func computeInk(f *Frag) {
	t, b := f.Y, f.Y+f.H
	if f.Box != nil && f.Box.Style.Outline.Width > 0 {
		w := f.Box.Style.Outline.Width + math.Abs(f.Box.Style.OutlineOffset)
		t, b = t-w-1, b+w+1
	}
	for _, c := range f.Children {
		computeInk(c)
		t = math.Min(t, c.inkTop)
		b = math.Max(b, c.inkBottom)
	}
	if len(f.Children) > manyChildren {
		// The children's ink envelopes, for finding a page's children
		// without walking them all (visibleChildren).
		n := len(f.Children)
		e := &inkEnvelope{maxBottom: make([]float64, n), minTop: make([]float64, n)}
		mb, mt := math.Inf(-1), math.Inf(1)
		for i, c := range f.Children {
			mb = math.Max(mb, c.inkBottom)
			e.maxBottom[i] = mb
		}
		for i := n - 1; i >= 0; i-- {
			mt = math.Min(mt, f.Children[i].inkTop)
			e.minTop[i] = mt
		}
		f.ink = e
	} else {
		f.ink = nil
	}
	if f.Kind == FragText && f.Text != nil {
		// Glyphs may reach past the font's ascent and descent.
		t -= f.H
		b += f.H
	}
	f.inkTop, f.inkBottom = t, b
}
