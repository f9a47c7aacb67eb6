package layout

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/platen/platen/render/phantom/draw"
)

// tags is a tagged document's structure tree as the box tree makes it
// (docs/accessibility.md "What is tagged"). Each box holds the element its
// content belongs to (Box.tagContent), the element it made (Box.tagOwn)
// and its document order (Box.tagOrder).
type tags struct {
	root *draw.StructElem
}

// buildTags makes the structure tree of the box tree rooted at root. The
// roles come from the elements (h1-h6, p, lists, tables, img, a, …); a
// block of lines that no element names becomes a P; elements with no role
// of their own (div, span, strong, …) pass their content to their parent's
// element.
func buildTags(root *Box, lang string) *tags {
	t := &tags{root: &draw.StructElem{Role: "Document"}}
	n := 0
	var walk func(b *Box, parent *draw.StructElem, lang string)
	walk = func(b *Box, parent *draw.StructElem, lang string) {
		n++
		b.tagOrder = n
		e, childLang := t.elemOf(b, parent, lang, n)
		b.tagContent = e
		if b.Marker != nil {
			walk(b.Marker, e, childLang)
		}
		for _, c := range b.Children {
			walk(c, e, childLang)
		}
	}
	walk(root, t.root, lang)
	return t
}

func (t *tags) add(parent *draw.StructElem, role string, order int) *draw.StructElem {
	e := &draw.StructElem{Role: role, Order: order, Parent: parent}
	parent.Kids = append(parent.Kids, e)
	return e
}

// holdsText is a role whose element takes the text of its lines itself.
func holdsText(role string) bool {
	switch role {
	case "P", "H1", "H2", "H3", "H4", "H5", "H6", "TH", "TD", "Caption", "Lbl", "LBody", "Link", "Span", "Figure":
		return true
	}
	return false
}

// elemOf makes b's element, if it has one, under parent, and returns the
// element b's content and children belong to, and the language they are in.
func (t *tags) elemOf(b *Box, parent *draw.StructElem, lang string, order int) (*draw.StructElem, string) {
	if b.Pseudo == PseudoMarker {
		// A list item's marker is its label, before its body.
		if li := parent.Parent; parent.Role == "LBody" && li != nil {
			// Read before the body: the same order, and first among the
			// item's kids.
			lbl := &draw.StructElem{Role: "Lbl", Order: parent.Order, Parent: li}
			li.Kids = append([]*draw.StructElem{lbl}, li.Kids...)
			b.tagOwn = lbl
			return lbl, lang
		}
		return parent, lang
	}
	role := ""
	var node *html.Node
	if b.Node != nil && b.Node.Type == html.ElementNode && b.Pseudo == PseudoNone {
		node = b.Node
	}
	if tableKind(b.Kind) && presentational(b) {
		// A layout table (role="presentation") is not a table to a
		// reader: its cells' lines are paragraphs.
		if b.IsBlockContainer() && b.InlineContent && !holdsText(parent.Role) {
			e := t.add(parent, "P", order)
			b.tagOwn = e
			return e, lang
		}
		return parent, lang
	}
	switch b.Kind {
	case KindRowGroup:
		role = "TBody"
		if node != nil && node.DataAtom == atom.Thead {
			role = "THead"
		} else if node != nil && node.DataAtom == atom.Tfoot {
			role = "TFoot"
		}
	case KindRow:
		role = "TR"
	case KindCell:
		role = "TD"
		if node != nil && node.DataAtom == atom.Th {
			role = "TH"
		}
	case KindCaption:
		role = "Caption"
	case KindTableWrapper:
		role = "Table"
	case KindTable, KindColumnGroup, KindColumn:
		return parent, lang
	}
	if role == "" && node != nil && !b.Anonymous {
		switch node.DataAtom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			role = strings.ToUpper(node.Data)
		case atom.P:
			role = "P"
		case atom.Ul, atom.Ol:
			role = "L"
		case atom.Li:
			role = "LI"
		case atom.Blockquote:
			role = "BlockQuote"
		case atom.Section:
			role = "Sect"
		case atom.Article:
			role = "Art"
		case atom.Figcaption:
			role = "Caption"
		case atom.A:
			if b.href != "" {
				role = "Link"
			}
		case atom.Img, atom.Svg:
			if hasAttr(node, "alt") && strings.TrimSpace(attr(node, "alt")) == "" {
				// alt="" says the image is decoration: an artifact.
				return nil, lang
			}
			if r := strings.ToLower(attr(node, "role")); r == "presentation" || r == "none" || attr(node, "aria-hidden") == "true" {
				return nil, lang
			}
			role = "Figure"
		}
	}
	// A block of lines no element names is a paragraph, unless its element
	// takes its text itself.
	if role == "" && b.IsBlockContainer() && b.InlineContent && !holdsText(parent.Role) {
		role = "P"
	}
	// A change of language is a Span (inline) or Div (block) of its own
	// when the element has no role.
	childLang := lang
	if node != nil {
		if l := attr(node, "lang"); hasAttr(node, "lang") && l != lang {
			childLang = l
			if role == "" {
				role = "Div"
				if b.Inline {
					role = "Span"
				}
			}
		}
	}
	if role == "" {
		return parent, lang
	}
	e := t.add(parent, role, order)
	b.tagOwn = e
	if childLang != lang {
		e.Lang = childLang
	}
	if node != nil {
		e.Title = attr(node, "title")
		switch role {
		case "Figure":
			e.Alt = strings.TrimSpace(attr(node, "alt"))
			if e.Alt == "" {
				e.Alt = strings.TrimSpace(attr(node, "aria-label"))
			}
		case "TH":
			switch strings.ToLower(attr(node, "scope")) {
			case "row", "rowgroup":
				e.Scope = "Row"
			case "col", "colgroup":
				e.Scope = "Column"
			default:
				e.Scope = "Column"
				if parent.Role == "TR" && len(parent.Kids) == 1 && parent.Parent != nil && parent.Parent.Role == "TBody" {
					// A header cell first in a body row heads its row.
					e.Scope = "Row"
				}
			}
			e.ID = attr(node, "id")
		case "TD":
			e.ID = attr(node, "id")
			if h := strings.Fields(attr(node, "headers")); len(h) > 0 {
				e.Headers = h
			}
		}
	}
	if role == "TH" || role == "TD" {
		if b.ColSpan > 1 {
			e.ColSpan = b.ColSpan
		}
		if b.RowSpan > 1 {
			e.RowSpan = b.RowSpan
		}
	}
	if role == "LI" {
		// A list item's content is its body; its marker, its label.
		return t.add(e, "LBody", order), childLang
	}
	return e, childLang
}

func tableKind(k Kind) bool {
	switch k {
	case KindTableWrapper, KindTable, KindCaption, KindRowGroup, KindRow, KindCell, KindColumnGroup, KindColumn:
		return true
	}
	return false
}

// presentational reports whether a table part belongs to a table whose
// element says it only lays out (role presentation or none).
func presentational(b *Box) bool {
	for x := b; x != nil; x = x.Parent {
		if (x.Kind == KindTableWrapper || x.Kind == KindTable) && x.Node != nil && x.Node.Type == html.ElementNode {
			role := strings.ToLower(strings.TrimSpace(attr(x.Node, "role")))
			return role == "presentation" || role == "none"
		}
	}
	return false
}

// mark wraps paint, the content of box b, in a mark of b's element; paint
// runs unmarked (an artifact) when the document is untagged, b's content
// belongs to no element, or the painter paints repeated content.
func (p *painter) mark(b *Box, paint func()) {
	t := p.l.tags
	if t == nil || p.noMarks || b == nil {
		paint()
		return
	}
	e := b.tagContent
	if e == nil {
		paint()
		return
	}
	n := len(p.pg.Ops)
	p.op(draw.BeginMark{Elem: e, Order: b.tagOrder})
	paint()
	if len(p.pg.Ops) == n+1 {
		p.pg.Ops = p.pg.Ops[:n] // nothing painted
		return
	}
	p.op(draw.EndMark{})
}
