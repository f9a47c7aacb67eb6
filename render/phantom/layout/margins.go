package layout

import (
	"math"

	"github.com/platen/platen/render/phantom/style"
)

// Page margin boxes (CSS Paged Media 3 §5): the sixteen boxes of @page,
// laid out once the page count is known, so that counter(page) and
// counter(pages) can be filled in.

// marginSide is one side's three boxes (start, middle, end) and its two
// corners.
type marginSide struct {
	names   [3]string
	corners [2]string
}

var marginSides = [4]marginSide{
	{[3]string{"top-left", "top-center", "top-right"}, [2]string{"top-left-corner", "top-right-corner"}},
	{[3]string{"right-top", "right-middle", "right-bottom"}, [2]string{}},
	{[3]string{"bottom-left", "bottom-center", "bottom-right"}, [2]string{"bottom-left-corner", "bottom-right-corner"}},
	{[3]string{"left-top", "left-middle", "left-bottom"}, [2]string{}},
}

// marginBoxFrags lays out the margin boxes of page index (of count) and
// returns their fragments in page coordinates. The boxes surround the page
// area as it is laid out (whole pixels), as Chromium places them.
func (l *layouter) marginBoxFrags(g pageGeom, index, count int) []*Frag {
	ps := g.style
	if ps == nil || len(ps.Boxes) == 0 {
		return nil
	}
	W, H := ps.Width, ps.Height
	// Measured: the boxes start at the true margins and end where the laid
	// out page area ends (its origin rounded, its size rounded up).
	mt, ml := ps.Margin[style.Top], ps.Margin[style.Left]
	mr, mb := W-(g.areaX+g.areaW), H-(g.areaY+g.areaH)
	var out []*Frag
	place := func(name string, x, y, w, h float64) {
		s := ps.Boxes[name]
		if s == nil || w <= 0 || h <= 0 {
			return
		}
		if f := l.marginBox(s, x, y, w, h, index, count); f != nil {
			out = append(out, f)
		}
	}
	// Corners.
	place("top-left-corner", 0, 0, ml, mt)
	place("top-right-corner", W-mr, 0, mr, mt)
	place("bottom-left-corner", 0, H-mb, ml, mb)
	place("bottom-right-corner", W-mr, H-mb, mr, mb)
	// Top and bottom: three boxes across the page area's width.
	for _, side := range []int{style.Top, style.Bottom} {
		names := marginSides[side].names
		y, h := 0.0, mt
		if side == style.Bottom {
			y, h = H-mb, mb
		}
		ws := l.distribute(ps, names, W-ml-mr, index, count, true)
		x := ml
		for i, n := range names {
			if ws[i] > 0 {
				place(n, x, y, ws[i], h)
			}
			x += ws[i]
		}
		// The centre box keeps its centre whatever its neighbours take.
		_ = x
	}
	// Left and right: three boxes down the page area's height.
	for _, side := range []int{style.Left, style.Right} {
		names := marginSides[side].names
		x, w := 0.0, ml
		if side == style.Right {
			x, w = W-mr, mr
		}
		hs := l.distribute(ps, names, H-mt-mb, index, count, false)
		y := mt
		for i, n := range names {
			if hs[i] > 0 {
				place(n, x, y, w, hs[i])
			}
			y += hs[i]
		}
	}
	return out
}

// distribute resolves the three boxes' widths (or heights) along a side
// of length avail (CSS Paged Media 3 §5.3.2): with a middle box, it is
// centred and the outer two share the rest equally; without one, the two
// outer boxes share the length in proportion to their max-content sizes.
func (l *layouter) distribute(ps *style.PageStyle, names [3]string, avail float64, index, count int, horizontal bool) [3]float64 {
	var mx [3]float64
	var has [3]bool
	for i, n := range names {
		s := ps.Boxes[n]
		if s == nil {
			continue
		}
		has[i] = true
		if horizontal {
			if s.Width.Unit == style.Px {
				mx[i] = lu(s.Width.V)
				continue
			}
			b := l.marginBoxTree(s, index, count)
			_, mx[i] = l.intrinsicWidths(b)
			bd, pd := boxBorders(s), boxPadding(s, avail)
			mx[i] += bd.h() + pd.h() + length(s.Margin[style.Left], avail, 0) + length(s.Margin[style.Right], avail, 0)
		} else {
			mx[i] = 1 // heights share equally without content sizes
		}
	}
	var out [3]float64
	two := func(a, b float64) (float64, float64) {
		if a+b <= 0 {
			return avail / 2, avail / 2
		}
		if a+b <= avail {
			free := avail - a - b
			return a + free*a/(a+b), b + free*b/(a+b)
		}
		return avail * a / (a + b), avail * b / (a + b)
	}
	switch {
	case has[1]:
		outer := 2 * math.Max(mx[0], mx[2])
		wb, wac := two(mx[1], outer)
		if !has[0] && !has[2] {
			wb, wac = avail, 0
		}
		out[1] = wb
		out[0], out[2] = wac/2, wac/2
	default:
		out[0], out[2] = two(mx[0], mx[2])
		if !has[0] {
			out[0], out[2] = 0, avail
		}
		if !has[2] {
			out[0], out[2] = avail, 0
		}
	}
	return out
}

// marginBoxTree is a margin box's box tree: a block holding its content
// as text, counter(page) and counter(pages) filled in.
func (l *layouter) marginBoxTree(s *style.Computed, index, count int) *Box {
	b := &Box{Kind: KindBlock, Style: s, ColSpan: 1, RowSpan: 1, Span: 1}
	txt := ""
	for _, it := range s.Content {
		switch it.Kind {
		case style.ContentString:
			txt += it.Text
		case style.ContentCounter, style.ContentCounters:
			v := 0
			switch it.Name {
			case "page":
				v = index + 1
			case "pages":
				v = count
			}
			txt += formatCounter(v, counterStyle(it.Style))
		case style.ContentOpenQuote:
			txt += quoteAt(s.Quotes, 0, true)
		case style.ContentCloseQuote:
			txt += quoteAt(s.Quotes, 0, false)
		}
	}
	if txt != "" {
		t := &Box{Kind: KindText, Inline: true, Style: s, Text: transformText(txt, s.TextTransform), Parent: b}
		b.Children = []*Box{t}
		b.InlineContent = true
	}
	return b
}

// marginBox lays out one margin box in its rectangle (page coordinates)
// and aligns its content vertically (vertical-align: top, middle or
// bottom).
func (l *layouter) marginBox(s *style.Computed, x, y, w, h float64, index, count int) *Frag {
	b := l.marginBoxTree(s, index, count)
	bd, pd := boxBorders(s), boxPadding(s, w)
	ml, mr := length(s.Margin[style.Left], w, 0), length(s.Margin[style.Right], w, 0)
	mt, mb := length(s.Margin[style.Top], h, 0), length(s.Margin[style.Bottom], h, 0)
	cw := math.Max(0, w-ml-mr-bd.h()-pd.h())
	ch := math.Max(0, h-mt-mb-bd.v()-pd.v())
	fh := -1.0
	if s.Height.IsAuto() {
		fh = ch
	}
	f := &flow{}
	fr := l.layoutBlockBox(b, cbox{x: 0, w: w, h: h}, f, cw, fh)
	// The content's height, for vertical alignment inside the box.
	contentH := 0.0
	for _, c := range fr.Children {
		contentH = math.Max(contentH, c.Y+c.H-(fr.Y+bd[style.Top]+pd[style.Top]))
	}
	dy := 0.0
	switch s.VerticalAlign.Keyword {
	case style.VAMiddle:
		dy = luHalf(ch - contentH)
	case style.VABottom:
		dy = ch - contentH
	}
	for _, c := range fr.Children {
		c.translate(0, dy)
	}
	fr.translate(x+ml-fr.X, y+mt-fr.Y)
	computeInk(fr)
	return fr
}
