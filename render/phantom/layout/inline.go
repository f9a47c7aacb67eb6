package layout

import (
	"math"
	"unicode/utf8"

	"golang.org/x/net/html/atom"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/fonts"
	"github.com/platen/platen/render/phantom/style"
)

// el is one element of a paragraph in line order: a text segment, or a
// non-text item.
type el struct {
	item int
	seg  int // -1 for non-text items
}

// atomicLayout is an atomic inline laid out for its line.
type atomicLayout struct {
	frag         *Frag
	mw, mh, base float64
}

// inlineCtx is the state of one block container's inline layout.
type inlineCtx struct {
	l     *layouter
	b     *Box
	p     *paragraph
	fr    *Frag
	c     cbox
	els   []el
	atoms map[int]*atomicLayout
	// open is the stack of inline boxes open at the current line's start.
	open []int // item indices of open tags
	line int
}

// paragraphOf returns b's collected and shaped paragraph, cached on the
// box for intrinsic sizing and layout.
func (l *layouter) paragraphOf(b *Box) *paragraph {
	if b.para == nil {
		b.para = l.collect(b)
		l.paras = append(l.paras, b)
	}
	return b.para
}

// elements lists the paragraph's elements in order.
func (p *paragraph) elements(buf []el) []el {
	buf = buf[:0]
	for i := range p.items {
		it := &p.items[i]
		if it.kind == itText {
			for s := it.seg0; s < it.seg1; s++ {
				buf = append(buf, el{i, s})
			}
			continue
		}
		buf = append(buf, el{i, -1})
	}
	return buf
}

// layoutInline lays out block container b's inline content into line boxes
// appended to fr, from g's position.
func (l *layouter) layoutInline(b *Box, fr *Frag, c cbox, g *flow) {
	p := l.paragraphOf(b)
	ic := &inlineCtx{l: l, b: b, p: p, fr: fr, c: c, atoms: map[int]*atomicLayout{}}
	ic.els = p.elements(nil)
	hasFloats := false
	for i := range p.items {
		if p.items[i].kind == itFloat {
			hasFloats = true
			break
		}
	}
	var placed map[int]bool // float items placed
	var lineH float64       // the strut's height, for the room beside floats
	if hasFloats || g.ex != nil && len(g.ex.floats) > 0 {
		placed = map[int]bool{}
		lineH = lineHeightOf(b.Style, l.fontMetrics(b.Style))
	}
	from := 0
	first := true
	for from < len(ic.els) || first {
		if !l.check() {
			return
		}
		indent := 0.0
		if first {
			indent = length(b.Style.TextIndent, c.w, 0)
		}
		ic.c = c
		beside := g.ex != nil && len(g.ex.floats) > 0
		if beside {
			// The line's room beside the floats at its top.
			top := g.y + g.strut.sum()
			x0, x1 := g.ex.space(c.x, c.w, top, lineH)
			ic.c = cbox{x: x0, w: math.Max(x1-x0, 0), h: c.h}
		}
		to, forced := ic.breakLine(from, ic.c.w-indent)
		if len(g.adjoining) > 0 {
			if m := ic.measureLine(from, to, -1, -1); m.hasContent {
				// The line settles the position: the floats waiting for
				// it go first, and the line is broken beside them.
				g.placeAdjoining()
				continue
			}
		}
		type laidFloat struct {
			k      int
			fr     *Frag
			mw, mh float64
		}
		var deferred []laidFloat
		if hasFloats {
			if k := ic.floatIn(from, to, placed); k >= 0 {
				it := &p.items[ic.els[k].item]
				top := g.y + g.strut.sum()
				ffr, mw, mh, _ := l.layoutAtomic(it.box, c.w, c.h)
				pre := ic.measureLine(from, k, ic.hangElement(from, k), -1)
				placed[ic.els[k].item] = true
				if !pre.hasContent || pre.lineW+mw <= ic.c.w-indent+1.0/128 {
					// It fits beside what precedes it: placed at this
					// line's top, the line is broken again.
					fr.Children = append(fr.Children, l.positionFloat(it.box, ffr, mw, mh, c, g, top))
					continue
				}
				// Placed below this line.
				deferred = append(deferred, laidFloat{k, ffr, mw, mh})
			}
		}
		if beside && ic.c.w < c.w {
			if m := ic.measureLine(from, to, ic.hangElement(from, to), -1); m.hasContent && m.lineW > ic.c.w-indent+1.0/128 {
				// Even the line's first piece does not fit beside the
				// floats: the line moves down past them.
				top := g.y + g.strut.sum()
				if next := g.ex.below(top, lineH); !math.IsInf(next, 1) && next > top {
					g.resolve()
					g.y = next
					for _, d := range deferred {
						delete(placed, ic.els[d.k].item)
					}
					continue
				}
			}
		}
		last := to >= len(ic.els) || forced
		ln := ic.placeLine(from, to, indent, first, last, forced, g)
		if ln != nil {
			fr.Children = append(fr.Children, ln)
		}
		for _, d := range deferred {
			it := &p.items[ic.els[d.k].item]
			fr.Children = append(fr.Children, l.positionFloat(it.box, d.fr, d.mw, d.mh, c, g, g.y+g.strut.sum()))
		}
		first = false
		if to <= from {
			break
		}
		from = to
	}
}

// floatIn is the first element in [from, to) that is a float not yet
// placed, or -1.
func (ic *inlineCtx) floatIn(from, to int, placed map[int]bool) int {
	for i := from; i < to && i < len(ic.els); i++ {
		e := ic.els[i]
		if ic.p.items[e.item].kind == itFloat && !placed[e.item] {
			return i
		}
	}
	return -1
}

// atomic lays out (once) the atomic inline of item i.
func (ic *inlineCtx) atomic(i int) *atomicLayout {
	if a := ic.atoms[i]; a != nil {
		return a
	}
	it := &ic.p.items[i]
	fr, mw, mh, base := ic.l.layoutAtomic(it.box, ic.c.w, ic.c.h)
	a := &atomicLayout{frag: fr, mw: mw, mh: mh, base: base}
	ic.atoms[i] = a
	return a
}

// canWrap reports whether white-space lets lines wrap in style s.
func canWrap(s *style.Computed) bool {
	return s.WhiteSpace != style.WSNowrap && s.WhiteSpace != style.WSPre
}

// breakLine finds the end of the line starting at element from with
// avail pixels, greedily as LayoutNG's line breaker: segments are added
// while they fit (trailing spaces hang), the line ends at the last break
// opportunity before the first segment that does not fit; a word longer
// than the line overflows it unless overflow-wrap lets it break. It
// returns the index after the line's last element and whether the line
// ends with a forced break.
func (ic *inlineCtx) breakLine(from int, avail float64) (int, bool) {
	p := ic.p
	const eps = 1.0 / 128
	w := 0.0
	lastOpp := -1
	hasContent := false
	for i := from; i < len(ic.els); i++ {
		e := ic.els[i]
		it := &p.items[e.item]
		switch it.kind {
		case itOpen, itClose:
			w += it.edge
		case itAbs, itFloat:
		case itBreak:
			return ic.afterCloses(i + 1), true
		case itAtomic:
			a := ic.atomic(e.item)
			if hasContent && w+a.mw > avail+eps && lastOpp >= 0 && ic.oppBefore(i) {
				return ic.afterCloses(lastOpp), false
			}
			if hasContent && w+a.mw > avail+eps && ic.oppBefore(i) {
				return i, false
			}
			w += a.mw
			hasContent = true
			if ic.oppAfterAtomic(i) {
				lastOpp = i + 1
			}
		default:
			sg := &p.segs[e.seg]
			if sg.tab {
				w += ic.tabWidth(it, w)
				hasContent = true
				if sg.brk == brkSoft {
					lastOpp = i + 1
				}
				continue
			}
			end := w + sg.w - sg.trailW
			if sg.shy && sg.brk == brkSoft {
				end += sg.shyW
			}
			if end > avail+eps {
				if lastOpp >= 0 {
					return ic.afterCloses(lastOpp), false
				}
				if ow := it.s.OverflowWrap; (ow == "break-word" || ow == "anywhere" || it.s.WordBreak == "break-word") && canWrap(it.s) {
					if ic.splitSegment(i, avail-w) {
						// The first part now fits: take it and end the line.
						w += p.segs[ic.els[i].seg].w
						return ic.afterCloses(i + 1), false
					}
				}
			}
			w += sg.w
			if sg.end > sg.start && (sg.trailStart > sg.start || !isCollapsible(it.s)) {
				hasContent = true
			}
			if sg.brk == brkSoft && canWrap(it.s) {
				lastOpp = i + 1
			}
		}
	}
	return len(ic.els), false
}

func isCollapsible(s *style.Computed) bool {
	ws := s.WhiteSpace
	return ws == style.WSNormal || ws == style.WSNowrap || ws == style.WSPreLine
}

// afterCloses moves a break position past close tags (and out-of-flow
// placeholders) that belong to the line before it.
func (ic *inlineCtx) afterCloses(i int) int {
	for i < len(ic.els) {
		k := ic.p.items[ic.els[i].item].kind
		if k != itClose {
			break
		}
		i++
	}
	return i
}

// oppBefore reports whether a line may break before atomic element i.
func (ic *inlineCtx) oppBefore(i int) bool {
	it := &ic.p.items[ic.els[i].item]
	if !canWrap(ic.parentStyle(it.box)) {
		return false
	}
	if it.start == 0 {
		return false
	}
	return ic.l.brkBufAt(ic.p, it.start)
}

// oppAfterAtomic reports whether a line may break after atomic element i.
func (ic *inlineCtx) oppAfterAtomic(i int) bool {
	it := &ic.p.items[ic.els[i].item]
	if !canWrap(ic.parentStyle(it.box)) {
		return false
	}
	if it.end >= len(ic.p.text) {
		return true
	}
	return ic.l.brkBufAt(ic.p, it.end)
}

// parentStyle is the style of the box an inline-level box sits in.
func (ic *inlineCtx) parentStyle(b *Box) *style.Computed {
	if b.Parent != nil {
		return b.Parent.Style
	}
	return ic.b.Style
}

// tabWidth is the advance of a preserved tab at line position x: to the
// next tab stop, never less than half a space (Blink's Font::TabWidth).
func (ic *inlineCtx) tabWidth(it *item, x float64) float64 {
	sp := ic.l.spaceWidth(it)
	tw := it.s.TabSize * (sp + it.s.LetterSpacing + it.s.WordSpacing)
	if tw <= 0 {
		return 0
	}
	d := tw - math.Mod(x, tw)
	if d < sp/2 {
		d += tw
	}
	return d
}

// splitSegment cuts element i's segment so that its first part is at most
// room wide (at least one grapheme), for overflow-wrap. It reports whether
// it cut.
func (ic *inlineCtx) splitSegment(i int, room float64) bool {
	p := ic.p
	si := ic.els[i].seg
	sg := p.segs[si]
	it := &p.items[sg.item]
	// Find the longest prefix of whole characters that fits.
	cut := -1
	for j := sg.start; j < sg.trailStart; {
		_, n := utf8.DecodeRune(p.text[j:])
		j += n
		if j >= sg.trailStart {
			break
		}
		w := runsWidth(ic.l.sh.Shape(it.q, it.s.FontSize, string(p.text[sg.start:j]), shapeOpt(it.s, false)))
		w += it.s.LetterSpacing * float64(utf8.RuneCount(p.text[sg.start:j]))
		if w > room && cut >= 0 {
			break
		}
		cut = j
		if w > room {
			break
		}
	}
	if cut < 0 || cut >= sg.end {
		return false
	}
	a, b := sg, sg
	a.end, a.brk, a.corr, a.shy = cut, brkSoft, 0, false
	b.start = cut
	p.segs[si] = a
	ic.l.shapeSeg(p, si)
	p.segs = append(p.segs, b)
	ni := len(p.segs) - 1
	ic.l.shapeSeg(p, ni)
	p.segs[ni].corr = sg.corr
	p.segs[ni].w += sg.corr
	ic.els = append(ic.els, el{})
	copy(ic.els[i+2:], ic.els[i+1:])
	ic.els[i+1] = el{item: sg.item, seg: ni}
	return true
}

// brkBufAt reports a soft break opportunity before byte i of p's text.
func (l *layouter) brkBufAt(p *paragraph, i int) bool {
	if p.brk == nil || i >= len(p.brk) {
		return true
	}
	return p.brk[i] != brkNone
}

// lineBox is one inline box's (or the root's, or an atomic's) vertical
// state on a line, as LayoutNG's NGInlineBoxState.
type lineBox struct {
	parent int // index in the line's boxes; -1 for the root
	s      *style.Computed
	frag   *Frag // FragInline, or the atomic's fragment
	atomic bool
	// fm is the primary font's metrics; textA and textD its ascent and
	// descent (no leading).
	fm           fonts.Metrics
	textA, textD float64
	lineHeight   float64
	// a and d are the box's ascent and descent with leading, united with
	// its children's, relative to its own baseline.
	a, d float64
	// shift is the baseline's offset from the parent's (positive down);
	// edge is top or bottom alignment, resolved against the line.
	shift float64
	edge  style.VAKeyword
	// baseline is the absolute baseline once placed.
	baseline float64
	// texts are the box's text fragments; their metrics are the run's.
	texts []*Frag
	// vpad are the vertical border+padding (top, bottom).
	vpadT, vpadB float64
	// In quirks mode a box's strut (sa, sd) counts only once text (or a
	// <br>, or the box's own borders or padding) is on the line: until
	// then empty is set and a, d hold only what children bring.
	sa, sd float64
	empty  bool
}

// ensureStrut makes the box's strut count (LayoutNG's EnsureTextMetrics).
func (lb *lineBox) ensureStrut() {
	if !lb.empty {
		return
	}
	lb.empty = false
	lb.a = math.Max(lb.a, lb.sa)
	lb.d = math.Max(lb.d, lb.sd)
}

// fontMetrics returns the primary font metrics of style s.
func (l *layouter) fontMetrics(s *style.Computed) fonts.Metrics {
	return l.sh.Metrics(fontQuery(s), s.FontSize)
}

// lineHeightOf is the computed line-height as Blink's
// ComputedLineHeightAsFixed: normal is the font's line spacing, a number
// multiplies the rounded font size, a length is rounded to LayoutUnit.
func lineHeightOf(s *style.Computed, m fonts.Metrics) float64 {
	lh := s.LineHeight
	switch {
	case lh.Unit == style.Normal:
		return lu(m.LineSpacing)
	case s.LineHeightNumber:
		return lu(luRound(s.FontSize) * lh.V)
	case lh.Unit == style.Percent:
		return lu(luRound(s.FontSize) * lh.V / 100)
	case lh.Unit == style.Px:
		return luRound(lh.V)
	}
	return lu(m.LineSpacing)
}

// newLineBox makes the vertical state of a box of style s: the font's
// ascent and descent plus half-leading, the ascent's half floored to
// whole pixels as Blink does (CalculateLeadingSpace).
func (l *layouter) newLineBox(parent int, s *style.Computed) lineBox {
	m := l.fontMetrics(s)
	lb := lineBox{parent: parent, s: s, fm: m}
	lb.textA, lb.textD = luRound(m.Ascent), luRound(m.Descent)
	lb.lineHeight = lineHeightOf(s, m)
	lead := lb.lineHeight - (lb.textA + lb.textD)
	ha := math.Floor(lead / 2)
	lb.a = lb.textA + ha
	lb.d = lb.textD + (lead - ha)
	lb.sa, lb.sd = lb.a, lb.d
	if l.lineQuirk {
		// The line height quirk: no strut until there is text.
		lb.empty = true
		lb.a, lb.d = math.Inf(-1), math.Inf(-1)
	}
	return lb
}

// usedFontMetrics unites a fallback face's ascent and descent into a box
// with line-height: normal (Blink's include_used_fonts).
func (lb *lineBox) unitUsedFont(m fonts.Metrics) {
	a, d := luRound(m.Ascent), luRound(m.Descent)
	lead := lu(m.LineSpacing) - (a + d)
	ha := math.Floor(lead / 2)
	a += ha
	d += lead - ha
	if a > lb.a {
		lb.a = a
	}
	if d > lb.d {
		lb.d = d
	}
}

// lineMeasure is a line's horizontal extent before alignment.
type lineMeasure struct {
	// lineW is the width that alignment sees (hanging spaces excluded).
	lineW float64
	// opps counts justification opportunities (the hanging spaces' not).
	opps       int
	hasContent bool
}

// hangElement is the line's last text segment, whose trailing spaces hang:
// only close tags, out-of-flow placeholders and a forced break may follow
// it.
func (ic *inlineCtx) hangElement(from, to int) int {
	for i := to - 1; i >= from; i-- {
		e := ic.els[i]
		switch ic.p.items[e.item].kind {
		case itClose, itAbs, itFloat, itBreak:
			continue
		case itText:
			if ic.p.segs[e.seg].tab {
				return -1
			}
			return i
		}
		return -1
	}
	return -1
}

// measureLine walks elements [from, to) as placeLine will, without making
// fragments: each inline item's part is snapped to LayoutUnit (its text's
// advance rounded up), as LayoutNG positions item results.
func (ic *inlineCtx) measureLine(from, to, hangEl int, shyAt int) lineMeasure {
	p := ic.p
	var r lineMeasure
	x := 0.0
	textItem := -1
	textX0, textW := 0.0, 0.0
	closeText := func() {
		if textItem >= 0 {
			x = textX0 + luCeil(textW)
			textItem = -1
		}
	}
	hang := 0.0
	for i := from; i < to; i++ {
		e := ic.els[i]
		it := &p.items[e.item]
		switch it.kind {
		case itOpen, itClose:
			closeText()
			x += it.edge
			if it.edge != 0 {
				r.hasContent = true
			}
		case itAbs, itFloat:
		case itBreak:
			closeText()
			r.hasContent = true
		case itAtomic:
			closeText()
			x += ic.atomic(e.item).mw
			r.hasContent = true
		default:
			sg := &p.segs[e.seg]
			if textItem != e.item {
				closeText()
				textItem, textX0, textW = e.item, x, 0
			}
			if sg.tab {
				textW += ic.tabWidth(it, textX0+textW)
				r.hasContent = true
				continue
			}
			textW += sg.w
			if i == shyAt {
				textW += sg.shyW
			}
			if i == hangEl && canHang(it.s) {
				hang = sg.trailW
				r.opps += sg.spaces
			} else {
				r.opps += sg.spaces + countSpaces(p.text[sg.trailStart:sg.end])
			}
			if sg.trailStart > sg.start || !isCollapsible(it.s) {
				r.hasContent = true
			}
		}
	}
	closeText()
	r.lineW = x - hang
	return r
}

// canHang reports whether trailing spaces hang in style s (all but
// break-spaces).
func canHang(s *style.Computed) bool { return s.WhiteSpace != style.WSBreakSpaces }

// placeLine builds the line box of elements [from, to), its top at g's
// position (the pending margins resolve when the line has content), and
// advances g. It returns nil for an empty line, which takes no room.
func (ic *inlineCtx) placeLine(from, to int, indent float64, first, last, forced bool, g *flow) *Frag {
	l, p := ic.l, ic.p
	hangEl := ic.hangElement(from, to)
	shyAt := -1
	if hangEl >= 0 && !last && p.segs[ic.els[hangEl].seg].shy {
		shyAt = hangEl
	}
	m := ic.measureLine(from, to, hangEl, shyAt)
	if !m.hasContent {
		// Out-of-flow boxes still get a static position; open and close
		// tags still move the stack of open boxes.
		for i := from; i < to; i++ {
			e := ic.els[i]
			it := &p.items[e.item]
			switch it.kind {
			case itAbs:
				l.addAbs(it.box, ic.fr, ic.c.x+indent, g.y+g.strut.sum(), ic.c.x+ic.c.w-indent)
			case itOpen:
				ic.open = append(ic.open, e.item)
			case itClose:
				ic.popOpen(it.box)
			}
		}
		return nil
	}
	g.resolve()
	avail := ic.c.w - indent
	st := ic.b.Style
	align := st.TextAlign
	if last {
		// text-align-last: auto is text-align, except that justify aligns
		// to the start. The style package currently computes an unset
		// text-align-last as start rather than auto (its root info lacks
		// auto): a start that is not auto is taken for auto here.
		start := style.AlignLeft
		if st.Direction == "rtl" {
			start = style.AlignRight
		}
		lastAuto := st.TextAlignLastAuto || st.TextAlignLast == start
		if !lastAuto {
			align = st.TextAlignLast
		} else if align == style.AlignJustify {
			align = style.AlignLeft
			if st.Direction == "rtl" {
				align = style.AlignRight
			}
		}
	}
	free := avail - m.lineW
	offset, per := 0.0, 0.0
	switch align {
	case style.AlignRight:
		offset = math.Max(free, 0)
	case style.AlignCenter:
		offset = luHalf(math.Max(free, 0))
	case style.AlignJustify:
		if free > 0 && m.opps > 0 {
			per = free / float64(m.opps)
		}
	}
	if st.Direction == "rtl" && free < 0 {
		offset = free
	}

	// Horizontal placement, building the boxes' vertical states.
	bs := l.lineBoxes[:0]
	bs = append(bs, l.newLineBox(-1, st))
	cur := 0
	openIdx := l.openIdx
	clear(openIdx)
	for _, oi := range ic.open {
		it := &p.items[oi]
		lb := ic.inlineLineBox(cur, it)
		lb.frag.NoStart = true
		bs = append(bs, lb)
		cur = len(bs) - 1
		openIdx[oi] = cur
	}
	var kids []*Frag
	x := 0.0
	textItem := -1
	textX0, textW := 0.0, 0.0
	var lastText *Frag
	closeText := func() {
		if textItem >= 0 {
			x = textX0 + luCeil(textW)
			textItem = -1
		}
	}
	type absAt struct {
		item int
		x    float64
	}
	var abs []absAt
	var vis []visEl
	for i := from; i < to; i++ {
		e := ic.els[i]
		it := &p.items[e.item]
		if p.bidi {
			lastText = nil // one fragment per element, to reorder them
			if it.kind == itAtomic || it.kind == itText {
				lv := ic.levelOf(e)
				if i == hangEl && p.segs[e.seg].trailStart == p.segs[e.seg].start {
					lv = ic.baseLevel() // UAX #9 L1: trailing spaces at the paragraph's level
				}
				vis = append(vis, visEl{el: i, k0: len(kids), box: cur, level: lv})
			}
		}
		switch it.kind {
		case itOpen:
			closeText()
			lb := ic.inlineLineBox(cur, it)
			ml := 0.0
			if !it.box.noStart {
				ml = length(it.s.Margin[style.Left], ic.c.w, 0)
			}
			lb.frag.X = x + ml
			lb.frag.NoStart = it.box.noStart
			if lb.vpadT+lb.vpadB > 0 || it.edge != 0 {
				lb.ensureStrut()
			}
			bs = append(bs, lb)
			cur = len(bs) - 1
			openIdx[e.item] = cur
			ic.open = append(ic.open, e.item)
			x += it.edge
		case itClose:
			closeText()
			x += it.edge
			oi := ic.popOpen(it.box)
			if bi, ok := openIdx[oi]; ok && oi >= 0 {
				lb := &bs[bi]
				mr := 0.0
				if !it.box.noEnd {
					mr = length(it.s.Margin[style.Right], ic.c.w, 0)
				}
				lb.frag.W = x - mr - lb.frag.X
				lb.frag.NoEnd = it.box.noEnd
				delete(openIdx, oi)
				cur = lb.parent
			}
		case itAbs:
			ax := x
			if textItem >= 0 {
				ax = textX0 + luCeil(textW)
			}
			abs = append(abs, absAt{e.item, ax})
		case itFloat:
			// Placed by layoutInline; no room in the line.
		case itBreak:
			closeText()
			if len(kids) == 0 {
				// A <br> alone on its line gives it its box's strut; after
				// text or an image it adds nothing (measured in quirks and
				// limited-quirks modes: "<font>tiny</font><br>" is as tall
				// as the small font).
				bs[cur].ensureStrut()
			}
		case itAtomic:
			closeText()
			a := ic.atomic(e.item)
			lb := lineBox{parent: cur, s: it.s, frag: a.frag, atomic: true, a: a.base, d: a.mh - a.base}
			lb.lineHeight = lineHeightOf(it.s, l.fontMetrics(it.s))
			if p.bidi {
				// Reordering moves its margin box, not its border box.
				vis[len(vis)-1].mx, vis[len(vis)-1].mw = x, a.mw
			}
			a.frag.translate(x, 0)
			bs = append(bs, lb)
			kids = append(kids, a.frag)
			x += a.mw
		default:
			sg := &p.segs[e.seg]
			if textItem != e.item {
				closeText()
				textItem, textX0, textW = e.item, x, 0
				lastText = nil
			}
			if sg.tab {
				textW += ic.tabWidth(it, textX0+textW)
				lastText = nil
				continue
			}
			hang := i == hangEl && canHang(it.s)
			w, fs := ic.emitText(sg, &bs[cur], textX0+textW, i == shyAt, &lastText, per, hang)
			kids = append(kids, fs...)
			textW += w
		}
	}
	closeText()
	// Boxes still open at the line's end are cut here.
	for _, bi := range openIdx {
		lb := &bs[bi]
		lb.frag.W = x - lb.frag.X
		lb.frag.NoEnd = true
	}
	if p.bidi && len(vis) > 0 {
		ic.reorder(vis, kids, bs)
	}

	// Vertical alignment: unite each box into its parent, innermost first.
	ic.align(bs)
	root := &bs[0]
	if math.IsInf(root.a, -1) {
		root.a = 0
	}
	if math.IsInf(root.d, -1) {
		root.d = 0
	}
	lineTop := g.y
	lineH := root.a + root.d
	for i := 1; i < len(bs); i++ {
		b := &bs[i]
		if b.edge == style.VATop || b.edge == style.VABottom {
			if h := b.a + b.d; h > lineH {
				if b.edge == style.VATop {
					root.d += h - lineH
				} else {
					root.a += h - lineH
				}
				lineH = h
			}
		}
	}
	baseline := lineTop + root.a
	root.baseline = baseline
	for i := 1; i < len(bs); i++ {
		b := &bs[i]
		switch b.edge {
		case style.VATop:
			b.baseline = lineTop + b.a
		case style.VABottom:
			b.baseline = lineTop + lineH - b.d
		default:
			b.baseline = bs[b.parent].baseline + b.shift
		}
	}
	// text-indent is at the line's start: on its right right to left,
	// where the alignment offset already leaves it free.
	dx := ic.c.x + offset
	if st.Direction != "rtl" {
		dx += indent
	}
	if p.bidi && hangEl >= 0 && ic.baseLevel()&1 == 1 && (ic.levelOf(ic.els[hangEl]) == ic.baseLevel() || p.segs[ic.els[hangEl].seg].trailStart == p.segs[ic.els[hangEl].seg].start) {
		// A right-to-left line's hanging spaces are its visual left end:
		// they hang left of the line box's start.
		dx -= p.segs[ic.els[hangEl].seg].trailW
	}
	lineFr := l.frags.new(FragLine, nil)
	for i := range bs {
		b := &bs[i]
		// Text is painted in the coordinates of the nearest inline box
		// that makes a box fragment, else of the line box; Blink snaps
		// either to whole pixels.
		snap := lineTop
		for k := i; k > 0; k = bs[k].parent {
			if bk := &bs[k]; !bk.atomic && bk.frag != nil && needsBoxFragment(bk.s) {
				snap = bk.baseline - bk.textA - bk.vpadT
				break
			}
		}
		for _, t := range b.texts {
			t.X += dx
			t.Baseline = b.baseline
			t.lineTop = snap
			ta, td := luRound(t.Text.Metrics.Ascent), luRound(t.Text.Metrics.Descent)
			t.Y, t.H = b.baseline-ta, ta+td
		}
		if i == 0 || b.frag == nil {
			continue
		}
		if b.atomic {
			b.frag.translate(dx, b.baseline-b.a)
			continue
		}
		f := b.frag
		f.X += dx
		f.Y = b.baseline - b.textA - b.vpadT
		f.H = b.textA + b.textD + b.vpadT + b.vpadB
		f.Baseline = b.baseline
		lineFr.Children = append(lineFr.Children, f)
	}
	lineFr.Children = append(lineFr.Children, kids...)
	ic.relativeInlines(bs, lineFr)
	lineFr.X, lineFr.Y, lineFr.W, lineFr.H = ic.c.x, lineTop, ic.c.w, lineH
	lineFr.Baseline, lineFr.HasBaseline = baseline, true
	lineFr.contentRight = dx + m.lineW
	if bst := ic.b.Style; bst.TextEllipsis && bst.Overflow != "visible" && bst.Overflow != "" && bst.Direction != "rtl" &&
		lineFr.contentRight > ic.c.x+ic.c.w+1.0/64 {
		ic.ellipsize(lineFr, lineTop)
	}
	lineFr.lineIndex = ic.line
	ic.line++
	g.y = lineTop + lineH
	for _, a := range abs {
		b := p.items[a.item].box
		if !b.Style.OuterInline {
			// A block-level box: at the start of the next line, as a
			// block would be (measured).
			l.addAbs(b, ic.fr, ic.c.x, lineTop+lineH, ic.c.x+ic.c.w)
			continue
		}
		// Right to left, a logical offset from the line's start is one
		// from its right end (exact where the line is all at one level).
		l.addAbs(b, ic.fr, dx+a.x, lineTop, dx+m.lineW-a.x)
	}
	if n := len(l.markers); n > 0 {
		mk := l.markers[n-1]
		l.markers = l.markers[:n-1]
		ic.placeMarker(mk, lineFr, baseline)
	}
	l.lineBoxes = bs
	return lineFr
}

// relativeInlines moves relatively positioned inline boxes (and what they
// hold on this line) by their offsets; nested offsets add up.
// What a relatively positioned inline box holds on the line becomes its
// fragment's children: it is painted with the positioned boxes (CSS 2.1
// Appendix E), after the line's other content.
func (ic *inlineCtx) relativeInlines(bs []lineBox, line *Frag) {
	any := false
	for i := 1; i < len(bs); i++ {
		if !bs[i].atomic && bs[i].s.Position == style.Relative {
			any = true
			break
		}
	}
	if !any {
		return
	}
	off := make([][2]float64, len(bs))
	for i := 1; i < len(bs); i++ {
		b := &bs[i]
		off[i] = off[b.parent]
		if b.atomic || b.s.Position != style.Relative {
			continue
		}
		s := b.s
		var dx, dy float64
		if !s.Inset[style.Left].IsAuto() {
			dx = length(s.Inset[style.Left], ic.c.w, 0)
		} else if !s.Inset[style.Right].IsAuto() {
			dx = -length(s.Inset[style.Right], ic.c.w, 0)
		}
		if !s.Inset[style.Top].IsAuto() && (s.Inset[style.Top].Unit != style.Percent || ic.c.h >= 0) {
			dy = length(s.Inset[style.Top], ic.c.h, 0)
		} else if !s.Inset[style.Bottom].IsAuto() && (s.Inset[style.Bottom].Unit != style.Percent || ic.c.h >= 0) {
			dy = -length(s.Inset[style.Bottom], ic.c.h, 0)
		}
		off[i][0] += dx
		off[i][1] += dy
	}
	// owner[i] is the outermost relative inline box holding box i.
	owner := make([]int, len(bs))
	for i := 1; i < len(bs); i++ {
		owner[i] = owner[bs[i].parent]
		if owner[i] == 0 && !bs[i].atomic && bs[i].s.Position == style.Relative {
			owner[i] = i
		}
	}
	moved := map[*Frag]bool{}
	for i := 1; i < len(bs); i++ {
		b := &bs[i]
		d := off[i]
		if d != [2]float64{} {
			if b.frag != nil {
				b.frag.translate(d[0], d[1])
			}
			for _, t := range b.texts {
				t.translate(d[0], d[1])
			}
		}
		o := owner[i]
		if o == 0 {
			continue
		}
		of := bs[o].frag
		if o != i && b.frag != nil {
			of.Children = append(of.Children, b.frag)
			moved[b.frag] = true
		}
		for _, t := range b.texts {
			of.Children = append(of.Children, t)
			moved[t] = true
		}
	}
	if len(moved) == 0 {
		return
	}
	kept := line.Children[:0]
	for _, c := range line.Children {
		if !moved[c] {
			kept = append(kept, c)
		}
	}
	line.Children = kept
}

// needsBoxFragment reports whether an inline box makes a box fragment of
// its own in LayoutNG (something of it paints, or it is positioned), which
// is what its text is painted relative to.
func needsBoxFragment(s *style.Computed) bool {
	if s.Position != style.Static {
		return true
	}
	for i := 0; i < 4; i++ {
		if borderWidth(s.Border[i]) > 0 || s.Padding[i].V != 0 {
			return true
		}
	}
	return s.Background.Color.A > 0 || s.Background.Image != "" || (s.Outline.Style != style.BorderNone && s.Outline.Width > 0)
}

// inlineLineBox makes the vertical state and fragment of an inline box.
func (ic *inlineCtx) inlineLineBox(parent int, it *item) lineBox {
	l := ic.l
	lb := l.newLineBox(parent, it.s)
	lb.frag = l.frags.new(FragInline, it.box)
	lb.vpadT = borderWidth(it.s.Border[style.Top]) + length(it.s.Padding[style.Top], ic.c.w, 0)
	lb.vpadB = borderWidth(it.s.Border[style.Bottom]) + length(it.s.Padding[style.Bottom], ic.c.w, 0)
	return lb
}

// popOpen removes box b from the stack of open inline boxes and returns
// its open tag's item index (-1 if it was not open).
func (ic *inlineCtx) popOpen(b *Box) int {
	for k := len(ic.open) - 1; k >= 0; k-- {
		oi := ic.open[k]
		if ic.p.items[oi].box == b {
			ic.open = append(ic.open[:k], ic.open[k+1:]...)
			return oi
		}
	}
	return -1
}

// emitText makes the text fragments of segment sg at pen position pen
// (relative to the line start): one per font run, glyph advances copied
// with letter-spacing, word-spacing and the justification share per (on
// spaces, not on hanging ones) added, and the pair correction on the last
// glyph. Consecutive segments of one item and font extend the previous
// fragment. It returns the advance used and the new fragments.
func (ic *inlineCtx) emitText(sg *seg, lb *lineBox, pen float64, shy bool, last **Frag, per float64, hang bool) (float64, []*Frag) {
	l := ic.l
	it := &ic.p.items[sg.item]
	s := it.s
	var out []*Frag
	x := pen
	lb.ensureStrut()
	if it.box.Node != nil && it.box.Node.DataAtom == atom.Wbr {
		// A <wbr> is only a break opportunity (a zero-width space to the
		// line breaker): Chromium draws no glyph for it, and one in the
		// text layer would split or join the words around it.
		return 0, nil
	}
	nRuns := len(sg.runs)
	for k := range sg.runs {
		// Runs come in logical order: right to left, they are placed
		// from the last.
		ri := k
		if sg.rtl {
			ri = nRuns - 1 - k
		}
		r := sg.runs[ri]
		if len(r.Glyphs) == 0 {
			continue
		}
		if lb.s.LineHeight.Unit == style.Normal && r.Font != nil && !isPrimary(l, lb.s, r) {
			lb.unitUsedFont(r.Metrics)
		}
		var f *Frag
		// A fragment is one direction: Chromium marks a right-to-left glyph
		// run as such in the PDF.
		if lt := *last; lt != nil && lt.Text.Font == r.Font && lt.Text.Size == r.Size && lt.Text.FakeBold == r.FakeBold && lt.Text.FakeItalic == r.FakeItalic && lt.Text.RTL == sg.rtl {
			f = lt
		} else {
			f = l.frags.new(FragText, it.box)
			f.X = x
			f.Text = &TextRun{Font: r.Font, Size: r.Size, FakeBold: r.FakeBold, FakeItalic: r.FakeItalic, RTL: sg.rtl, Metrics: r.Metrics}
			lb.texts = append(lb.texts, f)
			out = append(out, f)
			*last = f
		}
		gs := l.allocGlyphs(len(r.Glyphs))
		copy(gs, r.Glyphs)
		w, trail := 0.0, 0.0
		inTrail := false
		off := r.Start
		if sg.rtl {
			off = r.End
		}
		for gi := range gs {
			g := &gs[gi]
			if g.Text == "" {
				w += g.Advance
				if inTrail {
					trail += g.Advance
				}
				continue
			}
			cstart := sg.start + off
			if sg.rtl {
				off -= len(g.Text)
				cstart = sg.start + off
			} else {
				off += len(g.Text)
			}
			rr, _ := utf8.DecodeRuneInString(g.Text)
			if rr == 0xAD {
				// The soft hyphen itself draws nothing.
				for j := gi; j < len(gs) && (j == gi || gs[j].Text == ""); j++ {
					gs[j].Advance = 0
				}
				continue
			}
			// Spacing goes after the cluster: on its last glyph, which
			// right to left is the one holding its text (the others, a
			// base's marks, come before it).
			lastG := gi
			for !sg.rtl && lastG+1 < len(gs) && gs[lastG+1].Text == "" {
				lastG++
			}
			extra := s.LetterSpacing
			if ic.p.cursive != nil && ic.p.cursive[cstart] && !isSpaceRune(rr) {
				extra = 0
			}
			if isSpaceRune(rr) {
				extra += s.WordSpacing
				if per != 0 && (rr == ' ' || rr == 0xA0) && !(hang && cstart >= sg.trailStart) {
					extra += per
				}
			}
			gs[lastG].Advance += extra
			w += g.Advance
			inTrail = hang && !sg.rtl && cstart >= sg.trailStart
			if inTrail {
				trail += g.Advance
			}
		}
		if k == nRuns-1 && sg.corr != 0 {
			gs[len(gs)-1].Advance += sg.corr
			w += sg.corr
		}
		f.Text.Glyphs = appendGlyphs(l, f.Text.Glyphs, gs)
		f.W += w
		f.hangW = trail
		x += w
	}
	if shy {
		hr := l.sh.Shape(it.q, s.FontSize, hyphenString, shapeOpt(s, false))
		for _, r := range hr {
			gs := l.allocGlyphs(len(r.Glyphs))
			copy(gs, r.Glyphs)
			if len(gs) > 0 {
				gs[len(gs)-1].Advance += s.LetterSpacing
			}
			f := l.frags.new(FragText, it.box)
			f.X = x
			f.Text = &TextRun{Font: r.Font, Size: r.Size, FakeBold: r.FakeBold, FakeItalic: r.FakeItalic, Metrics: r.Metrics, Glyphs: gs}
			f.W = r.Width + s.LetterSpacing
			x += f.W
			lb.texts = append(lb.texts, f)
			out = append(out, f)
			*last = f
		}
	}
	return x - pen, out
}

// appendGlyphs joins glyph slices; when b directly follows a in the chunk
// (the usual case: a text fragment grows segment by segment) it extends a
// in place.
func appendGlyphs(l *layouter, a, b []draw.Glyph) []draw.Glyph {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	if cap(a) >= len(a)+len(b) && &a[:len(a)+1][len(a)] == &b[0] {
		return a[:len(a)+len(b)]
	}
	out := l.allocGlyphs(len(a) + len(b))
	copy(out, a)
	copy(out[len(a):], b)
	return out[:len(a)+len(b)]
}

func isPrimary(l *layouter, s *style.Computed, r fonts.Run) bool {
	m := l.fontMetrics(s)
	return r.Metrics.Ascent == m.Ascent && r.Metrics.Descent == m.Descent && r.Metrics.LineSpacing == m.LineSpacing
}

// align computes every box's baseline shift and unites the boxes into
// their parents (LayoutNG's NGInlineLayoutStateStack::EndBoxState and
// ComputeAlignmentBaselineShift). Children always follow their parent in
// bs, so a reverse walk sees each box complete before its parent.
func (ic *inlineCtx) align(bs []lineBox) {
	for i := len(bs) - 1; i >= 1; i-- {
		b := &bs[i]
		p := &bs[b.parent]
		if math.IsInf(b.a, -1) || math.IsInf(b.d, -1) {
			// An empty box (quirks mode): nothing to unite.
			if va := b.s.VerticalAlign.Keyword; va == style.VATop || va == style.VABottom {
				b.edge = va
				b.a, b.d = 0, 0
			}
			continue
		}
		va := b.s.VerticalAlign
		shift := 0.0
		switch va.Keyword {
		case style.VASub:
			shift = lu(p.s.FontSize/5 + 1)
		case style.VASuper:
			shift = -lu(p.s.FontSize/3 + 1)
		case style.VATextTop:
			shift = b.a - p.textA
		case style.VATextBottom:
			shift = p.textD - b.d
		case style.VAMiddle:
			shift = luHalf(b.a-b.d) - luRound(p.fm.XHeight/2)
		case style.VALength:
			shift = -length(va.Length, b.lineHeight, 0)
			if b.atomic {
				shift = -length(va.Length, lineHeightOf(b.s, ic.l.fontMetrics(b.s)), 0)
			}
		case style.VABaselineMiddle:
			shift = luHalf(b.a - b.d)
		case style.VATop, style.VABottom:
			b.edge = va.Keyword
			continue
		}
		b.shift = shift
		if a := b.a - shift; a > p.a {
			p.a = a
		}
		if d := b.d + shift; d > p.d {
			p.d = d
		}
	}
}

func countSpaces(b []byte) int {
	n := 0
	for _, c := range b {
		if c == ' ' {
			n++
		}
	}
	return n
}

// ellipsize ends a line that overflows its block with an ellipsis
// (text-overflow: ellipsis): the content that would cross the ellipsis is
// cut at a glyph cluster (an atomic inline goes whole), and "…" in the
// block's font follows what is left (CSS Overflow 3 §3.1, as Blink's line
// truncator places it).
func (ic *inlineCtx) ellipsize(lineFr *Frag, lineTop float64) {
	l := ic.l
	s := ic.b.Style
	runs := l.sh.Shape(fontQuery(s), s.FontSize, "\u2026", shapeOpt(s, false))
	ellW := 0.0
	for _, r := range runs {
		ellW += r.Width
	}
	limit := ic.c.x + ic.c.w - ellW
	end := ic.c.x
	var cut func(kids []*Frag) []*Frag
	cut = func(kids []*Frag) []*Frag {
		out := kids[:0]
		for _, f := range kids {
			switch {
			case f.Kind == FragText:
				if f.X >= limit {
					continue
				}
				if f.X+f.W > limit {
					x, keep := f.X, 0
					gs := f.Text.Glyphs
					for keep < len(gs) {
						// A cluster: a glyph with text and the marks after it.
						n := 1
						for keep+n < len(gs) && gs[keep+n].Text == "" {
							n++
						}
						w := 0.0
						for _, g := range gs[keep : keep+n] {
							w += g.Advance
						}
						if x+w > limit+1.0/64 {
							break
						}
						x += w
						keep += n
					}
					if keep == 0 {
						continue
					}
					t := *f.Text
					t.Glyphs = gs[:keep]
					f.Text = &t
					f.W = x - f.X
				}
				end = math.Max(end, f.X+f.W)
			case f.Kind == FragBox:
				if f.X+f.W > limit+1.0/64 {
					continue
				}
				end = math.Max(end, f.X+f.W)
			case f.Kind == FragInline:
				if f.X >= limit {
					continue
				}
				f.Children = cut(f.Children)
				if f.X+f.W > limit {
					f.W = limit - f.X
					f.NoEnd = true
				}
			}
			out = append(out, f)
		}
		return out
	}
	lineFr.Children = cut(lineFr.Children)
	x := end
	for _, r := range runs {
		if len(r.Glyphs) == 0 {
			continue
		}
		gs := l.allocGlyphs(len(r.Glyphs))
		copy(gs, r.Glyphs)
		f := l.frags.new(FragText, ic.b)
		f.Text = &TextRun{Font: r.Font, Size: r.Size, FakeBold: r.FakeBold, FakeItalic: r.FakeItalic, Metrics: r.Metrics, Glyphs: gs}
		ta, td := luRound(r.Metrics.Ascent), luRound(r.Metrics.Descent)
		f.X, f.W = x, r.Width
		f.Baseline, f.lineTop = lineFr.Baseline, lineTop
		f.Y, f.H = f.Baseline-ta, ta+td
		x += r.Width
		lineFr.Children = append(lineFr.Children, f)
	}
	lineFr.contentRight = x
}
