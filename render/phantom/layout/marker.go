package layout

import (
	"math"

	"github.com/platen/platen/render/phantom/style"
)

// Blink's list marker constants (list_marker.cc): the gap between an
// outside symbol marker and the content.
const cUAMarkerPaddingPx = 7

// isSymbolMarker reports whether an outside marker is one Blink paints as a
// shape (disc, circle, square) rather than as text.
func isSymbolMarker(m *Box) (counterStyleKind, bool) {
	if m.Parent == nil || len(m.Children) != 1 || m.Children[0].Kind != KindText {
		return 0, false
	}
	if !m.Style.ContentNone && len(m.Style.Content) > 0 {
		return 0, false
	}
	k := counterStyle(m.Parent.Style.ListStyleType)
	switch k {
	case csDisc, csCircle, csSquare:
		return k, true
	}
	return 0, false
}

// isInsideSymbol reports whether an inline ::marker box is an inside
// disc, circle or square.
func isInsideSymbol(m *Box) bool {
	if m.Parent == nil || m.Parent.Marker == m {
		return false
	}
	_, ok := isSymbolMarker(m)
	return ok
}

// insideSymbol lays out an inside symbol marker as an atomic inline: its
// advance is the bullet's size plus the font size plus one pixel
// (measured against Chromium for sizes 8 to 64 px and two families), the
// symbol drawn at the line's start as the outside one is drawn.
func (l *layouter) insideSymbol(m *Box) (fr *Frag, mw, mh, baseline float64) {
	k, _ := isSymbolMarker(m)
	s := m.Style
	fm := l.fontMetrics(s)
	ascent := int(math.Round(fm.Ascent))
	off := ascent * 2 / 3
	bullet := (off + 1) / 2
	fr = l.frags.new(FragBox, m)
	fr.symbol = k
	fr.monolithic = true
	fr.X = 0
	fr.Y = float64(3 * (ascent - off) / 2)
	fr.W, fr.H = float64(bullet), float64(bullet)
	mw = lu(float64(bullet) + s.FontSize + 1)
	return fr, mw, float64(ascent) + math.Round(fm.Descent), float64(ascent)
}

// placeMarker hangs an outside list marker beside a line whose baseline is
// given (LayoutNG's NGUnpositionedListMarker), on the list item's start
// side: a text marker ends at the line's start (left to right) or begins
// there (right to left, its text reordered as such); a symbol's marker box
// (the bullet and 2 px) sits ascent×2/3 + 8 px before the start, the
// bullet a pixel into it, drawn as Blink's
// ListMarker::RelativeSymbolMarkerRect.
func (ic *inlineCtx) placeMarker(m *Box, line *Frag, baseline float64) {
	l := ic.l
	s := m.Style
	rtl := s.Direction == "rtl"
	x0 := ic.c.x
	if rtl {
		x0 += ic.c.w
	}
	if k, ok := isSymbolMarker(m); ok {
		fm := l.fontMetrics(s)
		ascent := int(math.Round(fm.Ascent))
		off := ascent * 2 / 3
		marginStart := float64(-off - cUAMarkerPaddingPx - 1)
		bullet := (off + 1) / 2
		f := l.frags.new(FragBox, m)
		f.symbol = k
		f.X = x0 + marginStart + 1
		if rtl {
			f.X = x0 - marginStart - float64(bullet+2) + 1
		}
		f.Y = baseline - float64(ascent) + float64(3*(ascent-off)/2)
		f.W, f.H = float64(bullet), float64(bullet)
		line.Children = append(line.Children, f)
		return
	}
	// A text marker: its own little paragraph, beside the start.
	p := l.collectInline(m, rtl)
	w := 0.0
	for _, sg := range p.segs {
		w += sg.w
	}
	w = luCeil(w)
	lb := l.newLineBox(-1, s)
	var last *Frag
	var kids []*Frag
	x := 0.0
	for _, i := range visualSegs(p) {
		sg := &p.segs[i]
		dw, fs := ic.emitTextIn(p, sg, &lb, x, &last)
		x += dw
		kids = append(kids, fs...)
	}
	if !rtl {
		x0 -= w
	}
	for _, f := range kids {
		f.X += x0
		f.Baseline = baseline
		f.lineTop = line.Y
		ta, td := luRound(f.Text.Metrics.Ascent), luRound(f.Text.Metrics.Descent)
		f.Y, f.H = baseline-ta, ta+td
		line.Children = append(line.Children, f)
	}
}

// collectInline collects the paragraph of one inline box alone (a
// marker), in the given base direction.
func (l *layouter) collectInline(ib *Box, rtl bool) *paragraph {
	p := &paragraph{}
	cs := &collectState{p: p, spaceBefore: false, lastSpaceAt: -1}
	for _, c := range ib.Children {
		l.collectBox(cs, c, ib.Style, 0)
	}
	if rtl || hasRTL(p.text) {
		p.bidi = true
		l.resolveBidi(p, rtl)
	}
	l.segment(p)
	return p
}

// visualSegs is the order of a one-line paragraph's segments from left to
// right (UAX #9 L2 over their levels).
func visualSegs(p *paragraph) []int {
	order := make([]int, len(p.segs))
	for i := range order {
		order[i] = i
	}
	if !p.bidi {
		return order
	}
	level := func(i int) uint8 { return p.levels[p.segs[order[i]].start] }
	hi, lo := uint8(0), uint8(255)
	for i := range order {
		hi = max(hi, level(i))
		if level(i)&1 == 1 {
			lo = min(lo, level(i))
		}
	}
	for lv := hi; lv >= lo && lv > 0; lv-- {
		for i := 0; i < len(order); {
			if level(i) < lv {
				i++
				continue
			}
			j := i
			for j < len(order) && level(j) >= lv {
				j++
			}
			for a, b := i, j-1; a < b; a, b = a+1, b-1 {
				order[a], order[b] = order[b], order[a]
			}
			i = j
		}
	}
	return order
}

// emitTextIn is emitText for a paragraph other than the context's.
func (ic *inlineCtx) emitTextIn(p *paragraph, sg *seg, lb *lineBox, pen float64, last **Frag) (float64, []*Frag) {
	save := ic.p
	ic.p = p
	w, fs := ic.emitText(sg, lb, pen, false, last, 0, false)
	ic.p = save
	return w, fs
}

// layoutMarkerLine gives a list item whose content made no line box a line
// of its own for its marker (its strut's height).
func (l *layouter) layoutMarkerLine(b *Box, fr *Frag, c cbox, g *flow) {
	n := len(l.markers)
	if n == 0 {
		return
	}
	g.resolve()
	lb := l.newLineBox(-1, b.Style)
	lb.ensureStrut()
	line := l.frags.new(FragLine, nil)
	line.X, line.Y, line.W, line.H = c.x, g.y, c.w, lb.a+lb.d
	line.Baseline, line.HasBaseline = g.y+lb.a, true
	ic := &inlineCtx{l: l, b: b, c: c}
	m := l.markers[n-1]
	l.markers = l.markers[:n-1]
	ic.placeMarker(m, line, line.Baseline)
	g.y += line.H
	fr.Children = append(fr.Children, line)
	_ = style.Top
}
