package pdfw

import (
	"math"
	"sort"

	"github.com/platen/platen/render/phantom/draw"
)

// navState holds the document's named destinations: each anchor's page and
// position, the first anchor of a name winning.
type navState struct {
	dests map[string]anchorLoc
	names []string // sorted, the order of the name tree
	refs  []int    // annotation objects of the page being written
}

type anchorLoc struct {
	page int
	y    float64 // px from the page's top
}

func (w *writer) prepareNav(doc *draw.Document) *navState {
	nav := &navState{}
	for i, p := range doc.Pages {
		if p == nil {
			continue
		}
		for _, a := range p.Anchors {
			if a.Name == "" {
				continue
			}
			if nav.dests == nil {
				nav.dests = make(map[string]anchorLoc)
			}
			if _, dup := nav.dests[a.Name]; !dup {
				nav.dests[a.Name] = anchorLoc{page: i, y: a.Y}
				nav.names = append(nav.names, a.Name)
			}
		}
	}
	sort.Strings(nav.names)
	return nav
}

// writeLinks writes a page's link annotations and returns their objects.
func (w *writer) writeLinks(page int, p *draw.Page, hPt float64, nav *navState) []int {
	nav.refs = nav.refs[:0]
	for _, l := range p.Links {
		r := l.Rect
		if !(r.W > 0) || !(r.H > 0) || math.IsInf(r.W, 0) || math.IsInf(r.H, 0) || math.IsNaN(r.X+r.Y) {
			continue
		}
		internal := l.URI == ""
		if internal {
			if _, ok := nav.dests[l.Dest]; !ok {
				continue
			}
		}
		ref := w.alloc()
		b := append(w.tmp[:0], "<</Type/Annot/Subtype/Link/Rect["...)
		b = appendNum(b, r.X*pxToPt, 3)
		b = append(b, ' ')
		b = appendNum(b, hPt-(r.Y+r.H)*pxToPt, 3)
		b = append(b, ' ')
		b = appendNum(b, (r.X+r.W)*pxToPt, 3)
		b = append(b, ' ')
		b = appendNum(b, hPt-r.Y*pxToPt, 3)
		b = append(b, "]/Border[0 0 0]/F 4"...)
		if internal {
			b = append(b, "/Dest"...)
			b = appendLiteral(b, l.Dest)
		} else {
			b = append(b, "/A<</S/URI/URI"...)
			b = appendURI(b, l.URI)
			b = append(b, ">>"...)
		}
		if w.tags.on && l.Elem != nil {
			// A tagged link is its Link element's, and says where it goes.
			b = append(b, "/StructParent "...)
			b = appendInt(b, w.tags.annotation(l.Elem, page, ref))
			b = append(b, "/Contents"...)
			if internal {
				b = appendTextString(b, "Link to "+l.Dest)
			} else {
				b = appendTextString(b, l.URI)
			}
		}
		b = append(b, ">>"...)
		w.tmp = b
		w.putObj(ref, b)
		nav.refs = append(nav.refs, ref)
	}
	return nav.refs
}

// appendDest appends an explicit destination: the page, scrolled to y px.
func (w *writer) appendDest(b []byte, doc *draw.Document, page int, y float64) []byte {
	_, hPt := pageSize(doc.Pages[page])
	top := math.Min(math.Max(hPt-finite(y)*pxToPt, 0), hPt)
	b = append(b, '[')
	b = appendRef(b, w.pageRefs[page])
	b = append(b, "/XYZ 0 "...)
	b = appendNum(b, top, 2)
	return append(b, " null]"...)
}

// writeNav writes the named destinations, the outline, the document
// information and the catalog; it returns the information dictionary's
// object, 0 when there is none.
func (w *writer) writeNav(doc *draw.Document, nav *navState) int {
	dests := 0
	if len(nav.names) > 0 {
		dests = w.alloc()
		b := append(w.tmp[:0], "<</Names["...)
		for _, name := range nav.names {
			a := nav.dests[name]
			b = appendLiteral(b, name)
			b = w.appendDest(b, doc, a.page, a.y)
		}
		b = append(b, "]>>"...)
		w.tmp = b
		w.putObj(dests, b)
	}
	outline := w.writeOutline(doc)

	title := doc.Title
	if w.opt.Title != "" {
		title = w.opt.Title
	}
	info := 0
	if title != "" || w.opt.Producer != "" {
		info = w.alloc()
		b := append(w.tmp[:0], "<<"...)
		if title != "" {
			b = append(b, "/Title"...)
			b = appendTextString(b, title)
		}
		if w.opt.Producer != "" {
			b = append(b, "/Producer"...)
			b = appendTextString(b, w.opt.Producer)
		}
		b = append(b, ">>"...)
		w.tmp = b
		w.putObj(info, b)
	}

	b := append(w.tmp[:0], "<</Type/Catalog/Pages "...)
	b = appendRef(b, w.pages)
	if outline > 0 {
		b = append(b, "/Outlines "...)
		b = appendRef(b, outline)
	}
	w.tmp = b
	embedded, af := w.writeAttachments()
	b = w.tmp
	if dests > 0 || embedded != nil {
		b = append(b, "/Names<<"...)
		if dests > 0 {
			b = append(b, "/Dests "...)
			b = appendRef(b, dests)
		}
		b = append(b, embedded...)
		b = append(b, ">>"...)
	}
	b = append(b, af...)
	if doc.Lang != "" {
		b = append(b, "/Lang"...)
		b = appendTextString(b, doc.Lang)
	}
	if title != "" {
		b = append(b, "/ViewerPreferences<</DisplayDocTitle true>>"...)
	}
	if w.structRoot > 0 {
		b = append(b, "/MarkInfo<</Marked true>>/StructTreeRoot "...)
		b = appendRef(b, w.structRoot)
	}
	if w.opt.PDFA != "" || w.opt.PDFUA {
		w.tmp = b
		pdfa := w.writePDFA(title)
		b = append(w.tmp, pdfa...)
	}
	b = append(b, ">>"...)
	w.tmp = b
	w.putObj(w.catalog, b)
	return info
}

// outlineNode is one bookmark while the outline is built.
type outlineNode struct {
	item                            *draw.OutlineItem
	level                           int
	ref, parent, first, last, prev  int
	next, count, parentIdx, lastIdx int
}

// writeOutline writes the bookmarks (12.3.3), nested by heading level: an
// item is the child of the nearest earlier item of a lower level. All are
// open. It returns the outline dictionary's object, 0 when there is none.
func (w *writer) writeOutline(doc *draw.Document) int {
	if len(doc.Outline) == 0 {
		return 0
	}
	root := w.alloc()
	nodes := make([]outlineNode, len(doc.Outline))
	var stack []int // open ancestors, by index
	rootFirst, rootLast, rootLastIdx := 0, 0, -1
	for i := range doc.Outline {
		it := &doc.Outline[i]
		n := &nodes[i]
		n.item = it
		n.level = min(max(it.Level, 1), 6)
		n.ref = w.alloc()
		n.lastIdx = -1
		for len(stack) > 0 && nodes[stack[len(stack)-1]].level >= n.level {
			stack = stack[:len(stack)-1]
		}
		n.parentIdx = -1
		n.parent = root
		prevIdx := rootLastIdx
		if len(stack) > 0 {
			p := &nodes[stack[len(stack)-1]]
			n.parentIdx = stack[len(stack)-1]
			n.parent = p.ref
			prevIdx = p.lastIdx
			if p.first == 0 {
				p.first = n.ref
			}
			p.last = n.ref
			p.lastIdx = i
		} else {
			if rootFirst == 0 {
				rootFirst = n.ref
			}
			rootLast = n.ref
			rootLastIdx = i
		}
		if prevIdx >= 0 {
			n.prev = nodes[prevIdx].ref
			nodes[prevIdx].next = n.ref
		}
		stack = append(stack, i)
	}
	// Counts: every descendant is visible, as all items are open.
	total := 0
	for i := len(nodes) - 1; i >= 0; i-- {
		if p := nodes[i].parentIdx; p >= 0 {
			nodes[p].count += 1 + nodes[i].count
		} else {
			total += 1 + nodes[i].count
		}
	}
	for i := range nodes {
		n := &nodes[i]
		page := min(max(n.item.Page, 0), len(doc.Pages)-1)
		b := append(w.tmp[:0], "<</Title"...)
		b = appendTextString(b, n.item.Title)
		b = append(b, "/Parent "...)
		b = appendRef(b, n.parent)
		if n.prev > 0 {
			b = append(b, "/Prev "...)
			b = appendRef(b, n.prev)
		}
		if n.next > 0 {
			b = append(b, "/Next "...)
			b = appendRef(b, n.next)
		}
		if n.first > 0 {
			b = append(b, "/First "...)
			b = appendRef(b, n.first)
			b = append(b, "/Last "...)
			b = appendRef(b, n.last)
			b = append(b, "/Count "...)
			b = appendInt(b, n.count)
		}
		b = append(b, "/Dest"...)
		b = w.appendDest(b, doc, page, n.item.Y)
		b = append(b, ">>"...)
		w.tmp = b
		w.putObj(n.ref, b)
	}
	b := append(w.tmp[:0], "<</Type/Outlines/First "...)
	b = appendRef(b, rootFirst)
	b = append(b, "/Last "...)
	b = appendRef(b, rootLast)
	b = append(b, "/Count "...)
	b = appendInt(b, total)
	b = append(b, ">>"...)
	w.tmp = b
	w.putObj(root, b)
	return root
}
