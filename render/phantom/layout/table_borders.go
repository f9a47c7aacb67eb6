package layout

// The geometry of collapsed borders as Chromium paints them
// (TablePainter::PaintCollapsedBorders): each resolved edge is one
// rectangle centred on its grid line, and at each joint the edge that wins
// the joint (wider, then better style, then earlier box) extends over it
// while the others stop short.

import "github.com/platen/platen/render/phantom/style"

// tableBorderSeg is one collapsed border segment: a rectangle in the
// table's coordinates (before pixel snapping), drawn as a top side
// (horizontal) or a left side, with the edge's border.
type tableBorderSeg struct {
	x, y, w, h tableUnit
	horizontal bool
	b          style.Border
	// row is the grid row of the edge: a horizontal edge is that row's top
	// (or, past the last row, the last row's bottom).
	row int
}

// tableEdgeRef is an edge index, or -1 for an edge that does not exist.
type tableEdgeRef struct {
	t *tableGrid
	i int
}

func (t *tableGrid) edgeRef(i int) tableEdgeRef {
	if i < 0 || i >= len(t.edges) {
		return tableEdgeRef{t, -1}
	}
	return tableEdgeRef{t, i}
}

func (e tableEdgeRef) off(d int) tableEdgeRef {
	if e.i < 0 {
		return e
	}
	return e.t.edgeRef(e.i + d)
}

func (e tableEdgeRef) width() tableUnit {
	if e.i < 0 || !e.t.edges[e.i].set {
		return 0
	}
	return e.t.edges[e.i].w
}

func (e tableEdgeRef) style() style.BorderStyle {
	if e.i < 0 || !e.t.edges[e.i].set {
		return style.BorderNone
	}
	return tableCollapsedStyle(e.t.edges[e.i].b.Style)
}

func (e tableEdgeRef) canPaint() bool {
	s := e.style()
	return s != style.BorderNone && s != style.BorderHidden && e.width() != 0
}

func (e tableEdgeRef) horizontal() bool { return e.i%e.t.edgesRow%2 != 0 }

// compareForPaint says which edge paints a joint: 1 when a wins, -1 when b
// does, 0 on a tie (both paint it).
func compareForPaint(a, b tableEdgeRef) int {
	if a.i == b.i {
		return 0
	}
	ap, bp := a.canPaint(), b.canPaint()
	switch {
	case ap && bp:
		if aw, bw := a.width(), b.width(); aw != bw {
			if aw > bw {
				return 1
			}
			return -1
		}
		as, bs := a.style(), b.style()
		if as == bs {
			ao, bo := a.t.edges[a.i].order, b.t.edges[b.i].order
			switch {
			case ao < bo:
				return 1
			case ao > bo:
				return -1
			}
			return 0
		}
		if tableStyleRank(as) > tableStyleRank(bs) {
			return 1
		}
		return -1
	case !ap && !bp:
		return 0
	case !ap:
		return -1
	}
	return 1
}

// edgeJoints is Chromium's ComputeEdgeJoints: the sizes of the joints at
// an edge's start and end, and whether the edge wins them.
func edgeJoints(e tableEdgeRef, overBoundary, underBoundary bool) (startW, startH, endW, endH tableUnit, startWins, endWins bool) {
	epr := e.t.edgesRow
	h := e.horizontal()
	empty := tableEdgeRef{e.t, -1}
	var before, after, over, under tableEdgeRef
	if h {
		before, after, over, under = e.off(-2), e.off(0), e.off(-(epr + 1)), e.off(-1)
	} else {
		before, after, over, under = e.off(-1), e.off(1), e.off(-epr), e.off(0)
	}
	if overBoundary {
		over = empty
	}
	if underBoundary && h {
		under = empty
	}
	ic := compareForPaint(before, after)
	if ic == 1 {
		startH = before.width()
	} else {
		startH = after.width()
	}
	if overBoundary || (underBoundary && h) {
		startH = 0
	}
	bc := compareForPaint(over, under)
	if bc == 1 {
		startW = over.width()
	} else {
		startW = under.width()
	}
	pick := func(c int, a, b tableEdgeRef) tableEdgeRef {
		if c == 1 {
			return a
		}
		return b
	}
	ivb := compareForPaint(pick(ic, before, after), pick(bc, over, under))
	if h {
		startWins = ivb != -1 && ic != 1
	} else {
		startWins = ivb != 1 && bc != 1
	}

	if h {
		before, after, over, under = e.off(0), e.off(2), e.off(-(epr - 1)), e.off(1)
	} else {
		before, after, over, under = e.off(epr-1), e.off(epr+1), e.off(0), e.off(epr)
	}
	if overBoundary && h {
		over = empty
	}
	if underBoundary {
		under = empty
	}
	ic = compareForPaint(before, after)
	if ic == 1 {
		endH = before.width()
	} else {
		endH = after.width()
	}
	if (overBoundary && h) || underBoundary {
		endH = 0
	}
	bc = compareForPaint(over, under)
	if bc == 1 {
		endW = over.width()
	} else {
		endW = under.width()
	}
	ivb = compareForPaint(pick(ic, before, after), pick(bc, over, under))
	if h {
		endWins = ivb != -1 && ic != -1
	} else {
		endWins = ivb != 1 && bc != -1
	}
	return
}

// tableSectionPaint is one section's rows as a fragment shows them.
type tableSectionPaint struct {
	// startRow is the grid row of the first row in this fragment; rowY the
	// rows' tops and, last, the bottom of the last row, in table
	// coordinates.
	startRow int
	rowY     []tableUnit
	// prevContent and nextContent are true when the table has content in
	// the previous (next) fragmentainer and this section is the first
	// (last) of the fragment; startFragmented and endFragmented when the
	// first (last) row is broken across fragmentainers.
	prevContent, nextContent       bool
	startFragmented, endFragmented bool
}

// collapsedSegments appends the collapsed border segments of the sections
// of one table fragment, in Chromium's painting order.
func (t *tableGrid) collapsedSegments(out []tableBorderSeg, secs []tableSectionPaint) []tableBorderSeg {
	if len(t.edges) == 0 || t.edgesRow == 0 {
		return out
	}
	epr := t.edgesRow
	// Positions are logical (from the inline start) until the segment is
	// made.
	colX := func(c int) tableUnit {
		if c < len(t.colLoc) {
			return t.bpStart() + t.colLoc[c].offset
		}
		last := t.colLoc[len(t.colLoc)-1]
		return t.bpStart() + last.offset + last.size
	}
	prevPainted := -1
	for _, s := range secs {
		n := len(s.rowY)
		if n == 0 {
			continue
		}
		for i := s.startRow * epr; i < len(t.edges); i++ {
			row, col := i/epr, i%epr/2
			fr := row - s.startRow
			if fr >= n {
				if s.endFragmented {
					prevPainted = -1
				} else {
					prevPainted = row - 1
				}
				break
			}
			e := t.edgeRef(i)
			if !e.canPaint() || len(t.colLoc) == 0 {
				continue
			}
			if col > len(t.colLoc) {
				continue
			}
			isStart := fr == 0
			startFrag := isStart && s.startFragmented
			startBoundary := isStart && s.prevContent
			rowTop := s.rowY[fr]
			w := e.width()
			var seg tableBorderSeg
			seg.b = t.edges[i].b
			seg.row = row
			if e.horizontal() {
				if col+1 > len(t.colLoc) {
					continue
				}
				if prevPainted == row {
					continue
				}
				isEnd := fr == n-1
				endFrag := isEnd && s.endFragmented
				endBoundary := isEnd && s.nextContent
				if startFrag || endFrag {
					continue
				}
				seg.horizontal = true
				seg.x = colX(col)
				seg.w = colX(col+1) - seg.x
				if startBoundary {
					seg.y = rowTop
				} else {
					seg.y = rowTop - w/2
				}
				if startBoundary || endBoundary {
					seg.h = w / 2
				} else {
					seg.h = w
				}
				sw, _, ew, _, sWins, eWins := edgeJoints(e, startBoundary, endBoundary)
				if sWins {
					seg.x -= sw / 2
					seg.w += sw / 2
				} else {
					seg.x += sw / 2
					seg.w -= sw / 2
				}
				if eWins {
					seg.w += ew / 2
				} else {
					seg.w -= ew / 2
				}
			} else {
				if fr+1 >= n {
					continue
				}
				isEnd := fr+1 == n-1
				endFrag := isEnd && s.endFragmented
				endBoundary := isEnd && s.nextContent
				seg.y = rowTop
				seg.h = s.rowY[fr+1] - rowTop
				seg.x = colX(col) - w/2
				seg.w = w
				_, sh, _, eh, sWins, eWins := edgeJoints(e, startBoundary, endBoundary)
				switch {
				case startFrag:
				case sWins:
					seg.y -= sh / 2
					seg.h += sh / 2
				default:
					seg.y += sh / 2
					seg.h -= sh / 2
				}
				switch {
				case endFrag:
				case eWins:
					seg.h += eh / 2
				default:
					seg.h -= eh / 2
				}
			}
			if t.rtl {
				seg.x = t.inlineSize - seg.x - seg.w
			}
			out = append(out, seg)
		}
	}
	return out
}
