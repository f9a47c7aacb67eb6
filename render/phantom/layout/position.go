package layout

import (
	"math"

	"github.com/platen/platen/render/phantom/style"
)

// posContainer is a containing block for absolutely positioned boxes: a
// positioned box being laid out (or the initial containing block, frag
// nil). Out-of-flow boxes found inside wait in abs until the container's
// size is known.
type posContainer struct {
	frag       *Frag
	x, y, w, h float64 // padding box, once known
	abs        []pendingAbs
}

// pendingAbs is an out-of-flow box and its static position (the margin
// box's top-left had it been in flow, CSS 2.1 §10.3.7; its top-right,
// staticR, where the box's parent is right to left).
type pendingAbs struct {
	box                       *Box
	staticX, staticY, staticR float64
}

func (l *layouter) pushPositioned(fr *Frag) *posContainer {
	pc := &posContainer{frag: fr}
	l.positioned = append(l.positioned, pc)
	return pc
}

// addAbs records an out-of-flow box found at static position (x, y), r
// being the static position's right edge, which right to left anchors it.
func (l *layouter) addAbs(b *Box, _ *Frag, x, y, r float64) {
	if b.Style.Position == style.Fixed {
		l.fixed = append(l.fixed, &pendingAbs{box: b, staticX: x, staticY: y, staticR: r})
		return
	}
	if n := len(l.positioned); n > 0 {
		pc := l.positioned[n-1]
		pc.abs = append(pc.abs, pendingAbs{box: b, staticX: x, staticY: y, staticR: r})
	}
}

// popPositioned ends container pc, whose fragment fr is now laid out, and
// lays out the out-of-flow boxes waiting for it.
func (l *layouter) popPositioned(pc *posContainer, fr *Frag) {
	for n := len(l.positioned); n > 0; n-- {
		if l.positioned[n-1] == pc {
			l.positioned = l.positioned[:n-1]
			break
		}
	}
	if pc.frag != nil {
		s := pc.frag.Box.Style
		bd := boxBorders(s)
		pc.x, pc.y = fr.X+bd[style.Left], fr.Y+bd[style.Top]
		pc.w, pc.h = fr.W-bd.h(), fr.H-bd.v()
	}
	parent := fr
	for _, a := range pc.abs {
		if !l.check() {
			return
		}
		af := l.layoutAbs(a, pc.x, pc.y, pc.w, pc.h)
		if parent != nil {
			parent.Children = append(parent.Children, af)
		}
	}
}

// layoutFixed lays out the position: fixed boxes against the page area;
// painting repeats them on every page.
func (l *layouter) layoutFixed(root *Frag) {
	for _, a := range l.fixed {
		if !l.check() {
			return
		}
		af := l.layoutAbs(*a, 0, 0, l.viewW, l.viewH)
		l.fixedFrags = append(l.fixedFrags, af)
	}
}

// layoutAbs lays out an absolutely positioned box in the containing block
// (cx, cy, cw, ch) (a padding box) by CSS 2.1 §10.3.7 and §10.6.4, with
// shrink-to-fit widths and LayoutNG's treatment of auto margins.
func (l *layouter) layoutAbs(a pendingAbs, cx, cy, cw, ch float64) *Frag {
	b := a.box
	s := b.Style
	bd, pd := boxBorders(s), boxPadding(s, cw)
	inset := func(i int, base float64) (float64, bool) {
		if s.Inset[i].IsAuto() {
			return 0, false
		}
		return length(s.Inset[i], base, 0), true
	}
	left, hasL := inset(style.Left, cw)
	right, hasR := inset(style.Right, cw)
	top, hasT := inset(style.Top, ch)
	bottom, hasB := inset(style.Bottom, ch)
	ml, mr := marginOf(s, style.Left, cw), marginOf(s, style.Right, cw)
	mt, mb := marginOf(s, style.Top, cw), marginOf(s, style.Bottom, cw)
	autoML, autoMR := s.Margin[style.Left].IsAuto(), s.Margin[style.Right].IsAuto()
	autoMT, autoMB := s.Margin[style.Top].IsAuto(), s.Margin[style.Bottom].IsAuto()
	if !hasL && !hasR {
		// The static position, from the start side of the box's parent
		// (CSS 2.1 §10.3.7): its right right to left.
		if b.Parent != nil && b.Parent.Style.Direction == "rtl" {
			right, hasR = cx+cw-a.staticR, true
		} else {
			left, hasL = a.staticX-cx, true
		}
	}
	// Width.
	w := -1.0
	replaced := b.Kind == KindReplaced
	var rw, rh float64
	if replaced {
		rw, rh = l.replacedSize(b, cw, ch, bd, pd)
		w = rw
	} else if !s.Width.IsAuto() && s.Width.Unit < style.MinContent {
		w = length(s.Width, cw, 0)
		if s.BorderBox {
			w -= bd.h() + pd.h()
		}
		w = clampWidth(s, math.Max(w, 0), cw, bd, pd)
	}
	if w < 0 {
		if hasL && hasR {
			w = cw - left - right - ml - mr - bd.h() - pd.h()
			w = clampWidth(s, math.Max(w, 0), cw, bd, pd)
		} else {
			avail := cw - ml - mr - bd.h() - pd.h()
			if hasL {
				avail -= left
			} else {
				avail -= right
			}
			minC, maxC := l.intrinsicWidths(b)
			w = math.Min(math.Max(minC, avail), maxC)
			w = clampWidth(s, w, cw, bd, pd)
		}
	} else if hasL && hasR {
		free := cw - left - right - w - bd.h() - pd.h() - ml - mr
		switch {
		case autoML && autoMR:
			if free < 0 {
				mr = free // over-constrained: the end margin takes it (ltr)
			} else {
				ml = luHalf(free)
				mr = free - ml
			}
		case autoML:
			ml = free
		case autoMR:
			mr = free
		}
	}
	if !hasL {
		left = cw - right - mr - w - bd.h() - pd.h() - ml
	}
	// Height: from top and bottom when both are set and height is auto.
	forceH := -1.0
	sh := specifiedHeight(s, ch, bd, pd)
	if replaced {
		sh = rh
	}
	if sh < 0 && hasT && hasB && !replaced {
		forceH = clampHeight(s, math.Max(ch-top-bottom-mt-mb-bd.v()-pd.v(), 0), ch, bd, pd)
	}
	var fr *Frag
	switch {
	case replaced:
		fr = l.frags.new(FragBox, b)
		fr.monolithic = true
		fr.W, fr.H = rw+bd.h()+pd.h(), rh+bd.v()+pd.v()
	case b.Kind == KindTableWrapper:
		fr = l.layoutTable(b, cw, ch)
		fr.translate(-fr.X, -fr.Y)
	default:
		pc := (*posContainer)(nil)
		_ = pc
		f := &flow{}
		fr = l.layoutBlockBox(b, cbox{x: 0, w: cw, h: ch}, f, w, forceH)
		fr.translate(-fr.X, -fr.Y)
	}
	hgt := fr.H
	if hasT && hasB && sh >= 0 {
		free := ch - top - bottom - hgt - mt - mb
		switch {
		case autoMT && autoMB:
			mt = luHalf(free)
		case autoMT:
			mt = free
		}
	}
	if !hasT && !hasB {
		top, hasT = a.staticY-cy, true
	}
	if !hasT {
		top = ch - bottom - mb - hgt - mt
	}
	fr.translate(cx+left+ml, cy+top+mt)
	return fr
}
