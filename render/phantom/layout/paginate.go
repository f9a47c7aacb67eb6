package layout

// Pagination cuts the single flow that layout produced into pages.
//
// Model: layout places everything in one column as tall as it needs,
// the first page's area wide. Pagination walks the fragment tree in flow
// order and lists break candidates (between block siblings, between lines,
// before a first child when its parent has block-start border or padding)
// and units (line boxes and monolithic boxes, which must not be split).
// Filling pages in turn, the first unit that crosses the page's end makes
// the page break at the last candidate before it (preferring candidates
// that no break-*: avoid, orphans or widows forbid). A break at flow
// position y inserts a gap: everything from y on moves so that y lands at
// the next page's top (unforced breaks drop the margin there; forced ones
// keep the margin-top of the box after them). Boxes spanning a break grow
// by the gap unless their height is fixed; a fixed-height box gives the gaps
// of its content back at its end, so what follows it keeps its place
// (Chromium's consumed block size). Absolutely positioned boxes move with
// their containing block. Pages are then windows onto this stretched flow
// ("stitched" coordinates: page k shows [start_k, start_k + height_k)).
//
// Tables (the hook for the table code): a table wrapper fragment may set
// Frag.repeatHeader and Frag.repeatFooter to its thead and tfoot row group
// fragments. When a page break falls inside the table, pagination keeps
// the footer's height free at the page's end, paints a copy of the footer
// after the last row on the page and a copy of the header at the top of
// the next page, and moves the following rows below that copy. Table rows
// (KindRow fragments) are units: kept whole unless taller than a page, in
// which case they are sliced.

import (
	"math"
	"sort"

	"github.com/platen/platen/render/phantom/style"
)

// page is one page's window onto the stitched flow.
type page struct {
	geom  pageGeom
	start float64 // stitched y at the page area's top
	// blank marks a page left blank by a left or right break.
	blank bool
	// repeats are table header and footer copies painted on this page.
	repeats []*Frag
}

// pgEntry is a break candidate or a unit in flow order.
type pgEntry struct {
	kind        uint8
	top, bottom float64 // unit extent
	y           float64 // candidate position; fixed-box marker position
	margin      float64 // margin kept after a forced break
	forced      bool
	avoid       int
	sliceable   bool
	// prevEnd is a candidate's previous sibling's bottom (-Inf when none).
	prevEnd float64
	// table is the wrapper fragment of a table with repeated parts
	// (entTableStart, entTableEnd).
	table *Frag
	// name is the page name of what follows a forced break.
	name string
	// cellEnd is, for a candidate inside a table cell broken as a block,
	// the bottom of the innermost such cell (0 with inCell false).
	cellEnd float64
	inCell  bool
}

const (
	entUnit uint8 = iota
	entCand
	entFixedStart
	entFixedEnd
	entTableStart
	entTableEnd
)

// gapAt is one break: flow position y and the shift of what is at or after it.
type gapAt struct{ y, d float64 }

type pager struct {
	l *layouter
	// firstName is the named page of the document's start.
	firstName string
	entries   []pgEntry
	gaps      []gapAt
	// cells are the bottoms of the split table cells being walked.
	cells []float64
	cum   []float64 // cumulative shift after each gap
	// colHeight, when set, makes the pages columns (of these heights)
	// from origin on, at most maxCols of them (multicol.go).
	colHeight func(i int) float64
	origin    float64
	maxCols   int
}

// sortGaps orders the gaps by position and sums their shifts, for apply.
func (pg *pager) sortGaps() {
	pg.cum = make([]float64, len(pg.gaps))
	sort.SliceStable(pg.gaps, func(i, j int) bool { return pg.gaps[i].y < pg.gaps[j].y })
	acc := 0.0
	for i, g := range pg.gaps {
		acc += g.d
		pg.cum[i] = acc
	}
}

// paginate breaks the flow into pages and moves the fragments into
// stitched coordinates.
func (l *layouter) paginate(root *Frag) ([]page, error) {
	pg := &pager{l: l}
	l.pager = pg
	for _, m := range l.multicols {
		m.flowY = m.f.Y
	}
	if root != nil {
		pg.firstName = pageName(root)
		pg.walk(root, 0, 0)
	}
	pages, err := pg.fill()
	if err != nil {
		return nil, err
	}
	pg.sortGaps()
	if root != nil {
		// Absolutely positioned boxes below the flow's end get pages of
		// their own, as in Chromium (it prints them; they are not cut).
		if bottom := pg.absBottom(root, 0); bottom > 0 {
			for {
				last := &pages[len(pages)-1]
				end := last.start + last.geom.flowH
				if bottom <= end+0.01 {
					break
				}
				if len(pages) >= l.opt.MaxPages {
					return nil, ErrTooManyPages
				}
				geom := pageGeometry(l.st.PageNamed(len(pages), false, ""))
				geom.flowH = geom.areaH / l.scale
				pages = append(pages, page{geom: geom, start: end})
			}
		}
	}
	if root != nil && len(pg.gaps) > 0 {
		pg.apply(root)
	}
	return pages, nil
}

// absBottom is the lowest stitched bottom of the absolutely positioned
// boxes in f, outside boxes that clip their overflow.
func (pg *pager) absBottom(f *Frag, depth int) float64 {
	bottom := 0.0
	if depth > 512 {
		return bottom
	}
	for _, c := range f.Children {
		if c.Kind != FragBox {
			continue
		}
		if c.Box != nil && c.Box.IsOutOfFlow() && c.Box.Style.Position == style.Absolute {
			bottom = math.Max(bottom, c.Y+c.H+pg.shiftAt(c.Y, false))
		}
		if c.Box != nil && c.Box.Style.Overflow != "visible" && c.Box.Style.Overflow != "" {
			continue // what it holds is clipped to it
		}
		bottom = math.Max(bottom, pg.absBottom(c, depth+1))
	}
	return bottom
}

// shiftAt is the total gap at or before flow position y (strict: before).
func (pg *pager) shiftAt(y float64, strict bool) float64 {
	i := sort.Search(len(pg.gaps), func(i int) bool {
		if strict {
			return pg.gaps[i].y >= y-1e-9
		}
		return pg.gaps[i].y > y+1e-9
	})
	if i == 0 {
		return 0
	}
	return pg.cum[i-1]
}

// apply moves fragments into stitched coordinates.
func (pg *pager) apply(f *Frag) {
	d := pg.shiftAt(f.Y, false)
	if f.Kind != FragBox || f.monolithic || (f.Box != nil && (f.Box.Kind == KindRow && !f.splitRow || f.Box.Inline)) {
		if f.Box != nil && f.Box.Kind == KindRow {
			if before := pg.shiftAt(f.Y, true); before != d {
				// A page breaks right above the row.
				pg.l.tableRowStartsPage(f, d-before)
			}
		}
		if d != 0 {
			f.translate(0, d)
		}
		return
	}
	bot := f.Y + f.H
	newBot := bot + pg.shiftAt(bot, true)
	for _, c := range f.Children {
		if c.Box != nil && c.Box.IsOutOfFlow() && c.Kind == FragBox {
			s := c.Box.Style
			cd := d
			if s.Inset[style.Top].IsAuto() && s.Inset[style.Bottom].IsAuto() {
				cd = pg.shiftAt(c.Y, false)
			}
			if cd != 0 {
				c.translate(0, cd)
			}
			continue
		}
		pg.apply(c)
	}
	f.Y += d
	f.Baseline += d
	if f.fixedH {
		return
	}
	f.H = newBot - f.Y
}

// walk lists f's candidates and units.
func (pg *pager) walk(f *Frag, avoid int, depth int) {
	if depth > 4*pg.l.opt.MaxDepth {
		return
	}
	switch f.Kind {
	case FragLine:
		pg.entries = append(pg.entries, pgEntry{kind: entUnit, top: f.Y, bottom: f.Y + f.H})
		return
	case FragBox:
	default:
		return
	}
	b := f.Box
	if b != nil && b.Kind == KindRow && !f.monolithic && !pg.avoid(b.Style.BreakInside) {
		if cell, others := singleCell(f); cell != nil {
			// A row of one cell (an e-mail's layout table, say) breaks
			// inside its cell as a block does, as Chromium breaks it; the
			// row and the cell grow by the gaps, and so do the empty cells
			// beside it (a coloured rule, a spacer).
			f.splitRow, f.fixedH, cell.fixedH = true, false, false
			for _, o := range others {
				o.fixedH = false
			}
			pg.cells = append(pg.cells, cell.Y+cell.H)
			pg.walk(cell, avoid, depth+1)
			pg.cells = pg.cells[:len(pg.cells)-1]
			return
		}
	}
	if f.monolithic || (b != nil && (b.Kind == KindRow || b.Kind == KindReplaced || b.Inline)) {
		pg.entries = append(pg.entries, pgEntry{kind: entUnit, top: f.Y, bottom: f.Y + f.H})
		return
	}
	inner := avoid
	if b != nil && pg.avoid(b.Style.BreakInside) {
		inner++
	}
	if f.fixedH {
		pg.entries = append(pg.entries, pgEntry{kind: entFixedStart, y: f.Y})
	}
	repeats := f.repeatHeader != nil || f.repeatFooter != nil
	if repeats {
		pg.entries = append(pg.entries, pgEntry{kind: entTableStart, table: f})
	}
	start := len(pg.entries)
	var prev *Frag
	nLines := 0
	for _, c := range f.Children {
		if c.Kind == FragLine {
			nLines++
		}
	}
	li := 0
	any := false
	// lineEnd[i] is where a row flex line of several items that starts
	// at child i ends: such a line is one unit, as a table row is.
	var lineEnd map[int]int
	if f.flex != nil {
		ls := f.flex.lines
		for k, s := range ls {
			e := len(f.Children)
			if k+1 < len(ls) {
				e = ls[k+1]
			}
			for e > s && f.Children[e-1].Box != nil && f.Children[e-1].Box.IsOutOfFlow() {
				e--
			}
			if e-s > 1 {
				if lineEnd == nil {
					lineEnd = map[int]int{}
				}
				lineEnd[s] = e
			}
		}
	}
	skip := 0
	for ci, c := range f.Children {
		if ci < skip {
			continue
		}
		if c.Kind == FragBox && c.Box != nil && c.Box.IsOutOfFlow() {
			continue
		}
		if c.Kind != FragBox && c.Kind != FragLine {
			continue
		}
		any = true
		if c.Kind == FragBox && c.Box != nil && c.Box.isFloat() {
			// A float is kept whole; the flow breaks around it.
			pg.entries = append(pg.entries, pgEntry{kind: entUnit, top: c.Y, bottom: c.Y + c.H})
			continue
		}
		var line []*Frag
		candY := c.Y
		if e, ok := lineEnd[ci]; ok {
			line, skip = f.Children[ci:e], e
			for _, x := range line {
				candY = math.Min(candY, x.Y)
			}
		}
		if prev != nil {
			e := pgEntry{kind: entCand, y: candY, avoid: inner, prevEnd: prev.Y + prev.H}
			if n := len(pg.cells); n > 0 {
				e.cellEnd, e.inCell = pg.cells[n-1], true
			}
			if prev.Kind == FragBox && c.Kind == FragBox {
				ba, bb := breakAfter(prev), breakBefore(c)
				if pg.forced(ba) || pg.forced(bb) || pageName(c) != pageName(prev) && pg.colHeight == nil {
					e.forced = true
					// A left or right break is a page break: Chromium leaves
					// no blank page to reach the side (measured).
					e.name = pageName(c)
					e.margin = leadingMargin(f.Children, ci, f.W)
				}
				if pg.avoid(breakAfter(prev)) || pg.avoid(breakBefore(c)) {
					e.avoid++
				}
				if prev == f.repeatHeader {
					e.avoid++
				}
			}
			if c.Kind == FragLine && b != nil {
				// Orphans first; widows only when both can be met (Blink
				// keeps the orphans and lets the widow stand otherwise).
				orph, wid := b.Style.Orphans, b.Style.Widows
				if li < orph || (nLines-li < wid && nLines-wid >= orph) {
					e.avoid++
				}
			}
			pg.entries = append(pg.entries, e)
		} else if b != nil && !b.isFlexOrGrid() && (b.Parent == nil || !b.Parent.isFlexOrGrid()) && b.Kind != KindCell &&
			b.Kind != KindTable && b.Kind != KindRowGroup && b.Kind != KindTableWrapper {
			// (Chromium does not break between a flex container's, a flex
			// item's or a table cell's padding and its first child, nor
			// between a table's top border and spacing and its first row:
			// measured.)
			bd := boxBorders(b.Style)
			if bd[style.Top] > 0 || length(b.Style.Padding[style.Top], f.W, 0) > 0 {
				pg.entries = append(pg.entries, pgEntry{kind: entCand, y: candY, avoid: inner, prevEnd: math.Inf(-1)})
			}
		}
		if c.Kind == FragLine {
			li++
		}
		if line != nil {
			top, bottom := c.Y, c.Y+c.H
			for _, x := range line {
				if x.Y+x.H > bottom {
					bottom, c = x.Y+x.H, x
				}
				top = math.Min(top, x.Y)
			}
			pg.entries = append(pg.entries, pgEntry{kind: entUnit, top: top, bottom: bottom})
			prev = c
			continue
		}
		pg.walk(c, inner, depth+1)
		prev = c
	}
	if any && b != nil && !f.fixedH {
		// The box's block-end padding and border must fit on the page its
		// content ends on: Chromium breaks before its last piece rather
		// than leave them alone at the next page's top (measured on a
		// table cell's bottom padding).
		if end := boxBorders(b.Style)[style.Bottom] + length(b.Style.Padding[style.Bottom], f.W, 0); end > 0 {
			pg.entries = append(pg.entries, pgEntry{kind: entUnit, top: f.Y + f.H - end, bottom: f.Y + f.H})
		}
	}
	if b != nil && b.Style.Overflow != "visible" && b.Style.Overflow != "" {
		pg.clip(start, f.Y+f.H)
	}
	if !any && f.H > 0 {
		pg.entries = append(pg.entries, pgEntry{kind: entUnit, top: f.Y, bottom: f.Y + f.H, sliceable: true})
	}
	if repeats {
		pg.entries = append(pg.entries, pgEntry{kind: entTableEnd, table: f})
	}
	if f.fixedH {
		// The box keeps its height across the breaks inside it: what
		// follows it moves back up by them. Content that overflows the box
		// (a body of height 100% holding a long page) still moves with
		// its breaks, so the height is given back after the overflow (a
		// box that clips it is cut at its end).
		end := f.Y + f.H
		clips := b != nil && b.Style.Overflow != "visible" && b.Style.Overflow != ""
		for _, c := range f.Children {
			if clips {
				break
			}
			if (c.Kind == FragBox || c.Kind == FragLine) && (c.Box == nil || !c.Box.IsOutOfFlow()) {
				end = math.Max(end, c.Y+c.H)
			}
		}
		pg.entries = append(pg.entries, pgEntry{kind: entFixedEnd, y: end})
	}
}

// singleCell is row fragment f's one cell with content when it has one
// and nothing but decorations (part backgrounds, border segments, cells
// that hold nothing taller than a pixel) beside it, else nil; others are
// the empty cells.
func singleCell(f *Frag) (cell *Frag, others []*Frag) {
	for _, c := range f.Children {
		if c.Kind == FragBox && c.Box != nil && c.Box.Kind == KindCell {
			if !c.monolithic && emptyCell(c) {
				others = append(others, c)
				continue
			}
			if cell != nil || c.monolithic {
				return nil, nil
			}
			cell = c
		}
	}
	return cell, others
}

// emptyCell reports whether a cell holds nothing but lines at most a pixel
// tall (an e-mail's "&nbsp;" at font-size 0): breaking beside it needs no
// place of its own.
func emptyCell(c *Frag) bool {
	for _, k := range c.Children {
		if k.Kind != FragLine || k.H > 1 {
			return false
		}
		for _, t := range k.Children {
			if t.Kind != FragText {
				return false
			}
		}
	}
	return true
}

// clip cuts the entries from start on (a clipping box's content) at the
// box's bottom: content the box clips away breaks no page, as in
// Chromium, which fragments a clipping box like any other block but not
// what overflows it (measured).
func (pg *pager) clip(start int, bottom float64) {
	const eps = 0.01
	kept := pg.entries[:start]
	for _, e := range pg.entries[start:] {
		switch e.kind {
		case entUnit:
			if e.top >= bottom-eps {
				continue
			}
			e.bottom = math.Min(e.bottom, bottom)
		case entCand:
			if e.y > bottom+eps {
				continue
			}
		}
		kept = append(kept, e)
	}
	pg.entries = kept
}

// leadingMargin is the margin kept at a page's top after a forced break
// before kids[i] (Blink keeps the block-start margins after a forced
// break): the positive top margins that collapse together there, through
// first children and through empty boxes.
func leadingMargin(kids []*Frag, i int, cbW float64) float64 {
	m := 0.0
	for ; i < len(kids); i++ {
		c := kids[i]
		if c.Kind != FragBox || c.Box == nil || c.Box.outOfFlow() {
			if c.Kind == FragLine {
				return m
			}
			continue
		}
		for f := c; f != nil && f.Kind == FragBox && f.Box != nil; {
			s := f.Box.Style
			m = math.Max(m, marginOf(s, style.Top, cbW))
			if f.Box.establishesBFC() || boxBorders(s)[style.Top] > 0 || length(s.Padding[style.Top], cbW, 0) > 0 {
				return m
			}
			var next *Frag
			for _, g := range f.Children {
				if g.Kind == FragLine {
					return m
				}
				if g.Kind == FragBox && g.Box != nil && !g.Box.outOfFlow() {
					next = g
					break
				}
			}
			f = next
		}
		if c.H > 0 {
			return m
		}
	}
	return m
}

func isForced(b style.Break) bool {
	return b == style.BreakPage || b == style.BreakLeft || b == style.BreakRight
}

// pageName is the named page (the page property) of a box's content: the
// box's own, else its first in-flow child's.
func pageName(f *Frag) string {
	for f != nil && f.Kind == FragBox && f.Box != nil {
		if n := f.Box.Style.Page; n != "" {
			return n
		}
		f = firstInFlowBox(f)
	}
	return ""
}

// firstInFlowBox is f's first in-flow child box, when no line comes before
// it: the box a property of f's start (a named page, a forced break)
// propagates from; nil when there is none.
func firstInFlowBox(f *Frag) *Frag {
	for _, c := range f.Children {
		if c.Kind == FragBox && c.Box != nil && !c.Box.outOfFlow() {
			return c
		}
		if c.Kind == FragLine {
			return nil
		}
	}
	return nil
}

func isAvoid(b style.Break) bool { return b == style.BreakAvoid || b == style.BreakAvoidPage }

// forced reports whether b forces a break in what this pager cuts: pages,
// or a multi-column container's columns (where column breaks count too).
func (pg *pager) forced(b style.Break) bool {
	return isForced(b) || b == style.BreakColumn && pg.colHeight != nil
}

// avoid reports whether b avoids a break in what this pager cuts.
func (pg *pager) avoid(b style.Break) bool {
	return isAvoid(b) || b == style.BreakAvoidColumn && pg.colHeight != nil
}

// breakBefore is a box's break-before, or its first in-flow child's (a
// forced break propagates to the outer boxes it adjoins). Where several
// meet, a forced break wins over an avoid, and a page break over a
// column break; otherwise the outermost is taken.
func breakBefore(f *Frag) style.Break {
	best := style.BreakAuto
	for f != nil && f.Kind == FragBox && f.Box != nil {
		best = strongerBreak(best, f.Box.Style.BreakBefore)
		f = firstInFlowBox(f)
	}
	return best
}

// breakAfter is a box's break-after, or its last in-flow child's, as
// breakBefore combines them.
func breakAfter(f *Frag) style.Break {
	best := style.BreakAuto
	for f != nil && f.Kind == FragBox && f.Box != nil {
		best = strongerBreak(best, f.Box.Style.BreakAfter)
		var next *Frag
		for i := len(f.Children) - 1; i >= 0; i-- {
			c := f.Children[i]
			if c.Kind == FragBox && c.Box != nil && !c.Box.outOfFlow() {
				next = c
				break
			}
			if c.Kind == FragLine {
				break
			}
		}
		f = next
	}
	return best
}

// strongerBreak combines an outer break value a with an inner one b: a
// page break (left, right) over a column break over an avoid over a
// column's avoid, the outer on a tie.
func strongerBreak(a, b style.Break) style.Break {
	rank := func(v style.Break) int {
		switch v {
		case style.BreakPage, style.BreakLeft, style.BreakRight:
			return 4
		case style.BreakColumn:
			return 3
		case style.BreakAvoid, style.BreakAvoidPage:
			return 2
		case style.BreakAvoidColumn:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// pgState is the filling state saved with each candidate, to restart from
// it.
type pgState struct {
	g        float64
	stack    int
	nGaps    int
	entry    int
	avoid    int
	y        float64
	tables   []*tableRun
	deferred []gapAt
}

// tableRun is a table with repeated parts that the filling is inside.
type tableRun struct {
	f                *Frag
	headerEnd        float64 // flow y below which rows are past the header
	footerTop        float64 // flow y of the footer group (its own units)
	headerH, footerH float64
}

// fill assigns the flow to pages.
func (pg *pager) fill() ([]page, error) {
	l := pg.l
	var pages []page
	name := pg.firstName
	blankNext := false // no blank pages today: Chromium leaves none
	newPage := func(start float64) error {
		if pg.colHeight != nil {
			if len(pages) >= pg.maxCols || !l.check() {
				return errColumnsFull
			}
			pages = append(pages, page{geom: pageGeom{flowH: pg.colHeight(len(pages))}, start: start})
			return nil
		}
		if len(pages) >= l.opt.MaxPages {
			return ErrTooManyPages
		}
		if err := l.ctx.Err(); err != nil {
			return err
		}
		geom := pageGeometry(l.st.PageNamed(len(pages), blankNext, name))
		geom.flowH = geom.areaH / l.scale
		pages = append(pages, page{geom: geom, start: start, blank: blankNext})
		blankNext = false
		return nil
	}
	if err := newPage(pg.origin); err != nil {
		return nil, err
	}
	const eps = 0.01
	g := 0.0
	var fixedStack []float64
	var cands []pgState
	var tables []*tableRun
	// deferred are gaps below the current position, added when the filling
	// reaches them: a table cell broken inside keeps its block size, so a
	// margin the break drops comes back at the cell's bottom (Chromium's
	// rows are as tall as laid out before fragmentation; measured).
	var deferred []gapAt
	content := false
	// breakAt ends the current page at flow position y (with the current
	// gap g), starting the next page there (plus margin kept); the
	// innermost table the break falls in repeats its footer on this page
	// and its header on the next. prevEnd is where the box before y ends.
	var carry *pgEntry // the candidate a break is taken at, if any
	breakAt := func(y, margin, prevEnd float64, tbl *tableRun) error {
		cur := &pages[len(pages)-1]
		next := cur.start + cur.geom.flowH
		var hdr *Frag
		shift := 0.0
		if tbl != nil && y > tbl.headerEnd-eps {
			if f := tbl.f.repeatFooter; f != nil && y < tbl.footerTop-eps {
				cur.repeats = append(cur.repeats, cloneAt(f, y+g))
			}
			if tbl.f.repeatHeader != nil {
				hdr = tbl.f.repeatHeader
				shift = tbl.headerH
			}
		}
		d := next + shift - (y - margin + g)
		if d < 0 && prevEnd+g > next+eps {
			// The box before y runs over the page's end: the page
			// breaks inside it, and what follows stays after its rest
			// on the next page, as Chromium fragments it (an unforced
			// break past the end otherwise only drops a margin).
			d = 0
		}
		pg.gaps = append(pg.gaps, gapAt{y - margin, d})
		g += d
		if e := carry; e != nil && margin == 0 && e.inCell && !math.IsInf(prevEnd, -1) && y-prevEnd > eps && e.cellEnd > y {
			deferred = append(deferred, gapAt{e.cellEnd - 1.0/256, y - prevEnd})
		}
		if err := newPage(next); err != nil {
			return err
		}
		if hdr != nil {
			np := &pages[len(pages)-1]
			np.repeats = append(np.repeats, cloneAt(hdr, next))
			np.repeats = append(np.repeats, tableEdgeAbove(tbl.f, y, g)...)
		}
		cands = cands[:0]
		content = false
		return nil
	}
	innermost := func() *tableRun {
		if n := len(tables); n > 0 {
			return tables[n-1]
		}
		return nil
	}
	for i := 0; i < len(pg.entries); i++ {
		e := &pg.entries[i]
		if len(deferred) > 0 {
			pos := e.y
			if e.kind == entUnit {
				pos = e.top
			}
			kept := deferred[:0]
			for _, dg := range deferred {
				if dg.y <= pos {
					pg.gaps = append(pg.gaps, dg)
					g += dg.d
				} else {
					kept = append(kept, dg)
				}
			}
			deferred = kept
		}
		cur := &pages[len(pages)-1]
		end := cur.start + cur.geom.flowH
		switch e.kind {
		case entFixedStart:
			fixedStack = append(fixedStack, g)
		case entFixedEnd:
			if n := len(fixedStack); n > 0 {
				g0 := fixedStack[n-1]
				fixedStack = fixedStack[:n-1]
				if g0 != g {
					pg.gaps = append(pg.gaps, gapAt{e.y, g0 - g})
					g = g0
				}
			}
		case entTableStart:
			tables = append(tables, newTableRun(e.table))
		case entTableEnd:
			if n := len(tables); n > 0 {
				tables = tables[:n-1]
			}
		case entCand:
			ys := e.y + g
			if e.forced && content && ys > cur.start+eps {
				name = e.name
				if err := breakAt(e.y, e.margin, e.prevEnd, innermost()); err != nil {
					return nil, err
				}
				continue
			}
			if ys > cur.start+eps {
				cands = append(cands, pgState{g: g, stack: len(fixedStack), nGaps: len(pg.gaps), entry: i, avoid: e.avoid, y: e.y,
					tables: append([]*tableRun(nil), tables...), deferred: append([]gapAt(nil), deferred...)})
			}
		case entUnit:
			top, bot := e.top+g, e.bottom+g
			limit := end
			if t := innermost(); t != nil && t.f.repeatFooter != nil && e.top < t.footerTop-eps && e.top > t.headerEnd-eps {
				limit -= t.footerH
			}
			if bot <= limit+eps || e.bottom-e.top <= 0 {
				if bot > cur.start {
					content = true
				}
				continue
			}
			// The unit does not fit: break at the best candidate before it.
			best := -1
			for k := len(cands) - 1; k >= 0; k-- {
				c := &cands[k]
				if c.y+c.g > top+eps {
					continue
				}
				if best < 0 || c.avoid < cands[best].avoid {
					best = k
				}
				if c.avoid == 0 {
					break
				}
			}
			switch {
			case best >= 0 && !e.sliceable:
				c := cands[best]
				g = c.g
				fixedStack = fixedStack[:min(c.stack, len(fixedStack))]
				pg.gaps = pg.gaps[:c.nGaps]
				tables = c.tables
				deferred = c.deferred
				var tbl *tableRun
				if n := len(c.tables); n > 0 {
					tbl = c.tables[n-1]
				}
				carry = &pg.entries[c.entry]
				err := breakAt(c.y, 0, pg.entries[c.entry].prevEnd, tbl)
				carry = nil
				if err != nil {
					return nil, err
				}
				i = c.entry
			case top > cur.start+eps && !e.sliceable:
				// No candidate: the unit goes to the next page anyway.
				if err := breakAt(e.top, 0, math.Inf(-1), innermost()); err != nil {
					return nil, err
				}
				i--
			default:
				// Taller than a page from the page's top, or an empty
				// box (Chromium breaks one anywhere): sliced where the
				// pages end.
				content = true
				for {
					cur := &pages[len(pages)-1]
					if bot <= cur.start+cur.geom.flowH+eps {
						break
					}
					if err := newPage(cur.start + cur.geom.flowH); err != nil {
						return nil, err
					}
				}
				cands = cands[:0]
			}
		}
	}
	pg.gaps = append(pg.gaps, deferred...)
	return pages, nil
}

// newTableRun measures a table's repeated parts.
func newTableRun(t *Frag) *tableRun {
	r := &tableRun{f: t, headerEnd: t.Y, footerTop: t.Y + t.H}
	spacing := 0.0
	for _, c := range t.Children {
		if c.Box != nil && c.Box.Kind == KindTable && !c.Box.Style.BorderCollapse {
			spacing = c.Box.Style.BorderSpacing[1]
		}
	}
	if h := t.repeatHeader; h != nil {
		r.headerEnd = h.Y + h.H
		r.headerH = h.H + spacing
	}
	if f := t.repeatFooter; f != nil {
		r.footerTop = f.Y
		r.footerH = f.H + spacing
	}
	return r
}

// cloneAt copies a fragment subtree moved so that its top is at y.
func cloneAt(f *Frag, y float64) *Frag {
	c := cloneFrag(f, 0)
	c.translate(0, y-f.Y)
	return c
}

func cloneFrag(f *Frag, depth int) *Frag {
	c := new(Frag)
	*c = *f
	if depth > 512 {
		c.Children = nil
		return c
	}
	c.Children = make([]*Frag, len(f.Children))
	for i, ch := range f.Children {
		c.Children[i] = cloneFrag(ch, depth+1)
	}
	return c
}
