package layout

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/platen/platen/render/phantom/images"
	"github.com/platen/platen/render/phantom/style"
)

// builder turns the DOM and its computed style into the box tree.
type builder struct {
	l        *layouter
	st       *style.Result
	counters counterScopes
	quotes   int // quote nesting depth for open-quote and close-quote
	boxes    int
	err      error
}

// buildTree returns the root box (the root element's), nil when the root
// generates no box.
func (l *layouter) buildTree(doc *html.Node) (*Box, error) {
	b := &builder{l: l, st: l.st}
	root := rootElement(doc)
	if root == nil {
		return nil, nil
	}
	s := b.st.Style(root)
	if s == nil || s.Display == style.DisplayNone {
		return nil, nil
	}
	rb := b.newBox(KindBlock, s, root)
	if s.Display == style.DisplayTable || s.Display == style.DisplayInlineTable {
		rb.Kind = KindTableWrapper
	}
	b.counters.push()
	b.element(rb, root, 1)
	b.counters.pop()
	if b.err != nil {
		return nil, b.err
	}
	return rb, nil
}

// rootElement is the document's <html> element.
func rootElement(doc *html.Node) *html.Node {
	if doc == nil {
		return nil
	}
	if doc.Type == html.ElementNode {
		return doc
	}
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

func (b *builder) newBox(k Kind, s *style.Computed, n *html.Node) *Box {
	b.boxes++
	if b.boxes > b.l.opt.MaxBoxes && b.err == nil {
		b.err = ErrTooManyBoxes
	}
	if b.boxes&1023 == 0 && b.err == nil {
		if err := b.l.ctx.Err(); err != nil {
			b.err = err
		}
	}
	return &Box{Kind: k, Style: s, Node: n, ColSpan: 1, RowSpan: 1, Span: 1}
}

// skipped are elements that never render, whatever the style says.
func skipped(a atom.Atom) bool {
	switch a {
	case atom.Head, atom.Script, atom.Style, atom.Template, atom.Title, atom.Meta, atom.Link, atom.Base, atom.Noscript:
		return true
	}
	return false
}

// element builds the boxes of element n's content (pseudo-elements and
// children) into box, which n generated, and finishes box: counters,
// anonymous fix-up.
func (b *builder) element(box *Box, n *html.Node, depth int) {
	if depth > b.l.opt.MaxDepth {
		if b.err == nil {
			b.err = ErrTooDeep
		}
		return
	}
	s := box.Style
	if box.Node == n {
		box.id = attr(n, "id")
		if n.DataAtom == atom.A {
			box.href = attr(n, "href")
		}
	}
	// Counters: reset, set, increment, then the list item's own (CSS Lists
	// 3 §4.5), so that ::marker and ::before see the element's value.
	b.applyCounters(n, s, box)
	isList := n.DataAtom == atom.Ol || n.DataAtom == atom.Ul || n.DataAtom == atom.Menu || n.DataAtom == atom.Dir
	b.counters.push()
	if isList && !mentions(s.CounterReset, "list-item") {
		b.resetListCounter(n)
	}
	if s.Display == style.DisplayListItem {
		b.marker(box, n)
	}
	if ps := b.st.Pseudo(n, style.Before); ps != nil {
		b.pseudo(box, n, ps, PseudoBefore, depth)
	}
	b.children(box, n, depth)
	if ps := b.st.Pseudo(n, style.After); ps != nil {
		b.pseudo(box, n, ps, PseudoAfter, depth)
	}
	b.counters.pop()
	if box.Kind == KindTableWrapper {
		b.tableWrapper(box)
		return
	}
	b.fixup(box)
}

// children builds n's child nodes into box (recursing through display:
// contents).
func (b *builder) children(box *Box, n *html.Node, depth int) {
	for c := n.FirstChild; c != nil && b.err == nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if c.Data == "" {
				continue
			}
			ps := box.Style
			if pn := c.Parent; pn != nil && pn != box.Node {
				if s := b.st.Style(pn); s != nil { // a display: contents parent
					ps = s
				}
			}
			t := b.newBox(KindText, ps, c)
			t.Inline = true
			t.Text = transformText(c.Data, ps.TextTransform)
			appendChild(box, t)
		case html.ElementNode:
			b.child(box, c, depth)
		}
	}
}

// child builds the box of element c (if any) into parent.
func (b *builder) child(parent *Box, c *html.Node, depth int) {
	if skipped(c.DataAtom) {
		return
	}
	s := b.st.Style(c)
	if s == nil || s.Display == style.DisplayNone {
		return
	}
	if s.Display == style.DisplayContents {
		b.applyCounters(c, s, nil)
		b.counters.push()
		if ps := b.st.Pseudo(c, style.Before); ps != nil {
			b.pseudo(parent, c, ps, PseudoBefore, depth)
		}
		b.children(parent, c, depth+1)
		if ps := b.st.Pseudo(c, style.After); ps != nil {
			b.pseudo(parent, c, ps, PseudoAfter, depth)
		}
		b.counters.pop()
		return
	}
	switch c.DataAtom {
	case atom.Br:
		br := b.newBox(KindBreak, s, c)
		br.Inline = true
		appendChild(parent, br)
		return
	case atom.Wbr:
		t := b.newBox(KindText, s, c)
		t.Inline = true
		t.Text = "\u200b"
		appendChild(parent, t)
		return
	case atom.Img:
		b.image(parent, c, s)
		return
	case atom.Svg:
		b.inlineSVG(parent, c, s)
		return
	}
	box := b.boxFor(s, c)
	appendChild(parent, box)
	b.element(box, c, depth+1)
}

// boxFor makes the box an element of this style generates.
func (b *builder) boxFor(s *style.Computed, n *html.Node) *Box {
	d := s.Display
	outOfFlow := s.Position == style.Absolute || s.Position == style.Fixed
	var box *Box
	switch d {
	case style.DisplayInline:
		if outOfFlow {
			box = b.newBox(KindBlock, s, n)
		} else {
			box = b.newBox(KindInline, s, n)
			box.Inline = true
		}
	case style.DisplayInlineBlock, style.DisplayInlineFlex, style.DisplayInlineGrid:
		box = b.newBox(KindBlock, s, n)
		box.Inline = !outOfFlow
	case style.DisplayTable:
		box = b.newBox(KindTableWrapper, s, n)
	case style.DisplayInlineTable:
		box = b.newBox(KindTableWrapper, s, n)
		box.Inline = !outOfFlow
	case style.DisplayTableRowGroup, style.DisplayTableHeaderGroup, style.DisplayTableFooterGroup:
		box = b.newBox(KindRowGroup, s, n)
	case style.DisplayTableRow:
		box = b.newBox(KindRow, s, n)
	case style.DisplayTableCell:
		box = b.newBox(KindCell, s, n)
		box.ColSpan = clampInt(atoiAttr(n, "colspan", 1), 1, 1000)
		box.RowSpan = clampInt(atoiAttr(n, "rowspan", 1), 0, 65534)
		if box.RowSpan == 0 {
			box.RowSpan = 65534 // rowspan=0: to the end of the row group
		}
	case style.DisplayTableColumnGroup:
		box = b.newBox(KindColumnGroup, s, n)
		box.Span = clampInt(atoiAttr(n, "span", 1), 1, 1000)
	case style.DisplayTableColumn:
		box = b.newBox(KindColumn, s, n)
		box.Span = clampInt(atoiAttr(n, "span", 1), 1, 1000)
	case style.DisplayTableCaption:
		box = b.newBox(KindCaption, s, n)
	default: // block, list-item, flex, grid
		box = b.newBox(KindBlock, s, n)
	}
	return box
}

// image builds an <img>: the loaded image, or for a failed one its alt
// text as Chromium shows it (an inline box holding the text), or nothing.
func (b *builder) image(parent *Box, n *html.Node, s *style.Computed) {
	src := attr(n, "src")
	var img *images.Image
	var err error
	if src == "" {
		err = errNoSource
	} else {
		img, err = b.l.opt.LoadImage(src)
	}
	if err != nil && src != "" && b.l.opt.OnImageError != nil {
		b.l.opt.OnImageError(src, err)
	}
	box := b.newBox(KindReplaced, s, n)
	box.Inline = s.Display == style.DisplayInline || s.Display == style.DisplayInlineBlock
	if s.Position == style.Absolute || s.Position == style.Fixed {
		box.Inline = false
	}
	box.Image = img
	box.id = attr(n, "id")
	if err != nil && box.Inline {
		alt := attr(n, "alt")
		if alt != "" || (s.Width.IsAuto() && s.Height.IsAuto()) {
			// Chromium shows a broken image as its 16 px icon (floated, so
			// the line's height ignores it) followed by its alt text, in
			// the line (measured; the icon's place is left empty here; a
			// sized image without alt keeps its size).
			ib := b.newBox(KindInline, b.l.anonStyle(s, style.DisplayInline), n)
			ib.Inline = true
			ib.id = box.id
			is := b.l.anonStyle(s, style.DisplayInline)
			is.Width = style.Length{V: 16, Unit: style.Px}
			is.Height = style.Length{V: 0, Unit: style.Px} // a float in Chromium: no line height
			icon := b.newBox(KindReplaced, is, nil)
			icon.Inline = true
			appendChild(ib, icon)
			if alt != "" {
				t := b.newBox(KindText, s, nil)
				t.Inline = true
				t.Text = alt
				appendChild(ib, t)
			}
			appendChild(parent, ib)
			return
		}
	}
	appendChild(parent, box)
}

// inlineSVG draws an <svg> element of the document as an image: its markup
// is serialised (with the colour its currentColor means) for
// images.InlineSVG.
func (b *builder) inlineSVG(parent *Box, n *html.Node, s *style.Computed) {
	img, err := images.InlineSVG(InlineSVGMarkup(n, s))
	box := b.newBox(KindReplaced, s, n)
	box.Inline = s.Display == style.DisplayInline || s.Display == style.DisplayInlineBlock
	if s.Position == style.Absolute || s.Position == style.Fixed {
		box.Inline = false
	}
	box.id = attr(n, "id")
	if err == nil {
		box.Image = img
	} else if b.l.opt.OnImageError != nil {
		b.l.opt.OnImageError("inline <svg>", err)
	}
	appendChild(parent, box)
}

// InlineSVGMarkup serialises an <svg> element of an HTML document for
// images.InlineSVG. Its currentColor is the element's CSS color (the page's
// cascade, inherited from the HTML around it), given as the root's color
// attribute unless the markup sets one; s is the element's computed style
// (nil leaves the markup as it is).
func InlineSVGMarkup(n *html.Node, s *style.Computed) string {
	root := *n
	if s != nil && attr(n, "color") == "" {
		c := s.Color
		root.Attr = append(append([]html.Attribute(nil), n.Attr...), html.Attribute{Key: "color",
			Val: fmt.Sprintf("rgba(%d,%d,%d,%s)", int(math.Round(c.R*255)), int(math.Round(c.G*255)), int(math.Round(c.B*255)),
				strconv.FormatFloat(c.A, 'f', -1, 64))})
	}
	var sb strings.Builder
	if err := html.Render(&sb, &root); err != nil {
		return ""
	}
	return sb.String()
}

// pseudo builds a ::before or ::after box from its content.
func (b *builder) pseudo(parent *Box, n *html.Node, s *style.Computed, which Pseudo, depth int) {
	if s.ContentNone || s.Display == style.DisplayNone {
		return
	}
	b.applyCounters(nil, s, nil)
	box := b.boxFor(s, nil)
	box.Node, box.Pseudo = n, which
	for _, it := range s.Content {
		if it.Kind == style.ContentURL {
			img, err := b.l.opt.LoadImage(it.Text)
			if err != nil {
				if b.l.opt.OnImageError != nil {
					b.l.opt.OnImageError(it.Text, err)
				}
				continue
			}
			ib := b.newBox(KindReplaced, b.l.anonStyle(s, style.DisplayInline), nil)
			ib.Inline, ib.Image = true, img
			appendChild(box, ib)
			continue
		}
		txt := b.contentText(n, s, it)
		if txt == "" {
			continue
		}
		t := b.newBox(KindText, s, nil)
		t.Inline = true
		t.Text = transformText(txt, s.TextTransform)
		appendChild(box, t)
	}
	appendChild(parent, box)
	if box.Kind == KindTableWrapper {
		b.tableWrapper(box)
	} else {
		b.fixup(box)
	}
}

// contentText is the text one content item inserts.
func (b *builder) contentText(n *html.Node, s *style.Computed, it style.ContentItem) string {
	switch it.Kind {
	case style.ContentString:
		return it.Text
	case style.ContentAttr:
		return attr(n, it.Name)
	case style.ContentCounter:
		return formatCounter(b.counters.value(it.Name), counterStyle(it.Style))
	case style.ContentCounters:
		vals := b.counters.values(it.Name)
		var sb strings.Builder
		for i, v := range vals {
			if i > 0 {
				sb.WriteString(it.Sep)
			}
			sb.WriteString(formatCounter(v, counterStyle(it.Style)))
		}
		if len(vals) == 0 {
			sb.WriteString(formatCounter(0, counterStyle(it.Style)))
		}
		return sb.String()
	case style.ContentOpenQuote:
		q := quoteAt(s.Quotes, b.quotes, true)
		b.quotes++
		return q
	case style.ContentCloseQuote:
		if b.quotes == 0 {
			return ""
		}
		b.quotes--
		return quoteAt(s.Quotes, b.quotes, false)
	case style.ContentNoOpenQuote:
		b.quotes++
	case style.ContentNoCloseQuote:
		if b.quotes > 0 {
			b.quotes--
		}
	}
	return ""
}

// defaultQuotes are Chromium's quotes for English (and unknown languages).
var defaultQuotes = []string{"\u201c", "\u201d", "\u2018", "\u2019"}

func quoteAt(q []string, depth int, open bool) string {
	if len(q) < 2 {
		q = defaultQuotes
	}
	pairs := len(q) / 2
	if depth >= pairs {
		depth = pairs - 1
	}
	if open {
		return q[2*depth]
	}
	return q[2*depth+1]
}

// marker builds a list item's ::marker: outside markers hang beside the
// first line (Box.Marker is set on the item, not a child); inside ones are
// the item's first inline content.
func (b *builder) marker(li *Box, n *html.Node) {
	s := b.st.Pseudo(n, style.Marker)
	if s == nil {
		return
	}
	text := ""
	var img *images.Image
	if li.Style.ListStyleImage != "" {
		if im, err := b.l.opt.LoadImage(li.Style.ListStyleImage); err == nil {
			img = im
		}
	}
	if !s.ContentNone && len(s.Content) > 0 {
		for _, it := range s.Content {
			text += b.contentText(n, s, it)
		}
	} else if img == nil {
		text = markerText(li.Style.ListStyleType, b.counters.value("list-item"))
	}
	if text == "" && img == nil {
		return
	}
	m := b.newBox(KindInline, s, n)
	m.Inline, m.Pseudo = true, PseudoMarker
	if img != nil {
		ib := b.newBox(KindReplaced, s, nil)
		ib.Inline, ib.Image = true, img
		appendChild(m, ib)
	} else {
		t := b.newBox(KindText, s, nil)
		t.Inline, t.Text = true, text
		appendChild(m, t)
	}
	if li.Style.ListStylePosition == "inside" {
		appendChild(li, m)
		return
	}
	m.Parent = li
	li.Marker = m
}

// appendChild appends c to p's children.
func appendChild(p, c *Box) {
	c.Parent = p
	p.Children = append(p.Children, c)
}

func attr(n *html.Node, name string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == name {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, name string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == name {
			return true
		}
	}
	return false
}

// atoiAttr reads an integer attribute as HTML's rules for parsing integers
// do (leading white space, sign, digits; junk after them ignored).
func atoiAttr(n *html.Node, name string, def int) int {
	v, ok := parseHTMLInt(attr(n, name))
	if !ok {
		return def
	}
	return v
}

func parseHTMLInt(s string) (int, bool) {
	s = strings.TrimLeft(s, " \t\n\f\r")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	if i > 9 {
		i = 9
	}
	v, _ := strconv.Atoi(s[:i])
	if neg {
		v = -v
	}
	return v, true
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// transformText applies text-transform.
func transformText(s, tt string) string {
	switch tt {
	case "uppercase":
		return strings.ToUpper(s)
	case "lowercase":
		return strings.ToLower(s)
	case "capitalize":
		var sb strings.Builder
		sb.Grow(len(s))
		prevLetter := false
		for _, r := range s {
			isL := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '\u2019'
			if isL && !prevLetter {
				r = unicode.ToTitle(r)
			}
			prevLetter = isL
			sb.WriteRune(r)
		}
		return sb.String()
	}
	return s
}

// isCollapsibleSpaceOnly reports whether s is only spaces, tabs and segment
// breaks.
func isCollapsibleSpaceOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f':
		default:
			return false
		}
	}
	return true
}

// fixup makes box's children satisfy the box tree's invariants: table
// parts inside tables, anonymous blocks around inline runs beside blocks,
// inline boxes split around blocks.
func (b *builder) fixup(box *Box) {
	switch box.Kind {
	case KindTable:
		b.fixTable(box)
		return
	case KindRowGroup:
		b.fixRowGroup(box)
		return
	case KindRow:
		b.fixRow(box)
		return
	case KindColumnGroup:
		kept := box.Children[:0]
		for _, c := range box.Children {
			if c.Kind == KindColumn {
				kept = append(kept, c)
			}
		}
		box.Children = kept
		return
	case KindColumn, KindText, KindReplaced, KindBreak:
		box.Children = nil
		return
	}
	b.wrapMisparentedTableParts(box)
	if box.Kind == KindInline {
		return // split by the enclosing block container
	}
	// A block container: inline content or block content, never both.
	hasBlock, hasInline := false, false
	for _, c := range box.Children {
		if c.Inline || c.Kind == KindText {
			if c.Kind == KindInline && inlineHoldsBlock(c) {
				hasBlock = true
			}
			hasInline = true
		} else if !c.outOfFlow() {
			hasBlock = true
		}
	}
	if hasInline && box.isFlexOrGrid() {
		hasBlock = true // a flex or grid container's text runs are anonymous items
	}
	if !hasBlock {
		box.InlineContent = hasInline
		if !hasInline && len(box.Children) > 0 {
			// Only out-of-flow children: they take their static position in
			// an empty inline context.
			box.InlineContent = false
		}
		return
	}
	// Split inline boxes that hold blocks, then wrap inline runs.
	var flat []*Box
	for _, c := range box.Children {
		if c.Kind == KindInline && inlineHoldsBlock(c) {
			flat = append(flat, b.splitInline(c)...)
		} else {
			flat = append(flat, c)
		}
	}
	var out []*Box
	var run []*Box
	flush := func() {
		if len(run) == 0 {
			return
		}
		if allCollapsibleWhite(run) {
			// Chromium makes no box for white space between blocks; keep
			// out-of-flow boxes, which need a static position.
			for _, r := range run {
				if r.outOfFlow() {
					out = append(out, r)
				}
			}
			run = run[:0]
			return
		}
		anon := b.newBox(KindBlock, b.l.anonStyle(box.Style, style.DisplayBlock), nil)
		anon.Anonymous = true
		anon.InlineContent = true
		for _, r := range run {
			appendChild(anon, r)
		}
		anon.Parent = box
		out = append(out, anon)
		run = run[:0]
	}
	for _, c := range flat {
		if c.Inline || c.Kind == KindText || (c.outOfFlow() && len(run) > 0) {
			run = append(run, c)
			continue
		}
		flush()
		c.Parent = box
		out = append(out, c)
	}
	flush()
	box.Children = out
	box.InlineContent = false
}

// allCollapsibleWhite reports whether an inline run is only collapsible
// white space (and out-of-flow boxes): it makes no line box.
func allCollapsibleWhite(run []*Box) bool {
	for _, r := range run {
		if r.outOfFlow() {
			continue
		}
		if r.Kind != KindText {
			return false
		}
		ws := r.Style.WhiteSpace
		if ws != style.WSNormal && ws != style.WSNowrap {
			return false
		}
		if !isCollapsibleSpaceOnly(r.Text) {
			return false
		}
	}
	return true
}

// inlineHoldsBlock reports whether an inline box has a block-level
// descendant through inline boxes only.
func inlineHoldsBlock(b *Box) bool {
	for _, c := range b.Children {
		if c.Kind == KindInline {
			if inlineHoldsBlock(c) {
				return true
			}
			continue
		}
		if !c.Inline && c.Kind != KindText && !c.outOfFlow() {
			return true
		}
	}
	return false
}

// splitInline splits an inline box holding blocks into inline parts and the
// blocks between them (CSS 2.1 §9.2.1.1).
func (b *builder) splitInline(ib *Box) []*Box {
	var out []*Box
	cur := b.cloneInline(ib)
	first := true
	emit := func() {
		cur.noStart = !first
		cur.noEnd = true
		out = append(out, cur)
		first = false
		cur = b.cloneInline(ib)
	}
	for _, c := range ib.Children {
		switch {
		case c.Kind == KindInline && inlineHoldsBlock(c):
			for _, p := range b.splitInline(c) {
				if p.Inline {
					appendChild(cur, p)
				} else {
					emit()
					out = append(out, p)
				}
			}
		case !c.Inline && c.Kind != KindText && !c.outOfFlow():
			emit()
			out = append(out, c)
		default:
			appendChild(cur, c)
		}
	}
	cur.noStart = !first
	out = append(out, cur)
	out[0].id = ib.id
	return out
}

func (b *builder) cloneInline(ib *Box) *Box {
	c := b.newBox(KindInline, ib.Style, ib.Node)
	c.Inline, c.Pseudo, c.href = true, ib.Pseudo, ib.href
	c.Anonymous = true
	return c
}
