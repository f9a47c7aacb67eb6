package layout

// Tables on the box tree: the entry points block and inline layout call
// (layoutTable, tableIntrinsicWidths), built on the algorithms of
// table_algo.go (Chromium's LayoutNG table layout) and table_borders.go
// (collapsed borders as Chromium paints them).
//
// What this builds on (the layout engineer's files): box.go's box tree (a
// KindTableWrapper holding KindCaption boxes and one KindTable, whose
// children are KindColumnGroup and KindRowGroup boxes, rows and cells
// below); block.go's layoutBlockBox for cells and captions; intrinsic.go's
// intrinsicWidths and outerIntrinsic; frag.go's Frag; paginate.go, which
// treats KindRow fragments as units and repeats the fragments named by
// Frag.repeatHeader and Frag.repeatFooter; paint.go, which paints the
// backgrounds and borders of block-level fragments in tree order before
// any text (CSS 2.1 Appendix E).
//
// The fragment tree a table makes: the wrapper's fragment holds the top
// captions, the table box's fragment (the grid: the table's background and,
// with separated borders, its border) and the bottom captions. The table
// box's fragment holds one fragment per row group (thead first, tfoot
// last), each holding its rows; a row holds, in painting order, the
// backgrounds of the columns, column groups, row group and row as pieces
// clipped to each of its cells (Chromium paints table parts' backgrounds
// into their cells, never over border-spacing), then its cells, then the
// collapsed border segments that lie over it. Table parts whose own
// background or borders must not paint get a painting copy of their box
// (same style but for those), so that paint.go's generic box painting
// paints what Chromium paints.
//
// Invariants: a table's grid is built and its cells measured once per
// layout (tableState), however often the table is laid out; every loop
// whose cost grows faster than the cells is bounded (table_algo.go's
// tableMaxWork, tableMaxEdges, tableMaxColumns).

import (
	"math"

	"github.com/platen/platen/render/phantom/style"
)

// tableState is the table code's state for one layout (layouter.tables):
// each table's grid, built and measured once, and the painting copies of
// boxes.
type tableState struct {
	built map[*Box]*tableBuilt
	// paint caches painting copies of boxes by what they leave out; shared
	// the ones that plain boxes share (most cells and rows of a table).
	paint  map[tablePaintKey]*Box
	shared map[tableShareKey]*Box
	// segs caches the boxes that paint collapsed border segments.
	segs map[tableSegKey]*Box
	// styles caches the painting copies' styles: boxes of one style share
	// one copy (a style is 2 KB; a long table has many cells).
	styles map[tableStyleKey]*style.Computed
	// buf is scratch for collapsed border segments.
	buf []tableBorderSeg
}

type tableStyleKey struct {
	s              *style.Computed
	noBg, noBorder bool
	before         style.Break
}

type tablePaintKey struct {
	b                *Box
	noBg, noBorder   bool
	avoidBreakBefore bool
}

// tableShareKey is what a painting copy of a plain box (no id, link,
// positioning, opacity, clipping or outline) paints and what pagination
// reads from it.
type tableShareKey struct {
	kind                  Kind
	bg                    style.Background
	visibility            string
	before, after, inside style.Break
	parent                *Box
}

type tableSegKey struct {
	b          style.Border
	horizontal bool
	fill       bool
	w          float64
}

// tableBuilt is one table's grid and the boxes behind it.
type tableBuilt struct {
	g        tableGrid
	wrapper  *Box
	table    *Box
	captions []*Box
	cells    []*Box // the box of g.cells[i]
	rows     []*Box
	secs     []*Box
	cols     []*Box // by tableCol.ref
	// layoutBoxes are the cells as layoutBlockBox lays them out: no
	// borders or margins, used padding, auto heights (the table sizes them).
	layoutBoxes []*Box
	measured    bool
	inCell      bool
}

func (l *layouter) tableState() *tableState {
	if st, ok := l.tables.(*tableState); ok {
		return st
	}
	st := &tableState{built: map[*Box]*tableBuilt{}, paint: map[tablePaintKey]*Box{}, shared: map[tableShareKey]*Box{}, segs: map[tableSegKey]*Box{}, styles: map[tableStyleKey]*style.Computed{}}
	l.tables = st
	return st
}

// tableBorderIn is a border as the table algorithms take it: its used width
// (snapped as Blink snaps border widths).
func tableBorderIn(b style.Border) style.Border {
	b.Width = borderWidth(b)
	return b
}

func tableBordersIn(s *style.Computed) [4]style.Border {
	return [4]style.Border{tableBorderIn(s.Border[0]), tableBorderIn(s.Border[1]), tableBorderIn(s.Border[2]), tableBorderIn(s.Border[3])}
}

// tableBuild builds (once per layout) the grid of table wrapper w.
func (l *layouter) tableBuild(w *Box) *tableBuilt {
	st := l.tableState()
	if tb := st.built[w]; tb != nil {
		return tb
	}
	tb := &tableBuilt{wrapper: w}
	st.built[w] = tb
	for _, c := range w.Children {
		switch c.Kind {
		case KindTable:
			if tb.table == nil {
				tb.table = c
			}
		case KindCaption:
			tb.captions = append(tb.captions, c)
		}
	}
	if tb.table == nil {
		return tb
	}
	ts := tb.table.Style
	g := &tb.g
	g.collapse = ts.BorderCollapse
	g.rtl = ts.Direction == "rtl"
	g.fixed = ts.TableLayout == "fixed" && (ts.Width.Unit == style.Px || ts.Width.Unit == style.Percent)
	g.spacing = ts.BorderSpacing
	g.width, g.minWidth, g.maxWidth = ts.Width, ts.MinWidth, ts.MaxWidth
	g.height, g.minHeight, g.maxHeight = ts.Height, ts.MinHeight, ts.MaxHeight
	g.borderBox = ts.BorderBox
	g.border = tableBordersIn(ts)
	g.padding = ts.Padding

	var groups []*Box
	var kinds []tableSectionKind
	for _, c := range tb.table.Children {
		switch c.Kind {
		case KindColumnGroup:
			if c.Anonymous {
				// Chromium has no anonymous column groups: lone <col>s are
				// columns of the table.
				for _, col := range c.Children {
					g.cols = append(g.cols, tb.col(col, false))
				}
				continue
			}
			tc := tb.col(c, true)
			for _, col := range c.Children {
				if col.Kind == KindColumn {
					tc.children = append(tc.children, tb.col(col, false))
				}
			}
			g.cols = append(g.cols, tc)
		case KindColumn:
			g.cols = append(g.cols, tb.col(c, false))
		case KindRowGroup:
			groups = append(groups, c)
			switch c.Style.Display {
			case style.DisplayTableHeaderGroup:
				kinds = append(kinds, tableHead)
			case style.DisplayTableFooterGroup:
				kinds = append(kinds, tableFoot)
			default:
				kinds = append(kinds, tableBody)
			}
		}
	}
	// Sized once: a long table's cells are too many to grow by appending.
	nRows, nCells := 0, 0
	for _, gb := range groups {
		for _, rb := range gb.Children {
			if rb.Kind == KindRow {
				nRows++
				nCells += len(rb.Children)
			}
		}
	}
	g.rows, tb.rows = make([]tableRow, 0, nRows), make([]*Box, 0, nRows)
	g.cells, tb.cells = make([]tableCell, 0, nCells), make([]*Box, 0, nCells)
	for _, gi := range tableSectionOrder(kinds) {
		gb := groups[gi]
		sec := tableSection{kind: kinds[gi], rowStart: len(g.rows), height: gb.Style.Height, border: tableBordersIn(gb.Style), collapsed: gb.Style.Visibility == "collapse"}
		for _, rb := range gb.Children {
			if rb.Kind != KindRow {
				continue
			}
			row := tableRow{cellStart: len(g.cells), height: rb.Style.Height, border: tableBordersIn(rb.Style), collapsed: rb.Style.Visibility == "collapse"}
			for _, cb := range rb.Children {
				if cb.Kind != KindCell {
					continue
				}
				cs := cb.Style
				g.cells = append(g.cells, tableCell{
					colspan: cb.ColSpan, rowspan: cb.RowSpan,
					width: cs.Width, minWidth: cs.MinWidth, maxWidth: cs.MaxWidth, height: cs.Height,
					// Quirks mode measures a cell's height (not its width)
					// as its border box's (Chromium; measured).
					borderBox: cs.BorderBox, heightBorderBox: cs.BorderBox || l.quirks, padding: cs.Padding, border: tableBordersIn(cs),
					valign: tableVAlignOf(cs.VerticalAlign),
				})
				tb.cells = append(tb.cells, cb)
			}
			row.cellEnd = len(g.cells)
			g.rows = append(g.rows, row)
			tb.rows = append(tb.rows, rb)
		}
		sec.rowEnd = len(g.rows)
		g.sections = append(g.sections, sec)
		tb.secs = append(tb.secs, gb)
	}
	g.place()
	g.borders()
	tb.layoutBoxes = make([]*Box, len(g.cells))
	for p := w.Parent; p != nil; p = p.Parent {
		if p.Kind == KindCell {
			tb.inCell = true
			break
		}
	}
	return tb
}

func (tb *tableBuilt) col(b *Box, group bool) tableCol {
	s := b.Style
	tb.cols = append(tb.cols, b)
	return tableCol{group: group, span: b.Span, width: s.Width, minWidth: s.MinWidth, maxWidth: s.MaxWidth,
		collapsed: s.Visibility == "collapse", border: tableBordersIn(s), ref: len(tb.cols) - 1}
}

// tableMeasure gives the cells their intrinsic widths and computes the
// column constraints, once.
func (l *layouter) tableMeasure(tb *tableBuilt) {
	if tb.measured {
		return
	}
	tb.measured = true
	g := &tb.g
	for _, c := range tb.captions {
		mn, _ := l.outerIntrinsic(c, false)
		g.captionMin = max(g.captionMin, mn)
	}
	for i := range g.cells {
		c := &g.cells[i]
		if !c.placed || !g.needsMeasure(i) {
			continue
		}
		c.minContent, c.maxContent = l.intrinsicWidths(tb.cells[i])
	}
	g.columnsFromCells()
}

// tableIntrinsicWidths returns the min-content and max-content widths of
// table wrapper w, for shrink-to-fit contexts (inline-blocks, abspos,
// cells of an enclosing table): the grid's (percentages count only outside
// table cells), at least the captions', or a fixed width.
func (l *layouter) tableIntrinsicWidths(w *Box) (minW, maxW float64) {
	tb := l.tableBuild(w)
	if tb.table == nil {
		return 0, 0
	}
	l.tableMeasure(tb)
	g := &tb.g
	mn, mx := g.intrinsic(tb.inCell)
	if g.width.Unit == style.Px {
		v, _ := g.resolveWidth(g.width, -1)
		v = maxUnit(v, mn)
		return v.px(), v.px()
	}
	return mn.px(), mx.px()
}

// tableFragmented reports whether w is laid out in a fragmentation context:
// printed pages, unless an ancestor is monolithic (an inline-block or an
// inline-table, a fixed box). Chromium then aligns no cell on its row's
// baseline (TableRowLayoutAlgorithm: "the alignment baseline may end up in
// another fragmentainer"). Boxes that clip, a .sheet among them, still
// fragment their in-flow content (measured).
//
// An absolutely positioned box is laid out by its containing block, so the
// boxes between it and that block do not count. It is laid out outside
// fragmentation when its containing block, or an ancestor of it, clips
// overflow and is not broken across pages: measured against Chromium, a
// table in a footer placed absolutely in a .sheet aligns its cells on
// their baseline, one placed absolutely in the page's flow, in a
// positioned box that does not clip, or between a clipping box and its
// positioned ancestor, does not. Chromium also leaves such a box out of
// fragmentation when the clipping box does break but the positioned box
// comes after the last break in the clipping box's flow; layout cannot
// know where pages break, so it takes a clipping box of a fixed height
// that fits a page for one that does not break (clipsWhole): a .sheet,
// which starts its page, never does.
func (l *layouter) tableFragmented(w *Box) bool {
	for b := w; b != nil; {
		if b.Inline && (b.Kind == KindBlock || b.Kind == KindTableWrapper) {
			return false
		}
		switch b.Style.Position {
		case style.Fixed:
			return false
		case style.Absolute:
			cb := b.Parent
			for cb != nil && !cb.isPositioned() {
				cb = cb.Parent
			}
			for c := cb; c != nil; c = c.Parent {
				if l.clipsWhole(c) {
					return false
				}
			}
			b = cb
			continue
		}
		b = b.Parent
	}
	return true
}

// clipsWhole reports whether b clips its overflow and is, by its height,
// on one page: a fixed length no taller than the page area (it still
// breaks when it starts low on a page, as Chromium breaks it). A height in
// percent or from the content is not known here, so such a box counts as
// broken.
func (l *layouter) clipsWhole(b *Box) bool {
	s := b.Style
	if s.Overflow == "visible" || s.Overflow == "" || s.Height.Unit != style.Px || b.Inline {
		return false
	}
	h := lu(s.Height.V)
	if !s.BorderBox {
		h += boxBorders(s).v() + boxPadding(s, l.icbW).v()
	}
	return h <= l.icbH
}

// layoutTable lays out the table wrapper w (its captions and its table box)
// for a containing block cbW wide (cbH its definite height, or -1). The
// returned fragment is w's, its border box with the top-left at (0, 0):
// the caller adds the wrapper's margins and moves it into place with
// Frag.translate. HasBaseline and Baseline give the table's first row's
// baseline, for inline-tables.
func (l *layouter) layoutTable(w *Box, cbW, cbH float64) *Frag {
	wf := l.frags.new(FragBox, w)
	tb := l.tableBuild(w)
	if tb.table == nil || !l.check() {
		return wf
	}
	l.tableMeasure(tb)
	g := &tb.g
	g.fragmented = l.tableFragmented(w)
	avail := cbW - marginOf(w.Style, style.Left, cbW) - marginOf(w.Style, style.Right, cbW)
	g.widthAndColumns(avail, cbW)
	width := g.inlineSize.px()

	// Captions, laid out at the table's width; top ones first.
	var top, bottom []*Frag
	y := 0.0
	for _, c := range tb.captions {
		if c.Style.CaptionSide == "bottom" {
			continue
		}
		f := &flow{y: y}
		cf := l.layoutBlockBox(c, cbox{x: 0, w: width, h: -1}, f, -1, -1)
		top = append(top, cf)
		y = f.y + f.strut.sum()
	}
	tableY := y

	// Cells: laid out at their widths (at y 0 for now) to size the rows.
	contents := make([]*Frag, len(g.cells))
	for i := range g.cells {
		c := &g.cells[i]
		if !c.placed {
			continue
		}
		if !l.check() {
			return wf
		}
		contents[i] = l.tableCellContent(tb, i, -1)
	}
	g.rowsAndHeight(cbH)

	tf := l.frags.new(FragBox, l.tablePaintBox(tb.table, tablePaintKey{noBorder: g.collapse}))
	tf.X, tf.Y, tf.W, tf.H = 0, tableY, width, g.gridHeight.px()
	rowFrags := make([]*Frag, len(g.rows))
	secX := (g.bp[style.Left] + g.spaceH).px()
	secW := (g.inlineSize - g.bp[style.Left] - g.bp[style.Right] - 2*g.spaceH).clampNeg().px()
	for si := range g.sections {
		s := &g.sections[si]
		gf := l.frags.new(FragBox, l.tablePaintBox(tb.secs[si], tablePaintKey{noBg: true, noBorder: true}))
		gf.X, gf.Y, gf.W, gf.H = secX, tableY+s.y.px(), secW, s.h.px()
		spannedUntil := -1
		for ri := s.rowStart; ri < s.rowEnd; ri++ {
			r := &g.rows[ri]
			// Rows under a cell spanning from above stay with it: pagination
			// keeps rows whole and must not break between them.
			key := tablePaintKey{noBg: true, noBorder: true, avoidBreakBefore: ri <= spannedUntil}
			rf := l.frags.new(FragBox, l.tablePaintBox(tb.rows[ri], key))
			rf.X, rf.Y, rf.W, rf.H = secX, tableY+r.y.px(), secW, r.h.px()
			for ci := r.cellStart; ci < r.cellEnd; ci++ {
				if c := &g.cells[ci]; c.placed && c.rows > 1 {
					spannedUntil = max(spannedUntil, ri+c.rows-1)
				}
			}
			rowFrags[ri] = rf
			gf.Children = append(gf.Children, rf)
		}
		tf.Children = append(tf.Children, gf)
		if s.kind == tableHead && s.rowEnd > s.rowStart && s.h.px() <= l.icbH/4 && isAvoid(tb.secs[si].Style.BreakInside) {
			wf.repeatHeader = gf
			if g.collapse {
				// A repeated header draws the table's top border itself
				// (Chromium places it below that border on later pages).
				gf.H += gf.Y - tableY
				gf.Y = tableY
			}
		}
		if s.kind == tableFoot && s.rowEnd > s.rowStart && s.h.px() <= l.icbH/4 && isAvoid(tb.secs[si].Style.BreakInside) {
			wf.repeatFooter = gf
			if g.collapse {
				// ... and a repeated footer the bottom one.
				gf.H += g.bp[style.Bottom].px()
			}
		}
	}

	// Cells into their rows, after the table parts' backgrounds.
	for i := range g.cells {
		c := &g.cells[i]
		if !c.placed || contents[i] == nil {
			continue
		}
		rf := rowFrags[c.row]
		l.tablePartBackgrounds(tb, i, rf, tableY)
		rf.Children = append(rf.Children, l.tableCellFrag(tb, i, contents[i], tableY, cbH))
	}
	if g.collapse {
		headEnd, footStart := -1, -1
		if wf.repeatHeader != nil {
			headEnd = g.sections[0].rowEnd
		}
		if wf.repeatFooter != nil {
			footStart = g.sections[len(g.sections)-1].rowStart
		}
		l.tableCollapsedBorders(tb, rowFrags, tableY, headEnd, footStart)
	}

	y = tableY + g.gridHeight.px()
	for _, c := range tb.captions {
		if c.Style.CaptionSide != "bottom" {
			continue
		}
		f := &flow{y: y}
		cf := l.layoutBlockBox(c, cbox{x: 0, w: width, h: -1}, f, -1, -1)
		bottom = append(bottom, cf)
		y = f.y + f.strut.sum()
	}
	wf.Children = append(wf.Children, top...)
	wf.Children = append(wf.Children, tf)
	wf.Children = append(wf.Children, bottom...)
	wf.W, wf.H = width, y
	if b, ok := g.firstBaseline(); ok {
		wf.Baseline, wf.HasBaseline = tableY+b.px(), true
	}
	return wf
}

// tableCellContent lays out cell i's content at its width as a block
// formatting context: the returned fragment is the cell's padding box (its
// layout box has no borders), at the cell's x and at y 0, or at its final
// place when contentH ≥ 0 imposes the content height.
func (l *layouter) tableCellContent(tb *tableBuilt, i int, contentH float64) *Frag {
	g := &tb.g
	c := &g.cells[i]
	orig := tb.cells[i]
	cw := g.cellContentWidth(c).px()
	padT := g.layoutPadding(c, style.Top)
	if contentH < 0 && tableCellPlain(orig.Style) {
		// A plain cell (no margins, heights or positioning) is laid out as
		// it is: only its own borders may differ from the used ones
		// (collapsed), which moves where its content starts.
		s := orig.Style
		base := (g.inlineSize - g.bp[style.Left] - g.bp[style.Right]).px()
		bd, pd := boxBorders(s), boxPadding(s, base)
		x := (c.x + c.bw[style.Left]).px() - bd[style.Left]
		f := &flow{y: -bd[style.Top]}
		fr := l.layoutBlockBox(orig, cbox{x: x, w: base, h: -1}, f, cw, -1)
		c.contentHeight = fr.H - bd.v() - pd.v()
		// Now fr's padding box starts at y 0, as the copy's would.
		l.tableCellMeasured(c, fr, pd[style.Top])
		return fr
	}
	lb := tb.layoutBoxes[i]
	if lb == nil {
		lb = l.tableLayoutBox(tb, i)
		tb.layoutBoxes[i] = lb
	}
	padL, padR := g.layoutPadding(c, style.Left), g.layoutPadding(c, style.Right)
	padB := g.layoutPadding(c, style.Bottom)
	x := (c.x + c.bw[style.Left]).px()
	y := 0.0
	if contentH >= 0 {
		y = (c.y + c.bw[style.Top]).px()
	}
	f := &flow{y: y}
	fr := l.layoutBlockBox(lb, cbox{x: x, w: cw + (padL + padR).px(), h: -1}, f, cw, contentH)
	if contentH >= 0 {
		return fr
	}
	c.contentHeight = fr.H - (padT + padB).px()
	l.tableCellMeasured(c, fr, padT.px())
	return fr
}

// tableCellPlain reports whether a cell can be laid out as its own box:
// no margins (which cells do not have), no heights (which the table
// applies), static (relative cells are moved as a whole) and no
// percentage padding.
func tableCellPlain(s *style.Computed) bool {
	for i := 0; i < 4; i++ {
		if m := s.Margin[i]; m.V != 0 || m.Off != 0 {
			return false
		}
		if s.Padding[i].Unit != style.Px {
			return false
		}
	}
	return s.Height.Unit == style.Auto && (s.MinHeight.Unit == style.Auto || (s.MinHeight.Unit == style.Px && s.MinHeight.V == 0)) &&
		(s.MaxHeight.Unit == style.None || s.MaxHeight.Unit == style.Auto) && s.Position == style.Static
}

// tableCellMeasured records what the table needs of a cell's laid-out
// content: whether it has in-flow content and its first baseline from the
// content box's top. fr's padding box is at y 0, padT its top padding.
func (l *layouter) tableCellMeasured(c *tableCell, fr *Frag, padT float64) {
	c.hasContent = false
	for _, ch := range fr.Children {
		if ch.Kind == FragBox && ch.Box != nil && ch.Box.IsOutOfFlow() {
			continue
		}
		c.hasContent = true
		break
	}
	if b, ok := firstBaseline(fr); ok {
		c.baseline, c.hasBaseline = b-padT, true
	} else {
		c.baseline, c.hasBaseline = 0, false
	}
}

// tableLayoutBox is cell i's box as layoutBlockBox lays it out: the same
// box and style but without borders (the table decides them) and margins
// (cells have none), with its padding resolved, and heights auto (the
// table sizes cells). Copied after measuring, so that the copy shares the
// cell's collected paragraph.
func (l *layouter) tableLayoutBox(tb *tableBuilt, i int) *Box {
	g := &tb.g
	c := &g.cells[i]
	orig := tb.cells[i]
	s := new(style.Computed)
	*s = *orig.Style
	for side := 0; side < 4; side++ {
		s.Border[side] = style.Border{}
		s.Margin[side] = style.Length{}
		s.Padding[side] = style.Length{V: g.layoutPadding(c, side).px(), Unit: style.Px}
		s.Inset[side] = style.Length{Unit: style.Auto}
	}
	s.Height, s.MinHeight, s.MaxHeight = style.Length{Unit: style.Auto}, style.Length{Unit: style.Auto}, style.Length{Unit: style.None}
	s.Width, s.MinWidth, s.MaxWidth = style.Length{Unit: style.Auto}, style.Length{Unit: style.Auto}, style.Length{Unit: style.None}
	s.Background = style.Background{}
	b := new(Box)
	*b = *orig
	b.Style = s
	return b
}

// tableCellFrag makes cell i's fragment (its border box) at its final place
// around its laid-out content, shifted for vertical-align.
func (l *layouter) tableCellFrag(tb *tableBuilt, i int, content *Frag, tableY, cbH float64) *Frag {
	g := &tb.g
	c := &g.cells[i]
	orig := tb.cells[i]
	bs, be := g.cellBlockBP(c)
	if orig.isPositioned() {
		// Positioned descendants need the cell's final padding box: lay
		// the content out again at its place and height.
		h := (c.h - bs - be).clampNeg().px()
		content = l.tableCellContent(tb, i, h)
		content.translate(0, tableY)
	} else {
		// The padding box's top is at 0 (the plain path's fragment starts
		// at its own border's top, above).
		content.translate(0, tableY+(c.y+c.bw[style.Top]).px())
	}
	if c.shift != 0 {
		d := c.shift.px()
		for _, ch := range content.Children {
			if ch.Kind == FragBox && ch.Box != nil && ch.Box.IsOutOfFlow() {
				continue
			}
			ch.translate(0, d)
		}
	}
	key := tablePaintKey{noBorder: g.collapse}
	if !g.collapse && orig.Style.EmptyCells == "hide" && !c.hasContent {
		key = tablePaintKey{noBg: true, noBorder: true}
	}
	cf := l.frags.new(FragBox, l.tablePaintBox(orig, key))
	cf.X, cf.Y, cf.W, cf.H = c.x.px(), tableY+c.y.px(), c.w.px(), c.h.px()
	cf.Children = content.Children
	if b, ok := firstBaseline(cf); ok {
		cf.Baseline, cf.HasBaseline = b, true
	}
	if orig.Style.Position == style.Relative {
		l.relativeOffset(orig, cf, cbox{w: g.inlineSize.px(), h: cbH})
	}
	return cf
}

// tablePaintBox returns b, or a copy of it whose style leaves out what the
// key says: a table part's own background (Chromium paints it into the
// cells), its borders (collapsed borders are the table's), or both (a cell
// hidden by empty-cells); avoidBreakBefore keeps a row with the one above.
func (l *layouter) tablePaintBox(b *Box, k tablePaintKey) *Box {
	s := b.Style
	hasBg := s.Background.Color.A > 0 || s.Background.Image != ""
	hasBorder := s.Border[0].Style != style.BorderNone || s.Border[1].Style != style.BorderNone || s.Border[2].Style != style.BorderNone || s.Border[3].Style != style.BorderNone
	if (!k.noBg || !hasBg) && (!k.noBorder || !hasBorder) && !k.avoidBreakBefore {
		return b
	}
	st := l.tableState()
	bg := s.Background
	if k.noBg {
		bg = style.Background{}
	}
	before := s.BreakBefore
	if k.avoidBreakBefore && before == style.BreakAuto {
		before = style.BreakAvoid
	}
	var sk tableShareKey
	plain := b.id == "" && b.href == "" && s.Position == style.Static && s.Opacity >= 1 &&
		(s.Overflow == "visible" || s.Overflow == "") && s.Outline.Style == style.BorderNone && k.noBorder
	if plain {
		// The parent only tells paint.go this is not the root; sharing one
		// per parent keeps the tree's shape for anything walking up.
		sk = tableShareKey{kind: b.Kind, bg: bg, visibility: s.Visibility, before: before, after: s.BreakAfter, inside: s.BreakInside, parent: b.Parent}
		if c := st.shared[sk]; c != nil {
			return c
		}
	} else {
		k.b = b
		if c := st.paint[k]; c != nil {
			return c
		}
	}
	skey := tableStyleKey{s: s, noBg: k.noBg, noBorder: k.noBorder, before: before}
	cs := st.styles[skey]
	if cs == nil {
		cs = new(style.Computed)
		*cs = *s
		cs.Background = bg
		if k.noBorder {
			for i := range cs.Border {
				cs.Border[i] = style.Border{}
			}
			cs.Radius = [4]style.Radius{}
		}
		cs.BreakBefore = before
		st.styles[skey] = cs
	}
	c := new(Box)
	*c = *b
	c.Style = cs
	if plain {
		st.shared[sk] = c
	} else {
		st.paint[k] = c
	}
	return c
}

// tablePartBackgrounds adds to row fragment rf, before cell i, the
// backgrounds of the column groups, columns, row group and row that cover
// the cell, each clipped to the cell's border box, in Chromium's order.
func (l *layouter) tablePartBackgrounds(tb *tableBuilt, i int, rf *Frag, tableY float64) {
	g := &tb.g
	c := &g.cells[i]
	cell := tb.cells[i]
	if cell.Style.Visibility != "visible" {
		return
	}
	add := func(part *Box) {
		s := part.Style
		if s.Background.Color.A == 0 && s.Background.Image == "" {
			return
		}
		pb := l.tablePaintBox(part, tablePaintKey{noBorder: true})
		if pb.Style.Visibility != "visible" {
			pb = l.tableVisibleCopy(pb)
		}
		f := l.frags.new(FragBox, pb)
		f.X, f.Y, f.W, f.H = c.x.px(), tableY+c.y.px(), c.w.px(), c.h.px()
		rf.Children = append(rf.Children, f)
	}
	// Column groups, then columns (Chromium sorts a group before its
	// columns).
	if len(g.cols) > 0 {
		cur := 0
		for ci := range g.cols {
			tc := &g.cols[ci]
			if cur >= g.numCols {
				break
			}
			if tc.group {
				start, span := cur, 0
				if len(tc.children) > 0 {
					for _, ch := range tc.children {
						span += min(max(ch.span, 1), g.numCols-cur-span)
						if cur+span >= g.numCols {
							break
						}
					}
				} else {
					span = min(max(tc.span, 1), g.numCols-cur)
				}
				if c.col >= start && c.col < start+span {
					add(tb.cols[tc.ref])
					k := start
					for _, ch := range tc.children {
						n := min(max(ch.span, 1), g.numCols-k)
						if c.col >= k && c.col < k+n {
							add(tb.cols[ch.ref])
						}
						k += n
						if k >= g.numCols {
							break
						}
					}
				}
				cur = start + span
				continue
			}
			n := min(max(tc.span, 1), g.numCols-cur)
			if c.col >= cur && c.col < cur+n {
				add(tb.cols[tc.ref])
			}
			cur += n
		}
	}
	for si := range g.sections {
		s := &g.sections[si]
		if c.row >= s.rowStart && c.row < s.rowEnd {
			add(tb.secs[si])
			break
		}
	}
	add(tb.rows[c.row])
}

// tableVisibleCopy is a painting box made visible (a table part's
// background paints in a cell when the cell is visible).
func (l *layouter) tableVisibleCopy(b *Box) *Box {
	cs := new(style.Computed)
	*cs = *b.Style
	cs.Visibility = "visible"
	c := new(Box)
	*c = *b
	c.Style = cs
	return c
}

// tableCollapsedBorders adds the collapsed border segments to the rows they
// lie over, so that each moves with its row when pages break and paints
// after the cells below it. An opaque solid edge between two rows goes
// whole to the row below (tableRowStartsPage splits it where a page
// breaks between the rows); other solid segments are cut at row edges.
// The edges a repeated header or footer shares with the body (headEnd is
// the first row after the header, footStart the footer's first row; -1
// when none repeats) go whole to the header's or footer's row, so that
// their copies on later pages draw them whole, as Chromium's do (the
// header's is drawn again after the first body row, to stay above its
// cells).
func (l *layouter) tableCollapsedBorders(tb *tableBuilt, rowFrags []*Frag, tableY float64, headEnd, footStart int) {
	g := &tb.g
	st := l.tableState()
	var secs []tableSectionPaint
	for si := range g.sections {
		s := &g.sections[si]
		if s.rowEnd == s.rowStart {
			continue
		}
		sp := tableSectionPaint{startRow: s.rowStart}
		for ri := s.rowStart; ri < s.rowEnd; ri++ {
			sp.rowY = append(sp.rowY, g.rows[ri].y)
		}
		last := &g.rows[s.rowEnd-1]
		sp.rowY = append(sp.rowY, last.y+last.h)
		secs = append(secs, sp)
	}
	st.buf = g.collapsedSegments(st.buf[:0], secs)
	n := len(g.rows)
	if n == 0 {
		return
	}
	for _, sg := range st.buf {
		y0, y1 := sg.y, sg.y+sg.h
		solid := sg.b.Style == style.BorderSolid
		// An opaque edge painted twice fills the same pixels: drawn
		// whole again, rather than in parts, it fills them as Chromium's
		// one rectangle does (a reader rounds the ends of each rectangle
		// to pixels on its own, and a part can add a pixel row).
		whole := solid && sg.b.Color.A >= 1
		if sg.horizontal && sg.row > 0 && sg.row < n && (sg.row == headEnd || sg.row == footStart) {
			if sg.row == headEnd {
				l.tableSegFrag(rowFrags[sg.row-1], sg, y0, y1, tableY, solid)
				if mid := g.rows[sg.row].y; solid && mid < y1 {
					a := maxUnit(mid, y0)
					if whole {
						a = y0
					}
					l.tableSegFrag(rowFrags[sg.row], sg, a, y1, tableY, true)
				}
			} else {
				l.tableSegFrag(rowFrags[sg.row], sg, y0, y1, tableY, solid)
			}
			continue
		}
		if !solid {
			r := min(sg.row, n-1)
			l.tableSegFrag(rowFrags[r], sg, y0, y1, tableY, false)
			continue
		}
		if whole && sg.horizontal && sg.row > 0 && sg.row < n && rowFrags[sg.row] != nil {
			// Whole with the row below, above both rows' cells (a page
			// break between the rows splits it: tableRowStartsPage).
			l.tableSegFrag(rowFrags[sg.row], sg, y0, y1, tableY, true)
			continue
		}
		// The rows this segment may cross: the one above its edge to the
		// one below.
		lo, hi := max(sg.row-1, 0), min(sg.row+1, n-1)
		for r := lo; r <= hi; r++ {
			top, bot := g.rows[r].y, g.rows[r].y+g.rows[r].h
			if r == 0 {
				top = y0
			}
			if r == n-1 {
				bot = y1
			}
			a, b := maxUnit(y0, top), minUnit(y1, bot)
			if r == lo {
				a = y0
			}
			if r == hi {
				b = y1
			}
			if b <= a {
				continue
			}
			if rowFrags[r] == nil {
				continue
			}
			l.tableSegFrag(rowFrags[r], sg, a, b, tableY, true)
			y0 = b
			if y0 >= y1 {
				break
			}
		}
	}
}

// tableRowStartsPage splits what the row fragment r paints above its top
// (the collapsed border edge it shares with the row before, which
// tableCollapsedBorders gives it whole) at the row's top when a page
// starts with the row, which pagination then moves down by the break's
// gap: the part above stays on the page before, where the row before
// ends, and the row keeps the rest, as Chromium paints each page's half
// of the edge (painted at least a pixel tall: snapRect; measured: a 1px
// edge a pixel on both pages, 2px as 1 and 1).
func (l *layouter) tableRowStartsPage(r *Frag, gap float64) {
	for _, c := range r.Children {
		if c.Kind != FragBox || c.Y >= r.Y || c.Box.Style.Background.Color.A == 0 {
			continue // a dashed, dotted or double edge is drawn whole
		}
		up := math.Min(r.Y-c.Y, c.H)
		f := l.frags.new(FragBox, c.Box)
		f.X, f.Y, f.W, f.H = c.X, c.Y-gap, c.W, up
		r.Children = append(r.Children, f)
		c.Y += up
		c.H -= up
	}
}

// tableEdgeAbove returns copies, moved down by dy, of the collapsed border
// edge above the body row of the table wrapper w that starts at flow
// position y, for the page where that row follows a repeated header.
// Chromium paints the edge a row shares with the row before it (on the
// previous page) there again, whole, centred on the header's bottom edge
// and after the header, so it covers the header's border where they
// overlap (measured: a 0.5pt grey row rule over a 1.5pt black header rule
// leaves its top pixel grey).
func tableEdgeAbove(w *Frag, y, dy float64) []*Frag {
	const eps = 0.01
	for _, t := range w.Children {
		if t.Box == nil || t.Box.Kind != KindTable {
			continue
		}
		for _, gf := range t.Children {
			for _, rf := range gf.Children {
				if rf.Box == nil || rf.Box.Kind != KindRow || math.Abs(rf.Y-y) > eps {
					continue
				}
				// What the row paints above its top is that edge
				// (tableCollapsedBorders).
				var out []*Frag
				for _, c := range rf.Children {
					if c.Kind == FragBox && c.Y < rf.Y {
						out = append(out, cloneAt(c, c.Y+dy))
					}
				}
				return out
			}
		}
	}
	return nil
}

// tableSegFrag adds to rf the part [y0, y1) of segment sg: a box filled
// with the border's colour (solid), or a box whose only border is the
// segment's side. The box is an anonymous child of the row's box
// (paint.go paints a box without a parent as the root, onto the canvas).
func (l *layouter) tableSegFrag(rf *Frag, sg tableBorderSeg, y0, y1 tableUnit, tableY float64, fill bool) {
	if rf == nil {
		return
	}
	st := l.tableState()
	w := sg.h.px()
	if !sg.horizontal {
		w = sg.w.px()
	}
	k := tableSegKey{b: sg.b, horizontal: sg.horizontal, fill: fill, w: w}
	b := st.segs[k]
	if b == nil {
		s := new(style.Computed)
		*s = initialStyle
		if fill {
			s.Background.Color = sg.b.Color
		} else {
			side := style.Left
			if sg.horizontal {
				side = style.Top
			}
			s.Border[side] = style.Border{Width: w, Style: sg.b.Style, Color: sg.b.Color}
		}
		b = &Box{Kind: KindBlock, Style: s, Anonymous: true, Parent: rf.Box, ColSpan: 1, RowSpan: 1, Span: 1}
		st.segs[k] = b
	}
	f := l.frags.new(FragBox, b)
	f.X, f.Y, f.W, f.H = sg.x.px(), tableY+y0.px(), sg.w.px(), (y1 - y0).px()
	rf.Children = append(rf.Children, f)
}
