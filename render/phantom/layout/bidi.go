package layout

import (
	"reflect"
	"sort"
	"unicode/utf8"

	"github.com/go-text/typesetting/bidi"

	"github.com/platen/platen/render/phantom/style"
)

// hasRTL reports whether text holds a right-to-left character or a bidi
// control (the cheap test before running the bidi algorithm).
func hasRTL(text []byte) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c < 0x80 {
			i++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		i += n
		switch {
		case r >= 0x0590 && r <= 0x08FF, r >= 0xFB1D && r <= 0xFDFF, r >= 0xFE70 && r <= 0xFEFF,
			r >= 0x10800 && r <= 0x10FFF, r >= 0x1E800 && r <= 0x1EFFF,
			r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200F:
			return true
		}
	}
	return false
}

// resolveBidi runs the Unicode bidi algorithm (UAX #9) over the
// paragraph's text with its base direction, and records each byte's
// embedding level.
func (l *layouter) resolveBidi(p *paragraph, rtl bool) {
	dir := bidi.LeftToRight
	base := uint8(0)
	if rtl {
		dir, base = bidi.RightToLeft, 1
	}
	p.levels = make([]uint8, len(p.text)+1)
	for i := range p.levels {
		p.levels[i] = base
	}
	// A forced break (a <br>'s newline) separates bidi paragraphs (UAX #9
	// P1), each resolved on its own at the block's direction, as Blink
	// resolves them; go-text stops at the first separator, which left the
	// text after it at the base level (its numbers reversed right to left).
	for from := 0; from < len(p.text); {
		to := from
		for to < len(p.text) && !isParagraphSeparator(p.text, to) {
			to++
		}
		l.resolveBidiRange(p, from, to, dir)
		from = to + 1
	}
}

// resolveBidiRange resolves p.text[from:to], a text without paragraph
// separators, into p.levels.
func (l *layouter) resolveBidiRange(p *paragraph, from, to int, dir bidi.Direction) {
	if to <= from {
		return
	}
	text := p.text[from:to]
	runs := l.bidi.SegmentBytes(text, dir)
	exact := runeLevels(&runs)
	// Runs index runes; walk the text alongside.
	bi, ri := 0, 0
	for k := 0; k < runs.NumRuns(); k++ {
		run := runs.Run(k)
		if exact.IsValid() && exact.Len() < run.End {
			exact = reflect.Value{}
		}
		for ; ri < run.End && bi < len(text); ri++ {
			lv := uint8(run.Level)
			if exact.IsValid() {
				lv = uint8(exact.Index(ri).Int())
			}
			_, n := utf8.DecodeRune(text[bi:])
			for j := 0; j < n; j++ {
				p.levels[from+bi+j] = lv
			}
			bi += n
		}
	}
}

// isParagraphSeparator reports whether the byte at i is a newline or a
// carriage return, the paragraph separators (bidi class B) that reach a
// paragraph's text.
func isParagraphSeparator(text []byte, i int) bool {
	return text[i] == '\n' || text[i] == '\r'
}

// runeLevels returns the embedding level of each rune, as the bidi
// algorithm resolved them for runs. go-text's Runs join neighbouring
// characters of one direction into a run that carries its first
// character's level, so a number after right-to-left text (level 2) and
// the left-to-right words after it (level 0) were one run at level 2, and
// reordering put those words before the right-to-left text ("plain שלום
// 123 text" printed as "plain 123 text םולש"; Chromium prints "plain 123
// םולש text"). Runs holds the levels but does not export them, so they are
// read by reflection; the zero Value when the field is not there (another
// go-text), and the runs' levels serve.
func runeLevels(runs *bidi.Runs) reflect.Value {
	v := reflect.ValueOf(runs).Elem().FieldByName("levels")
	if !v.IsValid() || v.Kind() != reflect.Slice {
		return reflect.Value{}
	}
	switch v.Type().Elem().Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64:
		return v
	}
	return reflect.Value{}
}

// baseLevel is the paragraph's embedding level.
func (ic *inlineCtx) baseLevel() uint8 {
	if n := len(ic.p.levels); n > 0 {
		return ic.p.levels[n-1]
	}
	return 0
}

// visEl is a content element of a bidi line: the line's element index,
// its first fragment in the line's kids, the box it sits in and its level;
// for an atomic inline, its margin box's logical place and width.
type visEl struct {
	el, k0 int
	box    int
	level  uint8
	mx, mw float64
}

// levelOf is the embedding level of an element.
func (ic *inlineCtx) levelOf(e el) uint8 {
	p := ic.p
	it := &p.items[e.item]
	pos := it.start
	if e.seg >= 0 {
		pos = p.segs[e.seg].start
	}
	if pos < len(p.levels) {
		return p.levels[pos]
	}
	return 0
}

// reorder places a bidi line's content in visual order (UAX #9 L2: from
// the highest level down to the lowest odd one, reverse each run at that
// level or higher). The logical pass placed the fragments; each element
// moves from its logical position to its visual one, and inline boxes
// span their content with their edges around it.
func (ic *inlineCtx) reorder(vis []visEl, kids []*Frag, bs []lineBox) {
	// Each element's fragments and logical extent.
	type span struct {
		k0, k1 int
		x, w   float64
	}
	spans := make([]span, len(vis))
	for i := range vis {
		k1 := len(kids)
		if i+1 < len(vis) {
			k1 = vis[i+1].k0
		}
		sp := span{k0: vis[i].k0, k1: k1}
		if vis[i].mw > 0 {
			sp.x, sp.w = vis[i].mx, vis[i].mw
		} else if k1 > sp.k0 {
			f := kids[sp.k0]
			sp.x = f.X
			end := f.X + f.W
			for _, g := range kids[sp.k0:k1] {
				sp.x = min(sp.x, g.X)
				end = max(end, g.X+g.W)
			}
			sp.w = end - sp.x
		}
		spans[i] = sp
	}
	order := make([]int, len(vis))
	hi, lo := uint8(0), uint8(255)
	for i := range order {
		order[i] = i
		hi = max(hi, vis[i].level)
		if vis[i].level&1 == 1 {
			lo = min(lo, vis[i].level)
		}
	}
	for lv := hi; lv >= lo && lv > 0; lv-- {
		for i := 0; i < len(order); {
			if vis[order[i]].level < lv {
				i++
				continue
			}
			j := i
			for j < len(order) && vis[order[j]].level >= lv {
				j++
			}
			for a, b := i, j-1; a < b; a, b = a+1, b-1 {
				order[a], order[b] = order[b], order[a]
			}
			i = j
		}
	}
	// The line starts at 0, as in the logical pass.
	x := 0.0
	// An inline box's margin, border and padding go where its content
	// begins and ends in visual order, as Blink places them after
	// reordering: its line-left edge before its first element there, its
	// line-right edge after its last. Its first and last elements in
	// visual order, by box:
	first, last := make([]int, len(bs)), make([]int, len(bs))
	for i := range first {
		first[i] = -1
	}
	for pos, vi := range order {
		for c := vis[vi].box; c > 0; c = bs[c].parent {
			if first[c] < 0 {
				first[c] = pos
			}
			last[c] = pos
		}
	}
	left, right := make([]float64, len(bs)), make([]float64, len(bs))
	var chain []int
	for pos, vi := range order {
		chain = chain[:0]
		for c := vis[vi].box; c > 0; c = bs[c].parent {
			if !bs[c].atomic && bs[c].frag != nil {
				chain = append(chain, c)
			}
		}
		for k := len(chain) - 1; k >= 0; k-- { // outermost first
			if c := chain[k]; first[c] == pos {
				m, e := ic.lineEdge(&bs[c], style.Left)
				left[c] = x + m
				x += e
			}
		}
		sp := spans[vi]
		d := x - sp.x
		for _, f := range kids[sp.k0:sp.k1] {
			if f.Kind == FragText {
				f.X += d
			} else {
				f.translate(d, 0)
			}
		}
		x += sp.w
		for _, c := range chain { // innermost first
			if last[c] == pos {
				m, e := ic.lineEdge(&bs[c], style.Right)
				x += e
				right[c] = x - m
			}
		}
	}
	// Inline boxes span what they hold, edges included.
	for bi := 1; bi < len(bs); bi++ {
		if b := &bs[bi]; !b.atomic && b.frag != nil && first[bi] >= 0 {
			b.frag.X, b.frag.W = left[bi], right[bi]-left[bi]
		}
	}
	// Fragments in visual order, as Blink paints a line's text.
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].X < kids[j].X })
}

// lineEdge is the margin and the whole edge (margin, border and padding)
// of inline box b on its physical side (style.Left or style.Right) on this
// line: nothing where the box goes on from another line or onto the next
// (or past a block inside it). The start edge is the left one left to
// right, the right one right to left.
func (ic *inlineCtx) lineEdge(b *lineBox, side int) (margin, edge float64) {
	s := b.s
	open := b.frag.NoStart
	if (side == style.Left) == (s.Direction == "rtl") {
		open = b.frag.NoEnd
	}
	if open {
		return 0, 0
	}
	return length(s.Margin[side], ic.c.w, 0), inlineEdge(s, side)
}
