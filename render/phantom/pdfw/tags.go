package pdfw

import (
	"slices"

	"github.com/platen/platen/render/phantom/draw"
)

// tagWriter writes a tagged document (PDF 14.7, 14.8): content marked with
// MCIDs of its structure elements, everything else marked as an artifact,
// the structure tree, and the parent tree that maps marked content and
// link annotations back to their elements.
type tagWriter struct {
	on bool
	// content is each element's marked content and annotations.
	content map[*draw.StructElem][]contentRef
	// parents is, by StructParents key, the element of each MCID of a page
	// (an array), or of one annotation (parentObj).
	parents []parentEntry
	seq     int
	// The page being written: its key, its next MCID, and whether a mark
	// or an artifact is open.
	page               int
	pageKey            int
	mcid               int
	inMark, inArtifact bool
	// group counts open transparency groups: inside one, marks are not
	// written (the group's form XObject is painted as one marked sequence,
	// of the first element marked in it, or as an artifact).
	group      int
	groupElem  *draw.StructElem
	groupOrder int
}

type contentRef struct {
	order, seq int
	page       int
	mcid       int // -1 for an annotation
	annot      int // an annotation's object
}

type parentEntry struct {
	mcids []*draw.StructElem
	annot *draw.StructElem // when set, the entry is one annotation's
}

func (t *tagWriter) reset(doc *draw.Document) {
	t.on = doc.Struct != nil
	if t.content == nil {
		t.content = map[*draw.StructElem][]contentRef{}
	}
	clear(t.content)
	t.parents = t.parents[:0]
	t.seq, t.group, t.groupElem = 0, 0, nil
}

// startPage gives a page its StructParents key.
func (t *tagWriter) startPage(page int) {
	t.page = page
	t.pageKey = len(t.parents)
	t.parents = append(t.parents, parentEntry{})
	t.mcid, t.inMark, t.inArtifact = 0, false, false
}

// mark opens a marked-content sequence of elem at order, written into c.
func (t *tagWriter) mark(c *content, elem *draw.StructElem, order int) {
	if t.group > 0 {
		if t.groupElem == nil {
			t.groupElem, t.groupOrder = elem, order
		}
		return
	}
	c.endText()
	t.closeArtifact(c)
	if t.inMark {
		c.op("EMC\n")
	}
	c.b = append(c.b, '/')
	c.b = append(c.b, elem.Role...)
	c.op("<</MCID ")
	c.b = appendInt(c.b, t.mcid)
	c.op(">>BDC\n")
	t.content[elem] = append(t.content[elem], contentRef{order: order, seq: t.seq, page: t.page, mcid: t.mcid})
	t.seq++
	e := &t.parents[t.pageKey]
	e.mcids = append(e.mcids, elem)
	t.mcid++
	t.inMark = true
}

func (t *tagWriter) endMark(c *content) {
	if t.inMark && t.group == 0 {
		c.endText()
		c.op("EMC\n")
		t.inMark = false
	}
}

// paint is called before a painting operation: outside a mark it is an
// artifact.
func (t *tagWriter) paint(c *content) {
	if !t.on || t.inMark || t.inArtifact || t.group > 0 {
		return
	}
	c.endText()
	c.op("/Artifact BMC\n")
	t.inArtifact = true
}

// closeArtifact ends an open artifact: before a change of the graphics
// state stack, a mark, or the end of the page.
func (t *tagWriter) closeArtifact(c *content) {
	if t.inArtifact {
		c.endText()
		c.op("EMC\n")
		t.inArtifact = false
	}
}

// annotation records a link annotation of elem and returns its
// StructParent key.
func (t *tagWriter) annotation(elem *draw.StructElem, page, ref int) int {
	key := len(t.parents)
	t.parents = append(t.parents, parentEntry{annot: elem})
	t.content[elem] = append(t.content[elem], contentRef{order: elem.Order, seq: t.seq, page: page, mcid: -1, annot: ref})
	t.seq++
	return key
}

// hasContent reports whether e or an element under it has content: an
// element with none is left out of the tree (cells and rows are kept, so
// that a table stays regular).
func (t *tagWriter) hasContent(e *draw.StructElem) bool {
	if len(t.content[e]) > 0 || e.Role == "TD" || e.Role == "TH" || e.Role == "TR" {
		return true
	}
	for _, k := range e.Kids {
		if t.hasContent(k) {
			return true
		}
	}
	return false
}

// writeStructTree writes the structure tree and the parent tree and
// returns the StructTreeRoot's object.
func (w *writer) writeStructTree(root *draw.StructElem) int {
	t := &w.tags
	treeRoot := w.alloc()
	refs := map[*draw.StructElem]int{}
	var number func(e *draw.StructElem)
	number = func(e *draw.StructElem) {
		refs[e] = w.alloc()
		for _, k := range e.Kids {
			if t.hasContent(k) {
				number(k)
			}
		}
	}
	number(root)
	// Each element's kids: its elements and its own content, in document
	// order, content painted in the order it was painted.
	type kid struct {
		order, seq int
		elem       *draw.StructElem
		ref        contentRef
	}
	var write func(e *draw.StructElem, parent int)
	write = func(e *draw.StructElem, parent int) {
		var kids []kid
		for _, k := range e.Kids {
			if _, ok := refs[k]; ok {
				kids = append(kids, kid{order: k.Order, seq: -1, elem: k})
			}
		}
		for _, r := range t.content[e] {
			kids = append(kids, kid{order: r.order, seq: r.seq, ref: r})
		}
		slices.SortStableFunc(kids, func(a, b kid) int {
			if a.order != b.order {
				return a.order - b.order
			}
			return a.seq - b.seq
		})
		b := append(w.tmp[:0], "<</Type/StructElem/S/"...)
		b = append(b, e.Role...)
		b = append(b, "/P "...)
		b = appendRef(b, parent)
		firstPage := -1
		for _, k := range kids {
			if k.elem == nil {
				firstPage = k.ref.page
				break
			}
		}
		if firstPage >= 0 {
			b = append(b, "/Pg "...)
			b = appendRef(b, w.pageRefs[firstPage])
		}
		if e.Alt != "" || e.Role == "Figure" {
			b = append(b, "/Alt"...)
			b = appendTextString(b, e.Alt)
		}
		if e.Lang != "" {
			b = append(b, "/Lang"...)
			b = appendTextString(b, e.Lang)
		}
		if e.Title != "" {
			b = append(b, "/T"...)
			b = appendTextString(b, e.Title)
		}
		if e.ID != "" {
			b = append(b, "/ID"...)
			b = appendLiteral(b, e.ID)
		}
		b = appendTableAttrs(b, e)
		b = append(b, "/K["...)
		for i, k := range kids {
			if i > 0 {
				b = append(b, ' ')
			}
			switch {
			case k.elem != nil:
				b = appendRef(b, refs[k.elem])
			case k.ref.mcid >= 0 && k.ref.page == firstPage:
				b = appendInt(b, k.ref.mcid)
			case k.ref.mcid >= 0:
				b = append(b, "<</Type/MCR/Pg "...)
				b = appendRef(b, w.pageRefs[k.ref.page])
				b = append(b, "/MCID "...)
				b = appendInt(b, k.ref.mcid)
				b = append(b, ">>"...)
			default:
				b = append(b, "<</Type/OBJR/Obj "...)
				b = appendRef(b, k.ref.annot)
				b = append(b, ">>"...)
			}
		}
		b = append(b, "]>>"...)
		w.tmp = b
		w.putObj(refs[e], b)
		for _, k := range e.Kids {
			if _, ok := refs[k]; ok {
				write(k, refs[e])
			}
		}
	}
	write(root, treeRoot)

	// The parent tree: a flat number tree, one entry per page (an array
	// of its MCIDs' elements) and per annotation.
	parentTree := w.alloc()
	b := append(w.tmp[:0], "<</Nums["...)
	for key, p := range t.parents {
		if key > 0 {
			b = append(b, ' ')
		}
		b = appendInt(b, key)
		b = append(b, ' ')
		if p.annot != nil {
			b = appendRef(b, refs[p.annot])
			continue
		}
		b = append(b, '[')
		for i, e := range p.mcids {
			if i > 0 {
				b = append(b, ' ')
			}
			b = appendRef(b, refs[e])
		}
		b = append(b, ']')
	}
	b = append(b, "]>>"...)
	w.tmp = b
	w.putObj(parentTree, b)

	b = append(w.tmp[:0], "<</Type/StructTreeRoot/K "...)
	b = appendRef(b, refs[root])
	b = append(b, "/ParentTree "...)
	b = appendRef(b, parentTree)
	b = append(b, "/ParentTreeNextKey "...)
	b = appendInt(b, len(t.parents))
	b = append(b, ">>"...)
	w.tmp = b
	w.putObj(treeRoot, b)
	return treeRoot
}

// appendTableAttrs appends a table cell's attributes (PDF 14.8.5.7): a
// header's scope, the headers a cell names, and spans.
func appendTableAttrs(b []byte, e *draw.StructElem) []byte {
	if e.Scope == "" && len(e.Headers) == 0 && e.ColSpan == 0 && e.RowSpan == 0 {
		return b
	}
	b = append(b, "/A<</O/Table"...)
	if e.Scope != "" {
		b = append(b, "/Scope/"...)
		b = append(b, e.Scope...)
	}
	if len(e.Headers) > 0 {
		b = append(b, "/Headers["...)
		for i, h := range e.Headers {
			if i > 0 {
				b = append(b, ' ')
			}
			b = appendLiteral(b, h)
		}
		b = append(b, ']')
	}
	if e.ColSpan > 1 {
		b = append(b, "/ColSpan "...)
		b = appendInt(b, e.ColSpan)
	}
	if e.RowSpan > 1 {
		b = append(b, "/RowSpan "...)
		b = appendInt(b, e.RowSpan)
	}
	return append(b, ">>"...)
}
