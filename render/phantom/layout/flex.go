package layout

import (
	"math"
	"sort"

	"github.com/platen/platen/render/phantom/style"
)

// Flex layout: CSS Flexible Box Layout 1 §9, in LayoutNG's order and
// arithmetic (FlexLayoutAlgorithm): flex base sizes from flex-basis, the
// main size property or the content; lines; flexible lengths resolved by
// freezing; cross sizes from laying each item out at its main size; lines
// sized and aligned (align-content); items stretched and aligned
// (align-self, auto margins, baselines); main-axis placement
// (justify-content, gaps); reverse directions, wrap-reverse and right to
// left last.
//
// Pagination keeps each line of a row container with several items whole
// (like a table row: sliced only when taller than a page); a line of one
// item, and the items of a column container, break like blocks.

// flexInfo is what pagination needs of a flex container's fragment.
type flexInfo struct {
	// lines are the indexes in Children where each line of a row
	// container starts (nil for a column container).
	lines []int
}

// flexItem is one in-flow child of a flex container during layout. Sizes
// are content-box sizes unless said otherwise.
type flexItem struct {
	itemBox

	base, hypo       float64
	minMain, maxMain float64
	target           float64
	frozen           bool
	// violation is the last clamp's adjustment while resolving.
	violation float64

	// fr is the item laid out; frW and frH the content size it was laid
	// out at (-1 where free).
	fr       *Frag
	frW, frH float64
	align    style.AxisAlign
	// ascent is the baseline's distance from the margin box's cross-start
	// edge, for baseline alignment.
	ascent float64
}

// itemBox is what flex and grid layout keep of one item's box.
type itemBox struct {
	b      *Box
	s      *style.Computed
	bd, pd edges
	// m are the margins by physical side, auto ones as zero; auto says
	// which are auto.
	m    [4]float64
	auto [4]bool
}

// newItemBox reads an item's borders, padding and margins, percentages
// against the container's content width cw.
func newItemBox(b *Box, cw float64) itemBox {
	s := b.Style
	it := itemBox{b: b, s: s, bd: boxBorders(s), pd: boxPadding(s, cw)}
	for side := 0; side < 4; side++ {
		if s.Margin[side].IsAuto() {
			it.auto[side] = true
		} else {
			it.m[side] = marginOf(s, side, cw)
		}
	}
	return it
}

// flexContainer is one flex container's layout state.
type flexContainer struct {
	l   *layouter
	b   *Box
	s   *style.Computed
	col bool
	// inner is the content box (x, width; h is its definite height or -1)
	// and top its y.
	inner cbox
	top   float64
	// mainGap and crossGap are the gaps between items and between lines.
	mainGap, crossGap float64
	// mainStart and mainEnd, crossStart and crossEnd are the physical
	// sides of the axes' start and end.
	mainStart, mainEnd, crossStart, crossEnd int
}

type flexLine struct {
	items                 []*flexItem
	cross                 float64
	maxAscent, maxDescent float64
	pos                   float64
}

// isFlex reports whether b is a flex container.
func (b *Box) isFlex() bool {
	d := b.Style.Display
	return (d == style.DisplayFlex || d == style.DisplayInlineFlex) && b.Kind == KindBlock
}

// layoutFlex lays out flex container b's items in its content box inner,
// whose top is g.y; ch is the content height when definite (else -1) and
// cbH the height b's own percentages resolve against. It leaves g.y at the
// content box's bottom.
func (l *layouter) layoutFlex(b *Box, fr *Frag, inner cbox, g *flow, ch, cbH float64) {
	l.flexNest++
	defer func() { l.flexNest-- }()
	s := b.Style
	fc := &flexContainer{l: l, b: b, s: s, col: s.FlexDirection.IsColumn(), inner: cbox{x: inner.x, w: inner.w, h: ch}, top: g.y}
	rtl := s.Direction == "rtl"
	if fc.col {
		fc.mainStart, fc.mainEnd = style.Top, style.Bottom
		fc.crossStart, fc.crossEnd = style.Left, style.Right
		if rtl {
			fc.crossStart, fc.crossEnd = style.Right, style.Left
		}
	} else {
		fc.mainStart, fc.mainEnd = style.Left, style.Right
		if rtl {
			fc.mainStart, fc.mainEnd = style.Right, style.Left
		}
		fc.crossStart, fc.crossEnd = style.Top, style.Bottom
	}
	if s.FlexDirection.IsReverse() {
		fc.mainStart, fc.mainEnd = fc.mainEnd, fc.mainStart
	}
	if s.FlexWrap == style.WrapReverse {
		fc.crossStart, fc.crossEnd = fc.crossEnd, fc.crossStart
	}
	rowGap := gapOf(s.RowGap, ch)
	colGap := gapOf(s.ColumnGap, inner.w)
	if fc.col {
		fc.mainGap, fc.crossGap = rowGap, colGap
	} else {
		fc.mainGap, fc.crossGap = colGap, rowGap
	}

	var items []*flexItem
	for _, c := range b.Children {
		if !l.check() {
			return
		}
		if c.IsOutOfFlow() {
			l.addAbs(c, fr, inner.x, g.y, inner.x+inner.w)
			continue
		}
		items = append(items, fc.newItem(c))
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].s.Order < items[j].s.Order })

	// Flex base sizes and hypothetical main sizes.
	avail := inner.w
	if fc.col {
		avail = ch
	}
	for _, it := range items {
		fc.baseSize(it, avail)
	}

	// Lines.
	limit := avail
	if fc.col && avail < 0 {
		limit = math.Inf(1)
		if mx := s.MaxHeight; mx.Unit == style.Px || mx.Unit == style.Percent && cbH >= 0 {
			bd, pd := boxBorders(s), boxPadding(s, inner.w)
			limit = clampHeight(s, math.Inf(1), cbH, bd, pd)
		}
	}
	var lines []*flexLine
	if s.FlexWrap == style.NoWrap {
		lines = []*flexLine{{items: items}}
	} else {
		var cur *flexLine
		sum := 0.0
		for _, it := range items {
			w := fc.outerMain(it, it.hypo)
			if cur == nil || len(cur.items) > 0 && sum+fc.mainGap+w > limit+1.0/128 {
				cur = &flexLine{}
				lines = append(lines, cur)
				sum = w
			} else if len(cur.items) > 0 {
				sum += fc.mainGap + w
			} else {
				sum = w
			}
			cur.items = append(cur.items, it)
		}
		if len(lines) == 0 {
			lines = []*flexLine{{}}
		}
	}

	// The main size: a column container of auto height is as tall as its
	// longest line's hypothetical sizes, within its min and max height.
	mainSize := avail
	if fc.col && avail < 0 {
		longest := 0.0
		for _, ln := range lines {
			longest = math.Max(longest, fc.lineHypo(ln))
		}
		bd, pd := boxBorders(s), boxPadding(s, inner.w)
		mainSize = clampHeight(s, longest, cbH, bd, pd)
	}
	for _, ln := range lines {
		fc.resolveFlexible(ln, mainSize)
	}

	// Cross sizes: each item laid out at its main size.
	for _, ln := range lines {
		for _, it := range ln.items {
			if !l.check() {
				return
			}
			fc.layoutAtMain(it)
		}
	}

	// Line cross sizes.
	single := s.FlexWrap == style.NoWrap
	for _, ln := range lines {
		fc.lineCross(ln)
	}
	var crossSize float64
	switch {
	case fc.col:
		crossSize = inner.w
		if single {
			lines[0].cross = inner.w
		}
	case single && ch >= 0:
		crossSize = ch
		lines[0].cross = ch
	default:
		sum := 0.0
		for i, ln := range lines {
			if i > 0 {
				sum += fc.crossGap
			}
			sum += ln.cross
		}
		bd, pd := boxBorders(s), boxPadding(s, inner.w)
		if ch >= 0 {
			crossSize = ch
		} else {
			crossSize = clampHeight(s, sum, cbH, bd, pd)
		}
		if single {
			lines[0].cross = crossSize
		}
	}

	// align-content: the lines in the cross size.
	fc.placeLines(lines, crossSize, single)

	// Stretch, then cross and main positions.
	for _, ln := range lines {
		for _, it := range ln.items {
			fc.stretch(it, ln)
		}
		fc.place(ln, mainSize, crossSize)
	}

	var info *flexInfo
	if !fc.col {
		info = &flexInfo{}
	}
	for _, ln := range lines {
		if info != nil {
			info.lines = append(info.lines, len(fr.Children))
		}
		for _, it := range ln.items {
			fr.Children = append(fr.Children, it.fr)
		}
	}
	fr.flex = info
	if fc.col && (s.FlexDirection == style.FlexColumnReverse || len(lines) > 1) || s.FlexWrap == style.WrapReverse && len(lines) > 1 {
		// Items or lines out of flow order: kept on one page.
		fr.monolithic = true
	}
	if fc.col {
		g.y = fc.top + mainSize
	} else {
		g.y = fc.top + crossSize
	}
}

// gapOf resolves row-gap or column-gap (normal is 0 in flex layout) against
// base (-1 when indefinite: a percentage is then 0).
func gapOf(v style.Length, base float64) float64 {
	switch v.Unit {
	case style.Px:
		return lu(v.V)
	case style.Percent:
		if base < 0 {
			return 0
		}
		return length(v, base, 0)
	}
	return 0
}

func (fc *flexContainer) newItem(b *Box) *flexItem {
	s := b.Style
	it := &flexItem{itemBox: newItemBox(b, fc.inner.w), frW: -1, frH: -1}
	it.align = s.AlignSelf
	if it.align == style.AxAuto {
		it.align = fc.s.AlignItems
	}
	return it
}

// bpMain is an item's border and padding on the main axis.
func (fc *flexContainer) bpMain(it *flexItem) float64 {
	if fc.col {
		return it.bd.v() + it.pd.v()
	}
	return it.bd.h() + it.pd.h()
}

// outerMain is an item's margin box main size for content size v.
func (fc *flexContainer) outerMain(it *flexItem, v float64) float64 {
	return v + fc.bpMain(it) + it.m[fc.mainStart] + it.m[fc.mainEnd]
}

func (fc *flexContainer) lineHypo(ln *flexLine) float64 {
	sum := 0.0
	for i, it := range ln.items {
		if i > 0 {
			sum += fc.mainGap
		}
		sum += fc.outerMain(it, it.hypo)
	}
	return sum
}

// isStretched reports whether the item's cross size stretches to its line.
func (fc *flexContainer) isStretched(it *flexItem) bool {
	if it.align != style.AxStretch && it.align != style.AxNormal {
		return false
	}
	if it.auto[fc.crossStart] || it.auto[fc.crossEnd] {
		return false
	}
	if fc.col {
		return it.s.Width.IsAuto()
	}
	return it.s.Height.IsAuto() || it.s.Height.Unit == style.Percent && fc.inner.h < 0
}

// crossWidth is a column container's item's content width before
// stretching to a line: stretched to the container when it will be,
// else its width or its fit-content width.
func (fc *flexContainer) crossWidth(it *flexItem) float64 {
	s := it.s
	cw := fc.inner.w
	avail := cw - it.m[style.Left] - it.m[style.Right] - it.bd.h() - it.pd.h()
	if !s.Width.IsAuto() && s.Width.Unit != style.FitContent && s.Width.Unit != style.MinContent && s.Width.Unit != style.MaxContent {
		_, _, w := blockWidths(s, cw, it.bd, it.pd, -1)
		return w
	}
	if it.b.Kind == KindReplaced && !fc.isStretched(it) {
		w, _ := fc.l.replacedSize(it.b, cw, fc.inner.h, it.bd, it.pd)
		return w
	}
	if fc.isStretched(it) && fc.s.FlexWrap == style.NoWrap {
		return clampWidth(s, math.Max(avail, 0), cw, it.bd, it.pd)
	}
	minC, maxC := fc.l.intrinsicWidths(it.b)
	switch s.Width.Unit {
	case style.MinContent:
		return clampWidth(s, minC, cw, it.bd, it.pd)
	case style.MaxContent:
		return clampWidth(s, maxC, cw, it.bd, it.pd)
	}
	return clampWidth(s, math.Min(math.Max(minC, avail), maxC), cw, it.bd, it.pd)
}

// baseSize sets the item's flex base size, hypothetical main size and
// main size bounds; avail is the container's inner main size or -1.
func (fc *flexContainer) baseSize(it *flexItem, avail float64) {
	s := it.s
	l := fc.l
	bp := fc.bpMain(it)
	basis := s.FlexBasis
	size := s.Width
	if fc.col {
		size = s.Height
	}
	if basis.Unit == style.Auto {
		basis = size
	}
	definite := func(v style.Length) (float64, bool) {
		switch {
		case v.Unit == style.Px, v.Unit == style.Percent && avail >= 0:
			x := length(v, avail, 0)
			if s.BorderBox {
				x -= bp
			}
			return math.Max(x, 0), true
		}
		return 0, false
	}
	var minC, maxC float64 // content sizes
	if fc.col {
		fc.measureColumn(it)
		minC = it.frH
		maxC = it.frH
	} else {
		minC, maxC = l.intrinsicWidths(it.b)
		if it.b.Kind == KindReplaced {
			w, _ := l.replacedSize(it.b, fc.inner.w, fc.inner.h, it.bd, it.pd)
			minC, maxC = w, w
		}
	}
	if v, ok := definite(basis); ok {
		it.base = v
	} else if basis.Unit == style.MinContent {
		it.base = minC
	} else {
		it.base = maxC
	}
	it.base = lu(it.base)

	// Bounds: max from the max size property; min from the min size
	// property, or for auto the content-based minimum (§4.5).
	it.maxMain = math.Inf(1)
	maxP, minP := s.MaxWidth, s.MinWidth
	if fc.col {
		maxP, minP = s.MaxHeight, s.MinHeight
	}
	if v, ok := definite(maxP); ok {
		it.maxMain = v
	}
	switch {
	case minP.Unit == style.Px || minP.Unit == style.Percent:
		it.minMain, _ = definite(minP)
	case minP.Unit == style.Auto && (s.Overflow == "visible" || s.Overflow == ""):
		m := minC
		if v, ok := definite(size); ok {
			m = math.Min(m, v)
		}
		it.minMain = math.Min(m, it.maxMain)
	}
	it.hypo = math.Max(it.minMain, math.Min(it.base, it.maxMain))
}

// measureColumn lays out a column container's item at its width and free
// height, for its content height.
func (fc *flexContainer) measureColumn(it *flexItem) {
	if it.fr != nil {
		return
	}
	w := fc.crossWidth(it)
	it.fr = fc.l.itemFrag(&it.itemBox, fc.inner, w, -1)
	it.frW = w
	it.frH = it.fr.H - it.bd.v() - it.pd.v()
}

// resolveFlexible resolves the line's items' main sizes (§9.7).
func (fc *flexContainer) resolveFlexible(ln *flexLine, mainSize float64) {
	items := ln.items
	if len(items) == 0 {
		return
	}
	gaps := fc.mainGap * float64(len(items)-1)
	sumHypo := fc.lineHypo(ln)
	grow := sumHypo < mainSize
	if mainSize < 0 || math.IsInf(mainSize, 1) {
		for _, it := range items {
			it.target, it.frozen = it.hypo, true
		}
		return
	}
	for _, it := range items {
		it.frozen = false
		f := it.s.FlexShrink
		if grow {
			f = it.s.FlexGrow
		}
		if f == 0 || grow && it.base > it.hypo || !grow && it.base < it.hypo {
			it.target, it.frozen = it.hypo, true
		}
	}
	free := func() float64 {
		sum := gaps
		for _, it := range items {
			v := it.base
			if it.frozen {
				v = it.target
			}
			sum += fc.outerMain(it, v)
		}
		return mainSize - sum
	}
	initial := free()
	for round := 0; round <= len(items); round++ {
		remaining := free()
		sumFactors, sumScaled := 0.0, 0.0
		active := 0
		for _, it := range items {
			if it.frozen {
				continue
			}
			active++
			if grow {
				sumFactors += it.s.FlexGrow
			} else {
				sumFactors += it.s.FlexShrink
				sumScaled += it.s.FlexShrink * it.base
			}
		}
		if active == 0 {
			break
		}
		if sumFactors < 1 {
			if v := initial * sumFactors; math.Abs(v) < math.Abs(remaining) {
				remaining = v
			}
		}
		total := 0.0
		for _, it := range items {
			if it.frozen {
				continue
			}
			extra := 0.0
			switch {
			case grow && remaining > 0 && sumFactors > 0:
				extra = remaining * it.s.FlexGrow / sumFactors
			case !grow && remaining < 0 && sumScaled > 0:
				extra = remaining * it.s.FlexShrink * it.base / sumScaled
			}
			t := it.base + luRound(extra)
			c := math.Max(it.minMain, math.Min(t, it.maxMain))
			c = math.Max(c, 0)
			it.target = c
			it.violation = c - t
			total += c - t
		}
		for _, it := range items {
			if it.frozen {
				continue
			}
			switch {
			case total == 0, total > 0 && it.violation > 0, total < 0 && it.violation < 0:
				it.frozen = true
			}
		}
	}
	for _, it := range items {
		it.target = lu(it.target)
	}
}

// itemFrag lays out a flex or grid item at content width w and height h
// (-1: free) in containing block c.
func (l *layouter) itemFrag(it *itemBox, c cbox, w, h float64) *Frag {
	b := it.b
	switch b.Kind {
	case KindReplaced:
		fr := l.frags.new(FragBox, b)
		fr.monolithic = true
		rw, rh := l.replacedSize(b, c.w, c.h, it.bd, it.pd)
		if h < 0 {
			h = rh
			if b.Style.Height.IsAuto() && rw > 0 && w != rw {
				h = lu(w * rh / rw)
			}
		}
		fr.W, fr.H = w+it.bd.h()+it.pd.h(), h+it.bd.v()+it.pd.v()
		l.relativeOffset(b, fr, c)
		return fr
	case KindTableWrapper:
		ml, mr := it.m[style.Left], it.m[style.Right]
		fr := l.layoutTable(b, w+it.bd.h()+it.pd.h()+ml+mr, c.h)
		l.relativeOffset(b, fr, c)
		return fr
	}
	return l.layoutBlockBox(b, c, &flow{}, w, h)
}

// layoutAtMain lays an item out at its resolved main size, for its cross
// size.
func (fc *flexContainer) layoutAtMain(it *flexItem) {
	l := fc.l
	if fc.col {
		if it.frH == it.target {
			return
		}
		fc.relayout(it, it.frW, it.target)
		return
	}
	it.fr = l.itemFrag(&it.itemBox, fc.inner, it.target, -1)
	it.frW, it.frH = it.target, -1
}

// relayout lays the item out again at content size (w, h), or when only
// its height changes and nothing inside depends on it, resizes its
// fragment.
func (fc *flexContainer) relayout(it *flexItem, w, h float64) {
	deep := fc.l.flexNest > maxFlexRelayoutNest
	if it.fr != nil && w == it.frW && (deep || !heightMatters(it.b)) && it.b.Kind != KindTableWrapper {
		it.fr.H = h + it.bd.v() + it.pd.v()
		it.fr.fixedH = true
		it.frH = h
		return
	}
	it.fr = fc.l.itemFrag(&it.itemBox, fc.inner, w, h)
	it.frW, it.frH = w, h
}

// maxFlexRelayoutNest bounds the flex containers nested inside one another
// whose items are laid out again at a stretched or flexed height: each
// level may lay its items out twice, so deeper ones resize their items'
// fragments instead, and nesting costs linear time rather than
// exponential.
const maxFlexRelayoutNest = 6

// heightMatters reports whether a box's content lays out differently at
// a definite height: flex containers, percentage heights inside,
// positioned boxes (their out-of-flow content may hang from the bottom).
func heightMatters(b *Box) bool {
	if b.isFlex() || b.isPositioned() || b.Style.Display == style.DisplayGrid {
		return true
	}
	for _, c := range b.Children {
		cs := c.Style
		if c.Kind == KindText || c.Kind == KindBreak {
			continue
		}
		if cs.Height.Unit == style.Percent || cs.MinHeight.Unit == style.Percent || cs.MaxHeight.Unit == style.Percent {
			return true
		}
	}
	return false
}

// crossOuter is an item's laid-out margin box cross size.
func (fc *flexContainer) crossOuter(it *flexItem) float64 {
	if fc.col {
		return it.fr.W + it.m[style.Left] + it.m[style.Right]
	}
	return it.fr.H + it.m[style.Top] + it.m[style.Bottom]
}

// lineCross sizes a line from its items (and their baselines).
func (fc *flexContainer) lineCross(ln *flexLine) {
	ln.cross, ln.maxAscent, ln.maxDescent = 0, 0, 0
	for _, it := range ln.items {
		outer := fc.crossOuter(it)
		if !fc.col && (it.align == style.AxBaseline || it.align == style.AxLastBaseline) && !it.auto[style.Top] && !it.auto[style.Bottom] {
			it.ascent = it.m[style.Top] + itemBaseline(it.fr, it.align == style.AxLastBaseline)
			ln.maxAscent = math.Max(ln.maxAscent, it.ascent)
			ln.maxDescent = math.Max(ln.maxDescent, outer-it.ascent)
			ln.cross = math.Max(ln.cross, ln.maxAscent+ln.maxDescent)
			continue
		}
		ln.cross = math.Max(ln.cross, outer)
	}
}

// itemBaseline is a laid-out item's first (or last) baseline from its
// border box's top, synthesized from its bottom when it has no line.
func itemBaseline(fr *Frag, last bool) float64 {
	var y float64
	var ok bool
	if last {
		y, ok = lastBaseline(fr)
	} else {
		y, ok = firstBaseline(fr)
	}
	if !ok || fr.monolithic && fr.Box != nil && fr.Box.Kind == KindReplaced {
		return fr.H
	}
	return y - fr.Y
}

// placeLines distributes the cross size among the lines (align-content)
// and sets each line's offset from the cross-start edge.
func (fc *flexContainer) placeLines(lines []*flexLine, crossSize float64, single bool) {
	if single {
		lines[0].pos = 0
		return
	}
	sum := fc.crossGap * float64(len(lines)-1)
	for _, ln := range lines {
		sum += ln.cross
	}
	free := crossSize - sum
	n := len(lines)
	a := fc.s.AlignContent
	if (a == style.AxNormal || a == style.AxStretch) && free > 0 {
		d := luDiv(free, n)
		for _, ln := range lines {
			ln.cross += d
		}
		free = 0
	}
	off, between := distribute(free, n, fc.contentAlign(a, true))
	pos := off
	for _, ln := range lines {
		ln.pos = pos
		pos += ln.cross + fc.crossGap + between
	}
}

// contentAlign maps justify-content or align-content to the start, end or
// centre of its axis (or a distribution), in terms of the axis's start.
func (fc *flexContainer) contentAlign(a style.AxisAlign, cross bool) style.AxisAlign {
	switch a {
	case style.AxSpaceBetween, style.AxSpaceAround, style.AxSpaceEvenly, style.AxCenter:
		return a
	case style.AxFlexEnd:
		return style.AxEnd
	case style.AxEnd:
		if fc.logicalReversed(cross) {
			return style.AxStart
		}
		return style.AxEnd
	case style.AxStart:
		if fc.logicalReversed(cross) {
			return style.AxEnd
		}
		return style.AxStart
	case style.AxLeft, style.AxRight:
		if cross || fc.col {
			return style.AxStart
		}
		left := fc.mainStart == style.Left
		if (a == style.AxLeft) == left {
			return style.AxStart
		}
		return style.AxEnd
	}
	return style.AxStart
}

// logicalReversed reports whether an axis's flex start is the writing
// mode's end (row-reverse, column-reverse, wrap-reverse).
func (fc *flexContainer) logicalReversed(cross bool) bool {
	rtl := fc.s.Direction == "rtl"
	if cross {
		if fc.col {
			return (fc.crossStart == style.Right) != rtl
		}
		return fc.crossStart == style.Bottom
	}
	if fc.col {
		return fc.mainStart == style.Bottom
	}
	return (fc.mainStart == style.Right) != rtl
}

// distribute is the offset of the first of n subjects and the extra space
// between subjects for alignment a (AxStart, AxEnd, AxCenter or a
// distribution) of free space, as Blink computes them.
func distribute(free float64, n int, a style.AxisAlign) (off, between float64) {
	switch a {
	case style.AxEnd:
		return free, 0
	case style.AxCenter:
		return luHalf(free), 0
	case style.AxSpaceBetween:
		if free > 0 && n > 1 {
			return 0, luDiv(free, n-1)
		}
		return 0, 0
	case style.AxSpaceAround:
		if free > 0 && n > 0 {
			return luDiv(free, 2*n), luDiv(free, n)
		}
		return luHalf(free), 0
	case style.AxSpaceEvenly:
		if free > 0 && n > 0 {
			return luDiv(free, n+1), luDiv(free, n+1)
		}
		return luHalf(free), 0
	}
	return 0, 0
}

// stretch gives a stretched item its line's cross size.
func (fc *flexContainer) stretch(it *flexItem, ln *flexLine) {
	if !fc.isStretched(it) {
		return
	}
	s := it.s
	if fc.col {
		w := ln.cross - it.m[style.Left] - it.m[style.Right] - it.bd.h() - it.pd.h()
		w = clampWidth(s, math.Max(w, 0), fc.inner.w, it.bd, it.pd)
		if it.b.Kind == KindReplaced || w == it.frW {
			return
		}
		it.fr = fc.l.itemFrag(&it.itemBox, fc.inner, w, it.frH)
		it.frW = w
		return
	}
	h := ln.cross - it.m[style.Top] - it.m[style.Bottom] - it.bd.v() - it.pd.v()
	h = clampHeight(s, math.Max(h, 0), fc.inner.h, it.bd, it.pd)
	if it.b.Kind == KindReplaced {
		if s.Height.IsAuto() {
			it.fr.H = h + it.bd.v() + it.pd.v()
		}
		return
	}
	fc.relayout(it, it.frW, h)
}

// place positions a line's items: main axis by auto margins or
// justify-content, cross axis by auto margins or align-self.
func (fc *flexContainer) place(ln *flexLine, mainSize, crossSize float64) {
	n := len(ln.items)
	if n == 0 {
		return
	}
	used := fc.mainGap * float64(n-1)
	autos := 0
	for _, it := range ln.items {
		used += fc.mainOuter(it)
		if it.auto[fc.mainStart] {
			autos++
		}
		if it.auto[fc.mainEnd] {
			autos++
		}
	}
	free := mainSize - used
	if math.IsInf(mainSize, 0) || mainSize < 0 {
		free = 0
	}
	var autoM, off, between float64
	if autos > 0 {
		if free > 0 {
			autoM = luDiv(free, autos)
		}
	} else {
		off, between = distribute(free, n, fc.contentAlign(fc.s.JustifyContent, false))
	}
	pos := off
	for _, it := range ln.items {
		ms := it.m[fc.mainStart]
		if it.auto[fc.mainStart] {
			ms = autoM
		}
		me := it.m[fc.mainEnd]
		if it.auto[fc.mainEnd] {
			me = autoM
		}
		pos += ms
		mainOff := pos
		pos += fc.mainBorder(it) + me + fc.mainGap + between

		crossOff := ln.pos + fc.crossOffset(it, ln)
		fc.moveItem(it, mainOff, crossOff, mainSize, crossSize)
	}
}

// mainBorder is an item's laid-out border box main size; mainOuter its
// margin box's (auto margins as zero).
func (fc *flexContainer) mainBorder(it *flexItem) float64 {
	if fc.col {
		return it.fr.H
	}
	return it.fr.W
}

func (fc *flexContainer) mainOuter(it *flexItem) float64 {
	return fc.mainBorder(it) + it.m[fc.mainStart] + it.m[fc.mainEnd]
}

// crossOffset is the item's border box offset from its line's cross
// start.
func (fc *flexContainer) crossOffset(it *flexItem, ln *flexLine) float64 {
	border := it.fr.H
	if fc.col {
		border = it.fr.W
	}
	cs, ce := it.m[fc.crossStart], it.m[fc.crossEnd]
	free := ln.cross - border - cs - ce
	switch {
	case it.auto[fc.crossStart] && it.auto[fc.crossEnd]:
		if free > 0 {
			return cs + luHalf(free)
		}
		return cs
	case it.auto[fc.crossStart]:
		return cs + math.Max(free, 0)
	case it.auto[fc.crossEnd]:
		return cs
	}
	switch it.align {
	case style.AxBaseline, style.AxLastBaseline:
		if !fc.col {
			if fc.crossStart == style.Bottom {
				// wrap-reverse: baselines meet from the line's bottom.
				return cs + free - (ln.maxAscent - it.ascent)
			}
			return cs + ln.maxAscent - it.ascent
		}
		return cs
	case style.AxCenter:
		return cs + luHalf(free)
	case style.AxFlexEnd:
		return cs + free
	case style.AxEnd, style.AxSelfEnd:
		if !fc.logicalReversed(true) {
			return cs + free
		}
		return cs
	case style.AxStart, style.AxSelfStart:
		if fc.logicalReversed(true) {
			return cs + free
		}
		return cs
	}
	return cs
}

// moveItem puts the item's border box at mainOff and crossOff from the
// container's main-start and cross-start edges.
func (fc *flexContainer) moveItem(it *flexItem, mainOff, crossOff, mainSize, crossSize float64) {
	fr := it.fr
	var x, y float64
	if fc.col {
		y = mainOff
		if fc.mainStart == style.Bottom {
			y = mainSize - mainOff - fr.H
		}
		x = crossOff
		if fc.crossStart == style.Right {
			x = crossSize - crossOff - fr.W
		}
	} else {
		x = mainOff
		if fc.mainStart == style.Right {
			x = mainSize - mainOff - fr.W
		}
		y = crossOff
		if fc.crossStart == style.Bottom {
			y = crossSize - crossOff - fr.H
		}
	}
	x += fc.inner.x
	y += fc.top
	fr.translate(x+fr.relX-fr.X, y+fr.relY-fr.Y)
}

// flexIntrinsic is a flex container's min-content and max-content content
// widths (CSS Flexbox 1 §9.9.1, as Blink computes them).
func (l *layouter) flexIntrinsic(b *Box) (minW, maxW float64) {
	s := b.Style
	col := s.FlexDirection.IsColumn()
	gap := gapOf(s.ColumnGap, -1)
	n := 0
	for _, c := range b.Children {
		if c.IsOutOfFlow() {
			continue
		}
		cmin, cmax := l.outerIntrinsic(c, false)
		switch {
		case col:
			minW, maxW = math.Max(minW, cmin), math.Max(maxW, cmax)
		case s.FlexWrap == style.NoWrap:
			minW += cmin
			maxW += cmax
			if n > 0 {
				minW += gap
				maxW += gap
			}
		default:
			minW = math.Max(minW, cmin)
			maxW += cmax
			if n > 0 {
				maxW += gap
			}
		}
		n++
	}
	return minW, maxW
}
