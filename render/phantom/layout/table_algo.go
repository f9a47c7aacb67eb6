package layout

// The table algorithms, as pure functions over a tableGrid: the grid (which
// slot each cell takes), collapsed-border resolution, column constraints,
// the table's width and its distribution over columns, and row heights.
// They follow Chromium's LayoutNG tables (table_layout_utils,
// table_layout_algorithm, table_borders) step by step, in Chromium's
// fixed-point LayoutUnit (1/64 px) with its truncations, so that column and
// row edges land where Chromium puts them to the 1/64 px. The box tree side
// (measuring and laying out cell contents, painting, pagination) is in
// table.go; nothing here knows about boxes.

import (
	"math"
	"sort"

	"github.com/platen/platen/render/phantom/style"
)

// tableUnit is Chromium's LayoutUnit: a length in 1/64 px. Raw values are
// kept in an int64 so that sums cannot overflow; conversions saturate at
// LayoutUnit's int32 range as Chromium's do.
type tableUnit int64

const (
	tableUnitScale  = 64
	tableUnitMaxRaw = math.MaxInt32
	tableUnitMinRaw = math.MinInt32
	// tableIndefinite is Chromium's kIndefiniteSize (LayoutUnit(-1)).
	tableIndefinite tableUnit = -tableUnitScale
	// tableMaxInlineSize is TableTypes::kTableMaxInlineSize.
	tableMaxInlineSize tableUnit = 1000000 * tableUnitScale
)

// Span limits of HTML (and Blink's table_constants.h), and phantom's own
// limit on columns, which keeps hostile colspans from allocating without
// bound. Cells that start past it are dropped.
const (
	tableMaxColSpan = 1000
	tableMaxRowSpan = 65534
	tableMaxColumns = 10000
	// tableMaxWork bounds the steps of the loops whose cost grows with
	// rows times spans (placing cells under rowspans, distributing
	// rowspans): past it, the rest of a hostile table is dropped.
	tableMaxWork = 20_000_000
	// tableMaxEdges bounds the collapsed-border grid (about 70 bytes an
	// edge); a larger table keeps its cells' own borders.
	tableMaxEdges = 1 << 18
)

func tableSat(v int64) tableUnit {
	if v > tableUnitMaxRaw {
		return tableUnitMaxRaw
	}
	if v < tableUnitMinRaw {
		return tableUnitMinRaw
	}
	return tableUnit(v)
}

// unitF32 is LayoutUnit(float): single-precision, truncated toward zero,
// saturating (NaN is 0).
func unitF32(f float32) tableUnit {
	v := f * tableUnitScale
	switch {
	case v != v:
		return 0
	case v >= tableUnitMaxRaw:
		return tableUnitMaxRaw
	case v <= tableUnitMinRaw:
		return tableUnitMinRaw
	}
	return tableUnit(v)
}

// unitPx converts a computed length in px: Blink holds lengths as floats.
func unitPx(px float64) tableUnit { return unitF32(float32(px)) }

// unitCeil is LayoutUnit::FromFloatCeil, as intrinsic widths of text are
// snapped; values already on the 1/64 grid (within rounding noise) stay.
func unitCeil(px float64) tableUnit {
	v := px * tableUnitScale
	if r := math.Round(v); math.Abs(v-r) < 1e-4 {
		v = r
	}
	return tableSat(int64(math.Ceil(v)))
}

// unitRound is LayoutUnit::FromFloatRound.
func unitRound(px float64) tableUnit {
	return tableSat(int64(math.Round(px * tableUnitScale)))
}

func (u tableUnit) px() float64    { return float64(u) / tableUnitScale }
func (u tableUnit) float() float32 { return float32(u) / tableUnitScale }

// mulDiv is LayoutUnit::MulDiv: u*m/d in 64-bit raw units, truncated.
func (u tableUnit) mulDiv(m, d tableUnit) tableUnit {
	return tableSat(int64(u) * int64(m) / int64(d))
}

func (u tableUnit) clampNeg() tableUnit {
	if u < 0 {
		return 0
	}
	return u
}

func maxUnit(a, b tableUnit) tableUnit {
	if a > b {
		return a
	}
	return b
}

func minUnit(a, b tableUnit) tableUnit {
	if a < b {
		return a
	}
	return b
}

// tableParseSpan parses a colspan, rowspan or span attribute with HTML's
// rules for non-negative integers, clamped to [lo, hi]; def when it does not
// parse. colspan and span use (1, 1000, 1), rowspan (0, 65534, 1): a rowspan
// of 0 spans to the end of the row group.
func tableParseSpan(attr string, lo, hi, def int) int {
	i := 0
	for i < len(attr) && (attr[i] == ' ' || attr[i] == '\t' || attr[i] == '\n' || attr[i] == '\f' || attr[i] == '\r') {
		i++
	}
	if i < len(attr) && attr[i] == '+' {
		i++
	}
	start, v := i, 0
	for ; i < len(attr) && attr[i] >= '0' && attr[i] <= '9'; i++ {
		if v <= hi {
			v = v*10 + int(attr[i]-'0')
		}
	}
	if i == start {
		return def
	}
	return min(max(v, lo), hi)
}

// tableVAlign is a cell's vertical-align as table layout reads it: top,
// middle and bottom align the content in the cell; every other value
// aligns the first baseline with the row's.
type tableVAlign uint8

const (
	tableVABaseline tableVAlign = iota
	tableVATop
	tableVAMiddle
	tableVABottom
)

// tableVAlignOf maps a computed vertical-align onto a tableVAlign.
func tableVAlignOf(va style.VerticalAlign) tableVAlign {
	switch va.Keyword {
	case style.VATop:
		return tableVATop
	case style.VAMiddle:
		return tableVAMiddle
	case style.VABottom:
		return tableVABottom
	}
	return tableVABaseline
}

// tableSectionKind is a row group's display.
type tableSectionKind uint8

const (
	tableBody tableSectionKind = iota
	tableHead
	tableFoot
)

// tableSectionOrder returns the order in which row groups are laid out:
// the first header group, then the bodies (other header and footer groups
// among them, in document order), then the first footer group.
func tableSectionOrder(kinds []tableSectionKind) []int {
	head, foot := -1, -1
	for i, k := range kinds {
		if k == tableHead && head < 0 {
			head = i
		}
		if k == tableFoot && foot < 0 {
			foot = i
		}
	}
	order := make([]int, 0, len(kinds))
	if head >= 0 {
		order = append(order, head)
	}
	for i := range kinds {
		if i != head && i != foot {
			order = append(order, i)
		}
	}
	if foot >= 0 {
		order = append(order, foot)
	}
	return order
}

// tableCol is a <col> or <colgroup> (display table-column or
// table-column-group).
type tableCol struct {
	group bool
	// span is the span attribute, parsed; a group with children spans
	// their columns instead.
	span     int
	children []tableCol
	width    style.Length
	minWidth style.Length
	maxWidth style.Length
	// collapsed is visibility: collapse.
	collapsed bool
	border    [4]style.Border
	// ref is the caller's index for the element.
	ref int
}

// tableCell is one cell: what the caller sets before the algorithms run,
// what it sets after laying the content out, and what the algorithms set.
type tableCell struct {
	// colspan and rowspan are the parsed attributes; rowspan 0 spans to the
	// end of the row group.
	colspan, rowspan int
	width            style.Length
	minWidth         style.Length
	maxWidth         style.Length
	height           style.Length
	borderBox        bool
	// heightBorderBox measures the specified height as the border box's
	// (box-sizing, or quirks mode, which does so for heights only).
	heightBorderBox bool
	padding         [4]style.Length
	border          [4]style.Border
	valign          tableVAlign
	// minContent and maxContent are the content box's intrinsic widths.
	minContent, maxContent float64

	// contentHeight is the block size of the content laid out at the cell's
	// width, without padding and borders; baseline is its first baseline
	// from the content box's top (hasBaseline false when there is no line
	// box); hasContent is false when the cell has no in-flow content.
	contentHeight float64
	baseline      float64
	hasBaseline   bool
	hasContent    bool

	// row and col are the cell's first slot (row indexes t.rows); rows and
	// cols are the rows and columns it covers. placed is false for a cell
	// dropped past tableMaxColumns.
	row, col, rows, cols int
	placed               bool
	// bw are the used border widths: the cell's own, or with collapsed
	// borders half of each resolved edge.
	bw [4]tableUnit
	// x, y, w, h are the border box in the table's border box (y from the
	// top of the table box, captions excluded); shift moves the content
	// down for vertical-align.
	x, y, w, h tableUnit
	shift      tableUnit
}

// tableRow is a row: its cells are t.cells[cellStart:cellEnd].
type tableRow struct {
	cellStart, cellEnd int
	height             style.Length
	collapsed          bool
	// border is the row's border, for the collapsing model.
	border [4]style.Border

	// Results: y from the table box's top, h, and the baseline from the
	// row's top (hasBaseline false when no cell gives one).
	y, h        tableUnit
	baseline    tableUnit
	hasBaseline bool

	percent         float32
	hasPercent      bool
	constrained     bool
	hasRowspanStart bool
	// ascent is the largest baseline of the baseline-aligned cells with
	// content; fallback the smallest block-end border and padding of the
	// others, for a row without such cells.
	ascent, fallback       tableUnit
	hasAscent, hasFallback bool
}

// exportBaseline is the row's baseline from its top as a table's baseline
// reads it: the cells' common baseline, else the bottom of the lowest
// content box.
func (r *tableRow) exportBaseline() tableUnit {
	switch {
	case r.hasAscent:
		return r.ascent
	case r.hasFallback:
		return (r.h - r.fallback).clampNeg()
	}
	return 0
}

// tableSection is a row group: its rows are t.rows[rowStart:rowEnd].
// Sections are held in layout order (see tableSectionOrder).
type tableSection struct {
	kind             tableSectionKind
	rowStart, rowEnd int
	height           style.Length
	collapsed        bool
	// border is the group's border, for the collapsing model.
	border [4]style.Border
	// Results: y from the table box's top, h.
	y, h tableUnit

	minSize     tableUnit
	percent     float32
	hasPercent  bool
	constrained bool
	redistrib   bool
}

// tableColumn is a column's constraint (Chromium's TableTypes::Column).
type tableColumn struct {
	min, max       tableUnit
	hasMin, hasMax bool
	percent        float32
	hasPercent     bool
	percentBP      tableUnit
	constrained    bool
	collapsed      bool
	tableFixed     bool
	mergeable      bool
}

func (c *tableColumn) resolvePercent(target tableUnit) tableUnit {
	return maxUnit(c.min, unitF32(c.percent*target.float()/100)+c.percentBP)
}

func (c *tableColumn) isFixed() bool { return c.constrained && !c.hasPercent && c.hasMax }

// tableCellConstraint is a cell's inline constraint.
type tableCellConstraint struct {
	min, max    tableUnit
	percent     float32
	hasPercent  bool
	percentBP   tableUnit
	constrained bool
}

type tableColspanCell struct {
	c           tableCellConstraint
	start, span int
}

// tableEdge is one collapsed border edge: the winning border and its
// source's precedence (lower box order wins ties in painting).
type tableEdge struct {
	b         style.Border
	w         tableUnit
	set       bool
	doNotFill bool
	order     int
}

// tableColLocation is a column's position: offset from the inline start of
// the table's padding box (border-spacing included), and width.
type tableColLocation struct {
	offset, size tableUnit
	collapsed    bool
}

// tableGrid is a table for the algorithms. The caller fills the inputs,
// then calls place, borders, columns, width and rows in that order,
// measuring and laying out the cells between the steps.
type tableGrid struct {
	// fixed is table-layout: fixed with a width that is not auto.
	fixed    bool
	collapse bool
	// spacing is border-spacing, horizontal and vertical.
	spacing  [2]float64
	width    style.Length
	minWidth style.Length
	maxWidth style.Length
	// height, minHeight and maxHeight are the table's (percentages must be
	// resolved or left auto by the caller, as they depend on the containing
	// block).
	height, minHeight, maxHeight style.Length
	borderBox                    bool
	border                       [4]style.Border
	padding                      [4]style.Length
	cols                         []tableCol
	sections                     []tableSection
	rows                         []tableRow
	cells                        []tableCell
	// captionMin is the largest min-content contribution of a caption.
	captionMin float64
	// rtl is direction: rtl: columns run from the right, and a cell's
	// start border is its right one.
	rtl bool
	// fragmented is true when the table is laid out in a fragmentation
	// context (printed pages, outside monolithic boxes such as inline-blocks
	// and absolutely positioned boxes that a clipping box keeps on one
	// page: layouter.tableFragmented). Chromium then aligns no cell on the
	// row's baseline (the baseline might fall in another fragment): baseline
	// cells stay at the top, though rows are still sized for the alignment.
	fragmented bool

	// Results.
	numCols  int
	columns  []tableColumn
	colLoc   []tableColLocation
	edges    []tableEdge
	edgesRow int
	// bp is the table's used border plus padding per side (with collapsed
	// borders, half the outer edges and no padding).
	bp [4]tableUnit
	// inlineSize is the table's border-box width; gridHeight the table
	// box's border-box height (captions excluded).
	inlineSize tableUnit
	gridHeight tableUnit
	spaceH     tableUnit
	spaceV     tableUnit
	// work counts steps against tableMaxWork.
	work int
}

// place assigns each cell its slots, row group by row group (a cell's rows
// are clipped to its group), and counts the columns: in auto layout a
// cell's columns past the last one that some cell starts in do not exist.
func (t *tableGrid) place() {
	type active struct{ start, span, left int }
	var spans []active
	t.numCols = 0
	for si := range t.sections {
		s := &t.sections[si]
		spans = spans[:0]
		for ri := s.rowStart; ri < s.rowEnd; ri++ {
			r := &t.rows[ri]
			cur := 0
			over := false
			if t.work += len(spans) + r.cellEnd - r.cellStart + 1; t.work > tableMaxWork {
				over = true
				spans = spans[:0]
			}
			added := false
			for ci := r.cellStart; ci < r.cellEnd; ci++ {
				c := &t.cells[ci]
				c.colspan = min(max(c.colspan, 1), tableMaxColSpan)
				c.rowspan = min(max(c.rowspan, 0), tableMaxRowSpan)
				if over {
					c.placed = false
					continue
				}
				// Spans are sorted by start column and do not overlap.
				for _, a := range spans {
					if a.start <= cur && a.start+a.span > cur {
						cur = a.start + a.span
					}
				}
				c.placed = cur < tableMaxColumns
				c.row, c.col = ri, cur
				rs := c.rowspan
				if rs == 0 {
					rs = tableMaxRowSpan
				}
				c.rows = min(rs, s.rowEnd-ri)
				c.cols = c.colspan
				if !c.placed {
					continue
				}
				if rs > 1 {
					spans = append(spans, active{cur, c.colspan, rs})
					added = true
				}
				last := cur + 1
				if t.fixed {
					last = min(cur+c.colspan, tableMaxColumns)
				}
				t.numCols = max(t.numCols, last)
				cur += c.colspan
			}
			n := 0
			for _, a := range spans {
				if a.left--; a.left > 0 {
					spans[n] = a
					n++
				}
			}
			spans = spans[:n]
			if added {
				sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
			}
		}
	}
	// Columns of <col> elements that are not mergeable count too.
	colCons := t.colElementColumns(nil)
	last := len(colCons) - 1
	for last >= 0 && colCons[last].mergeable {
		last--
	}
	t.numCols = max(t.numCols, last+1)
	for i := range t.cells {
		c := &t.cells[i]
		if c.placed {
			c.cols = max(min(c.colspan, t.numCols-c.col), 1)
		}
	}
	// Collapsed borders have no border-spacing.
	t.spaceH, t.spaceV = 0, 0
	if !t.collapse {
		t.spaceH, t.spaceV = unitPx(t.spacing[0]), unitPx(t.spacing[1])
	}
}

// visitCols walks the <col> and <colgroup> elements with their start column
// and span, clipped to limit columns, as Chromium's VisitLayoutTableColumn.
func (t *tableGrid) visitCols(limit int, col func(c *tableCol, start, span int), enter func(g *tableCol), leave func(g *tableCol, start, span int, hasChildren bool)) {
	cur := 0
	visit := func(c *tableCol) int {
		span := min(max(c.span, 1), limit-cur)
		col(c, cur, span)
		cur += span
		return span
	}
	for i := range t.cols {
		if cur >= limit {
			break
		}
		c := &t.cols[i]
		if !c.group {
			visit(c)
			continue
		}
		enter(c)
		start, span := cur, 0
		if len(c.children) > 0 {
			for j := range c.children {
				span += visit(&c.children[j])
				if cur >= limit {
					break
				}
			}
		} else {
			span = min(max(c.span, 1), limit-cur)
			cur += span
		}
		leave(c, start, span, len(c.children) > 0)
	}
}

// tableInlineSizes reads width, min-width and max-width as Chromium's
// InlineSizesFromStyle: fixed lengths become border-box sizes (bp added for
// content-box, at least bp for border-box), a percentage width is kept.
func tableInlineSizes(width, minW, maxW style.Length, borderBox bool, bp tableUnit) (size, minS, maxS tableUnit, hasSize, hasMin, hasMax bool, pct float32, hasPct bool) {
	resolve := func(l style.Length) tableUnit {
		v := unitPx(l.V)
		if borderBox {
			return maxUnit(v, bp)
		}
		return v + bp
	}
	if width.Unit == style.Px {
		size, hasSize = resolve(width), true
	}
	if minW.Unit == style.Px {
		minS, hasMin = resolve(minW), true
	}
	if maxW.Unit == style.Px {
		maxS, hasMax = resolve(maxW), true
		if hasMin {
			maxS = maxUnit(minS, maxS)
		}
	}
	// calc(% + px) counts as a percentage only without its px part.
	if width.Unit == style.Percent && width.Off == 0 {
		pct, hasPct = float32(width.V), true
		if maxW.Unit == style.Percent && maxW.Off == 0 {
			pct = min(pct, float32(maxW.V))
		}
	}
	return
}

// colElementColumns is Chromium's ColumnConstraintsBuilder: one constraint
// per column the <col> and <colgroup> elements define.
func (t *tableGrid) colElementColumns(dst []tableColumn) []tableColumn {
	var group tableColumn
	inGroup := false
	make1 := func(c *tableCol, def tableUnit, hasDef bool) tableColumn {
		size, minS, _, hasSize, hasMin, _, pct, hasPct := tableInlineSizes(c.width, c.minWidth, c.maxWidth, false, 0)
		if !hasSize {
			size, hasSize = def, hasDef
		}
		if hasMin && hasSize {
			size = maxUnit(size, minS)
		}
		if hasPct && pct == 0 {
			hasPct = false
		}
		col := tableColumn{min: minS, hasMin: true, max: size, hasMax: hasSize, percent: pct, hasPercent: hasPct,
			constrained: hasSize, collapsed: c.collapsed, tableFixed: t.fixed}
		if !t.fixed {
			col.mergeable = (!hasSize || size == 0) && !hasPct
		}
		return col
	}
	t.visitCols(tableMaxColumns, func(c *tableCol, start, span int) {
		var col tableColumn
		if !t.fixed && inGroup {
			col = make1(c, group.max, group.hasMax)
		} else {
			col = make1(c, 0, false)
		}
		for i := 0; i < span; i++ {
			dst = append(dst, col)
		}
	}, func(g *tableCol) {
		group, inGroup = make1(g, 0, false), true
	}, func(g *tableCol, start, span int, hasChildren bool) {
		if !hasChildren {
			for i := 0; i < span; i++ {
				dst = append(dst, group)
			}
		}
		inGroup = false
	})
	return dst
}

// borders resolves the table's and the cells' used border widths: their
// own in the separated model; in the collapsing model the winner of each
// edge (hidden, then wider, then the better style, then cell, row, row
// group, column, column group, table, then the earlier box), half of it on
// each side. It needs place.
func (t *tableGrid) borders() {
	if t.rtl {
		// Resolve in logical terms (start, end), then give back physical
		// widths.
		t.swapSides()
		t.rtl = false
		t.borders()
		t.rtl = true
		t.swapSides()
		for i := range t.cells {
			c := &t.cells[i]
			c.bw[style.Left], c.bw[style.Right] = c.bw[style.Right], c.bw[style.Left]
		}
		t.bp[style.Left], t.bp[style.Right] = t.bp[style.Right], t.bp[style.Left]
		return
	}
	if !t.collapse {
		for i := 0; i < 4; i++ {
			t.bp[i] = unitPx(t.border[i].Width) + t.paddingUnit(t.padding[i])
		}
		for i := range t.cells {
			c := &t.cells[i]
			for s := 0; s < 4; s++ {
				c.bw[s] = unitPx(c.border[s].Width)
			}
		}
		return
	}
	nrows := len(t.rows)
	if (nrows+1)*(t.numCols+1) > tableMaxEdges/2 {
		// Too large to resolve: the cells keep their own borders.
		t.collapse = false
		t.borders()
		return
	}
	t.edgesRow = (t.numCols + 1) * 2
	n := (nrows + 1) * t.edgesRow
	if cap(t.edges) >= n {
		t.edges = t.edges[:n]
		clear(t.edges)
	} else {
		t.edges = make([]tableEdge, n)
	}
	order := 0
	for i := range t.cells {
		c := &t.cells[i]
		if !c.placed {
			continue
		}
		order++
		t.mergeBorders(c.row, c.col, c.rows, c.cols, &c.border, true, order)
	}
	for ri := range t.rows {
		order++
		t.mergeBorders(ri, 0, 1, t.numCols, &t.rows[ri].border, false, order)
	}
	for si := range t.sections {
		s := &t.sections[si]
		order++
		t.mergeBorders(s.rowStart, 0, s.rowEnd-s.rowStart, t.numCols, &s.border, false, order)
	}
	order++
	colOrder := order
	t.visitCols(t.numCols, func(c *tableCol, start, span int) {
		for i := 0; i < span; i++ {
			t.mergeBorders(0, start+i, nrows, 1, &c.border, false, colOrder)
		}
	}, func(*tableCol) {}, func(*tableCol, int, int, bool) {})
	order++
	groupOrder := order
	t.visitCols(t.numCols, func(*tableCol, int, int) {}, func(*tableCol) {}, func(g *tableCol, start, span int, _ bool) {
		t.mergeBorders(0, start, nrows, span, &g.border, false, groupOrder)
	})
	order++
	t.mergeBorders(0, 0, nrows, t.numCols, &t.border, false, order)

	t.bp = t.cellBorders(0, 0, nrows, t.numCols)
	for i := range t.cells {
		c := &t.cells[i]
		if c.placed {
			c.bw = t.cellBorders(c.row, c.col, c.rows, c.cols)
		}
	}
}

// swapSides swaps the left and right borders and paddings of every input,
// between physical and logical (right-to-left) sides.
func (t *tableGrid) swapSides() {
	sw := func(b *[4]style.Border) { b[style.Left], b[style.Right] = b[style.Right], b[style.Left] }
	sw(&t.border)
	t.padding[style.Left], t.padding[style.Right] = t.padding[style.Right], t.padding[style.Left]
	for i := range t.cells {
		sw(&t.cells[i].border)
	}
	for i := range t.rows {
		sw(&t.rows[i].border)
	}
	for i := range t.sections {
		sw(&t.sections[i].border)
	}
	var cols func(cs []tableCol)
	cols = func(cs []tableCol) {
		for i := range cs {
			sw(&cs[i].border)
			cols(cs[i].children)
		}
	}
	cols(t.cols)
}

// bpStart is the table's border and padding on its inline-start side.
func (t *tableGrid) bpStart() tableUnit {
	if t.rtl {
		return t.bp[style.Right]
	}
	return t.bp[style.Left]
}

// paddingUnit resolves a padding for measuring: percentages resolve
// against an indefinite size, so to 0.
func (t *tableGrid) paddingUnit(l style.Length) tableUnit {
	if l.Unit == style.Px {
		return unitPx(l.V)
	}
	return 0
}

// tableCollapsedStyle is the style an edge competes with: inset counts as
// ridge and outset as groove in the collapsing model.
func tableCollapsedStyle(s style.BorderStyle) style.BorderStyle {
	switch s {
	case style.BorderInset:
		return style.BorderRidge
	case style.BorderOutset:
		return style.BorderGroove
	}
	return s
}

// tableStyleRank orders styles as Blink's EBorderStyle does, which is the
// precedence of CSS 2.1 17.6.2.1: double, solid, dashed, dotted, ridge,
// outset, groove, inset, then none.
func tableStyleRank(s style.BorderStyle) int {
	switch s {
	case style.BorderHidden:
		return 1
	case style.BorderInset:
		return 2
	case style.BorderGroove:
		return 3
	case style.BorderOutset:
		return 4
	case style.BorderRidge:
		return 5
	case style.BorderDotted:
		return 6
	case style.BorderDashed:
		return 7
	case style.BorderSolid:
		return 8
	case style.BorderDouble:
		return 9
	}
	return 0
}

func tableMoreSpecific(st style.BorderStyle, w tableUnit, e *tableEdge) bool {
	if e.doNotFill {
		return false
	}
	if !e.set || st == style.BorderHidden {
		return true
	}
	es := tableCollapsedStyle(e.b.Style)
	if es == style.BorderHidden {
		return false
	}
	if w != e.w {
		return w > e.w
	}
	return tableStyleRank(st) > tableStyleRank(es)
}

// mergeBorders is TableBorders::MergeBorders for a box covering rows
// [row, row+rows) and columns [col, col+cols).
func (t *tableGrid) mergeBorders(row, col, rows, cols int, b *[4]style.Border, cell bool, order int) {
	if rows <= 0 || cols <= 0 || col >= t.numCols {
		return
	}
	cols = min(cols, t.numCols-col)
	rows = min(rows, len(t.rows)-row)
	inner := cell && (rows > 1 || cols > 1)
	if !inner && b[0].Style == style.BorderNone && b[1].Style == style.BorderNone && b[2].Style == style.BorderNone && b[3].Style == style.BorderNone {
		return
	}
	t.mergeRowAxis(row, col, cols, b[style.Top], order)
	t.mergeRowAxis(row+rows, col, cols, b[style.Bottom], order)
	t.mergeColAxis(row, col, rows, b[style.Left], order)
	t.mergeColAxis(row, col+cols, rows, b[style.Right], order)
	if inner {
		for r := row; r < row+rows; r++ {
			for c := col + 1; c < col+cols; c++ {
				if e := &t.edges[r*t.edgesRow+c*2]; !e.set {
					e.doNotFill = true
				}
			}
		}
		for r := row + 1; r < row+rows; r++ {
			for c := col; c < col+cols; c++ {
				if e := &t.edges[r*t.edgesRow+c*2+1]; !e.set {
					e.doNotFill = true
				}
			}
		}
	}
}

func (t *tableGrid) mergeRowAxis(row, col, cols int, b style.Border, order int) {
	st := tableCollapsedStyle(b.Style)
	if st == style.BorderNone {
		return
	}
	w := unitPx(b.Width)
	for c := col; c < col+cols; c++ {
		e := &t.edges[row*t.edgesRow+c*2+1]
		if tableMoreSpecific(st, w, e) {
			*e = tableEdge{b: b, w: w, set: true, order: order}
		}
	}
}

func (t *tableGrid) mergeColAxis(row, col, rows int, b style.Border, order int) {
	st := tableCollapsedStyle(b.Style)
	if st == style.BorderNone {
		return
	}
	w := unitPx(b.Width)
	for r := row; r < row+rows; r++ {
		e := &t.edges[r*t.edgesRow+col*2]
		if tableMoreSpecific(st, w, e) {
			*e = tableEdge{b: b, w: w, set: true, order: order}
		}
	}
}

// edgeWidth is the width an edge paints with: 0 unless it has a visible
// style.
func (t *tableGrid) edgeWidth(i int) tableUnit {
	if i < 0 || i >= len(t.edges) {
		return 0
	}
	e := &t.edges[i]
	if !e.set {
		return 0
	}
	if s := tableCollapsedStyle(e.b.Style); s == style.BorderNone || s == style.BorderHidden {
		return 0
	}
	return e.w
}

// cellBorders is TableBorders::GetCellBorders: for each side the widest
// edge along it, halved (in raw units, truncating, as Chromium does).
func (t *tableGrid) cellBorders(row, col, rows, cols int) [4]tableUnit {
	var b [4]tableUnit
	if t.edgesRow == 0 || col*2 >= t.edgesRow || row >= len(t.edges)/t.edgesRow {
		return b
	}
	for i := 0; i < rows; i++ {
		r := (row + i) * t.edgesRow
		b[style.Left] = maxUnit(b[style.Left], t.edgeWidth(r+col*2))
		b[style.Right] = maxUnit(b[style.Right], t.edgeWidth(r+(col+cols)*2))
	}
	for j := 0; j < cols; j++ {
		b[style.Top] = maxUnit(b[style.Top], t.edgeWidth(row*t.edgesRow+(col+j)*2+1))
		b[style.Bottom] = maxUnit(b[style.Bottom], t.edgeWidth((row+rows)*t.edgesRow+(col+j)*2+1))
	}
	for i := range b {
		b[i] /= 2
	}
	return b
}

// measureBP is a cell's inline border and padding when measuring.
func (t *tableGrid) measureBP(c *tableCell) tableUnit {
	return c.bw[style.Left] + c.bw[style.Right] + t.paddingUnit(c.padding[style.Left]) + t.paddingUnit(c.padding[style.Right])
}

// cellConstraint is TableTypes::CreateCellInlineConstraint.
func (t *tableGrid) cellConstraint(c *tableCell) tableCellConstraint {
	bp := t.measureBP(c)
	size, minS, maxS, hasSize, hasMin, hasMax, pct, hasPct := tableInlineSizes(c.width, c.minWidth, c.maxWidth, c.borderBox, bp)
	minContent := unitCeil(c.minContent) + bp
	maxContent := unitCeil(c.maxContent) + bp
	var rmin tableUnit
	if !t.fixed {
		rmin = minContent
		if hasMin {
			rmin = maxUnit(rmin, minS)
		}
	}
	cmax := maxContent
	if hasSize {
		cmax = size
	}
	if hasMax {
		cmax = minUnit(cmax, maxS)
		rmin = minUnit(rmin, maxS)
	}
	cc := tableCellConstraint{min: rmin, max: maxUnit(rmin, cmax), percent: pct, hasPercent: hasPct, constrained: hasSize}
	if t.fixed && hasPct && !c.borderBox {
		cc.percentBP = bp
	}
	return cc
}

// needsMeasure reports whether cell i's intrinsic widths count: in fixed
// layout only the first row's cells do.
func (t *tableGrid) needsMeasure(i int) bool {
	if !t.fixed {
		return true
	}
	for si := range t.sections {
		s := &t.sections[si]
		if s.rowEnd > s.rowStart {
			r := &t.rows[s.rowStart]
			return i >= r.cellStart && i < r.cellEnd
		}
	}
	return false
}

func optGreater(aHas bool, a float32, bHas bool, b float32) bool {
	return aHas && (!bHas || a > b)
}

func (c *tableCellConstraint) encompass(o *tableCellConstraint) {
	if o.min > c.min {
		c.min = o.min
	}
	switch {
	case c.constrained == o.constrained:
		c.max = maxUnit(c.max, o.max)
	case c.constrained:
		c.max = maxUnit(c.max, o.min)
	default:
		c.max = maxUnit(c.min, o.max)
	}
	c.constrained = c.constrained || o.constrained
	if optGreater(o.hasPercent, o.percent, c.hasPercent, c.percent) {
		c.percent, c.hasPercent, c.percentBP = o.percent, true, o.percentBP
	}
}

func (col *tableColumn) encompass(c *tableCellConstraint) {
	if col.constrained && col.tableFixed {
		return
	}
	if !col.tableFixed {
		col.mergeable = false
	}
	if col.hasMin {
		if col.min < c.min {
			col.min = c.min
		}
		if col.constrained {
			if c.constrained {
				col.max = maxUnit(col.max, c.max)
			} else {
				col.max = maxUnit(col.max, c.min)
			}
		} else {
			if !col.hasMax {
				col.max = 0
			}
			col.max = maxUnit(col.max, c.max)
		}
		col.hasMax = true
	} else {
		col.min, col.max, col.hasMin, col.hasMax = c.min, c.max, true, true
	}
	col.max = maxUnit(col.min, col.max)
	if optGreater(c.hasPercent, c.percent, col.hasPercent, col.percent) {
		col.percent, col.hasPercent, col.percentBP = c.percent, true, c.percentBP
	}
	col.constrained = col.constrained || c.constrained
}

// columns computes the column constraints from the <col> elements and the
// cells' inline constraints (Chromium's ComputeColumnConstraints and
// ApplyCellConstraintsToColumnConstraints). It needs place, borders and
// the cells' minContent and maxContent.
func (t *tableGrid) columnsFromCells() {
	cellCons := make([]tableCellConstraint, t.numCols)
	hasCell := make([]bool, t.numCols)
	var spans []tableColspanCell
	firstSection := true
	for si := range t.sections {
		s := &t.sections[si]
		if s.rowEnd == s.rowStart {
			continue
		}
		for ri := s.rowStart; ri < s.rowEnd; ri++ {
			if t.fixed && (!firstSection || ri != s.rowStart) {
				break
			}
			r := &t.rows[ri]
			for ci := r.cellStart; ci < r.cellEnd; ci++ {
				c := &t.cells[ci]
				if !c.placed {
					continue
				}
				cc := t.cellConstraint(c)
				if c.colspan == 1 {
					if hasCell[c.col] {
						cellCons[c.col].encompass(&cc)
					} else {
						cellCons[c.col], hasCell[c.col] = cc, true
					}
				} else {
					spans = append(spans, tableColspanCell{cc, c.col, c.colspan})
				}
			}
		}
		firstSection = false
	}

	cols := t.colElementColumns(t.columns[:0])
	if len(cols) < t.numCols {
		def := tableColumn{tableFixed: t.fixed, mergeable: !t.fixed}
		for len(cols) < t.numCols {
			cols = append(cols, def)
		}
	} else {
		cols = cols[:t.numCols]
	}
	t.columns = cols
	for _, sp := range spans {
		t.ensureDistributable(sp.start, sp.span)
	}
	for i := range cellCons {
		if hasCell[i] {
			cols[i].encompass(&cellCons[i])
		}
	}
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].span == spans[j].span {
			return spans[i].start < spans[j].start
		}
		return spans[i].span < spans[j].span
	})
	var buf []tableUnit
	for i := range spans {
		if t.fixed {
			t.distributeColspanFixed(&spans[i])
		} else {
			buf = t.distributeColspanAuto(&spans[i], buf)
		}
	}
	var total float32
	for i := range cols {
		c := &cols[i]
		if c.hasPercent {
			if !t.fixed && c.percent+total > 100 {
				c.percent = 100 - total
			}
			total += c.percent
		}
		if !c.hasMin {
			c.min, c.hasMin = 0, true
		}
		if !c.hasMax {
			c.max, c.hasMax = 0, true
		}
	}
	if t.fixed && total > 100 {
		for i := range cols {
			if cols[i].hasPercent {
				cols[i].percent = cols[i].percent * 100 / total
			}
		}
	}
}

// ensureDistributable marks the first non-collapsed column a spanning cell
// covers as not mergeable, so that it can receive the cell's width.
func (t *tableGrid) ensureDistributable(start, span int) {
	if start >= len(t.columns) {
		return
	}
	end := start + min(span, len(t.columns)-start)
	for i := start; i < end; i++ {
		if !t.columns[i].collapsed {
			t.columns[i].mergeable = false
			return
		}
	}
	t.columns[start].mergeable = false
}

func (t *tableGrid) distributeColspanFixed(sp *tableColspanCell) {
	end := min(sp.start+sp.span, len(t.columns))
	cols := t.columns[sp.start:end]
	var spacing tableUnit
	n := 0
	for i := range cols {
		if cols[i].mergeable {
			continue
		}
		if n > 0 {
			spacing += t.spaceH
		}
		n++
	}
	if n == 0 {
		return
	}
	var minS, maxS tableUnit
	if sp.c.constrained {
		minS = (sp.c.min - spacing).clampNeg()
	}
	maxS = (sp.c.max - spacing).clampNeg()
	errMin, errMax := minS, maxS
	newMin := unitF32(minS.float() / float32(n))
	newMax := unitF32(maxS.float() / float32(n))
	var newPct float32
	if sp.c.hasPercent {
		newPct = sp.c.percent / float32(n)
	}
	var last *tableColumn
	for i := range cols {
		c := &cols[i]
		if c.mergeable {
			continue
		}
		last = c
		errMin -= newMin
		errMax -= newMax
		if !c.hasMin {
			c.constrained = c.constrained || sp.c.constrained
			c.min, c.hasMin = newMin, true
		}
		if !c.hasMax {
			c.constrained = c.constrained || sp.c.constrained
			c.max, c.hasMax = newMax, true
		}
		if !c.hasPercent && !c.constrained && sp.c.hasPercent {
			c.percent, c.hasPercent = newPct, true
		}
	}
	last.min += errMin
	last.max += errMax
}

func (t *tableGrid) distributeColspanAuto(sp *tableColspanCell, buf []tableUnit) []tableUnit {
	if len(t.columns) == 0 || sp.start >= len(t.columns) {
		return buf
	}
	end := sp.start + min(sp.span, len(t.columns)-sp.start)
	cols := t.columns[sp.start:end]
	var spacing tableUnit
	first := true
	for i := range cols {
		if !cols[i].mergeable {
			if !first {
				spacing += t.spaceH
			}
			first = false
		}
	}
	minS := (sp.c.min - spacing).clampNeg()
	maxS := (sp.c.max - spacing).clampNeg()
	if sp.c.hasPercent {
		var colsPct float32
		all, pctCount, nonPct := 0, 0, 0
		var nonPctMax tableUnit
		for i := range cols {
			c := &cols[i]
			if !c.hasMax {
				c.max, c.hasMax = 0, true
			}
			if !c.hasMin {
				c.min, c.hasMin = 0, true
			}
			if c.mergeable {
				continue
			}
			all++
			if c.hasPercent {
				pctCount++
				colsPct += c.percent
			} else {
				nonPct++
				nonPctMax += c.max
			}
		}
		surplus := sp.c.percent - colsPct
		if surplus > 0 && all > pctCount {
			for i := range cols {
				c := &cols[i]
				if c.hasPercent || c.mergeable {
					continue
				}
				if nonPctMax != 0 {
					c.percent = surplus * c.max.float() / nonPctMax.float()
				} else {
					c.percent = surplus / float32(nonPct)
				}
				c.hasPercent = true
			}
		}
	}
	for i := range cols {
		c := &cols[i]
		if !c.hasMin {
			c.min, c.hasMin = 0, true
		}
		if !c.hasMax {
			c.max, c.hasMax = 0, true
		}
	}
	buf = tableDistributeAuto(minS, cols, true, buf[:0])
	for i := range cols {
		cols[i].min = maxUnit(cols[i].min, buf[i])
	}
	buf = tableDistributeAuto(maxS, cols, sp.c.constrained, buf[:0])
	for i := range cols {
		cols[i].max = maxUnit(maxUnit(cols[i].min, cols[i].max), buf[i])
	}
	return buf
}

// tableDistributeAuto is Chromium's DistributeInlineSizeToComputedInlineSizeAuto,
// the width distribution of css-tables-3: it finds the first of the min,
// percentage, specified and max guesses that reaches target and grows
// columns between it and the previous guess (or past max, auto columns
// first), carrying rounding into the last column grown. Mergeable columns
// get 0. constrained lets fixed-width columns grow past their width.
func tableDistributeAuto(target tableUnit, cols []tableColumn, constrained bool, out []tableUnit) []tableUnit {
	const (
		minGuess = iota
		pctGuess
		specGuess
		maxGuess
		aboveMax
	)
	var guess, incr [aboveMax]tableUnit
	var totalPct float32
	var totalAutoMax, totalFixedMax tableUnit
	pctCount, fixedCount, autoCount := 0, 0, 0
	for i := range cols {
		c := &cols[i]
		if c.mergeable {
			continue
		}
		switch {
		case c.hasPercent:
			pctCount++
			totalPct += c.percent
			p := c.resolvePercent(target)
			guess[minGuess] += c.min
			guess[pctGuess] += p
			guess[specGuess] += p
			guess[maxGuess] += p
			incr[pctGuess] += p - c.min
		case c.constrained:
			fixedCount++
			totalFixedMax += c.max
			guess[minGuess] += c.min
			guess[pctGuess] += c.min
			guess[specGuess] += c.max
			guess[maxGuess] += c.max
			incr[specGuess] += c.max - c.min
		default:
			autoCount++
			totalAutoMax += c.max
			guess[minGuess] += c.min
			guess[pctGuess] += c.min
			guess[specGuess] += c.min
			guess[maxGuess] += c.max
			incr[maxGuess] += c.max - c.min
		}
	}
	for range cols {
		out = append(out, 0)
	}
	target = maxUnit(target, guess[minGuess])
	start := aboveMax
	for g := minGuess; g < aboveMax; g++ {
		if guess[g] >= target {
			start = g
			break
		}
	}
	last := -1
	finish := func(rest tableUnit) {
		if rest != 0 && last >= 0 {
			out[last] += rest
		}
	}
	switch start {
	case minGuess:
		for i := range cols {
			if !cols[i].mergeable {
				out[i] = cols[i].min
			}
		}
	case pctGuess:
		dist := target - guess[minGuess]
		rest := dist
		for i := range cols {
			c := &cols[i]
			if c.mergeable {
				continue
			}
			if !c.hasPercent {
				out[i] = c.min
				continue
			}
			last = i
			var d tableUnit
			if incr[pctGuess] > 0 {
				d = dist.mulDiv(c.resolvePercent(target)-c.min, incr[pctGuess])
			} else {
				d = dist / tableUnit(pctCount)
			}
			rest -= d
			out[i] = c.min + d
		}
		finish(rest)
	case specGuess:
		dist := target - guess[pctGuess]
		rest := dist
		for i := range cols {
			c := &cols[i]
			switch {
			case c.mergeable:
			case c.hasPercent:
				out[i] = c.resolvePercent(target)
			case c.constrained:
				last = i
				var d tableUnit
				if incr[specGuess] > 0 {
					d = dist.mulDiv(c.max-c.min, incr[specGuess])
				} else {
					d = dist / tableUnit(fixedCount)
				}
				rest -= d
				out[i] = c.min + d
			default:
				out[i] = c.min
			}
		}
		finish(rest)
	case maxGuess:
		dist := target - guess[specGuess]
		// An exact match (an auto-width table at its max-content width)
		// gives every column its max, without rounding.
		exact := target == guess[maxGuess]
		rest := dist
		if exact {
			rest = 0
		}
		for i := range cols {
			c := &cols[i]
			switch {
			case c.mergeable:
			case c.hasPercent:
				out[i] = c.resolvePercent(target)
			case c.constrained || exact:
				out[i] = c.max
			default:
				last = i
				var d tableUnit
				if incr[maxGuess] > 0 {
					d = dist.mulDiv(c.max-c.min, incr[maxGuess])
				} else {
					d = dist / tableUnit(autoCount)
				}
				rest -= d
				out[i] = c.min + d
			}
		}
		finish(rest)
	case aboveMax:
		dist := target - guess[maxGuess]
		switch {
		case autoCount > 0:
			rest := dist
			for i := range cols {
				c := &cols[i]
				switch {
				case c.mergeable:
				case c.hasPercent:
					out[i] = c.resolvePercent(target)
				case c.constrained:
					out[i] = c.max
				default:
					last = i
					var d tableUnit
					if totalAutoMax > 0 {
						d = dist.mulDiv(c.max, totalAutoMax)
					} else {
						d = dist / tableUnit(autoCount)
					}
					rest -= d
					out[i] = c.max + d
				}
			}
			finish(rest)
		case fixedCount > 0 && constrained:
			rest := dist
			for i := range cols {
				c := &cols[i]
				switch {
				case c.mergeable:
				case c.hasPercent:
					out[i] = c.resolvePercent(target)
				case c.constrained:
					last = i
					var d tableUnit
					if totalFixedMax > 0 {
						d = dist.mulDiv(c.max, totalFixedMax)
					} else {
						d = dist / tableUnit(fixedCount)
					}
					rest -= d
					out[i] = c.max + d
				}
			}
			finish(rest)
		case pctCount > 0:
			rest := dist
			for i := range cols {
				c := &cols[i]
				if c.mergeable || !c.hasPercent {
					continue
				}
				last = i
				var d tableUnit
				if totalPct != 0 {
					d = unitF32(dist.float() * c.percent / totalPct)
				} else {
					d = dist / tableUnit(pctCount)
				}
				rest -= d
				out[i] = c.resolvePercent(target) + d
			}
			finish(rest)
		}
	}
	return out
}

// tableDistributeFixed is Chromium's
// SynchronizeAssignableTableInlineSizeAndColumnsFixed: fixed columns take
// their widths (scaled down to fit, or up when nothing else can grow),
// then percentage columns, then auto columns share what is left evenly.
func tableDistributeFixed(target tableUnit, cols []tableColumn, out []tableUnit) []tableUnit {
	treatFixed := func(c *tableColumn) bool { return c.isFixed() && c.max != 0 }
	zeroConstrained := func(c *tableColumn) bool { return c.constrained && c.max == 0 }
	all, pctCount, autoCount, fixedCount, zeroCount := 0, 0, 0, 0, 0
	var totalPct, totalFixed tableUnit
	for i := range cols {
		c := &cols[i]
		out = append(out, 0)
		all++
		switch {
		case c.hasPercent:
			pctCount++
			totalPct += c.resolvePercent(target)
		case treatFixed(c):
			fixedCount++
			totalFixed += c.max
		case zeroConstrained(c):
			zeroCount++
		default:
			autoCount++
		}
	}
	last := -1
	var assigned tableUnit
	if fixedCount > 0 {
		scale := float32(1)
		scaleOK := true
		targetFixed := (target - totalPct).clampNeg()
		up := totalFixed < targetFixed && autoCount == 0
		down := totalFixed > target
		if up || down {
			if totalFixed != 0 {
				scale = targetFixed.float() / totalFixed.float()
			} else {
				scaleOK = false
			}
		}
		for i := range cols {
			c := &cols[i]
			if !treatFixed(c) {
				continue
			}
			last = i
			if scaleOK {
				out[i] = unitF32(scale * c.max.float())
			} else {
				out[i] = unitF32(target.float() / float32(fixedCount))
			}
			assigned += out[i]
		}
	}
	if assigned >= target {
		return out
	}
	if pctCount > 0 {
		scale := float32(1)
		scaleOK := true
		room := target - assigned
		up := totalPct < room && autoCount == 0
		down := totalPct > room
		if up || down {
			if totalPct != 0 {
				scale = room.float() / totalPct.float()
			} else {
				scaleOK = false
			}
		}
		for i := range cols {
			c := &cols[i]
			if !c.hasPercent {
				continue
			}
			last = i
			if scaleOK {
				out[i] = unitF32(scale * c.resolvePercent(target).float())
			} else {
				out[i] = unitF32(room.float() / float32(pctCount))
			}
			assigned += out[i]
		}
	}
	dist := target - assigned
	zeroAll := zeroCount == all
	n := autoCount
	if zeroAll {
		n = zeroCount
	}
	for i := range cols {
		c := &cols[i]
		if c.hasPercent || treatFixed(c) {
			continue
		}
		if zeroConstrained(c) && !zeroAll {
			continue
		}
		last = i
		out[i] = unitF32(dist.float() / float32(n))
		assigned += out[i]
	}
	if last >= 0 {
		out[last] += target - assigned
	}
	return out
}

// undistributable is the inline space no column gets: the table's border
// and padding and the border-spacing around and between columns that are
// not mergeable.
func (t *tableGrid) undistributable() tableUnit {
	n := 2
	first := true
	for i := range t.columns {
		if !t.columns[i].mergeable {
			if first {
				first = false
			} else {
				n++
			}
		}
	}
	return t.bp[style.Left] + t.bp[style.Right] + tableUnit(n)*t.spaceH
}

// gridMinMax is Chromium's ComputeGridInlineMinMax, undistributable space
// included. allowPercent is false when the table is measured inside a
// table cell (percentages then cannot widen it).
func (t *tableGrid) gridMinMax(allowPercent bool) (minS, maxS tableUnit) {
	var pctEstimate, nonPctMax tableUnit
	var pctSum float32
	for i := range t.columns {
		c := &t.columns[i]
		if t.fixed && c.isFixed() {
			minS += c.max
		} else {
			minS += c.min
		}
		if c.hasPercent && c.percent > 0 {
			if c.max > 0 {
				pctEstimate = maxUnit(pctEstimate, unitF32(100/c.percent*(c.max-c.percentBP).float()))
			}
		} else {
			nonPctMax += c.max
		}
		maxS += c.max
		if c.hasPercent {
			pctSum += c.percent
		}
	}
	pctSum = min(pctSum, 100)
	if pctSum > 0 && allowPercent {
		var fromPct tableUnit
		if nonPctMax != 0 {
			if pctSum == 100 {
				fromPct = tableMaxInlineSize
			} else {
				fromPct = unitF32((100 / (100 - pctSum)) * nonPctMax.float())
			}
		}
		maxS = maxUnit(maxS, fromPct)
		maxS = maxUnit(maxS, pctEstimate)
	}
	maxS = maxUnit(minS, maxS)
	u := t.undistributable()
	return minS + u, maxS + u
}

// intrinsic is the table's min-content and max-content widths (border
// box), captions included, for a table measured as content of something
// else; inCell is true inside a table cell.
func (t *tableGrid) intrinsic(inCell bool) (minS, maxS tableUnit) {
	minS, maxS = t.gridMinMax(!inCell)
	cap := unitCeil(t.captionMin)
	minS, maxS = maxUnit(minS, cap), maxUnit(maxS, cap)
	if t.fixed && t.width.Unit == style.Percent {
		maxS = tableMaxInlineSize
	}
	return minS, maxS
}

// resolveWidth resolves a width-like length against avail, border-box:
// tables' widths are border-box by Chromium's UA style (box-sizing:
// border-box on table), and content-box adds the border and padding.
func (t *tableGrid) resolveWidth(l style.Length, avail tableUnit) (tableUnit, bool) {
	var v tableUnit
	switch l.Unit {
	case style.Px:
		v = unitPx(l.V)
	case style.Percent:
		if avail < 0 {
			return 0, false
		}
		v = unitF32(avail.float()*float32(l.V)/100) + unitPx(l.Off)
	default:
		return 0, false
	}
	bp := t.bp[style.Left] + t.bp[style.Right]
	if t.borderBox {
		return maxUnit(v, bp), true
	}
	return v + bp, true
}

// widthAndColumns computes the table's used width within avail (the
// containing block's width less the table's margins; pctBase, the
// containing block's width, resolves percentages), the columns' widths and
// their positions. It needs columns.
func (t *tableGrid) widthAndColumns(avail, pctBase float64) {
	availU, baseU := unitPx(avail), unitPx(pctBase)
	undist := t.undistributable()
	gmin, gmax := t.gridMinMax(true)
	used, ok := t.resolveWidth(t.width, baseU)
	if !ok {
		// Shrink-to-fit.
		used = minUnit(maxUnit(availU, gmin), gmax)
	}
	minW := gmin
	if v, ok := t.resolveWidth(t.minWidth, baseU); ok {
		minW = maxUnit(minW, v)
	}
	if v, ok := t.resolveWidth(t.maxWidth, baseU); ok {
		used = minUnit(used, v)
	}
	used = maxUnit(used, minW)
	used = maxUnit(used, unitCeil(t.captionMin))
	assignable := used - undist

	if len(t.columns) == 0 {
		t.colLoc = t.colLoc[:0]
		t.inlineSize = t.emptyWidth(assignable, undist)
		return
	}
	var sizes []tableUnit
	if t.fixed {
		sizes = tableDistributeFixed(assignable, t.columns, nil)
	} else {
		sizes = tableDistributeAuto(assignable, t.columns, true, nil)
	}
	t.colLoc = t.colLoc[:0]
	off := t.spaceH
	first := true
	for i := range t.columns {
		c := &t.columns[i]
		if c.mergeable && sizes[i] <= 0 {
			t.colLoc = append(t.colLoc, tableColLocation{offset: off, collapsed: true})
			continue
		}
		if first {
			first = false
		} else {
			off += t.spaceH
		}
		loc := tableColLocation{offset: off, size: sizes[i]}
		t.colLoc = append(t.colLoc, loc)
		off += loc.size
	}
	lastLoc := t.colLoc[len(t.colLoc)-1]
	t.inlineSize = lastLoc.offset + lastLoc.size + t.bp[style.Left] + t.bp[style.Right] + t.spaceH
	t.placeCellsInline()
}

// emptyWidth is Chromium's ComputeEmptyTableInlineSize for a table with no
// columns.
func (t *tableGrid) emptyWidth(assignable, undist tableUnit) tableUnit {
	if t.width.Unit != style.Auto || t.minWidth.Unit != style.Auto {
		return assignable + undist
	}
	if cap := unitCeil(t.captionMin); cap > 0 {
		return maxUnit(cap, t.bp[style.Left]+t.bp[style.Right])
	}
	if t.collapse {
		return 0
	}
	return assignable + t.bp[style.Left] + t.bp[style.Right]
}

// placeCellsInline sets each cell's x and w from the column positions.
func (t *tableGrid) placeCellsInline() {
	for i := range t.cells {
		c := &t.cells[i]
		if !c.placed || c.col >= len(t.colLoc) {
			c.placed = false
			continue
		}
		end := min(c.col+c.cols, len(t.colLoc)) - 1
		c.x = t.bp[style.Left] + t.colLoc[c.col].offset
		c.w = t.colLoc[end].offset + t.colLoc[end].size - t.colLoc[c.col].offset
		if t.rtl {
			c.x = t.inlineSize - (t.bp[style.Right] + t.colLoc[c.col].offset + c.w)
		}
	}
}

// cellContentWidth is the width the cell's content is laid out at.
func (t *tableGrid) cellContentWidth(c *tableCell) tableUnit {
	return (c.w - c.bw[style.Left] - c.bw[style.Right] - t.layoutPadding(c, style.Left) - t.layoutPadding(c, style.Right)).clampNeg()
}

// layoutPadding resolves a cell's padding for layout: percentages against
// the table grid's width.
func (t *tableGrid) layoutPadding(c *tableCell, side int) tableUnit {
	l := c.padding[side]
	switch l.Unit {
	case style.Px:
		return unitPx(l.V)
	case style.Percent:
		base := t.inlineSize - t.bp[style.Left] - t.bp[style.Right]
		return unitF32(base.float()*float32(l.V)/100) + unitPx(l.Off)
	}
	return 0
}

// cellBlockBP is a cell's block border and padding at layout.
func (t *tableGrid) cellBlockBP(c *tableCell) (start, end tableUnit) {
	return c.bw[style.Top] + t.layoutPadding(c, style.Top), c.bw[style.Bottom] + t.layoutPadding(c, style.Bottom)
}

type tableRowspanCell struct {
	start, span int
	min         tableUnit
}

// rowspanLess is TableTypes::RowspanCell's operator<: cells over the same
// rows tallest first, an enclosed cell before its encloser, else the upper
// one first.
func rowspanLess(a, b tableRowspanCell) bool {
	enclosed := func(c1, c2 tableRowspanCell) bool {
		return c1.start >= c2.start && c1.start+c1.span <= c2.start+c2.span
	}
	if a.start == b.start && a.span == b.span {
		return a.min > b.min
	}
	if enclosed(a, b) {
		return true
	}
	if enclosed(b, a) {
		return false
	}
	return a.start < b.start
}

// rowsAndHeight computes row heights (cells' heights, baselines,
// rowspans, row and row-group heights, the table's height), the rows' and
// sections' positions, and each cell's y, h and content shift. availHeight
// resolves a percentage table height (negative when indefinite). Cells must
// be laid out at their widths (contentHeight, baseline, hasContent).
func (t *tableGrid) rowsAndHeight(availHeight float64) {
	var rowspans []tableRowspanCell
	var totalMin tableUnit
	for si := range t.sections {
		s := &t.sections[si]
		rowspans = rowspans[:0]
		var size tableUnit
		var totalPct float32
		for ri := s.rowStart; ri < s.rowEnd; ri++ {
			t.minimumRow(ri, &rowspans)
			r := &t.rows[ri]
			if r.hasPercent {
				r.percent = min(100-totalPct, r.percent)
				totalPct += r.percent
			}
			size += r.h
		}
		sort.SliceStable(rowspans, func(i, j int) bool { return rowspanLess(rowspans[i], rowspans[j]) })
		for _, rc := range rowspans {
			if t.work += rc.span; t.work > tableMaxWork {
				break
			}
			t.distributeToRows(rc.start, rc.span, rc.min, true, tableIndefinite)
		}
		if n := s.rowEnd - s.rowStart; n > 1 {
			size += tableUnit(n-1) * t.spaceV
		}
		if s.height.Unit == style.Px {
			fixed := unitPx(s.height.V)
			if fixed > size {
				t.distributeToRows(s.rowStart, s.rowEnd-s.rowStart, fixed, false, fixed)
				size = fixed
			}
		}
		s.minSize = size
		s.constrained = s.height.Unit == style.Px || s.height.Unit == style.Percent
		s.hasPercent = s.height.Unit == style.Percent
		s.percent = float32(s.height.V)
		s.redistrib = false
		totalMin += size
	}

	minimal := tableUnit(0)
	if css, ok := t.cssHeight(availHeight); ok {
		minimal = css
		dist := (css - t.bp[style.Top] - t.bp[style.Bottom]).clampNeg()
		if dist > totalMin {
			t.distributeToSections(dist)
		}
	}
	for ri := range t.rows {
		r := &t.rows[ri]
		if !r.collapsed {
			continue
		}
		if minimal != 0 {
			minimal -= r.h
			if len(t.rows) > 1 {
				minimal -= t.spaceV
			}
		}
		r.h = 0
	}

	// Positions.
	spacing := t.spaceV
	if len(t.columns) == 0 {
		spacing = 0
	}
	y := t.bp[style.Top]
	for si := range t.sections {
		s := &t.sections[si]
		// A group without rows takes no border-spacing before it.
		hasRows := s.rowEnd > s.rowStart
		if hasRows {
			y += spacing
		}
		s.y = y
		off := tableUnit(0)
		firstRow := true
		for ri := s.rowStart; ri < s.rowEnd; ri++ {
			r := &t.rows[ri]
			if !firstRow && !r.collapsed {
				off += spacing
			}
			r.y = y + off
			off += r.h
			firstRow = firstRow && r.collapsed
		}
		if hasRows {
			s.h = off
		} else {
			s.h = s.minSize
		}
		y += s.h
	}
	if len(t.sections) > 0 {
		y += spacing
	}
	y += t.bp[style.Bottom]
	t.gridHeight = maxUnit(y, minimal)

	// Prefix sums of the heights and counts of rows that are not
	// collapsed, for each cell's height over the rows it spans.
	sumH := make([]tableUnit, len(t.rows)+1)
	sumN := make([]int, len(t.rows)+1)
	for ri := range t.rows {
		sumH[ri+1], sumN[ri+1] = sumH[ri], sumN[ri]
		if !t.rows[ri].collapsed {
			sumH[ri+1] += t.rows[ri].h
			sumN[ri+1]++
		}
	}
	for i := range t.cells {
		c := &t.cells[i]
		if !c.placed {
			continue
		}
		r := &t.rows[c.row]
		c.y = r.y
		var h tableUnit
		if !r.collapsed {
			end := c.row + c.rows
			// Border-spacing between the spanned rows that are not
			// collapsed, after the first.
			h = sumH[end] - sumH[c.row] + spacing*tableUnit(sumN[end]-sumN[c.row]-1)
		}
		c.h = h
		bs, be := t.cellBlockBP(c)
		intrinsic := unitRound(c.contentHeight) + bs + be
		free := c.h - intrinsic
		switch c.valign {
		case tableVATop:
			c.shift = 0
		case tableVAMiddle:
			c.shift = free.clampNeg() / 2
		case tableVABottom:
			c.shift = free.clampNeg()
		default:
			c.shift = 0
			if c.hasContent && r.hasBaseline && !t.fragmented {
				c.shift = r.baseline - t.cellBaseline(c)
			}
		}
	}
}

// cellBaseline is the cell's first baseline from its border box's top: of
// its first line, or the bottom of its content box when it has none.
func (t *tableGrid) cellBaseline(c *tableCell) tableUnit {
	bs, _ := t.cellBlockBP(c)
	if c.hasBaseline {
		return bs + unitRound(c.baseline)
	}
	return bs + unitRound(c.contentHeight)
}

// minimumRow is Chromium's ComputeMinimumRowBlockSize: the row's height from
// its cells (baseline-aligned cells by their ascent and descent), its own
// height, and the rowspanning cells it starts.
func (t *tableGrid) minimumRow(ri int, rowspans *[]tableRowspanCell) {
	r := &t.rows[ri]
	var maxCell tableUnit
	r.hasPercent, r.constrained, r.hasRowspanStart = false, false, false
	r.percent = 0
	var ascent, descent, fallback tableUnit
	hasAscent, hasDescent, hasFallback := false, false, false
	for ci := r.cellStart; ci < r.cellEnd; ci++ {
		c := &t.cells[ci]
		if !c.placed {
			continue
		}
		bs, be := t.cellBlockBP(c)
		block := unitRound(c.contentHeight) + bs + be
		spanning := c.rows > 1
		fixedH := c.height.Unit == style.Px
		if fixedH && !spanning {
			r.constrained = true
		}
		if c.valign == tableVABaseline && c.hasContent {
			b := t.cellBaseline(c)
			if !hasAscent || b > ascent {
				ascent = b
			}
			hasAscent = true
			if spanning {
				if !hasDescent {
					descent, hasDescent = 0, true
				}
			} else if !hasDescent || block-b > descent {
				descent, hasDescent = block-b, true
			}
		}
		if !hasAscent {
			d := be
			if !hasFallback || d < fallback {
				fallback = d
			}
			hasFallback = true
		}
		var css tableUnit
		hasCSS := false
		if fixedH {
			v := unitPx(c.height.V)
			if c.heightBorderBox {
				css = maxUnit(bs+be, v)
			} else {
				css = bs + be + v
			}
			hasCSS = true
		}
		if !spanning {
			if hasCSS || c.height.Unit == style.Percent {
				r.constrained = true
			}
			if c.height.Unit == style.Percent {
				p := float32(c.height.V)
				if !r.hasPercent || p > r.percent {
					r.percent = p
				}
				r.hasPercent = true
			}
			maxCell = maxUnit(maxCell, block)
			if hasCSS {
				maxCell = maxUnit(maxCell, css)
			}
		} else {
			r.hasRowspanStart = true
			m := block
			if hasCSS {
				m = maxUnit(m, css)
			}
			*rowspans = append(*rowspans, tableRowspanCell{ri, c.rows, m})
		}
	}
	switch r.height.Unit {
	case style.Percent:
		r.constrained = true
		p := float32(r.height.V)
		if !r.hasPercent || p > r.percent {
			r.percent = p
		}
		r.hasPercent = true
	case style.Px:
		r.constrained = true
		maxCell = maxUnit(unitPx(r.height.V), maxCell)
	}
	r.h = maxCell
	if hasAscent {
		r.h = maxUnit(maxCell, ascent+descent)
	}
	r.ascent, r.hasAscent, r.fallback, r.hasFallback = ascent, hasAscent, fallback, hasFallback
	r.hasBaseline = true
	r.baseline = r.exportBaseline()
}

// firstBaseline is the table box's first baseline from its top: the first
// row's, in the first row group that has rows.
func (t *tableGrid) firstBaseline() (tableUnit, bool) {
	for si := range t.sections {
		s := &t.sections[si]
		if s.rowEnd > s.rowStart {
			r := &t.rows[s.rowStart]
			return r.y + r.exportBaseline(), true
		}
	}
	return 0, false
}

// distributeToRows is Chromium's DistributeExcessBlockSizeToRows: it grows
// rows [start, start+count) until they, with the spacing between them, are
// desired tall: percentage rows first, then rows that start a rowspan
// (when distributing a rowspan), then unconstrained non-empty rows, then
// empty rows, then all non-empty rows in proportion.
func (t *tableGrid) distributeToRows(start, count int, desired tableUnit, rowspan bool, pctBase tableUnit) {
	if count <= 0 {
		return
	}
	end := start + count
	rows := t.rows
	deficit := func(r *tableRow) tableUnit {
		return (unitF32(r.percent*pctBase.float()/100) - r.h).clampNeg()
	}
	var withRowspan, pctDeficit, unconstrainedNonEmpty, empty, nonEmpty, unconstrainedEmpty []int
	constrainedNonEmpty := 0
	var total, pctDeficitSum, unconstrainedSize tableUnit
	for i := start; i < end; i++ {
		r := &rows[i]
		total += r.h
		if rowspan && i != start && r.hasRowspanStart {
			withRowspan = append(withRowspan, i)
		}
		isEmpty := r.h == 0
		if r.hasPercent && r.percent != 0 && pctBase != tableIndefinite {
			if d := deficit(r); d != 0 {
				pctDeficit = append(pctDeficit, i)
				pctDeficitSum += d
				isEmpty = false
			}
		}
		constrained := r.constrained && (!r.hasPercent || pctBase != tableIndefinite)
		if isEmpty {
			empty = append(empty, i)
			if !constrained {
				unconstrainedEmpty = append(unconstrainedEmpty, i)
			}
		} else {
			nonEmpty = append(nonEmpty, i)
			if constrained {
				constrainedNonEmpty++
			} else {
				unconstrainedNonEmpty = append(unconstrainedNonEmpty, i)
				unconstrainedSize += r.h
			}
		}
	}
	dist := desired - t.spaceV*tableUnit(count-1) - total
	if dist <= 0 {
		return
	}
	if len(pctDeficit) > 0 {
		pd := minUnit(pctDeficitSum, dist)
		rest := pd
		for _, i := range pctDeficit {
			d := pd.mulDiv(deficit(&rows[i]), pctDeficitSum)
			rows[i].h += d
			total += d
			dist -= d
			rest -= d
		}
		rows[pctDeficit[len(pctDeficit)-1]].h += rest
		dist -= rest
		if dist <= 0 {
			return
		}
	}
	if len(withRowspan) > 0 {
		rest := dist
		for _, i := range withRowspan {
			d := dist / tableUnit(len(withRowspan))
			rows[i].h += d
			rest -= d
		}
		l := &rows[withRowspan[len(withRowspan)-1]]
		l.h = maxUnit(l.h+rest, 0)
		return
	}
	if len(unconstrainedNonEmpty) > 0 {
		rest := dist
		for _, i := range unconstrainedNonEmpty {
			d := dist.mulDiv(rows[i].h, unconstrainedSize)
			rows[i].h += d
			rest -= d
		}
		rows[unconstrainedNonEmpty[len(unconstrainedNonEmpty)-1]].h += rest
		return
	}
	if len(empty) > 0 {
		onlyEmpty := len(empty) == count
		if rowspan {
			if onlyEmpty {
				rows[empty[len(empty)-1]].h += dist
				return
			}
		} else if onlyEmpty || len(empty)+constrainedNonEmpty == count {
			grow := empty
			if len(unconstrainedEmpty) > 0 {
				grow = unconstrainedEmpty
			}
			rest := dist
			for _, i := range grow {
				d := dist / tableUnit(len(grow))
				rows[i].h = d
				rest -= d
			}
			rows[grow[len(grow)-1]].h += rest
			return
		}
	}
	if len(nonEmpty) > 0 {
		rest := dist
		for _, i := range nonEmpty {
			d := dist.mulDiv(rows[i].h, total)
			rows[i].h += d
			rest -= d
		}
		rows[nonEmpty[len(nonEmpty)-1]].h += rest
	}
}

// cssHeight is the table's specified border-box height, clamped by
// min-height and max-height; false when it is auto (and min-height too).
func (t *tableGrid) cssHeight(avail float64) (tableUnit, bool) {
	bp := t.bp[style.Top] + t.bp[style.Bottom]
	resolve := func(l style.Length) (tableUnit, bool) {
		var v tableUnit
		switch l.Unit {
		case style.Px:
			v = unitPx(l.V)
		case style.Percent:
			if avail < 0 {
				return 0, false
			}
			v = unitF32(float32(avail)*float32(l.V)/100) + unitPx(l.Off)
		default:
			return 0, false
		}
		if t.borderBox {
			return maxUnit(v, bp), true
		}
		return v + bp, true
	}
	h, ok := resolve(t.height)
	minH, okMin := resolve(t.minHeight)
	if !ok && !okMin {
		return 0, false
	}
	if !ok {
		h = bp
	}
	if maxH, okMax := resolve(t.maxHeight); okMax {
		h = minUnit(h, maxH)
	}
	if okMin {
		h = maxUnit(h, minH)
	}
	return maxUnit(h, bp), true
}

// distributeToSections is Chromium's DistributeTableBlockSizeToSections: a
// table taller than its rows grows percentage row groups first, then the
// bodies (auto, else fixed, else percentage), and passes each group's new
// height on to its rows.
func (t *tableGrid) distributeToSections(tableSize tableUnit) {
	secs := t.sections
	if len(secs) == 0 {
		return
	}
	undist := tableUnit(len(secs)+1) * t.spaceV
	dist := (tableSize - undist).clampNeg()
	pctSize := func(s *tableSection) tableUnit {
		return maxUnit(s.minSize, unitF32(s.percent*dist.float()/100))
	}
	var minGuess, pctGuess tableUnit
	hasBody := false
	var auto, fixed, pct, bAuto, bFixed, bPct []int
	var autoSize, fixedSize, pctSizeSum, bAutoSize, bFixedSize, bPctSize tableUnit
	for i := range secs {
		s := &secs[i]
		minGuess += s.minSize
		if s.hasPercent {
			pctGuess += pctSize(s)
		} else {
			pctGuess += s.minSize
		}
		body := s.kind == tableBody
		hasBody = hasBody || body
		switch {
		case s.hasPercent:
			pct = append(pct, i)
			if body {
				bPct = append(bPct, i)
			}
		case s.constrained:
			fixed = append(fixed, i)
			fixedSize += s.minSize
			if body {
				bFixed = append(bFixed, i)
				bFixedSize += s.minSize
			}
		default:
			auto = append(auto, i)
			autoSize += s.minSize
			if body {
				bAuto = append(bAuto, i)
				bAutoSize += s.minSize
			}
		}
	}
	if dist <= minGuess {
		return
	}
	if len(pct) > 0 && pctGuess > minGuess {
		d := minUnit(pctGuess, dist) - minGuess
		diff := pctGuess - minGuess
		rest := d
		for _, i := range pct {
			s := &secs[i]
			delta := d.mulDiv(pctSize(s)-s.minSize, diff)
			s.minSize += delta
			s.redistrib = true
			rest -= delta
			minGuess += delta
			pctSizeSum += s.minSize
			if s.kind == tableBody {
				bPctSize += s.minSize
			}
		}
		l := &secs[pct[len(pct)-1]]
		l.minSize += rest
		pctSizeSum += rest
		minGuess += rest
		if l.kind == tableBody {
			bPctSize += rest
		}
	}
	var grow []int
	var growSize tableUnit
	switch {
	case hasBody && len(bAuto) > 0:
		grow, growSize = bAuto, bAutoSize
	case hasBody && len(bFixed) > 0:
		grow, growSize = bFixed, bFixedSize
	case hasBody:
		grow, growSize = bPct, bPctSize
	case len(auto) > 0:
		grow, growSize = auto, autoSize
	case len(fixed) > 0:
		grow, growSize = fixed, fixedSize
	default:
		grow, growSize = pct, pctSizeSum
	}
	if d := dist - minGuess; d > 0 && len(grow) > 0 {
		rest := d
		for _, i := range grow {
			s := &secs[i]
			var delta tableUnit
			if growSize > 0 {
				delta = d.mulDiv(s.minSize, growSize)
			} else {
				delta = d / tableUnit(len(grow))
			}
			s.minSize += delta
			s.redistrib = true
			rest -= delta
		}
		secs[grow[len(grow)-1]].minSize += rest
	}
	for i := range secs {
		s := &secs[i]
		if s.redistrib {
			t.distributeToRows(s.rowStart, s.rowEnd-s.rowStart, s.minSize, false, s.minSize)
		}
	}
}
