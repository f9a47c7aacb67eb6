package layout

import (
	"math"

	"github.com/platen/platen/render/phantom/style"
)

// Floats (CSS 2.1 §9.5, as LayoutNG places them). Each block formatting
// context keeps the margin boxes of the floats placed in it (exclusions);
// a float goes as high as it may (not above the current position, an
// earlier float or the current line) and as far to its side as the floats
// already there let it, moving down past floats until it fits. Line boxes
// are shortened beside floats; a box that establishes a formatting context
// (a table, overflow: hidden, flow-root, a flex container) sits beside them
// or below; clear moves a box below them; and a formatting context root of
// auto height grows to hold its floats.
//
// A float is laid out as an inline-block is (its width shrinks to fit
// when auto) and pagination keeps it whole.

// floatRect is a placed float's margin box.
type floatRect struct {
	left                bool
	x0, x1, top, bottom float64
}

// exclusions are the floats of one block formatting context.
type exclusions struct {
	// floats are the floats that may still reach a position asked about:
	// layout asks about positions in flow order, so a float whose bottom
	// is above the latest one asked about is dropped (compact) once they
	// are half of the list, which keeps a sheet of thousands of floats
	// cheap.
	floats []floatRect
	// lastTop is the top of the last float placed: no later float goes
	// higher.
	lastTop float64
	// bottomL and bottomR are the lowest left and right float bottoms,
	// dropped floats included (-Inf when none).
	bottomL, bottomR float64
	placed           bool
	// work is the layout's work count: each float examined is a unit.
	work *int
}

func (l *layouter) newExclusions() *exclusions { return &exclusions{work: &l.work} }

// compact drops the floats that end above y once they are half the list.
func (ex *exclusions) compact(y float64) {
	dead := 0
	for _, f := range ex.floats {
		if f.bottom <= y {
			dead++
		}
	}
	*ex.work += len(ex.floats)
	if dead < 8 || 2*dead < len(ex.floats) {
		return
	}
	kept := ex.floats[:0]
	for _, f := range ex.floats {
		if f.bottom > y {
			kept = append(kept, f)
		}
	}
	ex.floats = kept
}

// add records a placed float.
func (ex *exclusions) add(f floatRect) {
	if !ex.placed {
		ex.bottomL, ex.bottomR, ex.placed = math.Inf(-1), math.Inf(-1), true
	}
	if f.left {
		ex.bottomL = math.Max(ex.bottomL, f.bottom)
	} else {
		ex.bottomR = math.Max(ex.bottomR, f.bottom)
	}
	ex.floats = append(ex.floats, f)
	ex.lastTop = f.top
}

// isFloat reports whether b is a float: floated, in flow otherwise (an
// absolutely positioned box does not float), and not the root.
func (b *Box) isFloat() bool {
	if b.Kind == KindText || b.Kind == KindBreak || b.Parent == nil || b.Inline {
		return false
	}
	return b.Style.Float != "none" && b.Style.Float != "" && !b.IsOutOfFlow()
}

// outOfFlow reports whether b is taken out of the flow: absolutely
// positioned or floated.
func (b *Box) outOfFlow() bool { return b.IsOutOfFlow() || b.isFloat() }

// space is the inline range left free by the floats in the band [y,
// y+h) of a containing block at x, w wide (a zero h means the line at y).
func (ex *exclusions) space(x, w, y, h float64) (x0, x1 float64) {
	x0, x1 = x, x+w
	if ex == nil {
		return
	}
	ex.compact(y)
	h = math.Max(h, 1.0/64)
	for _, f := range ex.floats {
		if f.bottom <= y || f.top >= y+h || f.bottom <= f.top {
			continue
		}
		if f.left {
			x0 = math.Max(x0, f.x1)
		} else {
			x1 = math.Min(x1, f.x0)
		}
	}
	return x0, x1
}

// below is the lowest bottom, under y, of the floats that reach the band
// [y, y+h): where to look next for room; +Inf when none does.
func (ex *exclusions) below(y, h float64) float64 {
	next := math.Inf(1)
	if ex == nil {
		return next
	}
	*ex.work += len(ex.floats)
	h = math.Max(h, 1.0/64)
	for _, f := range ex.floats {
		if f.bottom > y && f.top < y+h && f.bottom > f.top {
			next = math.Min(next, f.bottom)
		}
	}
	return next
}

// clearY is the position below the floats that clear (left, right or
// both) clears, or -Inf.
func (ex *exclusions) clearY(clear string) float64 {
	y := math.Inf(-1)
	if ex == nil || !ex.placed {
		return y
	}
	if clear == "both" || clear == "left" {
		y = math.Max(y, ex.bottomL)
	}
	if clear == "both" || clear == "right" {
		y = math.Max(y, ex.bottomR)
	}
	return y
}

// bottom is the lowest float's bottom, or -Inf.
func (ex *exclusions) bottom() float64 { return ex.clearY("both") }

// clearance moves flow f below the floats box b clears (its clear
// property) when b's border edge, after its top margin mt, would be above
// them: the margins above settle (they do not collapse through the
// clearance) and it reports true, b's border edge then being at f.y.
func (l *layouter) clearance(b *Box, f *flow, mt float64) bool {
	c := b.Style.Clear
	if c == "none" || c == "" || f.ex == nil || len(f.ex.floats) == 0 {
		return false
	}
	cy := f.ex.clearY(c)
	st := f.strut
	st.add(mt)
	if f.y+st.sum() >= cy {
		return false
	}
	f.resolve()
	f.y = cy
	return true
}

// placeFloat lays out float b in containing block c of flow f and places
// it at position y (or lower): it joins f's exclusions, and its fragment
// is returned.
func (l *layouter) placeFloat(b *Box, c cbox, f *flow, y float64) *Frag {
	if f.ex == nil {
		f.ex = l.newExclusions()
	}
	fr, mw, mh, _ := l.layoutAtomic(b, c.w, c.h)
	return l.positionFloat(b, fr, mw, mh, c, f, y)
}

// positionFloat places float b, laid out as fr with margin box mw × mh
// (from (0, 0)), in containing block c of flow f at y or lower.
func (l *layouter) positionFloat(b *Box, fr *Frag, mw, mh float64, c cbox, f *flow, y float64) *Frag {
	if f.ex == nil {
		f.ex = l.newExclusions()
	}
	ex := f.ex
	left := b.Style.Float == "left"
	top := math.Max(y, ex.lastTop)
	if cl := b.Style.Clear; cl != "none" && cl != "" {
		top = math.Max(top, ex.clearY(cl))
	}
	for i := 0; i <= len(ex.floats) && l.check(); i++ {
		x0, x1 := ex.space(c.x, c.w, top, mh)
		if x1-x0 >= mw-1.0/64 || (x0 == c.x && x1 == c.x+c.w) {
			break
		}
		next := ex.below(top, mh)
		if math.IsInf(next, 1) {
			break
		}
		top = next
	}
	x0, x1 := ex.space(c.x, c.w, top, mh)
	x := x0
	if !left {
		x = x1 - mw
	}
	// layoutAtomic put the margin box at (0, 0).
	fr.translate(x, top)
	ex.add(floatRect{left: left, x0: x, x1: x + mw, top: top, bottom: top + mh})
	return fr
}

// besideFloats places a box that must not overlap floats (a formatting
// context root, a table, a block image), whose top margin is mt and margin
// box need wide (0 when its width is auto), in flow f: the floats waiting
// for the position are placed at its border edge, the flow moves down
// below floats when the box does not fit beside them, and the containing
// block beside them is returned.
func (l *layouter) besideFloats(c cbox, f *flow, mt, need float64) cbox {
	st := f.strut
	st.add(mt)
	y0 := f.y + st.sum()
	f.placeAdjoiningAt(y0)
	if f.ex == nil || len(f.ex.floats) == 0 {
		return c
	}
	nc, ny := l.avoidFloats(c, f, y0, need)
	if ny > y0 {
		f.resolve()
		f.y = ny - mt
	}
	return nc
}

// avoidFloats is the containing block a box that establishes a formatting
// context gets beside f's floats at its top y: the widest room at y for a
// box of width need (its specified margin box width, or 0 when auto),
// moving y down past floats until it fits.
func (l *layouter) avoidFloats(c cbox, f *flow, y, need float64) (cbox, float64) {
	ex := f.ex
	if ex == nil || len(ex.floats) == 0 {
		return c, y
	}
	for i := 0; i <= len(ex.floats); i++ {
		x0, x1 := ex.space(c.x, c.w, y, 0)
		if x1-x0 >= need-1.0/64 || (x0 == c.x && x1 == c.x+c.w) {
			return cbox{x: x0, w: x1 - x0, h: c.h}, y
		}
		next := ex.below(y, 0)
		if math.IsInf(next, 1) {
			break
		}
		y = next
	}
	x0, x1 := ex.space(c.x, c.w, y, 0)
	return cbox{x: x0, w: x1 - x0, h: c.h}, y
}

// specifiedOuterWidth is a block's margin box width when its width is
// specified, else 0.
func specifiedOuterWidth(s *style.Computed, cbW float64) float64 {
	if s.Width.Unit != style.Px && s.Width.Unit != style.Percent {
		return 0
	}
	w := length(s.Width, cbW, 0)
	bd, pd := boxBorders(s), boxPadding(s, cbW)
	if !s.BorderBox {
		w += bd.h() + pd.h()
	}
	return w + marginOf(s, style.Left, cbW) + marginOf(s, style.Right, cbW)
}
