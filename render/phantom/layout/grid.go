package layout

import (
	"errors"
	"math"
	"sort"

	"github.com/platen/platen/render/phantom/style"
)

// Grid layout: CSS Grid Layout 1 §7-12. The explicit grid from the
// templates and areas (automatic repetitions counted against the content
// box); items placed by their lines, then auto-placed (§8.5, sparse or
// dense, by rows or columns); the columns sized by the track sizing
// algorithm (§11: intrinsic contributions by span, maximised, flexible
// tracks expanded, auto tracks stretched), each item laid out at its
// column area for its height, then the rows sized the same way; the
// tracks placed by justify-content and align-content, and each item in
// its area by justify-self and align-self.
//
// Pagination keeps the rows that items span together (a table row's
// rule): a group of rows with several items is one unit, a group with
// one item breaks like a block.

// ErrGridTooLarge is returned for a grid with more tracks on one axis
// than a document can use.
var ErrGridTooLarge = errors.New("layout: a grid has more rows or columns than allowed (100,000); use fewer items, lines or spans")

// maxGridAxisTracks bounds one axis of one grid (explicit and implicit
// tracks together).
const maxGridAxisTracks = 100000

// Grid axes.
const (
	gridCols = 0
	gridRows = 1
)

// gridItem is one in-flow child of a grid container during layout.
type gridItem struct {
	itemBox
	// start and end are the item's first track and the track after its
	// last, by axis (gridCols, gridRows).
	start, end [2]int
	// minC and maxC are its min-content and max-content contributions to
	// the columns (margin box widths).
	minC, maxC float64
	fr         *Frag
	frW        float64
	area       cbox
	// doc is its index in order-modified document order.
	doc int
}

type gridTrack struct {
	size     style.TrackSize
	min, max style.GridBreadth
	// fit is a fit-content() track's limit (+Inf for none).
	fit         float64
	base, limit float64
	planned     float64
	pos         float64
	collapsed   bool
}

type gridAxis struct {
	tracks []gridTrack
	gap    float64
}

// gridContainer is one grid container's layout state.
type gridContainer struct {
	l     *layouter
	b     *Box
	s     *style.Computed
	items []*gridItem
	ax    [2]gridAxis
}

// Track sizing modes: the container's size on the axis is known (or
// indefinite while laying out), or its min-content or max-content size
// is being measured.
const (
	sizeLayout = iota
	sizeMinContent
	sizeMaxContent
)

// isGrid reports whether b is a grid container.
func (b *Box) isGrid() bool {
	d := b.Style.Display
	return (d == style.DisplayGrid || d == style.DisplayInlineGrid) && b.Kind == KindBlock
}

// isFlexOrGrid reports whether b lays its children out as flex or grid
// items.
func (b *Box) isFlexOrGrid() bool { return b.isFlex() || b.isGrid() }

// newGrid collects b's in-flow children as items, in order-modified
// document order, and places them; the absolutely positioned ones go to
// add when it is not nil. cw is the content width (-1 when measuring),
// ch the content height or -1.
func (l *layouter) newGrid(b *Box, cw, ch float64, add func(c *Box)) *gridContainer {
	s := b.Style
	gc := &gridContainer{l: l, b: b, s: s}
	for _, c := range b.Children {
		if !l.check() {
			return nil
		}
		if c.IsOutOfFlow() {
			if add != nil {
				add(c)
			}
			continue
		}
		gc.items = append(gc.items, &gridItem{itemBox: newItemBox(c, math.Max(cw, 0))})
	}
	sort.SliceStable(gc.items, func(i, j int) bool { return gc.items[i].s.Order < gc.items[j].s.Order })
	for i, it := range gc.items {
		it.doc = i
	}
	gc.ax[gridCols].gap = gapOf(s.ColumnGap, cw)
	gc.ax[gridRows].gap = gapOf(s.RowGap, ch)
	if !gc.place(cw, ch) {
		return nil
	}
	return gc
}

// layoutGrid lays out grid container b's items in its content box inner,
// whose top is g.y; ch is the content height when definite (else -1) and
// cbH the height b's own percentages resolve against. It leaves g.y at the
// content box's bottom.
func (l *layouter) layoutGrid(b *Box, fr *Frag, inner cbox, g *flow, ch, cbH float64) {
	l.flexNest++
	defer func() { l.flexNest-- }()
	s := b.Style
	top := g.y
	gc := l.newGrid(b, inner.w, ch, func(c *Box) { l.addAbs(c, fr, inner.x, top, inner.x+inner.w) })
	if gc == nil {
		return
	}
	rtl := s.Direction == "rtl"

	// Columns, then each item at its columns' width.
	for _, it := range gc.items {
		it.minC, it.maxC = l.outerIntrinsic(it.b, false)
	}
	gc.sizeTracks(gridCols, inner.w, sizeLayout)
	gc.positionTracks(gridCols, inner.w, s.JustifyContent)
	for _, it := range gc.items {
		if !l.check() {
			return
		}
		x, w := gc.span(gridCols, it)
		if rtl {
			x = inner.w - x - w
		}
		it.area = cbox{x: inner.x + x, w: w, h: -1}
		gc.layoutAtWidth(it)
	}

	// Rows: sized by the items' heights; a container of auto height is
	// as tall as its rows, within its min and max height, and sized again
	// when those bound it.
	bd, pd := boxBorders(s), boxPadding(s, inner.w)
	gc.sizeTracks(gridRows, ch, sizeLayout)
	height := ch
	if ch < 0 {
		sum := gc.tracksSize(gridRows)
		height = clampHeight(s, sum, cbH, bd, pd)
		if height != sum {
			gc.sizeTracks(gridRows, height, sizeLayout)
		}
	}
	gc.positionTracks(gridRows, height, s.AlignContent)

	for _, it := range gc.items {
		if !l.check() {
			return
		}
		y, h := gc.span(gridRows, it)
		it.area.h = h
		gc.alignItem(it, top+y)
	}

	// Children by groups of rows that items span together.
	order := make([]*gridItem, len(gc.items))
	copy(order, gc.items)
	sort.SliceStable(order, func(i, j int) bool { return order[i].start[gridRows] < order[j].start[gridRows] })
	info := &flexInfo{}
	groupEnd := -1
	var group []*gridItem
	flush := func() {
		if len(group) == 0 {
			return
		}
		sort.SliceStable(group, func(i, j int) bool { return group[i].doc < group[j].doc })
		info.lines = append(info.lines, len(fr.Children))
		for _, it := range group {
			fr.Children = append(fr.Children, it.fr)
		}
		group = group[:0]
	}
	for _, it := range order {
		if it.start[gridRows] >= groupEnd {
			flush()
		}
		group = append(group, it)
		groupEnd = max(groupEnd, it.end[gridRows])
	}
	flush()
	fr.flex = info
	g.y = top + height
}

// place resolves the explicit grid and every item's area (§8), and makes
// the tracks. cw and ch are the content box's size or -1.
func (gc *gridContainer) place(cw, ch float64) bool {
	s := gc.s
	var explicit [2]int
	var sizes [2][]style.TrackSize
	var names [2][][]string
	var repeat [2][2]int // the automatic repetition's tracks, [start, end)
	for a, tl := range [2]*style.TrackList{s.GridTemplateColumns, s.GridTemplateRows} {
		avail := cw
		if a == gridRows {
			avail = ch
			if avail < 0 {
				bd, pd := boxBorders(s), boxPadding(s, math.Max(cw, 0))
				if mx := s.MaxHeight; mx.Unit == style.Px {
					avail = clampHeight(s, math.Inf(1), -1, bd, pd)
				}
			}
		}
		n := 0
		if tl != nil && tl.RepeatAt >= 0 {
			n = gc.repetitions(tl, avail, gc.ax[a].gap)
			repeat[a] = [2]int{tl.RepeatAt, tl.RepeatAt + n*len(tl.Repeat)}
		}
		sizes[a], names[a] = tl.Expand(n)
		explicit[a] = len(sizes[a])
	}
	if ar := s.GridTemplateAreas; ar != nil {
		explicit[gridCols] = max(explicit[gridCols], ar.Cols)
		explicit[gridRows] = max(explicit[gridRows], ar.Rows)
	}
	for a := range names {
		// A copy: the style's lists are shared with other grids.
		names[a] = append([][]string(nil), names[a]...)
		for len(names[a]) < explicit[a]+1 {
			names[a] = append(names[a], nil)
		}
	}
	if ar := s.GridTemplateAreas; ar != nil {
		for name, g := range ar.Areas {
			names[gridCols][g.Col0] = append(append([]string(nil), names[gridCols][g.Col0]...), name+"-start")
			names[gridCols][g.Col1] = append(append([]string(nil), names[gridCols][g.Col1]...), name+"-end")
			names[gridRows][g.Row0] = append(append([]string(nil), names[gridRows][g.Row0]...), name+"-start")
			names[gridRows][g.Row1] = append(append([]string(nil), names[gridRows][g.Row1]...), name+"-end")
		}
	}

	// Definite lines, then the implicit tracks before the explicit grid.
	var definite [][2]bool = make([][2]bool, len(gc.items))
	var spans = make([][2]int, len(gc.items))
	lo := [2]int{}
	for i, it := range gc.items {
		ls := [2][2]style.GridLine{{it.s.GridColumnStart, it.s.GridColumnEnd}, {it.s.GridRowStart, it.s.GridRowEnd}}
		for a := 0; a < 2; a++ {
			start, end, span, ok := resolveLines(ls[a][0], ls[a][1], names[a], explicit[a])
			if ok {
				it.start[a], it.end[a] = start, end
				definite[i][a] = true
				lo[a] = min(lo[a], start)
			}
			spans[i][a] = span
		}
	}
	offset := [2]int{-lo[0], -lo[1]}
	for i, it := range gc.items {
		for a := 0; a < 2; a++ {
			if definite[i][a] {
				it.start[a] += offset[a]
				it.end[a] += offset[a]
			}
		}
	}

	// Auto-placement (§8.5) on the flow's axes.
	major, minor := gridRows, gridCols
	if s.GridAutoFlow&style.FlowColumn != 0 {
		major, minor = gridCols, gridRows
	}
	dense := s.GridAutoFlow&style.FlowDense != 0
	minorCount := offset[minor] + explicit[minor]
	for i, it := range gc.items {
		if definite[i][minor] {
			minorCount = max(minorCount, it.end[minor])
		} else {
			minorCount = max(minorCount, spans[i][minor])
		}
	}
	occ := &gridOccupancy{}
	for i, it := range gc.items {
		if definite[i][0] && definite[i][1] {
			if !occ.mark(it.start[major], it.end[major], it.start[minor], it.end[minor]) {
				gc.l.err = ErrGridTooLarge
				return false
			}
		}
	}
	// Items locked to a major track.
	cursorOf := map[int]int{}
	for i, it := range gc.items {
		if !definite[i][major] || definite[i][minor] {
			continue
		}
		m := 0
		if !dense {
			m = cursorOf[it.start[major]]
		}
		for !occ.free(it.start[major], it.end[major], m, m+spans[i][minor]) {
			if !gc.l.check() {
				return false
			}
			m++
		}
		it.start[minor], it.end[minor] = m, m+spans[i][minor]
		cursorOf[it.start[major]] = it.end[minor]
		minorCount = max(minorCount, it.end[minor])
		if !occ.mark(it.start[major], it.end[major], it.start[minor], it.end[minor]) {
			gc.l.err = ErrGridTooLarge
			return false
		}
		definite[i][minor] = true
	}
	// The rest, by the cursor.
	curMajor, curMinor := 0, 0
	// Dense placement searches from the start for each item; where an
	// item of the same spans (and column) was placed last, everything
	// before was full for it then and still is.
	denseFrom := map[[3]int][2]int{}
	for i, it := range gc.items {
		if definite[i][major] {
			continue
		}
		n := spans[i][major]
		var key [3]int
		if dense {
			curMajor, curMinor = occ.firstOpen(minorCount), 0
			key = [3]int{-1, spans[i][minor], n}
			if definite[i][minor] {
				key = [3]int{it.start[minor], it.end[minor], n}
			}
			if from, ok := denseFrom[key]; ok && (from[0] > curMajor || from[0] == curMajor && from[1] > curMinor) {
				curMajor, curMinor = from[0], from[1]
			}
		}
		if definite[i][minor] {
			s0, s1 := it.start[minor], it.end[minor]
			if !dense && s0 < curMinor {
				curMajor++
			}
			curMinor = s0
			for !occ.free(curMajor, curMajor+n, s0, s1) {
				if !gc.l.check() {
					return false
				}
				curMajor++
			}
		} else {
			w := spans[i][minor]
			for {
				if !gc.l.check() {
					return false
				}
				if curMinor+w > minorCount {
					curMajor++
					curMinor = 0
					continue
				}
				end := occ.blocked(curMajor, curMajor+n, curMinor, curMinor+w)
				if end < 0 {
					break
				}
				curMinor = end // past what is in the way
			}
			it.start[minor], it.end[minor] = curMinor, curMinor+w
		}
		if dense {
			denseFrom[key] = [2]int{curMajor, it.start[minor]}
		}
		it.start[major], it.end[major] = curMajor, curMajor+n
		if !occ.mark(it.start[major], it.end[major], it.start[minor], it.end[minor]) {
			gc.l.err = ErrGridTooLarge
			return false
		}
	}

	// Tracks: explicit ones from the template, implicit ones from
	// grid-auto-columns and grid-auto-rows.
	autos := [2][]style.TrackSize{s.GridAutoColumns, s.GridAutoRows}
	for a := 0; a < 2; a++ {
		count := offset[a] + explicit[a]
		for _, it := range gc.items {
			count = max(count, it.end[a])
		}
		if count > maxGridAxisTracks {
			gc.l.err = ErrGridTooLarge
			return false
		}
		ax := &gc.ax[a]
		ax.tracks = make([]gridTrack, count)
		auto := autos[a]
		for i := range ax.tracks {
			t := &ax.tracks[i]
			e := i - offset[a]
			switch {
			case e >= 0 && e < len(sizes[a]):
				t.size = sizes[a][e]
			case len(auto) == 0:
				t.size = style.TrackSize{Min: style.GridBreadth{Kind: style.BrAuto}, Max: style.GridBreadth{Kind: style.BrAuto}}
			case e >= 0:
				t.size = auto[(e-len(sizes[a]))%len(auto)]
			default:
				t.size = auto[len(auto)-1-((-e-1)%len(auto))]
			}
		}
		// auto-fit: the repeated tracks no item is in collapse.
		if tl := [2]*style.TrackList{s.GridTemplateColumns, s.GridTemplateRows}[a]; tl != nil && tl.AutoFit && repeat[a][1] > repeat[a][0] {
			used := make([]bool, repeat[a][1]-repeat[a][0])
			for _, it := range gc.items {
				for k := it.start[a]; k < it.end[a]; k++ {
					if j := k - offset[a] - repeat[a][0]; j >= 0 && j < len(used) {
						used[j] = true
					}
				}
			}
			for j, u := range used {
				if !u {
					ax.tracks[offset[a]+repeat[a][0]+j].collapsed = true
				}
			}
		}
	}
	return true
}

// repetitions is how many times a track list's automatic repetition
// repeats in avail (§7.2.3.2): as many as fit, at least one.
func (gc *gridContainer) repetitions(tl *style.TrackList, avail, gap float64) int {
	if avail < 0 {
		return 1
	}
	fixed := func(t style.TrackSize) float64 {
		if t.Max.Kind == style.BrLength {
			return length(t.Max.L, avail, 0)
		}
		return length(t.Min.L, avail, 0)
	}
	other := 0.0
	for _, t := range tl.Sizes {
		other += fixed(t) + gap
	}
	per := 0.0
	for _, t := range tl.Repeat {
		per += fixed(t) + gap
	}
	if per <= 0 {
		return 1
	}
	n := int(math.Floor((avail - other + gap) / per))
	// Within the track bound, whatever the repeated tracks' count.
	n = min(n, (style.MaxGridTracks-len(tl.Sizes))/max(1, len(tl.Repeat)))
	return max(1, n)
}

// resolveLines resolves an item's lines on one axis (§8.3): its start and
// end lines when definite (0-based, possibly negative), and its span.
func resolveLines(gs, ge style.GridLine, names [][]string, explicit int) (start, end, span int, ok bool) {
	sDef := !gs.IsAuto() && !gs.Span
	eDef := !ge.IsAuto() && !ge.Span
	switch {
	case sDef && eDef:
		start = lineOf(gs, false, names, explicit)
		end = lineOf(ge, true, names, explicit)
		if end < start {
			start, end = end, start
		}
		if end == start {
			end = start + 1
		}
	case sDef:
		start = lineOf(gs, false, names, explicit)
		switch {
		case ge.Span && ge.Name != "":
			end = spanNamed(start, ge, names, explicit, 1)
		case ge.Span:
			end = start + ge.N
		default:
			end = start + 1
		}
	case eDef:
		end = lineOf(ge, true, names, explicit)
		switch {
		case gs.Span && gs.Name != "":
			start = spanNamed(end, gs, names, explicit, -1)
		case gs.Span:
			start = end - gs.N
		default:
			start = end - 1
		}
	default:
		span = 1
		if gs.Span && gs.Name == "" {
			span = gs.N
		} else if ge.Span && ge.Name == "" && !gs.Span {
			span = ge.N
		}
		return 0, 0, min(span, style.MaxGridLine), false
	}
	start = max(-style.MaxGridLine, min(start, style.MaxGridLine+explicit))
	end = max(start+1, min(end, style.MaxGridLine+explicit+1))
	return start, end, end - start, true
}

// lineOf resolves a definite line: a number, a name with a count, or an
// area's name (its -start or -end line).
func lineOf(g style.GridLine, isEnd bool, names [][]string, explicit int) int {
	if g.Name == "" {
		if g.N > 0 {
			return g.N - 1
		}
		return explicit + 1 + g.N
	}
	n := g.N
	if n == 0 {
		suffix := "-start"
		if isEnd {
			suffix = "-end"
		}
		for i, ns := range names {
			if hasName(ns, g.Name+suffix) {
				return i
			}
		}
		n = 1
	}
	if n > 0 {
		for i, ns := range names {
			if hasName(ns, g.Name) {
				if n--; n == 0 {
					return i
				}
			}
		}
		// Every implicit line after the explicit grid has the name.
		return explicit + n
	}
	for i := len(names) - 1; i >= 0; i-- {
		if hasName(names[i], g.Name) {
			if n++; n == 0 {
				return i
			}
		}
	}
	return n
}

// spanNamed is the line a named span reaches from line from, going in
// dir (+1 to the end, -1 to the start).
func spanNamed(from int, g style.GridLine, names [][]string, explicit, dir int) int {
	n := g.N
	for i := from + dir; ; i += dir {
		if dir < 0 && i < 0 || dir > 0 && i >= len(names) {
			// Past the explicit grid on the search's side every line has
			// the name.
			return i + dir*(n-1)
		}
		if i < 0 || i >= len(names) {
			continue // an implicit line behind the search: unnamed
		}
		if hasName(names[i], g.Name) {
			if n--; n == 0 {
				return i
			}
		}
	}
}

func hasName(ns []string, name string) bool {
	for _, n := range ns {
		if n == name {
			return true
		}
	}
	return false
}

// gridOccupancy is the occupied cells of auto-placement: by major track,
// the occupied minor ranges, sorted and merged.
type gridOccupancy struct {
	rows [][][2]int
	// full is the first major track that may have a free cell: the
	// tracks before it are occupied from 0 to at least fullAt.
	full, fullAt int
}

// blocked is -1 when the cells are free, else the end of the occupied
// range in the way that ends last.
func (o *gridOccupancy) blocked(m0, m1, n0, n1 int) int {
	end := -1
	for m := m0; m < m1 && m < len(o.rows); m++ {
		for _, r := range o.rows[m] {
			if r[0] >= n1 {
				break
			}
			if n0 < r[1] {
				end = max(end, r[1])
			}
		}
	}
	return end
}

func (o *gridOccupancy) free(m0, m1, n0, n1 int) bool {
	for m := m0; m < m1 && m < len(o.rows); m++ {
		for _, r := range o.rows[m] {
			if r[0] >= n1 {
				break
			}
			if n0 < r[1] {
				return false
			}
		}
	}
	return true
}

// firstOpen is the first major track with a free cell below minor track
// count: dense placement need not look before it.
func (o *gridOccupancy) firstOpen(count int) int {
	if count != o.fullAt {
		o.full, o.fullAt = 0, count
	}
	for o.full < len(o.rows) {
		r := o.rows[o.full]
		if len(r) == 0 || r[0][0] > 0 || r[0][1] < count {
			break
		}
		o.full++
	}
	return o.full
}

// mark occupies the cells; it reports false when the grid grows past its
// bound.
func (o *gridOccupancy) mark(m0, m1, n0, n1 int) bool {
	if m1 > maxGridAxisTracks || n1 > maxGridAxisTracks {
		return false
	}
	for len(o.rows) < m1 {
		o.rows = append(o.rows, nil)
	}
	for m := m0; m < m1; m++ {
		o.rows[m] = mergeRange(o.rows[m], n0, n1)
	}
	return true
}

// mergeRange adds [n0, n1) to sorted disjoint ranges.
func mergeRange(rs [][2]int, n0, n1 int) [][2]int {
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] >= n0 })
	j := i
	for j < len(rs) && rs[j][0] <= n1 {
		n0, n1 = min(n0, rs[j][0]), max(n1, rs[j][1])
		j++
	}
	if i == j {
		rs = append(rs, [2]int{})
		copy(rs[i+1:], rs[i:])
		rs[i] = [2]int{n0, n1}
		return rs
	}
	rs[i] = [2]int{n0, n1}
	return append(rs[:i+1], rs[j:]...)
}

// span is an item's area on an axis: its offset from the content box's
// start and its size.
func (gc *gridContainer) span(a int, it *gridItem) (off, size float64) {
	ts := gc.ax[a].tracks
	first, last := &ts[it.start[a]], &ts[it.end[a]-1]
	return first.pos, last.pos + last.base - first.pos
}

// tracksSize is the tracks' sum with the gaps between them.
func (gc *gridContainer) tracksSize(a int) float64 {
	ax := &gc.ax[a]
	sum, n := 0.0, 0
	for i := range ax.tracks {
		if ax.tracks[i].collapsed {
			continue
		}
		sum += ax.tracks[i].base
		n++
	}
	if n > 1 {
		sum += ax.gap * float64(n-1)
	}
	return sum
}

// contribution is an item's min-content and max-content contributions to
// an axis (margin box sizes).
func (gc *gridContainer) contribution(it *gridItem, a int) (minC, maxC float64) {
	if a == gridCols {
		return it.minC, it.maxC
	}
	h := it.fr.H + it.m[style.Top] + it.m[style.Bottom]
	return h, h
}

// isIntrinsic reports whether a sizing function depends on the content.
func isIntrinsic(b style.GridBreadth) bool {
	return b.Kind == style.BrAuto || b.Kind == style.BrMinContent || b.Kind == style.BrMaxContent
}

// sizeTracks runs the track sizing algorithm (§11.3-11.8) on axis a for
// a content box size avail (-1 when indefinite).
func (gc *gridContainer) sizeTracks(a int, avail float64, mode int) {
	ax := &gc.ax[a]
	ts := ax.tracks
	inf := math.Inf(1)
	// Initialize (§11.4).
	for i := range ts {
		t := &ts[i]
		t.min, t.max, t.fit = t.size.Min, t.size.Max, inf
		if t.min.Kind == style.BrLength && t.min.L.Unit == style.Percent && avail < 0 {
			t.min = style.GridBreadth{Kind: style.BrAuto}
		}
		if t.size.FitContent {
			t.max = style.GridBreadth{Kind: style.BrMaxContent}
			if t.size.Max.L.Unit != style.Percent || avail >= 0 {
				t.fit = lu(length(t.size.Max.L, avail, 0))
			}
		} else if t.max.Kind == style.BrLength && t.max.L.Unit == style.Percent && avail < 0 {
			t.max = style.GridBreadth{Kind: style.BrAuto}
		}
		t.base, t.limit = 0, inf
		if t.min.Kind == style.BrLength {
			t.base = lu(length(t.min.L, avail, 0))
		}
		if t.max.Kind == style.BrLength {
			t.limit = math.Max(lu(length(t.max.L, avail, 0)), t.base)
		}
		if t.collapsed {
			t.min = style.GridBreadth{}
			t.max = style.GridBreadth{}
			t.base, t.limit = 0, 0
		}
	}

	// Intrinsic sizes (§11.5): items by span, those that cross a flexible
	// track last.
	var list []gridSpan
	for _, it := range gc.items {
		sp := gridSpan{it: it, n: it.end[a] - it.start[a]}
		for k := it.start[a]; k < it.end[a]; k++ {
			if ts[k].max.Kind == style.BrFlex {
				sp.flex = true
			}
		}
		list = append(list, sp)
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].flex != list[j].flex {
			return !list[i].flex
		}
		return list[i].n < list[j].n
	})
	// Items of span 1 outside flexible tracks.
	touched := make([]float64, len(ts))
	for i := range touched {
		touched[i] = -1
	}
	k := 0
	for ; k < len(list) && list[k].n == 1 && !list[k].flex; k++ {
		it := list[k].it
		t := &ts[it.start[a]]
		minC, maxC := gc.contribution(it, a)
		switch t.min.Kind {
		case style.BrAuto:
			if mode == sizeMaxContent {
				t.base = math.Max(t.base, maxC)
			} else {
				t.base = math.Max(t.base, minC)
			}
		case style.BrMinContent:
			t.base = math.Max(t.base, minC)
		case style.BrMaxContent:
			t.base = math.Max(t.base, maxC)
		}
		switch t.max.Kind {
		case style.BrMinContent:
			touched[it.start[a]] = math.Max(touched[it.start[a]], minC)
		case style.BrMaxContent, style.BrAuto:
			touched[it.start[a]] = math.Max(touched[it.start[a]], math.Min(maxC, t.fit))
		}
	}
	for i := range ts {
		if touched[i] >= 0 {
			ts[i].limit = touched[i]
		}
		if ts[i].limit < ts[i].base {
			ts[i].limit = ts[i].base
		}
	}
	// Spanning items, by span; then those crossing flexible tracks.
	for k < len(list) {
		e := k
		for e < len(list) && list[e].n == list[k].n && list[e].flex == list[k].flex {
			e++
		}
		if list[k].flex {
			e = len(list)
			gc.distributeFlex(a, list[k:e], mode)
		} else {
			group := make([]*gridItem, 0, e-k)
			for _, sp := range list[k:e] {
				group = append(group, sp.it)
			}
			gc.distributeSpan(a, group, mode)
		}
		k = e
	}
	for i := range ts {
		if math.IsInf(ts[i].limit, 1) {
			ts[i].limit = ts[i].base
		}
	}

	// Maximize tracks (§11.6).
	gaps := ax.gapsTotal()
	switch {
	case mode == sizeMaxContent || mode == sizeLayout && avail < 0:
		for i := range ts {
			ts[i].base = ts[i].limit
		}
	case mode == sizeLayout:
		free := avail - gaps
		for i := range ts {
			free -= ts[i].base
		}
		if free > 0 {
			var grow []int
			for i := range ts {
				if ts[i].limit > ts[i].base {
					grow = append(grow, i)
				}
			}
			waterFill(ts, grow, free, func(t *gridTrack) float64 { return t.limit - t.base }, func(t *gridTrack, d float64) { t.base += d })
		}
	}

	// Expand flexible tracks (§11.7).
	if mode != sizeMinContent {
		var frSize float64
		hasFlex := false
		for i := range ts {
			if ts[i].max.Kind == style.BrFlex {
				hasFlex = true
			}
		}
		if hasFlex {
			if mode == sizeLayout && avail >= 0 {
				all := make([]int, len(ts))
				for i := range all {
					all[i] = i
				}
				frSize = gc.frSize(a, all, avail)
			} else {
				for i := range ts {
					if t := &ts[i]; t.max.Kind == style.BrFlex {
						if t.max.Fr > 1 {
							frSize = math.Max(frSize, t.base/t.max.Fr)
						} else {
							frSize = math.Max(frSize, t.base)
						}
					}
				}
				for _, it := range gc.items {
					var idx []int
					flex := false
					for k := it.start[a]; k < it.end[a]; k++ {
						idx = append(idx, k)
						flex = flex || ts[k].max.Kind == style.BrFlex
					}
					if flex {
						_, maxC := gc.contribution(it, a)
						frSize = math.Max(frSize, gc.frSize(a, idx, maxC))
					}
				}
			}
			for i := range ts {
				if t := &ts[i]; t.max.Kind == style.BrFlex {
					if v := lu(frSize * t.max.Fr); v > t.base {
						t.base = v
					}
				}
			}
		}
	}

	// Stretch auto tracks (§11.8).
	content := gc.s.JustifyContent
	if a == gridRows {
		content = gc.s.AlignContent
	}
	if mode == sizeLayout && avail >= 0 && (content == style.AxNormal || content == style.AxStretch) {
		free := avail - gaps
		var autos []int
		for i := range ts {
			free -= ts[i].base
			if ts[i].max.Kind == style.BrAuto && !ts[i].size.FitContent && !ts[i].collapsed {
				autos = append(autos, i)
			}
		}
		if free > 0 && len(autos) > 0 {
			d := luDiv(free, len(autos))
			for _, i := range autos {
				ts[i].base += d
			}
		}
	}
}

// gridSpan is an item with its span on the axis being sized and whether
// it crosses a flexible track.
type gridSpan struct {
	it   *gridItem
	n    int
	flex bool
}

// gapsTotal is the gaps between the axis's tracks that do not collapse.
func (ax *gridAxis) gapsTotal() float64 {
	n := 0
	for i := range ax.tracks {
		if !ax.tracks[i].collapsed {
			n++
		}
	}
	if n < 2 {
		return 0
	}
	return ax.gap * float64(n-1)
}

// waterFill shares space equally among the tracks idx, each up to its
// room, the space a full track cannot take going to the others.
func waterFill(ts []gridTrack, idx []int, space float64, room func(*gridTrack) float64, add func(*gridTrack, float64)) {
	for len(idx) > 0 && space > 1.0/128 {
		share := luDiv(space, len(idx))
		if share <= 0 {
			break
		}
		next := idx[:0]
		for _, i := range idx {
			t := &ts[i]
			d := math.Min(share, room(t))
			add(t, d)
			space -= d
			if room(t) > 0 {
				next = append(next, i)
			}
		}
		if len(next) == len(idx) {
			// Everyone took a full share; what remains is rounding.
			break
		}
		idx = next
	}
}

// distributeSpan grows the tracks that items of one span (not crossing a
// flexible track) cover to fit their contributions (§11.5 step 3): the
// base sizes of tracks with intrinsic minimums, then the growth limits of
// tracks with intrinsic maximums.
func (gc *gridContainer) distributeSpan(a int, group []*gridItem, mode int) {
	ts := gc.ax[a].tracks
	gap := gc.ax[a].gap
	type pass struct {
		affected func(t *gridTrack) bool
		useMax   bool
		limits   bool
	}
	passes := []pass{
		{affected: func(t *gridTrack) bool { return isIntrinsic(t.min) }},
		{affected: func(t *gridTrack) bool {
			return t.min.Kind == style.BrMaxContent || t.min.Kind == style.BrAuto && mode == sizeMaxContent
		}, useMax: true},
		{affected: func(t *gridTrack) bool { return isIntrinsic(t.max) }, limits: true},
		{affected: func(t *gridTrack) bool { return t.max.Kind == style.BrMaxContent || t.max.Kind == style.BrAuto }, useMax: true, limits: true},
	}
	for _, p := range passes {
		for i := range ts {
			ts[i].planned = 0
		}
		any := false
		for _, it := range group {
			var aff []int
			cur := gap * float64(it.end[a]-it.start[a]-1)
			for k := it.start[a]; k < it.end[a]; k++ {
				t := &ts[k]
				if p.limits && !math.IsInf(t.limit, 1) {
					cur += t.limit
				} else {
					cur += t.base
				}
				if p.affected(t) {
					aff = append(aff, k)
				}
			}
			if len(aff) == 0 {
				continue
			}
			minC, maxC := gc.contribution(it, a)
			want := minC
			if p.useMax {
				want = maxC
			}
			extra := want - cur
			if extra <= 0 {
				continue
			}
			any = true
			inc := make(map[int]float64, len(aff))
			room := func(k int) float64 {
				t := &ts[k]
				if p.limits {
					if t.fit < math.Inf(1) {
						return math.Max(0, t.fit-gc.value(t, true)-inc[k])
					}
					return math.Inf(1)
				}
				if math.IsInf(t.limit, 1) {
					return math.Inf(1)
				}
				return math.Max(0, t.limit-t.base-inc[k])
			}
			share := func(idx []int, space float64, capped bool) float64 {
				for len(idx) > 0 && space > 1.0/128 {
					d := luDiv(space, len(idx))
					if d <= 0 {
						break
					}
					next := idx[:0:0]
					for _, k := range idx {
						x := d
						if capped {
							x = math.Min(d, room(k))
						}
						inc[k] += x
						space -= x
						if !capped || room(k) > 0 {
							next = append(next, k)
						}
					}
					if len(next) == len(idx) {
						break
					}
					idx = next
				}
				return space
			}
			extra = share(aff, extra, true)
			if extra > 1.0/128 {
				// Beyond the limits: to the tracks that can grow (intrinsic
				// maximums), else to all.
				var beyond []int
				for _, k := range aff {
					if !p.limits && isIntrinsic(ts[k].max) || p.limits && ts[k].fit == math.Inf(1) {
						beyond = append(beyond, k)
					}
				}
				if len(beyond) == 0 && !p.limits {
					beyond = aff
				}
				share(beyond, extra, false)
			}
			for k, v := range inc {
				ts[k].planned = math.Max(ts[k].planned, v)
			}
		}
		if !any {
			continue
		}
		for i := range ts {
			t := &ts[i]
			if t.planned == 0 {
				continue
			}
			if p.limits {
				t.limit = gc.value(t, true) + t.planned
			} else {
				t.base += t.planned
				if t.limit < t.base {
					t.limit = t.base
				}
			}
		}
	}
}

// value is a track's base size, or its growth limit (the base size when
// the limit is still infinite).
func (gc *gridContainer) value(t *gridTrack, limit bool) float64 {
	if limit && !math.IsInf(t.limit, 1) {
		return t.limit
	}
	return t.base
}

// distributeFlex grows the flexible tracks with intrinsic minimums that
// items crossing them cover, in proportion to their flex factors (§11.5
// step 4).
func (gc *gridContainer) distributeFlex(a int, list []gridSpan, mode int) {
	ts := gc.ax[a].tracks
	gap := gc.ax[a].gap
	for i := range ts {
		ts[i].planned = 0
	}
	for _, sp := range list {
		it := sp.it
		cur := gap * float64(it.end[a]-it.start[a]-1)
		var aff []int
		sum := 0.0
		for k := it.start[a]; k < it.end[a]; k++ {
			t := &ts[k]
			cur += t.base
			if t.max.Kind == style.BrFlex && isIntrinsic(t.min) {
				aff = append(aff, k)
				sum += t.max.Fr
			}
		}
		if len(aff) == 0 {
			continue
		}
		minC, maxC := gc.contribution(it, a)
		want := minC
		if mode == sizeMaxContent {
			want = maxC
		}
		extra := want - cur
		if extra <= 0 {
			continue
		}
		for _, k := range aff {
			var d float64
			if sum > 0 {
				d = lu(extra * ts[k].max.Fr / sum)
			} else {
				d = luDiv(extra, len(aff))
			}
			ts[k].planned = math.Max(ts[k].planned, d)
		}
	}
	for i := range ts {
		if ts[i].planned > 0 {
			ts[i].base += ts[i].planned
			if ts[i].limit < ts[i].base {
				ts[i].limit = ts[i].base
			}
		}
	}
}

// frSize finds the size of an fr (§11.7.1) for the tracks idx to fill
// space.
func (gc *gridContainer) frSize(a int, idx []int, space float64) float64 {
	ts := gc.ax[a].tracks
	inflexible := map[int]bool{}
	n := 0
	for _, k := range idx {
		if !ts[k].collapsed {
			n++
		}
	}
	gaps := 0.0
	if n > 1 {
		gaps = gc.ax[a].gap * float64(n-1)
	}
	for round := 0; round <= len(idx); round++ {
		left := space - gaps
		flex := 0.0
		for _, k := range idx {
			t := &ts[k]
			if t.max.Kind == style.BrFlex && !inflexible[k] {
				flex += t.max.Fr
			} else {
				left -= t.base
			}
		}
		if flex < 1 {
			flex = 1
		}
		hypo := left / flex
		again := false
		for _, k := range idx {
			t := &ts[k]
			if t.max.Kind == style.BrFlex && !inflexible[k] && hypo*t.max.Fr < t.base {
				inflexible[k] = true
				again = true
			}
		}
		if !again {
			return math.Max(hypo, 0)
		}
	}
	return 0
}

// positionTracks sets each track's offset from the content box's start,
// the free space placed by content alignment (justify-content or
// align-content).
func (gc *gridContainer) positionTracks(a int, size float64, align style.AxisAlign) {
	ax := &gc.ax[a]
	n := 0
	for i := range ax.tracks {
		if !ax.tracks[i].collapsed {
			n++
		}
	}
	free := 0.0
	if size >= 0 {
		free = size - gc.tracksSize(a)
	}
	switch align {
	case style.AxNormal, style.AxStretch, style.AxFlexStart, style.AxLeft, style.AxBaseline, style.AxLastBaseline:
		align = style.AxStart
	case style.AxFlexEnd, style.AxRight:
		align = style.AxEnd
	}
	off, between := distribute(free, n, align)
	pos := off
	first := true
	for i := range ax.tracks {
		t := &ax.tracks[i]
		if t.collapsed {
			t.pos = pos
			continue
		}
		if !first {
			pos += ax.gap + between
		}
		first = false
		t.pos = pos
		pos += t.base
	}
}

// layoutAtWidth lays an item out at its area's width, for its height.
func (gc *gridContainer) layoutAtWidth(it *gridItem) {
	l := gc.l
	s := it.s
	areaW := it.area.w
	ml, mr := it.m[style.Left], it.m[style.Right]
	avail := areaW - ml - mr - it.bd.h() - it.pd.h()
	justify := s.JustifySelf
	if justify == style.AxAuto {
		justify = gc.s.JustifyItems
	}
	var w float64
	switch {
	case !s.Width.IsAuto() && s.Width.Unit != style.FitContent && s.Width.Unit != style.MinContent && s.Width.Unit != style.MaxContent:
		_, _, w = blockWidths(s, areaW, it.bd, it.pd, -1)
	case it.b.Kind == KindReplaced:
		w, _ = l.replacedSize(it.b, areaW, -1, it.bd, it.pd)
		if justify == style.AxStretch && !it.auto[style.Left] && !it.auto[style.Right] {
			w = clampWidth(s, math.Max(avail, 0), areaW, it.bd, it.pd)
		}
	case (justify == style.AxNormal || justify == style.AxStretch) && s.Width.IsAuto() && !it.auto[style.Left] && !it.auto[style.Right]:
		w = clampWidth(s, math.Max(avail, 0), areaW, it.bd, it.pd)
	default:
		minC, maxC := l.intrinsicWidths(it.b)
		switch s.Width.Unit {
		case style.MinContent:
			w = minC
		case style.MaxContent:
			w = maxC
		default:
			w = math.Min(math.Max(minC, avail), maxC)
		}
		w = clampWidth(s, w, areaW, it.bd, it.pd)
	}
	it.fr = l.itemFrag(&it.itemBox, it.area, w, -1)
	it.frW = w
}

// alignItem gives a stretched item its area's height, then puts the item
// in its area (top being the area's y).
func (gc *gridContainer) alignItem(it *gridItem, top float64) {
	l := gc.l
	s := it.s
	areaH := it.area.h
	mt, mb := it.m[style.Top], it.m[style.Bottom]
	align := s.AlignSelf
	if align == style.AxAuto {
		align = gc.s.AlignItems
	}
	stretch := align == style.AxStretch || align == style.AxNormal && it.b.Kind != KindReplaced
	switch {
	case s.Height.Unit == style.Percent:
		it.fr = l.itemFrag(&it.itemBox, it.area, it.frW, -1)
	case stretch && s.Height.IsAuto() && !it.auto[style.Top] && !it.auto[style.Bottom]:
		h := areaH - mt - mb - it.bd.v() - it.pd.v()
		h = clampHeight(s, math.Max(h, 0), areaH, it.bd, it.pd)
		if it.b.Kind == KindReplaced {
			it.fr.H = h + it.bd.v() + it.pd.v()
			break
		}
		if it.fr.H == h+it.bd.v()+it.pd.v() {
			break
		}
		deep := l.flexNest > maxFlexRelayoutNest
		if !deep && heightMatters(it.b) || it.b.Kind == KindTableWrapper {
			it.fr = l.itemFrag(&it.itemBox, it.area, it.frW, h)
		} else {
			it.fr.H = h + it.bd.v() + it.pd.v()
			it.fr.fixedH = true
		}
	}
	fr := it.fr
	x := it.area.x + gc.selfOffset(it.area.w-fr.W-it.m[style.Left]-it.m[style.Right], it.m[style.Left],
		it.auto[style.Left], it.auto[style.Right], gc.justifyOf(it), gc.s.Direction == "rtl")
	y := top + gc.selfOffset(areaH-fr.H-mt-mb, mt, it.auto[style.Top], it.auto[style.Bottom], align, false)
	fr.translate(x+fr.relX-fr.X, y+fr.relY-fr.Y)
}

func (gc *gridContainer) justifyOf(it *gridItem) style.AxisAlign {
	if it.s.JustifySelf == style.AxAuto {
		return gc.s.JustifyItems
	}
	return it.s.JustifySelf
}

// selfOffset is an item's border box offset in its area on one axis:
// free is the area's space left around its margin box, ms its start
// margin, autoS and autoE its auto margins; rtl says the axis's start is
// its right.
func (gc *gridContainer) selfOffset(free, ms float64, autoS, autoE bool, a style.AxisAlign, rtl bool) float64 {
	switch {
	case autoS && autoE:
		return ms + luHalf(math.Max(free, 0))
	case autoS:
		return ms + math.Max(free, 0)
	case autoE:
		return ms
	}
	switch a {
	case style.AxCenter:
		return ms + luHalf(free)
	case style.AxEnd, style.AxFlexEnd, style.AxSelfEnd:
		if rtl {
			return ms
		}
		return ms + free
	case style.AxRight:
		return ms + free
	case style.AxStart, style.AxFlexStart, style.AxSelfStart:
		if rtl {
			return ms + free
		}
	}
	return ms
}

// gridIntrinsic is a grid container's min-content and max-content content
// widths: its columns sized under each constraint (§11.3).
func (l *layouter) gridIntrinsic(b *Box) (minW, maxW float64) {
	gc := l.newGrid(b, -1, -1, nil)
	if gc == nil {
		return 0, 0
	}
	for _, it := range gc.items {
		it.minC, it.maxC = l.outerIntrinsic(it.b, false)
	}
	gc.sizeTracks(gridCols, -1, sizeMinContent)
	minW = gc.tracksSize(gridCols)
	gc.sizeTracks(gridCols, -1, sizeMaxContent)
	maxW = gc.tracksSize(gridCols)
	return minW, maxW
}
