package layout

import (
	"math"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/style"
)

// painter paints the fragment tree onto one page.
type painter struct {
	l      *layouter
	pg     *draw.Page
	ox, oy float64 // flow (stitched) to page coordinates
	top    float64 // stitched range of the page
	bottom float64
}

// paint paints each page.
func (l *layouter) paint(root *Frag, pages []page) error {
	for i := range pages {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		pgc := &pages[i]
		g := pgc.geom
		dp := &draw.Page{Width: g.w, Height: g.h}
		p := &painter{l: l, pg: dp, ox: g.areaX, oy: g.areaY - pgc.start, top: pgc.start, bottom: pgc.start + g.areaH}
		if root != nil {
			if i == 0 {
				computeInk(root)
				for _, f := range l.fixedFrags {
					computeInk(f)
				}
			}
			p.canvas(root, g)
			p.op(draw.PushClip{Path: rectPath(0, g.areaY, g.w, g.areaH)})
			p.paintTree(root)
			for _, f := range l.fixedFrags {
				save, st, sb := p.oy, p.top, p.bottom
				p.oy, p.top, p.bottom = g.areaY, math.Inf(-1), math.Inf(1)
				p.paintTree(f)
				p.oy, p.top, p.bottom = save, st, sb
			}
			p.op(draw.PopClip{})
		}
		l.doc.Pages = append(l.doc.Pages, dp)
	}
	return nil
}

func (p *painter) op(o draw.Op) { p.pg.Ops = append(p.pg.Ops, o) }

// canvas paints the root background over the whole page (CSS 2.1 §14.2:
// the root's, or the body's when the root has none).
func (p *painter) canvas(root *Frag, g pageGeom) {
	bg := root.Box.Style.Background
	if bg.Color.A == 0 && bg.Image == "" {
		for _, c := range root.Children {
			if c.Box != nil && c.Box.Node != nil && c.Box.Node.Data == "body" {
				bg = c.Box.Style.Background
				break
			}
		}
	}
	if bg.Color.A > 0 {
		p.op(draw.Fill{Path: rectPath(0, 0, g.w, g.h), Color: bg.Color})
	}
}

// paintTree paints f and its descendants in tree order (a first version:
// stacking order comes later).
func (p *painter) paintTree(f *Frag) {
	if f.inkBottom < p.top || f.inkTop >= p.bottom {
		return
	}
	switch f.Kind {
	case FragBox, FragInline:
		if f.Box != nil && f.Box.Style.Visibility == "visible" {
			p.boxDecorations(f)
		}
	case FragText:
		if f.Box != nil && f.Box.Style.Visibility != "visible" {
			return
		}
		if f.Baseline < p.top || f.Baseline >= p.bottom {
			return // on another page (the clip would hide it, but not from text extraction)
		}
		p.text(f)
		return
	}
	for _, c := range f.Children {
		p.paintTree(c)
	}
}

// boxDecorations paints a box's background and borders.
func (p *painter) boxDecorations(f *Frag) {
	s := f.Box.Style
	x, y := f.X+p.ox, f.Y+p.oy
	if f.Box != nil && f.Box.Parent == nil {
		// The root's background is the canvas's.
	} else if s.Background.Color.A > 0 {
		p.op(draw.Fill{Path: rectPath(x, y, f.W, f.H), Color: s.Background.Color})
	}
	bd := boxBorders(s)
	for side := 0; side < 4; side++ {
		w := bd[side]
		if w <= 0 || s.Border[side].Color.A == 0 {
			continue
		}
		var r draw.Path
		switch side {
		case style.Top:
			r = rectPath(x, y, f.W, w)
		case style.Bottom:
			r = rectPath(x, y+f.H-w, f.W, w)
		case style.Left:
			r = rectPath(x, y, w, f.H)
		case style.Right:
			r = rectPath(x+f.W-w, y, w, f.H)
		}
		p.op(draw.Fill{Path: r, Color: s.Border[side].Color})
	}
}

// text paints a text fragment.
func (p *painter) text(f *Frag) {
	t := f.Text
	if t == nil || len(t.Glyphs) == 0 || t.Font == nil {
		return
	}
	// Blink rounds a text fragment's paint offset to whole pixels
	// vertically ("consistent line heights"); the ascent is whole already.
	p.op(draw.Text{Font: t.Font, Size: t.Size, X: f.X + p.ox, Y: math.Floor(f.Baseline + p.oy + 0.5), Glyphs: t.Glyphs, Color: f.Box.Style.Color, FakeBold: t.FakeBold, FakeItalic: t.FakeItalic})
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

// computeInk sets every fragment's inkTop and inkBottom: the vertical
// extent of what it and its descendants paint (borders, outlines and
// shadows aside), for skipping subtrees on other pages.
func computeInk(f *Frag) {
	t, b := f.Y, f.Y+f.H
	if f.Box != nil && f.Box.Style.Outline.Width > 0 {
		w := f.Box.Style.Outline.Width
		t, b = t-w-32, b+w+32
	}
	for _, c := range f.Children {
		computeInk(c)
		t = math.Min(t, c.inkTop)
		b = math.Max(b, c.inkBottom)
	}
	f.inkTop, f.inkBottom = t, b
}
