package layout

// This file is the table engineer's (every table*.go file of the package
// is): the entry points block and inline layout call for a table, and the
// table layout behind them. What they can build on:
//
//   - box.go: the box tree. A table is a KindTableWrapper (margins,
//     position) whose children are its KindCaption boxes and one KindTable
//     (borders, padding, background, width); the table's children are
//     KindColumnGroup (holding KindColumn) and KindRowGroup boxes (thead,
//     tbody, tfoot: Style.Display), row groups hold KindRow, rows hold
//     KindCell (ColSpan, RowSpan). Anonymous boxes are already made
//     (anonymous.go).
//   - block.go: layoutBlockBox(b, cbox{x, w, h}, &flow{}, forceW, forceH)
//     lays out a cell or caption as a block formatting context root with
//     its content width (and height, when ≥ 0) imposed; blockWidths,
//     boxBorders, boxPadding resolve the box model; firstBaseline gives a
//     cell's baseline.
//   - intrinsic.go: intrinsicWidths and outerIntrinsic (cell true) give a
//     cell's min-content and max-content widths.
//   - frag.go: Frag (absolute flow coordinates, Frag.translate to move a
//     laid-out subtree), fixedH and monolithic for pagination.
//   - paginate.go: how pagination treats table fragments (the hook for
//     repeating thead and tfoot and keeping rows whole).
//   - paint.go: fragments paint their box's background and borders; a
//     table part whose borders the table paints itself (collapsed borders)
//     sets Frag.noBorders.

// layoutTable lays out the table wrapper w (its captions and its table box)
// for a containing block cbW wide (cbH its definite height, or -1). The
// returned fragment is w's (Kind FragBox, Box w), its border box with the
// top-left at (0, 0): the caller adds the wrapper's margins and moves it
// into place with Frag.translate. HasBaseline and Baseline give the
// table's baseline (its first row's) for inline-tables.
//
// Placeholder until the table engineer's layout lands: rows stack, cells
// share each row's width equally.
func (l *layouter) layoutTable(w *Box, cbW, cbH float64) *Frag {
	wf := l.frags.new(FragBox, w)
	y := 0.0
	width := cbW
	for _, c := range w.Children {
		if c.Kind != KindTable {
			f := &flow{y: y}
			cf := l.layoutBlockBox(c, cbox{x: 0, w: width, h: -1}, f, -1, -1)
			wf.Children = append(wf.Children, cf)
			y = cf.Y + cf.H
			continue
		}
		tf := l.frags.new(FragBox, c)
		tf.Y = y
		bd, pd := boxBorders(c.Style), boxPadding(c.Style, cbW)
		ml, _, cw := blockWidths(c.Style, width, bd, pd, -1)
		_ = ml
		tf.W = cw + bd.h() + pd.h()
		cy := y + bd[0] + pd[0]
		for _, g := range c.Children {
			if g.Kind != KindRowGroup {
				continue
			}
			for _, r := range g.Children {
				n := len(r.Children)
				if n == 0 {
					continue
				}
				rf := l.frags.new(FragBox, r)
				rf.X, rf.Y, rf.W = bd[3]+pd[3], cy, cw
				colW := lu(cw / float64(n))
				rowH := 0.0
				for i, cell := range r.Children {
					f := &flow{y: cy}
					cf := l.layoutBlockBox(cell, cbox{x: rf.X + float64(i)*colW, w: colW, h: -1}, f, colW-boxBorders(cell.Style).h()-boxPadding(cell.Style, colW).h(), -1)
					rf.Children = append(rf.Children, cf)
					rowH = max(rowH, cf.H)
				}
				rf.H = rowH
				tf.Children = append(tf.Children, rf)
				cy += rowH
			}
		}
		tf.H = cy - y + bd[2] + pd[2]
		wf.Children = append(wf.Children, tf)
		y += tf.H
		width = tf.W
	}
	wf.W, wf.H = width, y
	return wf
}

// tableIntrinsicWidths returns the min-content and max-content widths of
// table wrapper w, for shrink-to-fit contexts (inline-blocks, abspos,
// cells of an enclosing table).
func (l *layouter) tableIntrinsicWidths(w *Box) (minW, maxW float64) {
	for _, c := range w.Children {
		if c.Kind != KindTable {
			continue
		}
		for _, g := range c.Children {
			for _, r := range g.Children {
				rmin, rmax := 0.0, 0.0
				for _, cell := range r.Children {
					a, b := l.outerIntrinsic(cell, true)
					rmin += a
					rmax += b
				}
				minW, maxW = max(minW, rmin), max(maxW, rmax)
			}
		}
	}
	return minW, maxW
}
