package layout

import (
	"github.com/platen/platen/render/phantom/style"
)

// anonStyle is the style of an anonymous box whose parent has style p:
// inherited properties from p, initial values for the rest (CSS 2.1 §9.2.1.1
// and §17.2.1).
func (l *layouter) anonStyle(p *style.Computed, d style.Display) *style.Computed {
	c := new(style.Computed)
	*c = initialStyle
	inheritStyle(c, p)
	c.Display = d
	return c
}

// initialStyle is every property at its initial value (style.Initial).
var initialStyle = style.Initial()

// inheritStyle copies the inherited properties of p into c (style.Inherit).
func inheritStyle(c, p *style.Computed) { style.Inherit(c, p) }

// tableWrapper finishes a table element's box: box becomes the wrapper
// (captions, then the table box holding everything else). The wrapper keeps
// the element's margins and positioning; the table box its borders,
// padding, background and sizes (CSS 2.1 §17.4).
func (b *builder) tableWrapper(w *Box) {
	es := w.Style
	ws := new(style.Computed)
	*ws = *es
	ws.Border = [4]style.Border{}
	ws.Padding = [4]style.Length{}
	ws.Background = initialStyle.Background
	ws.Width, ws.Height = initialStyle.Width, initialStyle.Height
	ws.MinWidth, ws.MinHeight = initialStyle.MinWidth, initialStyle.MinHeight
	ws.MaxWidth, ws.MaxHeight = initialStyle.MaxWidth, initialStyle.MaxHeight
	ws.Radius = [4]style.Radius{}
	ws.Outline = style.Border{}
	ws.Overflow = "visible"
	ws.Opacity = 1
	ts := new(style.Computed)
	*ts = *es
	ts.Margin = [4]style.Length{}
	ts.Position = style.Static
	ts.Inset = initialStyle.Inset
	ts.ZIndexAuto = true
	ts.Opacity = 1
	w.Style = ws
	tbl := b.newBox(KindTable, ts, w.Node)
	var caps []*Box
	for _, c := range w.Children {
		if c.Kind == KindCaption {
			caps = append(caps, c)
			continue
		}
		appendChild(tbl, c)
	}
	w.Children = w.Children[:0]
	for _, c := range caps {
		appendChild(w, c)
	}
	appendChild(w, tbl)
	b.fixTable(tbl)
}

// isWhiteText reports whether c is collapsible white space, which table
// fix-up drops (CSS 2.1 §17.2.1 rule 1).
func isWhiteText(c *Box) bool {
	if c.Kind != KindText {
		return false
	}
	ws := c.Style.WhiteSpace
	if ws == style.WSPre || ws == style.WSPreWrap || ws == style.WSBreakSpaces {
		return false
	}
	return isCollapsibleSpaceOnly(c.Text)
}

// fixTable wraps a table box's children into column groups and row groups.
func (b *builder) fixTable(t *Box) {
	var out []*Box
	var rows []*Box  // consecutive rows waiting for a row group
	var other []*Box // consecutive non-table children waiting for a row
	var cols []*Box
	flushOther := func() {
		if len(other) == 0 {
			return
		}
		r := b.newBox(KindRow, b.l.anonStyle(t.Style, style.DisplayTableRow), nil)
		r.Anonymous = true
		for _, c := range other {
			appendChild(r, c)
		}
		b.fixRow(r)
		rows = append(rows, r)
		other = nil
	}
	flushRows := func() {
		flushOther()
		if len(rows) == 0 {
			return
		}
		g := b.newBox(KindRowGroup, b.l.anonStyle(t.Style, style.DisplayTableRowGroup), nil)
		g.Anonymous = true
		for _, r := range rows {
			appendChild(g, r)
		}
		out = append(out, g)
		rows = nil
	}
	flushCols := func() {
		if len(cols) == 0 {
			return
		}
		g := b.newBox(KindColumnGroup, b.l.anonStyle(t.Style, style.DisplayTableColumnGroup), nil)
		g.Anonymous = true
		for _, c := range cols {
			appendChild(g, c)
		}
		out = append(out, g)
		cols = nil
	}
	for _, c := range t.Children {
		if isWhiteText(c) {
			continue
		}
		switch c.Kind {
		case KindColumn:
			flushRows()
			cols = append(cols, c)
		case KindColumnGroup:
			flushRows()
			flushCols()
			out = append(out, c)
		case KindRowGroup:
			flushRows()
			flushCols()
			out = append(out, c)
		case KindRow:
			flushCols()
			flushOther()
			rows = append(rows, c)
		case KindCaption:
			// A caption the wrapper did not take (an anonymous table):
			// treated as a row's content.
			flushCols()
			other = append(other, c)
		default:
			if c.IsOutOfFlow() {
				flushCols()
				other = append(other, c)
				continue
			}
			flushCols()
			other = append(other, c)
		}
	}
	flushRows()
	flushCols()
	t.Children = t.Children[:0]
	for _, c := range out {
		appendChild(t, c)
	}
}

// fixRowGroup wraps non-row children of a row group into anonymous rows.
func (b *builder) fixRowGroup(g *Box) {
	var out, other []*Box
	flush := func() {
		if len(other) == 0 {
			return
		}
		r := b.newBox(KindRow, b.l.anonStyle(g.Style, style.DisplayTableRow), nil)
		r.Anonymous = true
		for _, c := range other {
			appendChild(r, c)
		}
		b.fixRow(r)
		out = append(out, r)
		other = nil
	}
	for _, c := range g.Children {
		if isWhiteText(c) {
			continue
		}
		if c.Kind == KindRow {
			flush()
			out = append(out, c)
			continue
		}
		other = append(other, c)
	}
	flush()
	g.Children = g.Children[:0]
	for _, c := range out {
		appendChild(g, c)
	}
}

// fixRow wraps non-cell children of a row into anonymous cells.
func (b *builder) fixRow(r *Box) {
	var out, other []*Box
	flush := func() {
		if len(other) == 0 {
			return
		}
		c := b.newBox(KindCell, b.l.anonStyle(r.Style, style.DisplayTableCell), nil)
		c.Anonymous = true
		for _, o := range other {
			appendChild(c, o)
		}
		b.fixup(c)
		out = append(out, c)
		other = nil
	}
	for _, c := range r.Children {
		if isWhiteText(c) && len(other) == 0 {
			continue
		}
		if c.Kind == KindCell {
			flush()
			out = append(out, c)
			continue
		}
		other = append(other, c)
	}
	flush()
	r.Children = r.Children[:0]
	for _, c := range out {
		appendChild(r, c)
	}
}

// isTablePart reports whether c is a table-internal box that needs a table
// around it when its parent is not one.
func isTablePart(c *Box) bool {
	switch c.Kind {
	case KindRowGroup, KindRow, KindCell, KindColumn, KindColumnGroup, KindCaption:
		return true
	}
	return false
}

// wrapMisparentedTableParts gives consecutive table parts in a non-table
// parent an anonymous table (CSS 2.1 §17.2.1 rule 3): block-level in a block
// container, inline-level in an inline box.
func (b *builder) wrapMisparentedTableParts(p *Box) {
	found := false
	for _, c := range p.Children {
		if isTablePart(c) {
			found = true
			break
		}
	}
	if !found {
		return
	}
	var out, run []*Box
	flush := func() {
		if len(run) == 0 {
			return
		}
		// Trailing white space belongs after the table.
		var tail []*Box
		for len(run) > 0 && isWhiteText(run[len(run)-1]) {
			tail = append([]*Box{run[len(run)-1]}, tail...)
			run = run[:len(run)-1]
		}
		d := style.DisplayTable
		if p.Kind == KindInline {
			d = style.DisplayInlineTable
		}
		ws := b.l.anonStyle(p.Style, d)
		w := b.newBox(KindTableWrapper, ws, nil)
		w.Anonymous = true
		w.Inline = p.Kind == KindInline
		for _, c := range run {
			appendChild(w, c)
		}
		b.tableWrapper(w)
		w.Parent = p
		out = append(out, w)
		out = append(out, tail...)
		run = nil
	}
	for _, c := range p.Children {
		if isTablePart(c) || (len(run) > 0 && isWhiteText(c)) {
			run = append(run, c)
			continue
		}
		flush()
		out = append(out, c)
	}
	flush()
	p.Children = out
}
