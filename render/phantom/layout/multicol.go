package layout

// Multi-column layout (CSS Multi-column Layout 1), as Chromium prints it.
//
// A multi-column container lays its content out once, in one column as
// wide as a column box, as any block lays out its children. The columns are
// then cut from that flow with the pager of paginate.go, each column a
// "page" of the column height: the same break candidates, units, avoid
// rules, orphans and widows, and the same gaps (an unforced break drops the
// margin after it). The column height is balanced: the least height, in
// layout units, at which the content fits in the columns (column-fill:
// balance, the default, which Chromium also applies to the last fragment
// of a printed multicol). The fragments are then moved from the stitched
// flow into their columns, a box that runs from one column into the next
// cut into one piece per column.
//
// The container is monolithic for pagination: it is kept whole on a page
// (a multicol longer than a page is sliced where the pages end). An
// element that spans the columns (column-span: all), columns filled in
// turn (column-fill: auto) and columns inside columns go to Chromium (the
// style reports them).

import (
	"errors"
	"math"
	"sort"

	"github.com/platen/platen/render/phantom/style"
)

// multicolInfo is one row of a multi-column container's columns, for
// painting its column rules.
type multicolInfo struct {
	// xs are the columns' left edges, in order; w their width; top and h
	// the row's extent; s the container's style.
	xs        []float64
	w, top, h float64
	s         *style.Computed
}

// multicolRec is a multi-column container laid out, for the pagination
// check that it does not run past its page's end (layout.go).
type multicolRec struct {
	b *Box
	f *Frag
	// flowY is the container's top when pagination starts (its fragment
	// may move after it is laid out: a table cell's content is aligned);
	// contentOff its columns' offset from there; h their height.
	flowY, contentOff, h float64
}

// colHint is where a multi-column container that runs past its page's
// end breaks: the first row of columns is first tall (the rest of the
// page), the next ones page (a page's height), and the last is balanced.
type colHint struct{ first, page float64 }

// isMulticol reports whether b is a multi-column container: a block
// container with a column count or width.
func (b *Box) isMulticol() bool {
	s := b.Style
	if s.ColumnCount == 0 && s.ColumnWidth.Unit != style.Px {
		return false
	}
	if b.Kind != KindBlock && b.Kind != KindCell {
		return false
	}
	return !b.isFlexOrGrid()
}

// usedColumns resolves the column count and width from the content box's
// width u (CSS Multi-column 1 §3.4), and the gap between columns (normal
// is 1em).
func usedColumns(s *style.Computed, u float64) (n int, w, gap float64) {
	switch s.ColumnGap.Unit {
	case style.Normal:
		gap = s.FontSize
	case style.Percent:
		gap = s.ColumnGap.V * u / 100
	default:
		gap = s.ColumnGap.V
	}
	gap = math.Max(0, lu(gap))
	if s.ColumnWidth.Unit != style.Px {
		n = max(s.ColumnCount, 1)
		return n, math.Max(0, luFloor((u-float64(n-1)*gap)/float64(n))), gap
	}
	cw := math.Max(s.ColumnWidth.V, 1.0/64)
	n = max(1, min(int(math.Floor((u+gap)/(cw+gap))), maxColumnCount))
	if s.ColumnCount > 0 {
		n = min(n, s.ColumnCount)
	}
	return n, math.Max(0, luFloor((u+gap)/float64(n)-gap)), gap
}

// maxColumnCount bounds the columns a row holds (column-count is held to
// it when styled too).
const maxColumnCount = 1000

// errColumnsFull stops a trial column height that needs more columns than
// there are.
var errColumnsFull = errors.New("layout: more columns than the container has")

// maxColumns bounds the columns a container makes, however they overflow:
// content past them is not laid out in columns.
const maxColumns = 2000

// columns cuts fr's in-flow children, laid out in one column from top to
// bottom at the left of fr's content box (x, u wide), into rows of n
// columns of width w with gap between them, at most maxH tall when the
// container's height is definite (else maxH < 0), and returns the
// columns' bottom. The children of fr end up in their columns: in one row, or, when
// pagination found the container running past its page's end (a hint for
// b), in rows that end where the pages do.
func (l *layouter) columns(b *Box, fr *Frag, x, u, top, bottom, maxH float64, n int, w, gap float64) float64 {
	total := bottom - top
	if total <= 0 || len(fr.Children) == 0 {
		return bottom
	}
	var flow, out []*Frag
	for _, c := range fr.Children {
		if (c.Kind == FragBox || c.Kind == FragLine) && (c.Box == nil || !c.Box.IsOutOfFlow()) {
			flow = append(flow, c)
		} else {
			out = append(out, c)
		}
	}
	if len(flow) == 0 {
		return bottom
	}
	root := &Frag{Kind: FragBox, X: fr.X, Y: top, W: fr.W, H: total, Children: flow}
	var rows []float64 // the heights of the rows before the last
	last := 0.0
	height := func(i int) float64 {
		if r := i / n; r < len(rows) {
			return rows[r]
		}
		return last
	}
	// The pager cuts columns (column breaks and avoids count) from the
	// walk on.
	pg := &pager{l: l, origin: top, colHeight: height}
	pg.walk(root, 0, 0)
	fits := func(h float64, maxCols int) bool {
		last = h
		pg.gaps = pg.gaps[:0]
		pg.maxCols = maxCols
		_, err := pg.fill()
		return err == nil
	}
	// balance finds the least last-row height, in layout units, from lo
	// to hi at which the content fits.
	balance := func(lo, hi float64) float64 {
		lo, hi = math.Min(math.Ceil(lo*64), math.Ceil(hi*64)), math.Ceil(hi*64)
		for lo < hi && l.check() {
			mid := math.Floor((lo + hi) / 2)
			if fits(mid/64, (len(rows)+1)*n) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return hi / 64
	}
	h := total
	hint, hinted := l.colHints[b]
	perRow := n // the columns of a row; more overflow to the side
	switch {
	case hinted && !fits(hint.first, n):
		// The rest of the page holds the first row (unless its first
		// line does not fit there: the columns then start on the next
		// page); each page after it holds a row; the last row is
		// balanced. One fill with every later row a page tall says how
		// many rows there are.
		first := hint.first
		for _, e := range pg.entries {
			if e.kind == entUnit {
				if e.bottom-top > first+0.01 {
					first = hint.page
				}
				break
			}
		}
		if first == hint.page && fits(hint.page, n) {
			// They all fit on the next page: one balanced row there.
			h = balance(total/float64(n), hint.page)
			break
		}
		rows, last = []float64{first}, hint.page
		pg.gaps = pg.gaps[:0]
		pg.maxCols = maxColumns
		cols, err := pg.fill()
		if err != nil {
			return bottom
		}
		for len(rows) < (len(cols)+n-1)/n-1 {
			rows = append(rows, hint.page)
		}
		// Balancing starts from the rest of the content (its trailing
		// margin included) shared among the last row's columns, as
		// Chromium's column balancer does, and grows until it fits.
		pg.gaps = pg.gaps[:0]
		pg.maxCols = (len(rows) + 1) * n
		rest := hint.page
		if cols, err := pg.fill(); err == nil && len(cols) > len(rows)*n {
			shift := 0.0
			for _, g := range pg.gaps {
				shift += g.d
			}
			rest = (bottom + shift - cols[len(rows)*n].start) / float64(n)
		}
		h = balance(rest, hint.page)
	case maxH >= 0 && !fits(maxH, n):
		// A height holds the columns: they fill it in turn, and what does
		// not fit overflows to the side (as in Chromium).
		rows, last, perRow = nil, maxH, maxColumns
		h = maxH
	case !fits(total, n):
		// Even one column of the whole content makes more columns
		// (forced breaks): more rows of them follow.
		rows, last = nil, total
	default:
		hi := total
		if maxH >= 0 {
			hi = math.Min(hi, maxH)
		}
		h = balance(math.Min(total/float64(n), hi), hi)
	}
	maxCols := min((len(rows)+1)*n, maxColumns)
	if perRow > n {
		maxCols = maxColumns
	}
	if !fits(h, maxCols) {
		maxCols = maxColumns
		if !fits(h, maxCols) {
			return bottom
		}
	}
	pg.gaps = pg.gaps[:0]
	cols, err := pg.fill()
	if err != nil || len(cols) == 0 {
		return bottom
	}
	pg.sortGaps()
	for _, c := range flow {
		pg.apply(c)
	}
	// Column i shows the stitched flow from starts[i], in row i / n.
	k := len(cols)
	perRow = min(perRow, max(k, n))
	cs := &columnSplit{starts: make([]float64, k), dx: make([]float64, k), dy: make([]float64, k)}
	nRows := (k + perRow - 1) / perRow
	rowTop := make([]float64, nRows+1)
	rowTop[0] = top
	for r := 0; r < nRows; r++ {
		rh := last
		if r < len(rows) {
			rh = rows[r]
		}
		rowTop[r+1] = rowTop[r] + rh
	}
	rtl := b.Style.Direction == "rtl"
	colDx := func(c int) float64 {
		if rtl {
			return u - w - float64(c)*(w+gap)
		}
		return float64(c) * (w + gap)
	}
	for i, c := range cols {
		cs.starts[i] = c.start
		cs.dx[i] = colDx(i % perRow)
		cs.dy[i] = rowTop[i/perRow] - c.start
	}
	byRow := make([][]*Frag, nRows)
	for _, c := range flow {
		for _, p := range cs.split(c, 0) {
			r := p.col / perRow
			byRow[r] = append(byRow[r], p.f)
		}
	}
	for i, c := range cols {
		// A table's header and footer repeated in the column.
		for _, f := range c.repeats {
			f.translate(cs.dx[i], cs.dy[i])
			byRow[i/perRow] = append(byRow[i/perRow], f)
		}
	}
	info := func(r int) *multicolInfo {
		m := &multicolInfo{w: w, top: rowTop[r], h: rowTop[r+1] - rowTop[r], s: b.Style}
		for c := 0; c < perRow && r*perRow+c < k; c++ {
			m.xs = append(m.xs, x+colDx(c))
		}
		return m
	}
	if nRows == 1 {
		fr.Children = append(byRow[0], out...)
		fr.monolithic = true
		fr.multicol = info(0)
	} else {
		// A row per page: each kept whole, breaks between them.
		kids := make([]*Frag, 0, nRows+len(out))
		for r := range byRow {
			row := &Frag{Kind: FragBox, X: fr.X, Y: rowTop[r], W: fr.W, H: rowTop[r+1] - rowTop[r], Children: byRow[r], monolithic: true}
			row.multicol = info(r)
			kids = append(kids, row)
		}
		fr.Children = append(kids, out...)
	}
	l.multicols = append(l.multicols, &multicolRec{b: b, f: fr, contentOff: top - fr.Y, h: rowTop[nRows] - top})
	return rowTop[nRows]
}

// columnSplit moves fragments from the stitched column flow (column i
// from starts[i]) into their columns (by dx[i], dy[i]).
type columnSplit struct {
	starts, dx, dy []float64
}

// piece is a fragment's part in one column.
type piece struct {
	col int
	f   *Frag
}

// col is the column that flow position y falls in.
func (cs *columnSplit) col(y float64) int {
	i := sort.Search(len(cs.starts), func(i int) bool { return cs.starts[i] > y+1.0/128 }) - 1
	return max(i, 0)
}

// end is where column i's window on the flow ends.
func (cs *columnSplit) end(i int) float64 {
	if i+1 < len(cs.starts) {
		return cs.starts[i+1]
	}
	return math.Inf(1)
}

// split returns f's pieces, each moved into its column: f itself when it
// lies in one column (or cannot be cut: a line, a monolithic box), else a
// copy of f per column it runs through, holding the pieces of its
// children there.
func (cs *columnSplit) split(f *Frag, depth int) []piece {
	first := cs.col(f.Y)
	last := cs.col(f.Y + f.H - 1.0/64)
	if f.Kind != FragBox || f.monolithic || last <= first || depth > 512 ||
		(f.Box != nil && (f.Box.Kind == KindRow && !f.splitRow || f.Box.Kind == KindReplaced || f.Box.Inline)) {
		f.translate(cs.dx[first], cs.dy[first])
		return []piece{{first, f}}
	}
	parts := make([]*Frag, last-first+1)
	for i := range parts {
		c := new(Frag)
		*c = *f
		c.Children = nil
		c.flex = nil
		wTop, wBot := cs.starts[first+i], cs.end(first+i)
		y0, y1 := math.Max(f.Y, wTop), math.Min(f.Y+f.H, wBot)
		c.Y, c.H = y0, math.Max(0, y1-y0)
		c.NoStart = f.NoStart || f.Y < wTop-1.0/128
		c.NoEnd = f.NoEnd || f.Y+f.H > wBot+1.0/128
		parts[i] = c
	}
	for _, ch := range f.Children {
		if ch.Kind == FragBox && ch.Box != nil && ch.Box.IsOutOfFlow() {
			// Positioned from f's first piece.
			ch.translate(cs.dx[first], cs.dy[first])
			parts[0].Children = append(parts[0].Children, ch)
			continue
		}
		for _, p := range cs.split(ch, depth+1) {
			i := min(max(p.col-first, 0), len(parts)-1)
			parts[i].Children = append(parts[i].Children, p.f)
		}
	}
	out := make([]piece, len(parts))
	for i, c := range parts {
		col := first + i
		c.X += cs.dx[col]
		c.Y += cs.dy[col]
		c.Baseline += cs.dy[col]
		out[i] = piece{col, c}
	}
	return out
}

// maxColumnPasses bounds the layouts a document's multi-column containers
// that run past their pages' ends may take.
const maxColumnPasses = 8

// columnsPastPage finds, after pagination, the first multi-column
// container laid out in one row that does not fit on the rest of the page
// it starts on, and where its rows must break.
func (l *layouter) columnsPastPage(pages []page) (*Box, colHint, bool) {
	pg := l.pager
	if pg == nil || len(pages) == 0 {
		return nil, colHint{}, false
	}
	lastRec := map[*Box]*multicolRec{}
	for _, m := range l.multicols {
		lastRec[m.b] = m // a box laid out again (measured first) keeps its last
	}
	for _, m := range l.multicols {
		if _, done := l.colHints[m.b]; done || lastRec[m.b] != m {
			continue
		}
		// Where the columns would start had nothing pushed them.
		y := m.flowY + pg.shiftAt(m.flowY, true) + m.contentOff
		k := sort.Search(len(pages), func(i int) bool { return pages[i].start > y+0.01 }) - 1
		if k < 0 {
			continue
		}
		rest := pages[k].start + pages[k].geom.flowH - y
		if rest <= 0 || m.h <= rest+0.01 {
			continue
		}
		next := pages[min(k+1, len(pages)-1)].geom.flowH
		return m.b, colHint{first: luFloor(rest), page: luFloor(next)}, true
	}
	return nil, colHint{}, false
}
