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
// given (LayoutNG's NGUnpositionedListMarker): a text marker ends at the
// line's start; a symbol sits ascent×2/3 + 8 px before it, drawn as
// Blink's ListMarker::RelativeSymbolMarkerRect.
func (ic *inlineCtx) placeMarker(m *Box, line *Frag, baseline float64) {
	l := ic.l
	s := m.Style
	x0 := ic.c.x
	if k, ok := isSymbolMarker(m); ok {
		fm := l.fontMetrics(s)
		ascent := int(math.Round(fm.Ascent))
		off := ascent * 2 / 3
		marginStart := float64(-off - cUAMarkerPaddingPx - 1)
		bullet := (off + 1) / 2
		f := l.frags.new(FragBox, m)
		f.symbol = k
		f.X = x0 + marginStart + 1
		f.Y = baseline - float64(ascent) + float64(3*(ascent-off)/2)
		f.W, f.H = float64(bullet), float64(bullet)
		line.Children = append(line.Children, f)
		return
	}
	// A text marker: its own little paragraph, right-aligned to the start.
	p := l.collectInline(m)
	w := 0.0
	for _, sg := range p.segs {
		w += sg.w
	}
	w = luCeil(w)
	lb := l.newLineBox(-1, s)
	var last *Frag
	var kids []*Frag
	x := 0.0
	for i := range p.segs {
		sg := &p.segs[i]
		dw, fs := ic.emitTextIn(p, sg, &lb, x, &last)
		x += dw
		kids = append(kids, fs...)
	}
	for _, f := range kids {
		f.X += x0 - w
		f.Baseline = baseline
		f.lineTop = line.Y
		ta, td := luRound(f.Text.Metrics.Ascent), luRound(f.Text.Metrics.Descent)
		f.Y, f.H = baseline-ta, ta+td
		line.Children = append(line.Children, f)
	}
}

// collectInline collects the paragraph of one inline box alone (a marker).
func (l *layouter) collectInline(ib *Box) *paragraph {
	p := &paragraph{}
	cs := &collectState{p: p, spaceBefore: false, lastSpaceAt: -1}
	for _, c := range ib.Children {
		l.collectBox(cs, c, ib.Style, 0)
	}
	l.segment(p)
	return p
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
