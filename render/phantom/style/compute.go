package style

import (
	"errors"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/platen/platen/render/phantom/draw"
	"unsafe"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ErrNoDocument is returned by Compute when given no document.
var ErrNoDocument = errors.New("style: no document to style")

// maxDepth is the deepest element phantom styles; deeper ones are not
// displayed (and reported), so a hostile document cannot run the cascade
// away.
const maxDepth = 512

// Compute styles doc: the user-agent sheet (Chromium's html.css for print),
// the document's <style> elements in document order, presentational
// attributes and style attributes, cascaded and inherited as Chromium
// prints. It never fails on bad CSS or HTML: what it cannot parse it drops
// as browsers do, and what it parses but phantom does not lay out it
// reports through Result.Unsupported.
func Compute(doc *html.Node, opt Options) (*Result, error) {
	if doc == nil {
		return nil, ErrNoDocument
	}
	cp := computers.Get().(*computer)
	defer cp.release()
	cp.opt = opt
	if cp.opt.PageWidth <= 0 {
		cp.opt.PageWidth = 793.7007874015749 - 2*37.79527559055118
	}
	if cp.opt.PageHeight <= 0 {
		cp.opt.PageHeight = 1122.5196850393702 - 2*37.79527559055118
	}
	// Quirks mode (no doctype, or a legacy one) adds Chromium's
	// quirks.css to the user-agent sheet, and layout applies its quirks
	// (the line height calculation, quirky margins, the body and
	// percentages filling the page). Phantom reports what else quirks mode
	// changes: class and id selectors that match only ignoring case, and
	// values only quirks mode accepts (unitless lengths, colours without
	// their #). Limited quirks mode (XHTML 1.0 Transitional, HTML 4.01
	// Transitional with a system id) keeps only the line height
	// calculation quirk, which layout applies.
	cp.quirks = QuirksMode(doc)
	cp.collectSheets(doc)
	if cp.quirks {
		cp.selectorCase(doc)
	}
	// Viewport units measure the first page's area as the @page rules
	// give it, in whole pixels rounded down (measured in Chromium; the
	// rules' em are the initial 16px).
	if cp.opt.ViewportWidth <= 0 || cp.opt.ViewportHeight <= 0 {
		cp.opt.ViewportWidth, cp.opt.ViewportHeight = cp.opt.PageWidth, cp.opt.PageHeight
		if first := cp.pageSet().compute(pageKey{first: true, right: true}); first != nil {
			if w := math.Floor(first.Width - first.Margin[Left] - first.Margin[Right] + 1e-6); w > 0 {
				cp.opt.ViewportWidth = w
			}
			if h := math.Floor(first.Height - first.Margin[Top] - first.Margin[Bottom] + 1e-6); h > 0 {
				cp.opt.ViewportHeight = h
			}
		}
	}
	n := cp.countElements(doc)
	r := &Result{elems: make(map[*html.Node]*elemStyle, n), webFonts: cp.webFonts}
	cp.res = r
	cp.left = n
	cp.rootFS = 16
	root := &elemStyle{c: initialComputed, info: rootInfo}
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			cp.element(c, root, 0, false, true)
		}
	}
	r.pages = cp.pageSet()
	r.feats = cp.feats
	r.viewport = cp.viewport
	cp.feats = nil
	return r, nil
}

// computer is the scratch state of one Compute call, pooled so its
// buffers are reused between documents.
type computer struct {
	opt Options
	// webFonts are the @font-face rules' data: fonts (Result.WebFonts).
	webFonts []WebFont
	// quirks is set for a document in quirks mode.
	quirks   bool
	sheets   []*sheet
	active   [][]bool
	res      *Result
	chunk    []elemStyle // elemStyles not yet used
	left     int         // elements not yet styled
	root     *elemStyle
	share    map[shareKey]shareEntry
	rootFS   float64
	matches  []match
	pmatches [4][]match // before, after, marker, first-line/-letter
	win      [numProps]winner
	skip     [numProps]bool
	touched  []propID
	customs  []winner
	others   []winner
	hints    []decl
	classes  []string
	feats    []Feature
	seen     map[Feature]bool
	faces    map[string]bool
	pending  []Feature
	st       state // the element being styled (compute is not re-entered)
	stack    []ancEntry
	clsBuf   []string
	filter   ancestorFilter
	// sib caches elements' positions among their siblings (siblings).
	sib map[*html.Node]sibInfo
	// viewport is set when a value used a viewport unit.
	viewport bool
	// svgPaint is the first rule that sets an SVG painting property on an
	// HTML element, reported at an inline <svg> after it.
	svgPaint Feature
}

var computers = sync.Pool{New: func() any { return &computer{seen: map[Feature]bool{}} }}

func (cp *computer) release() {
	cp.quirks = false
	cp.webFonts = nil
	cp.sheets = cp.sheets[:0]
	cp.active = cp.active[:0]
	cp.res = nil
	cp.chunk = nil
	cp.left = 0
	cp.root = nil
	for k := range cp.share {
		delete(cp.share, k)
	}
	for k := range cp.seen {
		delete(cp.seen, k)
	}
	cp.faces = nil
	cp.feats = nil
	cp.filter = ancestorFilter{}
	cp.stack = cp.stack[:0]
	cp.clsBuf = cp.clsBuf[:0]
	cp.sib = nil // it holds the document's nodes
	cp.svgPaint = Feature{}
	cp.viewport = false
	cp.opt = Options{}
	computers.Put(cp)
}

// match is one matched rule: its sort key is specificity, then order.
type match struct {
	r   *rule
	key uint64
}

// winner is the declaration that won the cascade for one property, its
// priority (higher wins) and where it came from (for reports).
type winner struct {
	d    *decl
	prio int32
	src  string
}

// collectSheets gathers the user-agent sheet and the document's <style>
// elements in document order, and evaluates their media conditions.
func (cp *computer) collectSheets(doc *html.Node) {
	cp.sheets = append(cp.sheets, uaSheet())
	if cp.quirks {
		cp.sheets = append(cp.sheets, quirksSheet())
	}
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if depth > maxDepth {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Style:
				if c.Namespace != "" && c.Namespace != "html" && c.Namespace != "svg" {
					continue
				}
				if t := attr(c, "type"); t != "" && !strings.EqualFold(t, "text/css") {
					continue
				}
				if m, ok := attrOK(c, "media"); ok {
					ml := parseMediaToks(lexText(m))
					if !ml.eval(cp.opt.PageWidth, cp.opt.PageHeight) {
						continue
					}
				}
				var b strings.Builder
				for t := c.FirstChild; t != nil; t = t.NextSibling {
					if t.Type == html.TextNode {
						b.WriteString(t.Data)
					}
				}
				cp.sheets = append(cp.sheets, cachedSheet(b.String(), false))
				continue
			case atom.Template:
				continue
			case atom.Link:
				if strings.Contains(strings.ToLower(attr(c, "rel")), "stylesheet") {
					if h := strings.TrimSpace(attr(c, "href")); isDataURL(h) {
						cp.report(Feature{"link-stylesheet", "link"})
					}
				}
			}
			walk(c, depth+1)
		}
	}
	walk(doc, 0)
	for _, s := range cp.sheets {
		act := make([]bool, len(s.media))
		for i := range s.media {
			act[i] = s.media[i].eval(cp.opt.PageWidth, cp.opt.PageHeight)
		}
		cp.active = append(cp.active, act)
		for _, f := range s.feats {
			cp.report(f)
		}
		for _, ff := range s.fontFaces {
			active := true
			for _, c := range ff.conds {
				active = active && act[c]
			}
			if active {
				cp.fontFace(ff)
			}
		}
	}
}

func (cp *computer) countElements(doc *html.Node) int {
	n := 0
	var walk func(x *html.Node, depth int)
	walk = func(x *html.Node, depth int) {
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				n++
				if depth < maxDepth && c.DataAtom != atom.Template {
					walk(c, depth+1)
				}
			}
		}
	}
	walk(doc, 0)
	return n
}

// report records a feature once.
func (cp *computer) report(f Feature) {
	if cp.seen[f] {
		return
	}
	cp.seen[f] = true
	cp.feats = append(cp.feats, f)
}

// element styles n and its descendants. hidden is set inside display:
// none, where nothing is reported.
func (cp *computer) element(n *html.Node, parent *elemStyle, depth int, hidden, isRoot bool) {
	cp.pending = cp.pending[:0]
	if depth >= maxDepth {
		e := cp.alloc()
		cp.res.elems[n] = e
		e.c = parent.c
		e.c.Display = DisplayNone
		e.info = parent.info
		if !hidden {
			cp.report(Feature{"depth", describe(n)})
		}
		return
	}
	cp.match(n)
	hints, stable := cp.hintsFor(n, isRoot)
	attrDecls := cp.styleAttr(n)
	// Style sharing: an element whose parent style, matched rules, hints
	// and style attribute are those of an element styled before shares
	// that element's computed style (Blink's MatchedPropertiesCache, keyed
	// more strictly). Rows of a table share their cells' styles.
	var key shareKey
	shareable := stable && !isRoot && len(cp.pmatches[0])+len(cp.pmatches[1])+len(cp.pmatches[2])+len(cp.pmatches[3]) == 0 &&
		!hasAttr(n, "lang") && !hasAttr(n, "xml:lang")
	if shareable {
		key = cp.shareKey(parent, hints, attrDecls, hidden)
		if e := cp.shared(key); e != nil {
			cp.res.elems[n] = e
			hid := hidden || e.c.Display == DisplayNone
			cp.elementTypeFeatures(n, hid)
			cp.children(n, e, depth, hid)
			return
		}
	}
	e := cp.alloc()
	cp.res.elems[n] = e
	cp.cascade(cp.matches, hints, attrDecls, false)
	st := cp.compute(e, parent, n, isRoot, false)
	if isRoot {
		cp.rootFS = e.c.FontSize
		cp.root = e
	}
	hid := hidden || e.c.Display == DisplayNone
	if !hid {
		for _, f := range cp.pending {
			cp.report(f)
		}
		cp.elementFeatures(n, e, parent, st)
		cp.svgFeatures(n)
	}
	cp.elementTypeFeatures(n, hid)
	cp.pseudos(n, e, hid)
	if shareable {
		cp.remember(key, e)
	}
	cp.children(n, e, depth, hid)
}

// children styles n's element children.
func (cp *computer) children(n *html.Node, e *elemStyle, depth int, hid bool) {
	if n.DataAtom == atom.Template || n.FirstChild == nil {
		return
	}
	cp.pushAncestor(n, 1)
	cp.pushStack(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			cp.element(c, e, depth+1, hid, false)
		}
	}
	cp.popStack()
	cp.pushAncestor(n, -1)
}

// ancEntry is one ancestor of the element being styled, for the simple
// selector matcher: its tag, id and classes (clsBuf[from:to]).
type ancEntry struct {
	tag, id  string
	from, to int
	node     *html.Node
}

// sibInfo is an element's position among its element siblings, all and
// of its type, and their counts (for structural pseudo-classes).
type sibInfo struct {
	idx, n, tidx, tn int32
}

// siblings returns n's sibInfo, measuring all of its parent's element
// children at once so that a long table's rows cost linear time
// (cascadia counts the siblings again for each row).
func (cp *computer) siblings(n *html.Node) sibInfo {
	if si, ok := cp.sib[n]; ok {
		return si
	}
	if cp.sib == nil {
		cp.sib = map[*html.Node]sibInfo{}
	}
	p := n.Parent
	if p == nil {
		return sibInfo{idx: 1, n: 1, tidx: 1, tn: 1}
	}
	var count int32
	types := map[string]int32{}
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		count++
		types[c.Data]++
		cp.sib[c] = sibInfo{idx: count, tidx: types[c.Data]}
	}
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		si := cp.sib[c]
		si.n, si.tn = count, types[c.Data]
		cp.sib[c] = si
	}
	return cp.sib[n]
}

// matchNth reports whether element n meets every structural condition.
func (cp *computer) matchNth(conds []nthCond, n *html.Node) bool {
	if len(conds) == 0 {
		return true
	}
	si := cp.siblings(n)
	for _, c := range conds {
		pos, total := si.idx, si.n
		if c.ofType {
			pos, total = si.tidx, si.tn
		}
		if c.last {
			pos = total - pos + 1
		}
		if !c.matches(int(pos)) {
			return false
		}
	}
	return true
}

func (cp *computer) pushStack(n *html.Node) {
	e := ancEntry{tag: n.Data, from: len(cp.clsBuf), node: n}
	for i := range n.Attr {
		a := &n.Attr[i]
		if a.Namespace != "" {
			continue
		}
		switch a.Key {
		case "id":
			e.id = a.Val
		case "class":
			forEachField(a.Val, func(c string) { cp.clsBuf = append(cp.clsBuf, c) })
		}
	}
	e.to = len(cp.clsBuf)
	cp.stack = append(cp.stack, e)
}

func (cp *computer) popStack() {
	e := cp.stack[len(cp.stack)-1]
	cp.clsBuf = cp.clsBuf[:e.from]
	cp.stack = cp.stack[:len(cp.stack)-1]
}

// matchSimple matches a simple selector against n (whose id is id and
// classes cp.classes) and its ancestors on the stack. decided is false
// when the search would take too long: cascadia decides then.
func (cp *computer) matchSimple(s *simpleSel, n *html.Node, id string) (matched, decided bool) {
	last := len(s.parts) - 1
	c := &s.parts[last]
	if c.tag != "" && c.tag != n.Data || c.id != "" && c.id != id {
		return false, true
	}
	for _, want := range c.classes {
		found := false
		for _, have := range cp.classes {
			if have == want {
				found = true
				break
			}
		}
		if !found {
			return false, true
		}
	}
	if !cp.matchNth(c.nth, n) {
		return false, true
	}
	budget := 4096
	m := cp.matchUp(s, last-1, len(cp.stack)-1, &budget)
	return m, budget > 0
}

// matchUp reports whether parts[:i+1] match ancestors at stack[:j+1], the
// combinator after parts[i] relating it to the element matched before.
func (cp *computer) matchUp(s *simpleSel, i, j int, budget *int) bool {
	if i < 0 {
		return true
	}
	if s.combs[i] == '>' {
		*budget--
		if j < 0 || *budget <= 0 || !cp.matchAncestor(&s.parts[i], j) {
			return false
		}
		return cp.matchUp(s, i-1, j-1, budget)
	}
	for k := j; k >= 0; k-- {
		*budget--
		if *budget <= 0 {
			return false
		}
		if cp.matchAncestor(&s.parts[i], k) && cp.matchUp(s, i-1, k-1, budget) {
			return true
		}
	}
	return false
}

func (cp *computer) matchAncestor(c *simpleCompound, k int) bool {
	a := &cp.stack[k]
	if c.tag != "" && c.tag != a.tag || c.id != "" && c.id != a.id {
		return false
	}
	for _, want := range c.classes {
		found := false
		for _, have := range cp.clsBuf[a.from:a.to] {
			if have == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return cp.matchNth(c.nth, a.node)
}

// alloc returns a fresh elemStyle from the current chunk.
func (cp *computer) alloc() *elemStyle {
	if len(cp.chunk) == 0 {
		size := 64
		if cp.left < size && cp.left > 0 {
			size = cp.left
		}
		cp.chunk = make([]elemStyle, size)
	}
	e := &cp.chunk[0]
	cp.chunk = cp.chunk[1:]
	cp.left--
	return e
}

// shareKey identifies what an element's style is computed from.
type shareKey struct {
	parent *elemStyle
	hints  *decl
	nhints int
	attr   *decl
	nattr  int
	nrules int
	hash   uint64
	hidden bool
}

type shareEntry struct {
	e     *elemStyle
	rules []*rule
}

func (cp *computer) shareKey(parent *elemStyle, hints, attrDecls []decl, hidden bool) shareKey {
	k := shareKey{parent: parent, nhints: len(hints), nattr: len(attrDecls), nrules: len(cp.matches), hidden: hidden}
	if len(hints) > 0 {
		k.hints = &hints[0]
	}
	if len(attrDecls) > 0 {
		k.attr = &attrDecls[0]
	}
	h := uint64(14695981039346656037)
	for i := range cp.matches {
		h = (h ^ uint64(uintptr(unsafe.Pointer(cp.matches[i].r)))) * 1099511628211
	}
	k.hash = h
	return k
}

func (cp *computer) shared(k shareKey) *elemStyle {
	ent, ok := cp.share[k]
	if !ok || len(ent.rules) != len(cp.matches) {
		return nil
	}
	for i := range ent.rules {
		if ent.rules[i] != cp.matches[i].r {
			return nil
		}
	}
	return ent.e
}

func (cp *computer) remember(k shareKey, e *elemStyle) {
	if cp.share == nil {
		cp.share = map[shareKey]shareEntry{}
	}
	rules := make([]*rule, len(cp.matches))
	for i := range cp.matches {
		rules[i] = cp.matches[i].r
	}
	cp.share[k] = shareEntry{e: e, rules: rules}
}

func hasAttr(n *html.Node, key string) bool {
	_, ok := attrOK(n, key)
	return ok
}

// pushAncestor adds (d = 1) or removes (d = -1) n's tag, id and classes
// from the ancestor filter.
func (cp *computer) pushAncestor(n *html.Node, d int) {
	cp.filter.add(selHash('t', strings.ToLower(n.Data)), d)
	for i := range n.Attr {
		a := &n.Attr[i]
		if a.Namespace != "" {
			continue
		}
		switch a.Key {
		case "id":
			if a.Val != "" {
				cp.filter.add(selHash('#', a.Val), d)
			}
		case "class":
			forEachField(a.Val, func(c string) { cp.filter.add(selHash('.', c), d) })
		}
	}
}

// forEachField calls f for each whitespace-separated field of s without
// allocating.
func forEachField(s string, f func(string)) {
	i := 0
	for i < len(s) {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		if j > i {
			f(s[i:j])
		}
		i = j
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// match collects the rules matching n from every sheet, sorted by
// specificity and order; pseudo-element rules go to pmatches.
func (cp *computer) match(n *html.Node) {
	cp.matches = cp.matches[:0]
	for i := range cp.pmatches {
		cp.pmatches[i] = cp.pmatches[i][:0]
	}
	id := attr(n, "id")
	cp.classes = cp.classes[:0]
	if cl := attr(n, "class"); cl != "" {
		forEachField(cl, func(c string) {
			for _, d := range cp.classes {
				if d == c {
					return
				}
			}
			cp.classes = append(cp.classes, c)
		})
	}
	tag := n.Data
	for si, s := range cp.sheets {
		base := uint64(si) << 22
		act := cp.active[si]
		try := func(list []int32) {
			for _, ri := range list {
				r := &s.rules[ri]
				ok := true
				for k := uint8(0); k < r.nanc; k++ {
					if !cp.filter.mayHave(r.anc[k]) {
						ok = false
						break
					}
				}
				if !ok {
					continue
				}
				for _, c := range r.conds {
					if !act[c] {
						ok = false
						break
					}
				}
				if !ok || r.empty && !isEmpty(n) {
					continue
				}
				if r.simple != nil {
					m, decided := cp.matchSimple(r.simple, n, id)
					if !decided {
						m = r.sel.Match(n)
					}
					if !m {
						continue
					}
				} else if !r.sel.Match(n) {
					continue
				}
				m := match{r: r, key: uint64(r.spec)<<32 | base | uint64(ri)}
				switch r.pseudo {
				case pseNone:
					cp.matches = append(cp.matches, m)
				case pseBefore:
					cp.pmatches[0] = append(cp.pmatches[0], m)
				case pseAfter:
					cp.pmatches[1] = append(cp.pmatches[1], m)
				case pseMarker:
					cp.pmatches[2] = append(cp.pmatches[2], m)
				default:
					cp.pmatches[3] = append(cp.pmatches[3], m)
				}
			}
		}
		if id != "" && len(s.byID) > 0 {
			try(s.byID[id])
		}
		if len(s.byClass) > 0 {
			for _, c := range cp.classes {
				try(s.byClass[c])
			}
		}
		try(s.byTag[tag])
		try(s.universal)
	}
	sortMatches(cp.matches)
	for i := range cp.pmatches {
		sortMatches(cp.pmatches[i])
	}
}

func sortMatches(ms []match) {
	if len(ms) < 12 {
		for i := 1; i < len(ms); i++ {
			for j := i; j > 0 && ms[j].key < ms[j-1].key; j-- {
				ms[j], ms[j-1] = ms[j-1], ms[j]
			}
		}
		return
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].key < ms[j].key })
}

// cascade finds the winning declaration of every property: user-agent
// normal, presentational hints, author normal, style attribute normal,
// then author important, style attribute important, user-agent important
// (CSS Cascade 5, section 6.2).
func (cp *computer) cascade(ms []match, hints []decl, attrDecls []decl, marker bool) {
	for _, p := range cp.touched {
		cp.win[p] = winner{}
		cp.skip[p] = false
	}
	cp.touched = cp.touched[:0]
	cp.customs = cp.customs[:0]
	cp.others = cp.others[:0]
	prio := int32(0)
	set := func(d *decl, src string) {
		prio++
		switch d.prop {
		case pCustom:
			cp.customs = append(cp.customs, winner{d: d, prio: prio, src: src})
			return
		case pOther:
			cp.others = append(cp.others, winner{d: d, prio: prio, src: src})
			return
		}
		if marker && !markerProps[d.prop] {
			return
		}
		if cp.win[d.prop].d == nil {
			cp.touched = append(cp.touched, d.prop)
		}
		cp.win[d.prop] = winner{d: d, prio: prio, src: src}
	}
	// The user-agent sheets come first: sheets[0], and in quirks mode
	// sheets[1].
	isUA := cp.isUA
	pass := func(imp bool) {
		for i := range ms {
			if isUA(&ms[i]) {
				continue
			}
			r := ms[i].r
			for j := range r.decls {
				if r.decls[j].imp == imp {
					set(&r.decls[j], r.text)
				}
			}
		}
		for j := range attrDecls {
			if attrDecls[j].imp == imp {
				set(&attrDecls[j], "")
			}
		}
	}
	for i := range ms {
		if isUA(&ms[i]) {
			r := ms[i].r
			for j := range r.decls {
				if !r.decls[j].imp {
					set(&r.decls[j], r.text)
				}
			}
		}
	}
	for j := range hints {
		set(&hints[j], "")
	}
	pass(false)
	pass(true)
	for i := range ms {
		if isUA(&ms[i]) {
			r := ms[i].r
			for j := range r.decls {
				if r.decls[j].imp {
					set(&r.decls[j], r.text)
				}
			}
		}
	}
}

// markerProps are the properties that apply to ::marker (CSS Lists 3,
// section 3.2, and Chromium's list).
var markerProps = func() (m [numProps + 3]bool) {
	for _, p := range []propID{pFontFamily, pFontSize, pFontWeight, pFontStyle, pFontVariantCaps, pFontVariantNumeric, pFontFeatureSettings,
		pFontStretch, pLineHeight, pColor, pDirection, pUnicodeBidi, pContent, pWhiteSpaceCollapse, pTextWrapMode,
		pLetterSpacing, pWordSpacing, pTextTransform, pTextDecorationLine, pTextDecorationStyle,
		pTextDecorationColor, pTextDecorationThickness} {
		m[p] = true
	}
	m[pCustom] = true
	return m
}()

// styleAttr returns the declarations of n's style attribute.
func (cp *computer) styleAttr(n *html.Node) []decl {
	s, ok := attrOK(n, "style")
	if !ok || strings.TrimSpace(s) == "" {
		return nil
	}
	return cachedSheet(s, true).rules[0].decls
}

// compute turns the cascade's winners into e's computed style.
func (cp *computer) compute(e *elemStyle, parent *elemStyle, n *html.Node, isRoot, pseudo bool) *state {
	e.c = initialComputed
	inheritAll(&e.c, &parent.c)
	e.info = elemInfo{fontKw: parent.info.fontKw, fontAbs: parent.info.fontAbs, align: parent.info.align,
		last: parent.info.last, wsColl: parent.info.wsColl, nowrap: parent.info.nowrap, custom: parent.info.custom,
		multicol: parent.info.multicol}
	if n != nil {
		if l, ok := attrOK(n, "lang"); ok {
			e.c.Lang = l
		} else if l, ok := attrOK(n, "xml:lang"); ok {
			e.c.Lang = l
		}
	}
	st := &cp.st
	*st = state{c: &e.c, p: &parent.c, pi: &parent.info, info: &e.info, opt: &cp.opt, rootFS: cp.rootFS, cp: cp, node: n}
	st.a.bw = [4]float64{3, 3, 3, 3}
	st.a.ow = 3
	st.a.crw = 3
	st.a.curRule = true
	st.a.curBorder = [4]bool{true, true, true, true}
	st.a.curOutline, st.a.curDeco = true, true
	st.a.ovx, st.a.ovy = "visible", "visible"
	if isRoot {
		st.rootFS = 16
	}
	if len(cp.customs) > 0 {
		e.info.custom = resolveCustoms(parent.info.custom, cp.customs)
	}
	// Logical and physical properties of one side: the later declaration
	// wins, whichever it is.
	for _, p := range cp.touched {
		if isLogical(p) {
			phys := st.physicalFor(p, cp.win[pDirection], parent)
			if w := cp.win[phys]; w.d != nil && w.prio > cp.win[p].prio {
				cp.skip[p] = true
			} else if w.d != nil {
				cp.skip[phys] = true
			}
		}
	}
	sortProps(cp.touched)
	fontFixed := false
	for _, p := range cp.touched {
		if p > pFontSize && !fontFixed {
			st.fixFontSize()
			fontFixed = true
		}
		if cp.skip[p] {
			continue
		}
		w := cp.win[p]
		st.src = w.src
		v := w.d.v
		if w.d.raw != "" {
			v = cp.pendingValue(w.d, p, e.info.custom)
		}
		if len(v) == 1 && v[0].kind == tIdent && isWideKeyword(v[0].k) {
			st.wide(p, v[0].k, parent)
			continue
		}
		if !st.apply(p, v) {
			st.wide(p, "unset", parent)
		}
	}
	if !fontFixed {
		st.fixFontSize()
	}
	st.finish(n, parent, isRoot, pseudo)
	cp.multicolFeatures(e, parent, n)
	// Unimplemented properties: the last declaration of each name decides.
	for i := range cp.others {
		w := &cp.others[i]
		later := false
		for j := i + 1; j < len(cp.others); j++ {
			if cp.others[j].d.name == w.d.name {
				later = true
				break
			}
		}
		if later {
			continue
		}
		if strings.HasPrefix(w.d.name, quirkyPrefix) {
			// A value only quirks mode accepts: invalid, and dropped, in
			// the other modes.
			if cp.quirks {
				cp.pending = append(cp.pending, Feature{w.d.name, cp.where(w.src, n)})
			}
			continue
		}
		if name := otherFeature(w.d, e.info.custom); name != "" {
			cp.pending = append(cp.pending, Feature{name, cp.where(w.src, n)})
		}
	}
	return st
}

// pendingValue substitutes the var() references of a declaration and
// returns longhand p's value; "unset" when the result is invalid. Results
// are cached per document by declaration and custom property set: most
// elements share their root's custom properties.
func (cp *computer) pendingValue(d *decl, p propID, cs *customSet) []tok {
	if last := d.last.Load(); last != nil && last.cs == cs {
		return last.v
	}
	var v []tok
	if sub, ok := substitute(d.raw, cs, 0); ok {
		v = expandForPending(d.name, p, lexText(sub))
	}
	if v == nil {
		v = unsetValue
	}
	d.last.Store(&pendingResult{cs: cs, v: v})
	return v
}

var unsetValue = []tok{{kind: tIdent, k: "unset", s: "unset"}}

// physicalFor maps a logical property to its physical one by the
// element's direction as the cascade left it.
func (st *state) physicalFor(p propID, dirWin winner, parent *elemStyle) propID {
	saved := st.c.Direction
	dir := parent.c.Direction
	if dirWin.d != nil && dirWin.d.raw == "" {
		if k := kw1(dirWin.d.v); k == "ltr" || k == "rtl" {
			dir = k
		}
	}
	st.c.Direction = dir
	phys := st.physical(p)
	st.c.Direction = saved
	return phys
}

func sortProps(ps []propID) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j] < ps[j-1]; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

// where describes where a declaration came from: its rule's selector, or
// the element whose style attribute (or presentational attribute) set it.
func (cp *computer) where(src string, n *html.Node) string {
	if src != "" {
		return src
	}
	if n == nil {
		return "@page"
	}
	return describe(n)
}

// describe names an element for a report: tag, id and classes.
func describe(n *html.Node) string {
	// The tag name only: an element's id and classes are often filled from
	// the document's data, and a feature's Where travels into records,
	// events and headers, where the data never goes.
	return n.Data
}

// wide applies a CSS-wide keyword to p.
func (st *state) wide(p propID, k string, parent *elemStyle) {
	if isLogical(p) {
		p = st.physical(p)
	}
	switch k {
	case "inherit":
		st.copyProp(p, &parent.c, &parent.info, false)
	case "initial":
		st.copyProp(p, &initialComputed, &initialInfo, true)
	default: // unset, revert, revert-layer
		if inheritedProps[p] {
			st.copyProp(p, &parent.c, &parent.info, false)
		} else {
			st.copyProp(p, &initialComputed, &initialInfo, true)
		}
	}
}

// initialInfo is elemInfo's initial state.
var initialInfo = elemInfo{fontKw: 4, last: alAuto}

// copyProp sets p to src's value (the parent's for inherit, the initial
// style for initial).
func (st *state) copyProp(p propID, src *Computed, si *elemInfo, initial bool) {
	c, a := st.c, &st.a
	switch p {
	case pFontFamily:
		c.FontFamily = src.FontFamily
	case pFontSize:
		if initial {
			st.applyFontSize([]tok{ident("medium")})
			return
		}
		c.FontSize, st.info.fontKw, st.info.fontAbs = src.FontSize, si.fontKw, si.fontAbs
	case pFontWeight:
		c.FontWeight = src.FontWeight
	case pFontStyle:
		c.FontStyle = src.FontStyle
	case pFontVariantCaps:
		c.SmallCaps = src.SmallCaps
	case pFontVariantNumeric:
		c.Numeric = src.Numeric
	case pFontFeatureSettings:
		c.FeatureNumeric = src.FeatureNumeric
	case pFontStretch:
		c.FontStretch = src.FontStretch
	case pLineHeight:
		c.LineHeight, c.LineHeightNumber = src.LineHeight, src.LineHeightNumber
	case pColor:
		c.Color = src.Color
	case pDirection:
		c.Direction = src.Direction
	case pDisplay:
		c.Display, c.FlowRoot = src.Display, src.FlowRoot
		a.display = ""
	case pPosition:
		c.Position = src.Position
	case pTop, pRight, pBottom, pLeft:
		c.Inset[p-pTop] = src.Inset[p-pTop]
	case pZIndex:
		c.ZIndex, c.ZIndexAuto = src.ZIndex, src.ZIndexAuto
	case pFloat:
		c.Float = src.Float
	case pClear:
		c.Clear = src.Clear
	case pWidth:
		c.Width = src.Width
	case pHeight:
		c.Height = src.Height
	case pMinWidth:
		c.MinWidth = src.MinWidth
	case pMinHeight:
		c.MinHeight = src.MinHeight
	case pMaxWidth:
		c.MaxWidth = src.MaxWidth
	case pMaxHeight:
		c.MaxHeight = src.MaxHeight
	case pBoxSizing:
		c.BorderBox = src.BorderBox
	case pMarginTop, pMarginRight, pMarginBottom, pMarginLeft:
		c.Margin[p-pMarginTop] = src.Margin[p-pMarginTop]
	case pPaddingTop, pPaddingRight, pPaddingBottom, pPaddingLeft:
		c.Padding[p-pPaddingTop] = src.Padding[p-pPaddingTop]
	case pBorderTopWidth, pBorderRightWidth, pBorderBottomWidth, pBorderLeftWidth:
		if initial {
			a.bw[p-pBorderTopWidth] = 3
		} else {
			a.bw[p-pBorderTopWidth] = src.Border[p-pBorderTopWidth].Width
		}
	case pBorderTopStyle, pBorderRightStyle, pBorderBottomStyle, pBorderLeftStyle:
		c.Border[p-pBorderTopStyle].Style = src.Border[p-pBorderTopStyle].Style
	case pBorderTopColor, pBorderRightColor, pBorderBottomColor, pBorderLeftColor:
		i := p - pBorderTopColor
		c.Border[i].Color, a.curBorder[i] = src.Border[i].Color, initial
	case pBorderTopLeftRadius, pBorderTopRightRadius, pBorderBottomRightRadius, pBorderBottomLeftRadius:
		c.Radius[p-pBorderTopLeftRadius] = src.Radius[p-pBorderTopLeftRadius]
	case pOutlineWidth:
		if initial {
			a.ow = 3
		} else {
			a.ow = src.Outline.Width
		}
	case pOutlineStyle:
		c.Outline.Style = src.Outline.Style
	case pOutlineColor:
		c.Outline.Color, a.curOutline = src.Outline.Color, initial
	case pOutlineOffset:
		c.OutlineOffset = src.OutlineOffset
	case pOverflowX:
		a.ovx = src.Overflow
	case pOverflowY:
		a.ovy = src.Overflow
	case pVisibility:
		c.Visibility = src.Visibility
	case pOpacity:
		c.Opacity = src.Opacity
	case pBackgroundColor:
		c.Background.Color, a.curBg = src.Background.Color, false
	case pBackgroundImage:
		c.Background.Image, c.Background.Gradient = src.Background.Image, src.Background.Gradient
	case pBackgroundRepeat:
		c.Background.Repeat = src.Background.Repeat
	case pBackgroundPositionX:
		c.Background.PositionX = src.Background.PositionX
	case pBackgroundPositionY:
		c.Background.PositionY = src.Background.PositionY
	case pBackgroundSize:
		b, s := &c.Background, &src.Background
		b.SizeW, b.SizeH, b.Cover, b.Contain = s.SizeW, s.SizeH, s.Cover, s.Contain
	case pBackgroundClip:
		c.Background.Clip = src.Background.Clip
	case pBackgroundOrigin:
		c.Background.Origin = src.Background.Origin
	case pTextAlign:
		st.info.align = si.align
	case pTextAlignLast:
		st.info.last = si.last
	case pTextIndent:
		c.TextIndent = src.TextIndent
	case pTextTransform:
		c.TextTransform = src.TextTransform
	case pTextDecorationLine:
		d, s := &c.Decoration, &src.Decoration
		d.Underline, d.Overline, d.LineThrough = s.Underline, s.Overline, s.LineThrough
	case pTextDecorationStyle:
		c.Decoration.Style = src.Decoration.Style
	case pTextDecorationColor:
		c.Decoration.Color, a.curDeco = src.Decoration.Color, initial
	case pTextDecorationThickness:
		c.Decoration.Thickness = src.Decoration.Thickness
	case pLetterSpacing:
		c.LetterSpacing = src.LetterSpacing
	case pWordSpacing:
		c.WordSpacing = src.WordSpacing
	case pWhiteSpaceCollapse:
		st.info.wsColl = si.wsColl
	case pTextWrapMode:
		st.info.nowrap = si.nowrap
	case pWordBreak:
		c.WordBreak = src.WordBreak
	case pOverflowWrap:
		c.OverflowWrap = src.OverflowWrap
	case pHyphens:
		c.Hyphens = src.Hyphens
	case pVerticalAlign:
		c.VerticalAlign = src.VerticalAlign
	case pUnicodeBidi:
		c.UnicodeBidi = src.UnicodeBidi
	case pTabSize:
		c.TabSize = src.TabSize
	case pListStyleType:
		c.ListStyleType = src.ListStyleType
	case pListStylePosition:
		c.ListStylePosition = src.ListStylePosition
	case pListStyleImage:
		c.ListStyleImage = src.ListStyleImage
	case pCounterReset:
		c.CounterReset = src.CounterReset
	case pCounterIncrement:
		c.CounterIncrement = src.CounterIncrement
	case pCounterSet:
		c.CounterSet = src.CounterSet
	case pContent:
		c.Content, c.ContentNone = src.Content, src.ContentNone
	case pQuotes:
		c.Quotes = src.Quotes
	case pTableLayout:
		c.TableLayout = src.TableLayout
	case pBorderCollapse:
		c.BorderCollapse = src.BorderCollapse
	case pBorderSpacing:
		c.BorderSpacing = src.BorderSpacing
	case pCaptionSide:
		c.CaptionSide = src.CaptionSide
	case pEmptyCells:
		c.EmptyCells = src.EmptyCells
	case pBreakBefore:
		c.BreakBefore = src.BreakBefore
	case pBreakAfter:
		c.BreakAfter = src.BreakAfter
	case pBreakInside:
		c.BreakInside = src.BreakInside
	case pOrphans:
		c.Orphans = src.Orphans
	case pWidows:
		c.Widows = src.Widows
	case pPage:
		c.Page = src.Page
	case pObjectFit:
		c.ObjectFit = src.ObjectFit
	case pObjectPosition:
		c.ObjectPosition = src.ObjectPosition
	case pAspectRatio:
		c.AspectRatio = src.AspectRatio
	case pBoxShadow:
		c.BoxShadow = src.BoxShadow
	case pFlexDirection:
		c.FlexDirection = src.FlexDirection
	case pFlexWrap:
		c.FlexWrap = src.FlexWrap
	case pFlexGrow:
		c.FlexGrow = src.FlexGrow
	case pFlexShrink:
		c.FlexShrink = src.FlexShrink
	case pFlexBasis:
		c.FlexBasis = src.FlexBasis
	case pOrder:
		c.Order = src.Order
	case pJustifyContent:
		c.JustifyContent = src.JustifyContent
	case pAlignItems:
		c.AlignItems = src.AlignItems
	case pAlignSelf:
		c.AlignSelf = src.AlignSelf
	case pAlignContent:
		c.AlignContent = src.AlignContent
	case pRowGap:
		c.RowGap = src.RowGap
	case pColumnGap:
		c.ColumnGap = src.ColumnGap
	case pColumnCount:
		c.ColumnCount = src.ColumnCount
	case pColumnWidth:
		c.ColumnWidth = src.ColumnWidth
	case pColumnRuleWidth:
		if initial {
			a.crw = 3
		} else {
			a.crw = src.ColumnRule.Width
		}
	case pColumnRuleStyle:
		c.ColumnRule.Style = src.ColumnRule.Style
	case pColumnRuleColor:
		c.ColumnRule.Color, a.curRule = src.ColumnRule.Color, initial
	case pColumnSpan:
		c.ColumnSpanAll = src.ColumnSpanAll
	case pColumnFill:
		c.ColumnFillAuto = src.ColumnFillAuto
	case pGridTemplateColumns:
		c.GridTemplateColumns = src.GridTemplateColumns
	case pGridTemplateRows:
		c.GridTemplateRows = src.GridTemplateRows
	case pGridTemplateAreas:
		c.GridTemplateAreas = src.GridTemplateAreas
	case pGridAutoColumns:
		c.GridAutoColumns = src.GridAutoColumns
	case pGridAutoRows:
		c.GridAutoRows = src.GridAutoRows
	case pGridAutoFlow:
		c.GridAutoFlow = src.GridAutoFlow
	case pGridRowStart:
		c.GridRowStart = src.GridRowStart
	case pGridRowEnd:
		c.GridRowEnd = src.GridRowEnd
	case pGridColumnStart:
		c.GridColumnStart = src.GridColumnStart
	case pGridColumnEnd:
		c.GridColumnEnd = src.GridColumnEnd
	case pJustifyItems:
		c.JustifyItems = src.JustifyItems
	case pJustifySelf:
		c.JustifySelf = src.JustifySelf
	case pTextOverflow:
		c.TextEllipsis = src.TextEllipsis
	case pTransform:
		c.Transform = src.Transform
	case pTransformOrigin:
		c.TransformOrigin = src.TransformOrigin
	}
}

// finish resolves what depends on several properties: widths of borders
// without a style, currentColor, overflow, white-space, text-align against
// direction, and the display of absolutely positioned, floated and root
// boxes (CSS Display 3, section 2.7).
func (st *state) finish(n *html.Node, parent *elemStyle, isRoot, pseudo bool) {
	c, a := st.c, &st.a
	for i := 0; i < 4; i++ {
		b := &c.Border[i]
		if b.Style == BorderNone || b.Style == BorderHidden {
			b.Width = 0
		} else {
			b.Width = snapBorder(a.bw[i])
		}
		if a.curBorder[i] {
			b.Color = c.Color
		}
		b.CurrentColor = a.curBorder[i]
	}
	if c.Outline.Style == BorderNone {
		c.Outline.Width = 0
	} else {
		c.Outline.Width = snapBorder(a.ow)
	}
	if a.curOutline {
		c.Outline.Color = c.Color
	}
	if c.ColumnRule.Style == BorderNone || c.ColumnRule.Style == BorderHidden {
		c.ColumnRule.Width = 0
	} else {
		c.ColumnRule.Width = snapBorder(a.crw)
	}
	if a.curRule {
		c.ColumnRule.Color = c.Color
	}
	if a.curDeco {
		c.Decoration.Color = c.Color
	}
	if a.curBg {
		c.Background.Color = c.Color
	}
	if a.ovx == "visible" && a.ovy == "visible" || a.ovx == "clip" && a.ovy == "clip" ||
		a.ovx == "visible" && a.ovy == "clip" || a.ovx == "clip" && a.ovy == "visible" {
		if a.ovx == "clip" || a.ovy == "clip" {
			c.Overflow = "hidden"
		} else {
			c.Overflow = "visible"
		}
	} else {
		c.Overflow = "hidden"
	}
	switch {
	case st.info.wsColl == 0 && !st.info.nowrap:
		c.WhiteSpace = WSNormal
	case st.info.wsColl == 0:
		c.WhiteSpace = WSNowrap
	case st.info.wsColl == 1 && st.info.nowrap:
		c.WhiteSpace = WSPre
	case st.info.wsColl == 1:
		c.WhiteSpace = WSPreWrap
	case st.info.wsColl == 2:
		c.WhiteSpace = WSPreLine
	default:
		c.WhiteSpace = WSBreakSpaces
	}
	rtl := c.Direction == "rtl"
	if c.Display == DisplayTable || c.Display == DisplayInlineTable {
		// A table never takes the -webkit- values a presentational align
		// gives (<td align="center"> around a nested table): Blink resets
		// them to start on the table, and its cells inherit that.
		switch st.info.align {
		case alWebkitLeft, alWebkitRight, alWebkitCenter:
			st.info.align = alStart
		}
	}
	c.TextAlign, c.TextAlignBlocks = resolveAlign(st.info.align, rtl)
	if st.info.last == alAuto {
		c.TextAlignLastAuto = true
		c.TextAlignLast = c.TextAlign
		if c.TextAlign == AlignJustify {
			c.TextAlignLast = AlignLeft
			if rtl {
				c.TextAlignLast = AlignRight
			}
		}
	} else {
		c.TextAlignLastAuto = false
		c.TextAlignLast, _ = resolveAlign(st.info.last, rtl)
	}
	// Blockification.
	blockify := isRoot || c.Position == Absolute || c.Position == Fixed || c.Float != "none"
	if parent != nil && (parent.c.Display == DisplayFlex || parent.c.Display == DisplayInlineFlex ||
		parent.c.Display == DisplayGrid || parent.c.Display == DisplayInlineGrid) {
		blockify = true
		c.Float = "none" // a flex or grid item does not float (Blink's style adjuster)
	}
	if c.Position == Absolute || c.Position == Fixed {
		c.Float = "none"
	}
	switch c.Display {
	case DisplayInline, DisplayInlineBlock, DisplayInlineTable, DisplayInlineFlex, DisplayInlineGrid:
		c.OuterInline = true
	}
	if blockify {
		switch c.Display {
		case DisplayInline, DisplayInlineBlock, DisplayTableRowGroup, DisplayTableHeaderGroup,
			DisplayTableFooterGroup, DisplayTableRow, DisplayTableCell, DisplayTableColumnGroup,
			DisplayTableColumn, DisplayTableCaption:
			c.Display = DisplayBlock
		case DisplayInlineTable:
			c.Display = DisplayTable
		case DisplayInlineFlex:
			c.Display = DisplayFlex
		case DisplayInlineGrid:
			c.Display = DisplayGrid
		case DisplayContents:
			if isRoot {
				c.Display = DisplayBlock
			}
		}
	}
}

// resolveAlign makes a text-align keyword physical.
func resolveAlign(k alignKw, rtl bool) (TextAlign, bool) {
	switch k {
	case alStart, alAuto:
		if rtl {
			return AlignRight, false
		}
		return AlignLeft, false
	case alEnd:
		if rtl {
			return AlignLeft, false
		}
		return AlignRight, false
	case alLeft:
		return AlignLeft, false
	case alRight:
		return AlignRight, false
	case alCenter, alInternalCenter:
		return AlignCenter, false
	case alJustify:
		return AlignJustify, false
	case alWebkitLeft:
		return AlignLeft, true
	case alWebkitRight:
		return AlignRight, true
	case alWebkitCenter:
		return AlignCenter, true
	}
	return AlignLeft, false
}

// elementFeatures reports what a displayed element uses that phantom does
// not lay out.
func (cp *computer) elementFeatures(n *html.Node, e *elemStyle, parent *elemStyle, st *state) {
	c := &e.c
	where := func(p propID) string { return cp.where(cp.win[p].src, n) }
	switch st.a.display {
	case "-webkit-box", "-webkit-inline-box":
		// The legacy box model (-webkit-box-flex, -orient, -pack,
		// -align) is not flex layout's.
		cp.report(Feature{"display:-webkit-box", where(pDisplay)})
	case "ruby", "ruby-text", "ruby-base", "ruby-text-container", "ruby-base-container":
		cp.report(Feature{"display:ruby", where(pDisplay)})
	case "math":
		cp.report(Feature{"mathml", describe(n)})
	}
	if c.Position == Sticky {
		cp.report(Feature{"position:sticky", where(pPosition)})
	}
	if st.a.gradient {
		cp.report(Feature{"background-image:gradient", where(pBackgroundImage)})
	}
	if st.a.bgLayers {
		cp.report(Feature{"css:background-image", where(pBackgroundImage)})
	}
	if len(cp.faces) > 0 && (parent == nil || len(c.FontFamily) == 0 || len(parent.c.FontFamily) == 0 || &c.FontFamily[0] != &parent.c.FontFamily[0]) {
		for _, f := range c.FontFamily {
			if cp.faces[strings.ToLower(f)] {
				cp.report(Feature{"@font-face", f})
			}
		}
	}
}

// isUA reports whether m comes from a user-agent sheet: sheets[0], and
// in quirks mode sheets[1].
func (cp *computer) isUA(m *match) bool {
	si := m.key >> 22 & 0x3ff
	return si == 0 || si == 1 && cp.quirks
}

// svgFeatures reports the page's CSS that changes how an inline <svg>
// draws: phantom draws one as an image of its own markup, with its
// currentColor from the page, so the page's rules may size and place the
// <svg> box but not paint inside it. It reports a rule that sets an SVG
// painting property (fill, stroke, ...) on an <svg> or on an HTML element
// (whose inline drawings would inherit it), or anything but box
// properties on an element inside an <svg>.
func (cp *computer) svgFeatures(n *html.Node) {
	inSVG := n.Namespace == "svg"
	inner := inSVG && !(n.Data == "svg" && n.Parent != nil && (n.Parent.Namespace == "" || n.Parent.Namespace == "html"))
	for i := range cp.matches {
		m := &cp.matches[i]
		if cp.isUA(m) {
			continue
		}
		for j := range m.r.decls {
			d := &m.r.decls[j]
			paint := d.prop == pOther && svgPaintProps[d.name]
			switch {
			case !inSVG:
				if paint {
					cp.svgPaint = Feature{"inline <svg>:css", cp.where(m.r.text, n)}
				}
				continue
			case paint, inner && !svgBoxProp(d):
			default:
				continue
			}
			cp.report(Feature{"inline <svg>:css", cp.where(m.r.text, n)})
			return
		}
	}
	if inSVG && !inner && cp.svgPaint.Name != "" {
		cp.report(cp.svgPaint)
	}
}

// svgPaintProps are the SVG properties that paint shapes and text, all
// inherited.
var svgPaintProps = map[string]bool{
	"fill": true, "fill-opacity": true, "fill-rule": true, "stroke": true, "stroke-width": true,
	"stroke-opacity": true, "stroke-linecap": true, "stroke-linejoin": true, "stroke-dasharray": true,
	"stroke-dashoffset": true, "stroke-miterlimit": true, "paint-order": true, "marker": true,
	"marker-start": true, "marker-mid": true, "marker-end": true, "text-anchor": true,
	"dominant-baseline": true, "vector-effect": true, "stop-color": true, "stop-opacity": true,
	"clip-rule": true, "shape-rendering": true,
}

// svgBoxProp reports whether a declaration only sets CSS box properties,
// which elements inside an <svg> ignore (Tailwind's preflight gives every
// element a border style, for one).
func svgBoxProp(d *decl) bool {
	switch d.prop {
	case pBoxSizing, pBorderTopWidth, pBorderRightWidth, pBorderBottomWidth, pBorderLeftWidth,
		pBorderTopStyle, pBorderRightStyle, pBorderBottomStyle, pBorderLeftStyle,
		pBorderTopColor, pBorderRightColor, pBorderBottomColor, pBorderLeftColor,
		pBorderInlineStartWidth, pBorderInlineEndWidth, pBorderInlineStartStyle, pBorderInlineEndStyle,
		pBorderInlineStartColor, pBorderInlineEndColor,
		pMarginTop, pMarginRight, pMarginBottom, pMarginLeft, pMarginInlineStart, pMarginInlineEnd,
		pPaddingTop, pPaddingRight, pPaddingBottom, pPaddingLeft, pPaddingInlineStart, pPaddingInlineEnd,
		pOutlineWidth, pOutlineStyle, pOutlineColor, pOutlineOffset, pBoxShadow, pCustom:
		return true
	case pOther:
		return silentProps[d.name] || d.name == "text-shadow" && kw1(d.v) == "none"
	}
	return false
}

// elementTypeFeatures reports elements phantom does not lay out, whatever
// their style: form controls, embedded content, scripts.
func (cp *computer) elementTypeFeatures(n *html.Node, hid bool) {
	if n.DataAtom == atom.Script && (n.Namespace == "" || n.Namespace == "html") {
		// A script runs whether or not its element is displayed.
		t := strings.ToLower(strings.TrimSpace(attr(n, "type")))
		if t == "" || t == "module" || strings.Contains(t, "javascript") || strings.Contains(t, "ecmascript") {
			cp.report(Feature{"script", describe(n)})
		}
	}
	if hid {
		return
	}
	if n.Namespace == "" || n.Namespace == "html" {
		switch n.DataAtom {
		case atom.Input:
			if !strings.EqualFold(attr(n, "type"), "hidden") {
				cp.report(Feature{"form-control", describe(n)})
			}
		case atom.Select, atom.Textarea, atom.Button, atom.Meter, atom.Progress:
			cp.report(Feature{"form-control", describe(n)})
		case atom.Iframe, atom.Object, atom.Embed, atom.Video, atom.Audio, atom.Canvas, atom.Frameset, atom.Frame:
			cp.report(Feature{"element:" + n.Data, describe(n)})
		}
	} else if n.Namespace == "math" && n.Data == "math" {
		cp.report(Feature{"mathml", describe(n)})
	}
}

// otherFeature names the report an unimplemented property's winning
// declaration makes, "" when it has no effect.
func otherFeature(d *decl, custom *customSet) string {
	name := d.name
	if silentProps[name] {
		return ""
	}
	for _, p := range silentPrefixes {
		if strings.HasPrefix(name, p) {
			return ""
		}
	}
	if !browserProps[name] {
		// A property no browser of ours knows (a misspelling, another
		// engine's prefix, an e-mail inliner's -premailer-*): the
		// browser drops the declaration, and so does phantom.
		return ""
	}
	v := d.v
	if hasVar(v) {
		var b strings.Builder
		tokText(&b, v)
		if sub, ok := substitute(b.String(), custom, 0); ok {
			v = lexText(sub)
		} else {
			return ""
		}
	}
	if len(v) == 0 {
		return ""
	}
	if fname, ok := featureProps[name]; ok {
		if fname == "" {
			return ""
		}
		if len(v) == 1 && v[0].kind == tIdent && (initialKeywords[v[0].k] || v[0].k == "inherit") {
			if name == "columns" || name == "column-count" || name == "column-width" {
				return ""
			}
			if v[0].k == "none" || v[0].k == "initial" || v[0].k == "unset" || v[0].k == "revert" {
				return ""
			}
		}
		if name == "writing-mode" {
			return ""
		}
		return fname
	}
	var b strings.Builder
	tokText(&b, v)
	text := strings.ToLower(b.String())
	if iv := initialValues[name]; iv != nil {
		if iv[text] {
			return ""
		}
		if len(v) == 1 && v[0].kind == tIdent && (v[0].k == "initial" || v[0].k == "unset" || v[0].k == "revert" || v[0].k == "revert-layer") {
			return ""
		}
		return "css:" + name
	}
	if len(v) == 1 && v[0].kind == tIdent && (initialKeywords[v[0].k] || v[0].k == "inherit") {
		return ""
	}
	if strings.HasPrefix(name, "--") {
		return ""
	}
	return "css:" + name
}

// pseudos computes n's ::before, ::after and ::marker, and reports
// ::first-line and ::first-letter.
func (cp *computer) pseudos(n *html.Node, e *elemStyle, hidden bool) {
	e.before, e.after, e.marker = nil, nil, nil
	if len(cp.pmatches[3]) > 0 && !hidden {
		for _, m := range cp.pmatches[3] {
			name := "::first-line"
			if m.r.pseudo == pseFirstLetter {
				name = "::first-letter"
			}
			cp.report(Feature{name, m.r.text})
		}
	}
	if e.c.Display == DisplayNone {
		return
	}
	// Replaced elements generate no ::before or ::after.
	replaced := n.DataAtom == atom.Img || n.DataAtom == atom.Input || n.DataAtom == atom.Br || n.DataAtom == atom.Svg
	for i := 0; i < 2; i++ {
		ms := cp.pmatches[i]
		if len(ms) == 0 || replaced {
			continue
		}
		cp.pending = cp.pending[:0]
		cp.cascade(ms, nil, nil, false)
		ps := &elemStyle{}
		cp.compute(ps, e, n, false, true)
		if ps.c.ContentNone || ps.c.Display == DisplayNone {
			continue
		}
		cp.resolveAttrContent(&ps.c, n)
		if !hidden {
			for _, f := range cp.pending {
				cp.report(f)
			}
			cp.elementFeatures(n, ps, e, &cp.st)
		}
		c := ps.c
		if i == 0 {
			e.before = &c
		} else {
			e.after = &c
		}
	}
	if e.c.Display == DisplayListItem {
		cp.pending = cp.pending[:0]
		cp.cascade(cp.pmatches[2], nil, nil, true)
		ps := &elemStyle{}
		cp.compute(ps, e, n, false, true)
		c := ps.c
		// Chromium's UA style for ::marker: white-space pre, text-transform
		// none, unicode-bidi isolate, tabular numbers.
		if cp.win[pWhiteSpaceCollapse].d == nil && cp.win[pTextWrapMode].d == nil {
			c.WhiteSpace = WSPre
		}
		if cp.win[pTextTransform].d == nil {
			c.TextTransform = "none"
		}
		if cp.win[pUnicodeBidi].d == nil {
			c.UnicodeBidi = "isolate"
		}
		c.Display = DisplayInline
		if cp.win[pContent].d == nil {
			c.ContentNone = true
			c.Content = nil
		}
		if c.ContentNone && c.ListStyleType == "none" && c.ListStyleImage == "" {
			return
		}
		cp.resolveAttrContent(&c, n)
		e.marker = &c
	}
}

// resolveAttrContent replaces attr() items by the attribute's text.
func (cp *computer) resolveAttrContent(c *Computed, n *html.Node) {
	has := false
	for _, it := range c.Content {
		if it.Kind == ContentAttr {
			has = true
			break
		}
	}
	if !has {
		return
	}
	items := make([]ContentItem, len(c.Content))
	for i, it := range c.Content {
		if it.Kind == ContentAttr {
			it = ContentItem{Kind: ContentString, Text: attr(n, it.Name)}
		}
		items[i] = it
	}
	c.Content = items
}

// attr returns n's attribute key ("" when absent).
func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for i := range n.Attr {
		if n.Attr[i].Key == key && n.Attr[i].Namespace == "" {
			return n.Attr[i].Val, true
		}
	}
	return "", false
}

// initialComputed is every property's initial value.
var initialComputed = Computed{
	Display:           DisplayInline,
	ZIndexAuto:        true,
	Float:             "none",
	Clear:             "none",
	Inset:             [4]Length{{Unit: Auto}, {Unit: Auto}, {Unit: Auto}, {Unit: Auto}},
	Width:             Length{Unit: Auto},
	Height:            Length{Unit: Auto},
	MinWidth:          Length{Unit: Auto},
	MinHeight:         Length{Unit: Auto},
	MaxWidth:          Length{Unit: None},
	MaxHeight:         Length{Unit: None},
	Overflow:          "visible",
	Visibility:        "visible",
	Opacity:           1,
	Color:             draw.Color{A: 1},
	Background:        Background{Repeat: "repeat", PositionX: Length{Unit: Percent}, PositionY: Length{Unit: Percent}, SizeW: Length{Unit: Auto}, SizeH: Length{Unit: Auto}, Clip: "border-box", Origin: "padding-box"},
	FontFamily:        []string{"serif"},
	FontSize:          16,
	FontWeight:        400,
	FontStretch:       100,
	LineHeight:        Length{Unit: Normal},
	TextAlignLastAuto: true,
	TextTransform:     "none",
	Decoration:        Decoration{Style: BorderSolid, Thickness: Length{Unit: Auto}},
	WhiteSpace:        WSNormal,
	WordBreak:         "normal",
	OverflowWrap:      "normal",
	Hyphens:           "manual",
	Direction:         "ltr",
	UnicodeBidi:       "normal",
	TabSize:           8,
	ListStyleType:     "disc",
	ListStylePosition: "outside",
	ContentNone:       true,
	TableLayout:       "auto",
	CaptionSide:       "top",
	EmptyCells:        "show",
	Orphans:           2,
	Widows:            2,
	ObjectFit:         "fill",
	ObjectPosition:    [2]Length{{V: 50, Unit: Percent}, {V: 50, Unit: Percent}},
	AlignSelf:         AxAuto,
	JustifySelf:       AxAuto,
	FlexShrink:        1,
	FlexBasis:         Length{Unit: Auto},
	RowGap:            Length{Unit: Normal},
	TransformOrigin:   [2]Length{{V: 50, Unit: Percent}, {V: 50, Unit: Percent}},
	ColumnGap:         Length{Unit: Normal},
	ColumnWidth:       Length{Unit: Auto},
	ColumnRule:        Border{Width: 3},
}

// Initial returns every property at its initial value: the style of a box
// no rule reaches and no parent passes anything to.
func Initial() Computed { return initialComputed }

// Inherit copies into c the inherited properties of p, as an anonymous box
// takes them from the box it is made for (CSS 2.1 §9.2.1.1), text-align and
// white-space included; a nil p leaves c as it is.
func Inherit(c, p *Computed) {
	if p == nil {
		return
	}
	inheritAll(c, p)
	c.TextAlign, c.TextAlignLast, c.TextAlignLastAuto = p.TextAlign, p.TextAlignLast, p.TextAlignLastAuto
	c.WhiteSpace = p.WhiteSpace
}

// inheritAll copies the inherited properties of parent into c.
func inheritAll(c, p *Computed) {
	c.Visibility = p.Visibility
	c.Color = p.Color
	c.FontFamily = p.FontFamily
	c.FontSize = p.FontSize
	c.FontWeight = p.FontWeight
	c.FontStyle = p.FontStyle
	c.SmallCaps = p.SmallCaps
	c.Numeric = p.Numeric
	c.FeatureNumeric = p.FeatureNumeric
	c.FontStretch = p.FontStretch
	c.LineHeight = p.LineHeight
	c.LineHeightNumber = p.LineHeightNumber
	c.TextIndent = p.TextIndent
	c.TextTransform = p.TextTransform
	c.LetterSpacing = p.LetterSpacing
	c.WordSpacing = p.WordSpacing
	c.WordBreak = p.WordBreak
	c.OverflowWrap = p.OverflowWrap
	c.Hyphens = p.Hyphens
	c.Direction = p.Direction
	c.Lang = p.Lang
	c.TabSize = p.TabSize
	c.ListStyleType = p.ListStyleType
	c.ListStylePosition = p.ListStylePosition
	c.ListStyleImage = p.ListStyleImage
	c.Quotes = p.Quotes
	c.BorderCollapse = p.BorderCollapse
	c.BorderSpacing = p.BorderSpacing
	c.CaptionSide = p.CaptionSide
	c.EmptyCells = p.EmptyCells
	c.Orphans = p.Orphans
	c.Widows = p.Widows
}

// isEmpty is :empty as Chromium matches it: no element children and no
// text at all (whitespace included; comments do not count).
func isEmpty(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode || c.Type == html.TextNode && c.Data != "" {
			return false
		}
	}
	return true
}

// QuirksMode reports whether a browser renders doc in quirks mode: no
// doctype, or one that is not html, or a legacy public identifier (HTML
// Standard, "quirks mode" in 13.2.6.4.1). The support check and the
// layout both ask it, so they agree on every doctype.
func QuirksMode(doc *html.Node) bool {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.DoctypeNode {
			continue
		}
		if !strings.EqualFold(c.Data, "html") {
			return true
		}
		public, system, hasSystem := "", "", false
		for _, a := range c.Attr {
			switch a.Key {
			case "public":
				public = strings.ToLower(a.Val)
			case "system":
				system, hasSystem = strings.ToLower(a.Val), true
			}
		}
		if system == "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd" {
			return true
		}
		switch public {
		case "-//w3o//dtd w3 html strict 3.0//en//", "-/w3c/dtd html 4.0 transitional/en", "html":
			return true
		}
		for _, p := range quirkyPublicPrefixes {
			if strings.HasPrefix(public, p) {
				return true
			}
		}
		if !hasSystem && (strings.HasPrefix(public, "-//w3c//dtd html 4.01 frameset//") || strings.HasPrefix(public, "-//w3c//dtd html 4.01 transitional//")) {
			return true
		}
		return false
	}
	return true
}

// LimitedQuirksMode reports whether a browser renders doc in limited
// quirks mode (HTML Standard, 13.2.6.4.1): an XHTML 1.0 Frameset or
// Transitional public identifier, or an HTML 4.01 Frameset or
// Transitional one with a system identifier.
func LimitedQuirksMode(doc *html.Node) bool {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.DoctypeNode {
			continue
		}
		public, hasSystem := "", false
		for _, a := range c.Attr {
			switch a.Key {
			case "public":
				public = strings.ToLower(a.Val)
			case "system":
				hasSystem = true
			}
		}
		return strings.HasPrefix(public, "-//w3c//dtd xhtml 1.0 frameset//") || strings.HasPrefix(public, "-//w3c//dtd xhtml 1.0 transitional//") ||
			hasSystem && (strings.HasPrefix(public, "-//w3c//dtd html 4.01 frameset//") || strings.HasPrefix(public, "-//w3c//dtd html 4.01 transitional//"))
	}
	return false
}

// quirkyPublicPrefixes are the doctype public identifiers that select
// quirks mode.
var quirkyPublicPrefixes = []string{
	"+//silmaril//dtd html pro v0r11 19970101//", "-//as//dtd html 3.0 aswedit + extensions//",
	"-//advasoft ltd//dtd html 3.0 aswedit + extensions//", "-//ietf//dtd html 2.0 level 1//",
	"-//ietf//dtd html 2.0 level 2//", "-//ietf//dtd html 2.0 strict level 1//", "-//ietf//dtd html 2.0 strict level 2//",
	"-//ietf//dtd html 2.0 strict//", "-//ietf//dtd html 2.0//", "-//ietf//dtd html 2.1e//", "-//ietf//dtd html 3.0//",
	"-//ietf//dtd html 3.2 final//", "-//ietf//dtd html 3.2//", "-//ietf//dtd html 3//", "-//ietf//dtd html level 0//",
	"-//ietf//dtd html level 1//", "-//ietf//dtd html level 2//", "-//ietf//dtd html level 3//",
	"-//ietf//dtd html strict level 0//", "-//ietf//dtd html strict level 1//", "-//ietf//dtd html strict level 2//",
	"-//ietf//dtd html strict level 3//", "-//ietf//dtd html strict//", "-//ietf//dtd html//",
	"-//metrius//dtd metrius presentational//", "-//microsoft//dtd internet explorer 2.0 html strict//",
	"-//microsoft//dtd internet explorer 2.0 html//", "-//microsoft//dtd internet explorer 2.0 tables//",
	"-//microsoft//dtd internet explorer 3.0 html strict//", "-//microsoft//dtd internet explorer 3.0 html//",
	"-//microsoft//dtd internet explorer 3.0 tables//", "-//netscape comm. corp.//dtd html//",
	"-//netscape comm. corp.//dtd strict html//", "-//o'reilly and associates//dtd html 2.0//",
	"-//o'reilly and associates//dtd html extended 1.0//", "-//o'reilly and associates//dtd html extended relaxed 1.0//",
	"-//sq//dtd html 2.0 hotmetal + extensions//", "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
	"-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//", "-//spyglass//dtd html 2.0 extended//",
	"-//sun microsystems corp.//dtd hotjava html//", "-//sun microsystems corp.//dtd hotjava strict html//",
	"-//w3c//dtd html 3 1995-03-24//", "-//w3c//dtd html 3.2 draft//", "-//w3c//dtd html 3.2 final//",
	"-//w3c//dtd html 3.2//", "-//w3c//dtd html 3.2s draft//", "-//w3c//dtd html 4.0 frameset//",
	"-//w3c//dtd html 4.0 transitional//", "-//w3c//dtd html experimental 19960712//",
	"-//w3c//dtd html experimental 970421//", "-//w3c//dtd w3 html//", "-//w3o//dtd w3 html 3.0//",
	"-//webtechs//dtd mozilla html 2.0//", "-//webtechs//dtd mozilla html//",
}

// selectorCase reports, in quirks mode, a class or id selector of the
// document's style sheets that matches one of its elements only when case
// is ignored: quirks mode matches class and id selectors ASCII
// case-insensitively, and phantom matches them exactly.
func (cp *computer) selectorCase(doc *html.Node) {
	exact := map[string]bool{}
	folded := map[string]bool{}
	add := func(k string) {
		exact[k] = true
		folded[strings.ToLower(k)] = true
	}
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if depth > maxDepth {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if id := attr(c, "id"); id != "" {
				add("#" + id)
			}
			forEachField(attr(c, "class"), func(cl string) { add("." + cl) })
			walk(c, depth+1)
		}
	}
	walk(doc, 0)
	for si, sh := range cp.sheets {
		if si == 0 || si == 1 && cp.quirks {
			continue
		}
		for i := range sh.rules {
			r := &sh.rules[i]
			found := false
			selectorNames(r.text, func(k string) {
				if !found && !exact[k] && folded[strings.ToLower(k)] {
					found = true
				}
			})
			if found {
				cp.report(Feature{"quirks-mode:selector-case", r.text})
				return
			}
		}
	}
}

// selectorNames calls f with each class ("." and the name) and id ("#"
// and the name) a selector's text names, outside attribute selectors and
// strings. A name with an escape is left out.
func selectorNames(sel string, f func(string)) {
	depth := 0
	for i := 0; i < len(sel); i++ {
		switch c := sel[i]; {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '"' || c == '\'':
			j := strings.IndexByte(sel[i+1:], c)
			if j < 0 {
				return
			}
			i += j + 1
		case (c == '.' || c == '#') && depth <= 0:
			j := i + 1
			for j < len(sel) && (sel[j] == '-' || sel[j] == '_' || sel[j] >= 0x80 ||
				sel[j] >= '0' && sel[j] <= '9' || sel[j] >= 'a' && sel[j] <= 'z' || sel[j] >= 'A' && sel[j] <= 'Z') {
				j++
			}
			if j > i+1 && (j == len(sel) || sel[j] != '\\') {
				f(sel[i:j])
			}
			i = j - 1
		}
	}
}

// multicolFeatures marks a multi-column container's subtree and reports
// the parts of multi-column layout phantom leaves to Chromium: an element
// that spans the columns, columns filled in turn rather than balanced, and
// columns inside columns.
func (cp *computer) multicolFeatures(e, parent *elemStyle, n *html.Node) {
	c := &e.c
	if c.Display == DisplayNone {
		return
	}
	if c.ColumnSpanAll && parent.info.multicol {
		cp.pending = append(cp.pending, Feature{"column-span", cp.where("", n)})
	}
	if c.ColumnCount == 0 && c.ColumnWidth.Unit != Px {
		return
	}
	switch c.Display {
	case DisplayFlex, DisplayInlineFlex, DisplayGrid, DisplayInlineGrid, DisplayInline, DisplayTable, DisplayInlineTable:
		return // not a block container: the columns do not apply
	}
	if parent.info.multicol {
		cp.pending = append(cp.pending, Feature{"columns:nested", cp.where("", n)})
	}
	if c.Width.IsAuto() && (c.Display == DisplayInlineBlock || c.Display == DisplayTableCell || c.Position == Absolute || c.Position == Fixed) {
		// Sized to its content: Chromium's widths and balancing of such
		// columns are not phantom's (a float's are).
		cp.pending = append(cp.pending, Feature{"columns:shrink-to-fit", cp.where("", n)})
	}
	if c.ColumnFillAuto && !c.Height.IsAuto() {
		cp.pending = append(cp.pending, Feature{"column-fill", cp.where("", n)})
	}
	e.info.multicol = true
}

// fontFace takes an @font-face rule's first source that loads: a data:
// URI gives a web font for the engine to load (Result.WebFonts); a local()
// face the machine has (any, when Options.LocalFont is nil) is reported
// where its family is used. A rule with neither is as if it were not
// there, as in Chromium.
func (cp *computer) fontFace(ff fontFace) {
	for _, src := range ff.srcs {
		if src.data != "" {
			w := ff.desc
			w.Data = src.data
			cp.webFonts = append(cp.webFonts, w)
			return
		}
		if cp.opt.LocalFont == nil || cp.opt.LocalFont(src.local) {
			if cp.faces == nil {
				cp.faces = map[string]bool{}
			}
			cp.faces[ff.family] = true
			return
		}
	}
}
