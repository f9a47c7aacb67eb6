package layout

import (
	"math"

	"golang.org/x/net/html/atom"

	"github.com/platen/platen/render/phantom/style"
)

// flow is a block formatting context's state while its in-flow children
// are placed: the position below the last placed content, the margins
// waiting to collapse (not yet added to y), and the fragments whose top
// waits for those margins (parents whose top margin collapses with their
// first child's, and empty boxes margins collapse through).
type flow struct {
	y       float64
	strut   marginStrut
	pending []*Frag
	// ex are the floats of the block formatting context (nil: none yet).
	ex *exclusions
	// adjoining are floats met while the position was unsettled (a box's
	// top waiting for its margins to collapse): they are placed where it
	// settles, as LayoutNG places adjoining floats.
	adjoining []func(y float64)
}

// resolve settles the pending margins: y moves past them and the waiting
// fragments get their top, then the adjoining floats their place.
func (f *flow) resolve() {
	f.y += f.strut.sum()
	f.strut = marginStrut{}
	for _, p := range f.pending {
		p.Y = f.y
	}
	f.pending = f.pending[:0]
	f.placeAdjoining()
}

// placeAdjoining places the adjoining floats at the current position.
func (f *flow) placeAdjoining() { f.placeAdjoiningAt(f.y + f.strut.sum()) }

// placeAdjoiningAt places the adjoining floats at y.
func (f *flow) placeAdjoiningAt(y float64) {
	for len(f.adjoining) > 0 {
		a := f.adjoining[0]
		f.adjoining = f.adjoining[1:]
		a(y)
	}
	f.adjoining = nil
}

// cbox is a containing block: the left edge and width of its content box
// and its height when definite (else -1).
type cbox struct {
	x, w, h float64
}

// layoutRoot lays out the root element's box in the initial containing
// block (the first page's area at the flow's origin), then the
// out-of-flow boxes that have no positioned ancestor.
func (l *layouter) layoutRoot(root *Box) *Frag {
	icb := l.pushPositioned(nil)
	icb.x, icb.y, icb.w, icb.h = 0, 0, l.viewW, l.viewH
	f := &flow{ex: l.newExclusions()}
	c := cbox{x: 0, w: l.icbW, h: l.icbH}
	var fr *Frag
	if root.Kind == KindTableWrapper {
		fr = l.layoutTableBlock(root, c, f)
	} else {
		fr = l.layoutBlockBox(root, c, f, -1, -1)
	}
	f.resolve()
	l.popPositioned(icb, fr)
	l.layoutFixed(fr)
	return fr
}

// layoutBlockLevel places one in-flow block-level box in f and returns its
// fragment.
func (l *layouter) layoutBlockLevel(b *Box, c cbox, f *flow) *Frag {
	switch b.Kind {
	case KindReplaced:
		return l.layoutReplacedBlock(b, c, f)
	case KindTableWrapper:
		return l.layoutTableBlock(b, c, f)
	}
	return l.layoutBlockBox(b, c, f, -1, -1)
}

// blockWidths resolves a block-level box's horizontal margins and content
// width in a containing block cbW wide (CSS 2.1 §10.3.3, with LayoutNG's
// order: the width first, auto margins then share what is left, never
// below zero). forceW ≥ 0 imposes the content width (shrink-to-fit,
// abspos).
func blockWidths(s *style.Computed, cbW float64, bd, pd edges, forceW float64) (ml, mr, w float64) {
	ml, mr = marginOf(s, style.Left, cbW), marginOf(s, style.Right, cbW)
	autoL, autoR := s.Margin[style.Left].IsAuto(), s.Margin[style.Right].IsAuto()
	switch {
	case forceW >= 0:
		w = forceW
	case s.Width.IsAuto() || s.Width.Unit == style.FitContent || s.Width.Unit == style.MinContent || s.Width.Unit == style.MaxContent:
		w = cbW - ml - mr - bd.h() - pd.h()
	default:
		w = length(s.Width, cbW, 0)
		if s.BorderBox {
			w -= bd.h() + pd.h()
		}
	}
	if forceW < 0 {
		w = clampWidth(s, w, cbW, bd, pd)
	}
	if w < 0 {
		w = 0
	}
	free := cbW - w - bd.h() - pd.h() - ml - mr
	switch {
	case autoL && autoR:
		if free < 0 {
			free = 0
		}
		ml = luHalf(free)
		mr = free - ml
	case autoL:
		if free < 0 {
			free = 0
		}
		ml = free
	case autoR:
		mr = math.Max(free, 0)
	}
	return ml, mr, w
}

// clampWidth applies min-width and max-width to a content width.
func clampWidth(s *style.Computed, w, cbW float64, bd, pd edges) float64 {
	adj := 0.0
	if s.BorderBox {
		adj = bd.h() + pd.h()
	}
	if s.MaxWidth.Unit == style.Px || s.MaxWidth.Unit == style.Percent {
		if mx := length(s.MaxWidth, cbW, 0) - adj; w > mx {
			w = mx
		}
	}
	if s.MinWidth.Unit == style.Px || s.MinWidth.Unit == style.Percent {
		if mn := length(s.MinWidth, cbW, 0) - adj; w < mn {
			w = mn
		}
	}
	if w < 0 {
		w = 0
	}
	return w
}

// specifiedHeight is a box's content height from height, or -1 when it is
// auto (or a percentage of an indefinite height).
func specifiedHeight(s *style.Computed, cbH float64, bd, pd edges) float64 {
	var h float64
	switch s.Height.Unit {
	case style.Px:
		h = lu(s.Height.V)
	case style.Percent:
		if cbH < 0 {
			return -1
		}
		h = length(s.Height, cbH, 0)
	default:
		return -1
	}
	if s.BorderBox {
		h -= bd.v() + pd.v()
	}
	if h < 0 {
		h = 0
	}
	return h
}

// clampHeight applies min-height and max-height to a content height.
func clampHeight(s *style.Computed, h, cbH float64, bd, pd edges) float64 {
	adj := 0.0
	if s.BorderBox {
		adj = bd.v() + pd.v()
	}
	if s.MaxHeight.Unit == style.Px || (s.MaxHeight.Unit == style.Percent && cbH >= 0) {
		if mx := length(s.MaxHeight, cbH, 0) - adj; h > mx {
			h = mx
		}
	}
	if s.MinHeight.Unit == style.Px || (s.MinHeight.Unit == style.Percent && cbH >= 0) {
		if mn := length(s.MinHeight, cbH, 0) - adj; h < mn {
			h = mn
		}
	}
	if h < 0 {
		h = 0
	}
	return h
}

// minHeightPositive reports whether min-height may make the box taller than
// its content (which stops its last child's margin collapsing through).
func minHeightPositive(s *style.Computed, cbH float64) bool {
	switch s.MinHeight.Unit {
	case style.Px:
		return s.MinHeight.V > 0
	case style.Percent:
		return cbH >= 0 && s.MinHeight.V > 0
	}
	return false
}

// layoutBlockBox lays out a block container box in flow f: its margins
// collapse with f's pending ones unless it is a formatting context root.
// forceW and forceH (≥ 0) impose the content width and height
// (shrink-to-fit, abspos, table cells).
func (l *layouter) layoutBlockBox(b *Box, c cbox, f *flow, forceW, forceH float64) *Frag {
	s := b.Style
	fr := l.frags.new(FragBox, b)
	if !l.check() {
		return fr
	}
	bd, pd := boxBorders(s), boxPadding(s, c.w)
	bfc := b.establishesBFC()
	mt, mb := marginOf(s, style.Top, c.w), marginOf(s, style.Bottom, c.w)
	if !b.outOfFlow() && l.clearance(b, f, mt) {
		mt = 0 // cleared: the border edge sits on the floats' bottom
	}
	if bfc && !b.Inline && !b.outOfFlow() && forceW < 0 {
		// A formatting context root sits beside the floats, or below.
		c = l.besideFloats(c, f, mt, specifiedOuterWidth(s, c.w))
	}
	ml, _, cw := blockWidths(s, c.w, bd, pd, forceW)
	switch {
	case b.Kind == KindCell:
		// Margins do not apply to table cells (CSS 2.1 §17.5): a cell's
		// "margin: 0 auto" from an e-mail framework centres nothing.
		ml, mt, mb = 0, 0, 0
	case b.Inline || b.outOfFlow():
		// Auto margins are zero on inline-blocks; abspos resolves its own.
		ml = marginOf(s, style.Left, c.w)
	case forceW < 0 && rtlContainer(b) && !s.Margin[style.Left].IsAuto() && !s.Margin[style.Right].IsAuto():
		// Over-constrained in a right-to-left container: the left margin
		// gives way, so the box sits at the right.
		ml = c.w - cw - bd.h() - pd.h() - marginOf(s, style.Right, c.w)
	case forceW < 0 && b.Parent != nil && b.Parent.Style.TextAlignBlocks:
		// -webkit-center and -webkit-right (<center>, align="center")
		// align block children that leave room, whatever their margins.
		if a := b.Parent.Style.TextAlign; a == style.AlignCenter || a == style.AlignRight {
			mr := marginOf(s, style.Right, c.w)
			if !s.Margin[style.Left].IsAuto() && !s.Margin[style.Right].IsAuto() {
				free := c.w - cw - bd.h() - pd.h() - ml - mr
				if free > 0 {
					if a == style.AlignCenter {
						ml += luHalf(free)
					} else {
						ml += free
					}
				}
			}
		}
	}
	fr.X = c.x + ml
	fr.W = bd.h() + pd.h() + cw
	if l.quirks && b.Parent != nil && isQuirkyContainer(b.Parent) {
		// Quirks mode drops the user-agent margins of a body's or a
		// cell's first child at its top and last child at its bottom.
		if isFirstInFlow(b) && isQuirkyMargin(b, style.Top) {
			mt = 0
		}
		if isLastInFlow(b) && isQuirkyMargin(b, style.Bottom) {
			mb = 0
		}
	}
	ch := forceH
	if ch < 0 {
		ch = specifiedHeight(s, c.h, bd, pd)
		if ch >= 0 {
			ch = clampHeight(s, ch, c.h, bd, pd)
			fr.fixedH = true
		}
	} else {
		fr.fixedH = true
	}
	f.strut.add(mt)
	collapseTop := !bfc && bd[style.Top] == 0 && pd[style.Top] == 0
	var g flow
	if collapseTop {
		g = flow{y: f.y, strut: f.strut, pending: append(f.pending, fr), ex: f.ex, adjoining: f.adjoining}
		f.strut, f.pending, f.adjoining = marginStrut{}, nil, nil
	} else {
		f.resolve()
		fr.Y = f.y
		g = flow{y: fr.Y + bd[style.Top] + pd[style.Top], ex: f.ex}
	}
	if bfc || g.ex == nil {
		g.ex = l.newExclusions()
	}
	inner := cbox{x: fr.X + bd[style.Left] + pd[style.Left], w: cw, h: ch}
	// A multi-column container lays its content out in one column box's
	// width, then cuts it into columns (multicol.go).
	var cols struct {
		n      int
		w, gap float64
	}
	if b.isMulticol() {
		cols.n, cols.w, cols.gap = usedColumns(s, cw)
		inner.w = cols.w
	}
	if l.quirks && ch < 0 && forceH < 0 {
		switch {
		case b.Parent == nil:
			// Quirks mode: the root fills the page area...
			inner.h = math.Max(0, c.h-bd.v()-pd.v())
		case b.Node != nil && b.Node.DataAtom == atom.Body && b.Parent.Parent == nil:
			// ...and so does the body, within its margins.
			inner.h = math.Max(0, c.h-mt-mb-bd.v()-pd.v())
			ch = -1
			fr.fixedH = false
		default:
			// Percentages look through auto heights to the nearest
			// definite one.
			inner.h = c.h
		}
	}
	var pc *posContainer
	if b.isPositioned() {
		pc = l.pushPositioned(fr)
	}
	if b.Marker != nil {
		l.markers = append(l.markers, b.Marker)
	}
	nMarkers := len(l.markers)
	if b.isFlex() {
		l.layoutFlex(b, fr, inner, &g, ch, c.h)
	} else if b.isGrid() {
		l.layoutGrid(b, fr, inner, &g, ch, c.h)
	} else if b.InlineContent {
		l.layoutInline(b, fr, inner, &g)
	} else {
		l.layoutBlockChildren(b, fr, inner, &g)
	}
	if b.Marker != nil && len(l.markers) == nMarkers && l.markers[nMarkers-1] == b.Marker {
		// No line took the marker: it gets a line of its own.
		l.layoutMarkerLine(b, fr, inner, &g)
	}
	if b.Marker != nil && len(l.markers) > 0 && l.markers[len(l.markers)-1] == b.Marker {
		l.markers = l.markers[:len(l.markers)-1]
	}

	resolvedInside := true
	if collapseTop {
		for _, p := range g.pending {
			if p == fr {
				resolvedInside = false
				break
			}
		}
	}
	if !resolvedInside {
		// Nothing inside fixed the top: the box has no lines and no
		// bordered children. It collapses through when nothing gives it
		// height either.
		empty := bd[style.Bottom] == 0 && pd[style.Bottom] == 0 && ch <= 0 && !minHeightPositive(s, c.h)
		if empty {
			fr.H = 0
			f.y, f.strut, f.pending, f.adjoining = g.y, g.strut, g.pending, g.adjoining
			f.strut.add(mb)
			// Out-of-flow descendants need a position now: use the one the
			// margins would give.
			if pc != nil {
				fr.Y = f.y + f.strut.sum()
				l.popPositioned(pc, fr)
			}
			l.relativeOffset(b, fr, c)
			return fr
		}
		g.resolve()
	}
	f.pending = g.pending
	if bfc {
		g.placeAdjoining()
	} else {
		f.adjoining = append(f.adjoining, g.adjoining...)
	}
	contentTop := fr.Y + bd[style.Top] + pd[style.Top]
	collapseBottom := !bfc && bd[style.Bottom] == 0 && pd[style.Bottom] == 0 && s.Height.IsAuto() && forceH < 0 && !minHeightPositive(s, c.h)
	var contentBottom float64
	if collapseBottom {
		contentBottom = g.y
	} else {
		contentBottom = g.y + g.strut.sum()
	}
	if bfc && g.ex != f.ex {
		// A formatting context root holds its floats.
		contentBottom = math.Max(contentBottom, g.ex.bottom())
	}
	if cols.n > 0 {
		contentBottom = l.columns(b, fr, inner.x, cw, contentTop, contentBottom, ch, cols.n, cols.w, cols.gap)
	}
	h := ch
	if h < 0 {
		h = clampHeight(s, contentBottom-contentTop, c.h, bd, pd)
		if h < contentBottom-contentTop {
			// Held to max-height: the content's page gaps do not grow
			// the box, as in Chromium (measured).
			fr.fixedH = true
		}
		if l.quirks && b.Node != nil && b.Node.DataAtom == atom.Body && b.Parent != nil && b.Parent.Parent == nil && c.h >= 0 {
			h = math.Max(h, c.h-mt-mb-bd.v()-pd.v())
		}
	}
	fr.H = bd.v() + pd.v() + h
	f.y = fr.Y + fr.H
	if collapseBottom && h == contentBottom-contentTop {
		f.strut = g.strut
	} else {
		f.strut = marginStrut{}
	}
	f.strut.add(mb)
	if pc != nil {
		l.popPositioned(pc, fr)
	}
	l.relativeOffset(b, fr, c)
	return fr
}

// layoutBlockChildren places a block container's block-level children.
func (l *layouter) layoutBlockChildren(b *Box, fr *Frag, inner cbox, g *flow) {
	for _, c := range b.Children {
		if !l.check() {
			return
		}
		if c.IsOutOfFlow() {
			l.addAbs(c, fr, inner.x, g.y+g.strut.sum(), inner.x+inner.w)
			continue
		}
		if c.isFloat() {
			if len(g.pending) > 0 {
				// The position is not settled: the float waits for it.
				c := c
				g.adjoining = append(g.adjoining, func(y float64) {
					fr.Children = append(fr.Children, l.placeFloat(c, inner, g, y))
				})
				continue
			}
			fr.Children = append(fr.Children, l.placeFloat(c, inner, g, g.y+g.strut.sum()))
			continue
		}
		cf := l.layoutBlockLevel(c, inner, g)
		fr.Children = append(fr.Children, cf)
	}
}

// layoutTableBlock places a block-level table wrapper: the table code
// sizes it, block layout gives it its margins (auto ones centre it).
func (l *layouter) layoutTableBlock(b *Box, c cbox, f *flow) *Frag {
	s := b.Style
	mt := marginOf(s, style.Top, c.w)
	if l.clearance(b, f, mt) {
		mt = 0
	}
	c = l.besideFloats(c, f, mt, 0) // a table sits beside the floats, or below
	fr := l.layoutTable(b, c.w, c.h)
	ml, mr := marginOf(s, style.Left, c.w), marginOf(s, style.Right, c.w)
	free := c.w - fr.W - ml - mr
	autoL, autoR := s.Margin[style.Left].IsAuto(), s.Margin[style.Right].IsAuto()
	if !autoL && !autoR && rtlContainer(b) {
		ml = c.w - fr.W - mr
	}
	if !autoL && !autoR && b.Parent != nil && b.Parent.Style.TextAlignBlocks {
		// -webkit-center and -webkit-right align the table too.
		switch b.Parent.Style.TextAlign {
		case style.AlignCenter:
			autoL, autoR = true, true
			free += ml + mr
			ml = 0
		case style.AlignRight:
			autoL = true
			free += ml
			ml = 0
		}
	}
	switch {
	case autoL && autoR:
		ml += luHalf(math.Max(free, 0))
	case autoL:
		ml += math.Max(free, 0)
	}
	f.strut.add(mt)
	f.resolve()
	fr.translate(c.x+ml-fr.X, f.y-fr.Y)
	f.y = fr.Y + fr.H
	f.strut.add(marginOf(s, style.Bottom, c.w))
	l.relativeOffset(b, fr, c)
	return fr
}

// layoutReplacedBlock places a block-level image.
func (l *layouter) layoutReplacedBlock(b *Box, c cbox, f *flow) *Frag {
	s := b.Style
	fr := l.frags.new(FragBox, b)
	fr.monolithic = true
	bd, pd := boxBorders(s), boxPadding(s, c.w)
	w, h := l.replacedSize(b, c.w, c.h, bd, pd)
	mt := marginOf(s, style.Top, c.w)
	if l.clearance(b, f, mt) {
		mt = 0
	}
	// A block-level image sits beside the floats, or below.
	c = l.besideFloats(c, f, mt, w+bd.h()+pd.h()+marginOf(s, style.Left, c.w)+marginOf(s, style.Right, c.w))
	ml, _, _ := blockWidths(s, c.w, bd, pd, w)
	if b.Parent != nil && b.Parent.Style.TextAlignBlocks && !s.Margin[style.Left].IsAuto() && !s.Margin[style.Right].IsAuto() {
		// -webkit-center and -webkit-right (<center>, align="center")
		// align a block-level image too.
		free := c.w - w - bd.h() - pd.h() - ml - marginOf(s, style.Right, c.w)
		if free > 0 {
			switch b.Parent.Style.TextAlign {
			case style.AlignCenter:
				ml += luHalf(free)
			case style.AlignRight:
				ml += free
			}
		}
	}
	fr.X = c.x + ml
	fr.W, fr.H = w+bd.h()+pd.h(), h+bd.v()+pd.v()
	f.strut.add(mt)
	f.resolve()
	fr.Y = f.y
	f.y += fr.H
	f.strut.add(marginOf(s, style.Bottom, c.w))
	l.relativeOffset(b, fr, c)
	return fr
}

// replacedSize is an image's used content width and height (CSS 2.1
// §10.3.2 and §10.6.2, with min and max as §10.4's table).
func (l *layouter) replacedSize(b *Box, cbW, cbH float64, bd, pd edges) (w, h float64) {
	s := b.Style
	var iw, ih, ratio float64
	if img := b.Image; img != nil {
		iw, ih, ratio = img.Width, img.Height, img.Ratio
		if ratio == 0 && iw > 0 && ih > 0 {
			ratio = iw / ih
		}
	}
	if s.AspectRatio > 0 {
		ratio = s.AspectRatio
	}
	sw, sh := -1.0, -1.0
	if s.Width.Unit == style.Px || s.Width.Unit == style.Percent {
		sw = length(s.Width, cbW, 0)
		if s.BorderBox {
			sw = math.Max(0, sw-bd.h()-pd.h())
		}
	}
	if h0 := specifiedHeight(s, cbH, bd, pd); h0 >= 0 {
		sh = h0
	}
	switch {
	case sw >= 0 && sh >= 0:
		w, h = sw, sh
	case sw >= 0:
		// The height follows the used width, after min and max-width
		// (CSS 2.1 §10.4: the width is recomputed as max-width, then
		// auto height from it): width:100%; max-width:300px on a 2:1
		// image is 300 × 150.
		w = clampWidth(s, sw, cbW, bd, pd)
		switch {
		case ratio > 0:
			h = w / ratio
		case ih > 0:
			h = ih
		default:
			h = 150
		}
	case sh >= 0:
		h = clampHeight(s, sh, cbH, bd, pd)
		switch {
		case ratio > 0:
			w = h * ratio
		case iw > 0:
			w = iw
		default:
			w = 300
		}
	default:
		switch {
		case iw > 0 && ih > 0:
			w, h = iw, ih
		case iw > 0 && ratio > 0:
			w, h = iw, iw/ratio
		case ih > 0 && ratio > 0:
			w, h = ih*ratio, ih
		case ratio > 0:
			w = cbW - bd.h() - pd.h()
			h = w / ratio
		case b.Image != nil:
			w, h = 300, 150
		}
		// min and max with the ratio kept (CSS 2.1 §10.4 table).
		cw, chh := clampWidth(s, w, cbW, bd, pd), clampHeight(s, h, cbH, bd, pd)
		if (cw != w || chh != h) && w > 0 && h > 0 {
			rw, rh := cw/w, chh/h
			switch {
			case cw < w && chh < h:
				if rw < rh {
					chh = math.Max(h*rw, chh)
				} else {
					cw = math.Max(w*rh, cw)
				}
			case cw > w && chh > h:
				if rw > rh {
					chh = math.Min(h*rw, clampHeight(s, math.Inf(1), cbH, bd, pd))
				} else {
					cw = math.Min(w*rh, clampWidth(s, math.Inf(1), cbW, bd, pd))
				}
			case cw < w:
				chh = math.Max(h*rw, clampHeight(s, 0, cbH, bd, pd))
			case cw > w:
				chh = math.Min(h*rw, clampHeight(s, math.Inf(1), cbH, bd, pd))
			case chh < h:
				cw = math.Max(w*rh, clampWidth(s, 0, cbW, bd, pd))
			case chh > h:
				cw = math.Min(w*rh, clampWidth(s, math.Inf(1), cbW, bd, pd))
			}
		}
		return lu(cw), lu(chh)
	}
	return lu(clampWidth(s, w, cbW, bd, pd)), lu(clampHeight(s, h, cbH, bd, pd))
}

// relativeOffset moves a relatively positioned box by its insets (CSS 2.1
// §9.4.3): left wins over right and top over bottom.
func (l *layouter) relativeOffset(b *Box, fr *Frag, c cbox) {
	s := b.Style
	if s.Position != style.Relative && s.Position != style.Sticky {
		return
	}
	if s.Position == style.Sticky {
		return // sticky does nothing in print
	}
	var dx, dy float64
	if !s.Inset[style.Left].IsAuto() {
		dx = length(s.Inset[style.Left], c.w, 0)
	} else if !s.Inset[style.Right].IsAuto() {
		dx = -length(s.Inset[style.Right], c.w, 0)
	}
	if !s.Inset[style.Top].IsAuto() {
		if s.Inset[style.Top].Unit != style.Percent || c.h >= 0 {
			dy = length(s.Inset[style.Top], c.h, 0)
		}
	} else if !s.Inset[style.Bottom].IsAuto() {
		if s.Inset[style.Bottom].Unit != style.Percent || c.h >= 0 {
			dy = -length(s.Inset[style.Bottom], c.h, 0)
		}
	}
	if dx != 0 || dy != 0 {
		fr.translate(dx, dy)
		fr.relX, fr.relY = dx, dy
	}
}

// layoutAtomic lays out an inline-level atomic box (inline-block, inline
// image, inline-table) for a line whose available width is avail. The
// fragment's margin box starts at (0, 0); it returns the margin box size
// and the baseline measured from the margin box top.
func (l *layouter) layoutAtomic(b *Box, avail, cbH float64) (fr *Frag, mw, mh, baseline float64) {
	s := b.Style
	ml, mr := marginOf(s, style.Left, avail), marginOf(s, style.Right, avail)
	mt, mb := marginOf(s, style.Top, avail), marginOf(s, style.Bottom, avail)
	bd, pd := boxBorders(s), boxPadding(s, avail)
	switch b.Kind {
	case KindInline: // an inside symbol list marker
		return l.insideSymbol(b)
	case KindReplaced:
		fr = l.frags.new(FragBox, b)
		fr.monolithic = true
		w, h := l.replacedSize(b, avail, cbH, bd, pd)
		fr.X, fr.Y = ml, mt
		fr.W, fr.H = w+bd.h()+pd.h(), h+bd.v()+pd.v()
		mw, mh = ml+fr.W+mr, mt+fr.H+mb
		return fr, mw, mh, mh
	case KindTableWrapper:
		fr = l.layoutTable(b, avail, cbH)
		fr.translate(ml-fr.X, mt-fr.Y)
		fr.monolithic = true
		mw, mh = ml+fr.W+mr, mt+fr.H+mb
		baseline = mh
		if fr.HasBaseline {
			baseline = fr.Baseline
		}
		return fr, mw, mh, baseline
	}
	forceW := -1.0
	if s.Width.IsAuto() || s.Width.Unit >= style.MinContent {
		minC, maxC := l.intrinsicWidths(b)
		a := avail - ml - mr - bd.h() - pd.h()
		forceW = math.Min(math.Max(minC, a), maxC)
		forceW = clampWidth(s, forceW, avail, bd, pd)
	}
	f := &flow{}
	fr = l.layoutBlockBox(b, cbox{x: 0, w: avail, h: cbH}, f, forceW, -1)
	fr.monolithic = true
	fr.translate(0, 0)
	mw, mh = ml+fr.W+mr, mt+fr.H+mb
	baseline = mh
	if b.isFlexOrGrid() {
		// A flex or grid container's baseline is its first item's.
		if y, ok := firstBaseline(fr); ok {
			baseline = y
		}
	} else if s.Overflow == "visible" || s.Overflow == "" {
		if y, ok := lastBaseline(fr); ok {
			baseline = y + 0 // fr starts at y = mt already
		}
	}
	return fr, mw, mh, baseline
}

// lastBaseline is the baseline of the last line box in fr (through in-flow
// block children), for an inline-block's baseline (CSS 2.1 §10.8.1).
// Block-level tables are passed over, as in Chromium (measured): an
// inline-block whose lines are all in tables sits on its bottom margin
// edge, and one with lines before a table on the last of them.
func lastBaseline(fr *Frag) (float64, bool) {
	for i := len(fr.Children) - 1; i >= 0; i-- {
		c := fr.Children[i]
		switch c.Kind {
		case FragLine:
			if c.H > 0 || len(c.Children) > 0 {
				return c.Baseline, true
			}
		case FragBox:
			if c.Box != nil && c.Box.outOfFlow() {
				continue
			}
			if c.Box != nil && (c.Box.Kind == KindTableWrapper || c.Box.Style.Overflow != "visible") {
				continue
			}
			if y, ok := lastBaseline(c); ok {
				return y, true
			}
		}
	}
	return 0, false
}

// firstBaseline is the baseline of the first line box in fr, for table
// cells and list markers.
func firstBaseline(fr *Frag) (float64, bool) {
	for _, c := range fr.Children {
		switch c.Kind {
		case FragLine:
			return c.Baseline, true
		case FragBox:
			if c.Box != nil && c.Box.outOfFlow() {
				continue
			}
			if c.HasBaseline {
				return c.Baseline, true
			}
			if y, ok := firstBaseline(c); ok {
				return y, true
			}
		}
	}
	return 0, false
}

// isQuirkyContainer reports whether quirks mode drops the user-agent
// margins of b's first and last children: the body and table cells.
func isQuirkyContainer(b *Box) bool {
	if b.Kind == KindCell {
		return true
	}
	return b.Node != nil && b.Node.DataAtom == atom.Body && b.Pseudo == PseudoNone
}

// quirkyEm is the user-agent margin (in em) of elements whose margins are
// quirky in Chromium's html.css (the __qem unit).
var quirkyEm = map[atom.Atom]float64{
	atom.P: 1, atom.Blockquote: 1, atom.Dl: 1, atom.Ul: 1, atom.Ol: 1, atom.Menu: 1, atom.Dir: 1, atom.Pre: 1,
	atom.H1: 0.67, atom.H2: 0.83, atom.H3: 1, atom.H4: 1.33, atom.H5: 1.67, atom.H6: 2.33,
}

// isQuirkyMargin reports whether b's margin on side is the user-agent's
// quirky one: the element's default, unchanged by the document.
func isQuirkyMargin(b *Box, side int) bool {
	if b.Node == nil || b.Anonymous || b.Pseudo != PseudoNone {
		return false
	}
	em, ok := quirkyEm[b.Node.DataAtom]
	if !ok {
		return false
	}
	m := b.Style.Margin[side]
	return m.Unit == style.Px && math.Abs(m.V-em*b.Style.FontSize) < 0.01
}

func isFirstInFlow(b *Box) bool {
	for _, c := range b.Parent.Children {
		if c.outOfFlow() {
			continue
		}
		return c == b
	}
	return false
}

func isLastInFlow(b *Box) bool {
	kids := b.Parent.Children
	for i := len(kids) - 1; i >= 0; i-- {
		if kids[i].outOfFlow() {
			continue
		}
		return kids[i] == b
	}
	return false
}

// rtlContainer reports whether b's containing block is right to left.
func rtlContainer(b *Box) bool {
	return b.Parent != nil && b.Parent.Style.Direction == "rtl"
}
