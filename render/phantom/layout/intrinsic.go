package layout

import (
	"math"

	"github.com/platen/platen/render/phantom/style"
)

// intrinsicWidths returns the min-content and max-content widths of box
// b's content box (CSS Sizing 3 §5), for shrink-to-fit widths
// (inline-blocks, abspos) and for the table code. Results are cached on
// the box.
func (l *layouter) intrinsicWidths(b *Box) (minW, maxW float64) {
	if b.intrinsicDone {
		return b.minW, b.maxW
	}
	switch {
	case b.Kind == KindReplaced:
		w, _ := l.replacedSize(b, 0, -1, boxBorders(b.Style), boxPadding(b.Style, 0))
		minW, maxW = w, w
	case b.Kind == KindTableWrapper:
		minW, maxW = l.tableIntrinsicWidths(b)
	case b.isFlex():
		minW, maxW = l.flexIntrinsic(b)
	case b.isGrid():
		minW, maxW = l.gridIntrinsic(b)
	case b.InlineContent:
		minW, maxW = l.inlineIntrinsic(b)
	default:
		floats := 0.0 // max-content of the floats side by side
		for _, c := range b.Children {
			if c.IsOutOfFlow() {
				continue
			}
			cmin, cmax := l.outerIntrinsic(c, false)
			minW = math.Max(minW, cmin)
			if c.isFloat() {
				if cl := c.Style.Clear; cl != "none" && cl != "" {
					floats = 0
				}
				floats += cmax
				maxW = math.Max(maxW, floats)
				continue
			}
			floats = 0
			maxW = math.Max(maxW, cmax)
		}
	}
	if maxW < minW {
		maxW = minW
	}
	if b.isMulticol() {
		minW, maxW = multicolIntrinsic(b.Style, minW, maxW)
	}
	b.minW, b.maxW, b.intrinsicDone = minW, maxW, true
	return minW, maxW
}

// outerIntrinsic is a box's min-content and max-content contribution: its
// intrinsic widths (or its specified width) plus borders, padding and
// fixed margins (percentages count as zero). The table code uses it for
// cells with cell set (a cell's margins do not apply).
func (l *layouter) outerIntrinsic(c *Box, cell bool) (minW, maxW float64) {
	if c.Kind == KindInline && c.Pseudo == PseudoMarker {
		_, mw, _, _ := l.insideSymbol(c)
		return mw, mw
	}
	s := c.Style
	bd, pd := boxBorders(s), boxPadding(s, 0)
	extra := bd.h() + pd.h()
	if !cell {
		if s.Margin[style.Left].Unit == style.Px {
			extra += lu(s.Margin[style.Left].V)
		}
		if s.Margin[style.Right].Unit == style.Px {
			extra += lu(s.Margin[style.Right].V)
		}
	}
	if s.Width.Unit == style.Px && c.Kind != KindTableWrapper {
		w := lu(s.Width.V)
		if s.BorderBox {
			w = math.Max(0, w-bd.h()-pd.h())
		}
		w = clampWidth(s, w, 0, bd, pd)
		return w + extra, w + extra
	}
	minW, maxW = l.intrinsicWidths(c)
	if c.Kind != KindTableWrapper {
		minW = clampWidth(s, minW, 0, bd, pd)
		maxW = clampWidth(s, maxW, 0, bd, pd)
		if s.MinWidth.Unit == style.Px {
			// min-width with percentages ignored
		}
	}
	return minW + extra, maxW + extra
}

// inlineIntrinsic measures a paragraph: max-content is the widest line
// between forced breaks; min-content the widest piece between break
// opportunities.
func (l *layouter) inlineIntrinsic(b *Box) (minW, maxW float64) {
	p := l.paragraphOf(b)
	if p.haveMinMax {
		return p.minW, p.maxW
	}
	indent := 0.0
	if b.Style.TextIndent.Unit == style.Px {
		indent = lu(b.Style.TextIndent.V)
	}
	lineW := indent // current forced line
	piece := indent // current unbreakable piece
	pendingTrail := 0.0
	flushPiece := func() {
		if piece > minW {
			minW = piece
		}
		piece = 0
	}
	endLine := func() {
		w := lineW - pendingTrail
		if w > maxW {
			maxW = w
		}
		lineW, pendingTrail = 0, 0
	}
	atoms := map[*Box][2]float64{}
	// closeEdges is set after a word that a line may end after, but with
	// no space: the end edges of the inline boxes that close right after
	// it stay with it, as Chromium keeps them on its line.
	closeEdges := false
	for _, e := range p.elements(nil) {
		it := &p.items[e.item]
		if closeEdges && it.kind != itClose {
			flushPiece()
			closeEdges = false
		}
		switch it.kind {
		case itOpen:
			lineW += it.edge
			piece += it.edge
			pendingTrail = 0
		case itClose:
			lineW += it.edge
			piece += it.edge
		case itBreak:
			flushPiece()
			endLine()
		case itAbs:
		case itFloat:
			// A float's min-content stands alone; its max-content sits
			// beside the line's.
			a, bb := l.outerIntrinsic(it.box, false)
			minW = math.Max(minW, a)
			lineW += bb
		case itAtomic:
			mm, ok := atoms[it.box]
			if !ok {
				a, bb := l.outerIntrinsic(it.box, false)
				mm = [2]float64{a, bb}
				atoms[it.box] = mm
			}
			wrap := canWrap(b.Style)
			if it.box.Parent != nil {
				wrap = canWrap(it.box.Parent.Style)
			}
			if wrap {
				flushPiece()
			}
			piece += mm[0]
			lineW += mm[1]
			pendingTrail = 0
			if wrap {
				flushPiece()
			}
		default:
			sg := &p.segs[e.seg]
			if sg.tab {
				w := 8 * it.s.FontSize / 2
				lineW += w
				piece += w
				continue
			}
			body := sg.w - sg.trailW
			lineW += sg.w
			pendingTrail = sg.trailW
			if it.s.OverflowWrap == "anywhere" && canWrap(it.s) {
				// Every character may start a line.
				if body > 0 {
					flushPiece()
					piece = l.widestChar(p, sg)
					flushPiece()
				}
				continue
			}
			piece += body
			if sg.shy && sg.brk == brkSoft {
				if piece+sg.shyW > minW {
					minW = piece + sg.shyW
				}
			}
			if sg.brk == brkSoft && canWrap(it.s) {
				if sg.trailW == 0 {
					closeEdges = true
				} else {
					flushPiece()
				}
			} else {
				piece += sg.trailW
			}
		}
	}
	flushPiece()
	endLine()
	minW, maxW = luCeil(minW), luCeil(maxW)
	if maxW < minW {
		maxW = minW
	}
	p.minW, p.maxW, p.haveMinMax = minW, maxW, true
	return minW, maxW
}

// widestChar is the widest single character of a segment (min-content with
// overflow-wrap: anywhere).
func (l *layouter) widestChar(p *paragraph, sg *seg) float64 {
	w := 0.0
	for _, r := range sg.runs {
		for gi := range r.Glyphs {
			if r.Glyphs[gi].Text == "" {
				continue
			}
			if a := clusterAdvance(r.Glyphs, gi); a > w {
				w = a
			}
		}
	}
	return w
}

// multicolIntrinsic turns a multi-column container's content widths (one
// column's) into its own, as Blink does (NGColumnLayoutAlgorithm::
// ComputeMinMaxSizes): a column-width bounds the column's min-content
// from above and its max-content from below; then the count of columns
// (1 when auto) and the gaps between them multiply it.
func multicolIntrinsic(s *style.Computed, minW, maxW float64) (float64, float64) {
	if s.ColumnWidth.Unit == style.Px {
		cw := lu(s.ColumnWidth.V)
		minW = math.Min(minW, cw)
		maxW = math.Max(maxW, cw)
		maxW = math.Max(maxW, minW)
	}
	n := max(s.ColumnCount, 1)
	gap := 0.0
	switch s.ColumnGap.Unit {
	case style.Normal:
		gap = s.FontSize
	case style.Px:
		gap = s.ColumnGap.V
	}
	gap = lu(math.Max(0, gap))
	return minW*float64(n) + gap*float64(n-1), maxW*float64(n) + gap*float64(n-1)
}
