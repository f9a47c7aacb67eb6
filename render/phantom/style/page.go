package style

import (
	"strings"
	"sync"
)

// Paper sizes of CSS Paged Media 3 (section 5.1), in px.
var pageSizes = map[string][2]float64{
	"a5":     {mmPx(148), mmPx(210)},
	"a4":     {mmPx(210), mmPx(297)},
	"a3":     {mmPx(297), mmPx(420)},
	"b5":     {mmPx(176), mmPx(250)},
	"b4":     {mmPx(250), mmPx(353)},
	"jis-b5": {mmPx(182), mmPx(257)},
	"jis-b4": {mmPx(257), mmPx(364)},
	"letter": {8.5 * 96, 11 * 96},
	"legal":  {8.5 * 96, 14 * 96},
	"ledger": {11 * 96, 17 * 96},
}

func mmPx(mm float64) float64 { return mm * 96 / 25.4 }

// defaultPage is the page when no @page rule gives a size or margins: A4
// with 1cm margins.
var defaultPage = PageStyle{Width: mmPx(210), Height: mmPx(297), Margin: [4]float64{mmPx(10), mmPx(10), mmPx(10), mmPx(10)}}

// pageSet is a document's @page rules, with what computing a page's
// style needs. Page styles are computed on demand and cached; mu guards
// the cache, so a Result stays safe for concurrent readers.
type pageSet struct {
	rules []*pageRule
	keys  []uint64 // sort keys (specificity, order) parallel to rules
	root  Computed
	info  elemInfo
	opt   Options

	mu    sync.Mutex
	cache map[pageKey]*PageStyle
}

type pageKey struct {
	name                      string
	first, left, right, blank bool
}

// pageSet gathers the @page rules whose media conditions hold.
func (cp *computer) pageSet() *pageSet {
	ps := &pageSet{opt: cp.opt, cache: map[pageKey]*PageStyle{}}
	for si, s := range cp.sheets {
		act := cp.active[si]
		for pi := range s.pages {
			pr := &s.pages[pi]
			ok := true
			for _, c := range pr.conds {
				if !act[c] {
					ok = false
				}
			}
			if ok {
				ps.rules = append(ps.rules, pr)
				ps.keys = append(ps.keys, uint64(pr.spec)<<32|uint64(si)<<22|uint64(pr.order))
			}
		}
	}
	ps.root, ps.info = initialComputed, rootInfo
	if cp.root != nil {
		ps.root, ps.info = cp.root.c, cp.root.info
	}
	return ps
}

// Page returns the style of page index (0 is the first page) of the
// default (unnamed) page type. The first page is a right page, as in a
// left-to-right document; blank marks a page left empty by a forced left
// or right break. The result is shared: do not modify it.
func (r *Result) Page(index int, blank bool) *PageStyle {
	return r.PageNamed(index, blank, "")
}

// PageNamed is Page for a named page type (the page property of the
// content that starts the page).
func (r *Result) PageNamed(index int, blank bool, name string) *PageStyle {
	if r == nil || r.pages == nil {
		p := defaultPage
		return &p
	}
	rightPage := index%2 == 0
	if r.pages.root.Direction == "rtl" {
		rightPage = !rightPage
	}
	k := pageKey{name: name, first: index == 0, left: !rightPage, right: rightPage, blank: blank}
	ps := r.pages
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if p := ps.cache[k]; p != nil {
		return p
	}
	p := ps.compute(k)
	if len(ps.cache) < 64 {
		ps.cache[k] = p
	}
	return p
}

// compute cascades the @page rules that match k.
func (ps *pageSet) compute(k pageKey) *PageStyle {
	type m struct {
		r   *pageRule
		key uint64
	}
	var ms []m
	for i, pr := range ps.rules {
		if pr.name != "" && pr.name != k.name || pr.first && !k.first || pr.left && !k.left ||
			pr.right && !k.right || pr.blank && !k.blank {
			continue
		}
		ms = append(ms, m{pr, ps.keys[i]})
	}
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].key < ms[j-1].key; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
	// The page context inherits from the root element.
	parent := &elemStyle{c: ps.root, info: ps.info}
	var decls []*decl
	for _, imp := range []bool{false, true} {
		for _, x := range ms {
			for i := range x.r.decls {
				if x.r.decls[i].imp == imp {
					decls = append(decls, &x.r.decls[i])
				}
			}
		}
	}
	page := &elemStyle{}
	st := ps.styleFrom(page, parent, decls)
	out := &PageStyle{Name: k.name}
	*out = PageStyle{Width: defaultPage.Width, Height: defaultPage.Height, Margin: defaultPage.Margin, Name: k.name}
	// size: the last declaration that parses.
	for i := len(decls) - 1; i >= 0; i-- {
		if decls[i].prop == pSize {
			v := decls[i].v
			if decls[i].raw != "" {
				if sub, ok := substitute(decls[i].raw, page.info.custom, 0); ok {
					v = lexText(sub)
				}
			}
			if w, h, ok := pageSize(v, st.len()); ok {
				out.Width, out.Height = w, h
				break
			}
		}
	}
	set := [4]bool{}
	for _, d := range decls {
		if d.prop >= pMarginTop && d.prop <= pMarginLeft || d.prop == pMarginInlineStart || d.prop == pMarginInlineEnd {
			p := d.prop
			if p == pMarginInlineStart {
				p = pMarginLeft
			} else if p == pMarginInlineEnd {
				p = pMarginRight
			}
			set[p-pMarginTop] = true
		}
	}
	for i := 0; i < 4; i++ {
		if !set[i] {
			continue
		}
		base := out.Width
		if i == Top || i == Bottom {
			base = out.Height
		}
		out.Margin[i] = page.c.Margin[i].Resolve(base, 0)
	}
	out.Background = page.c.Background
	// Margin boxes.
	for name := range marginBoxNames {
		// A margin box is drawn only when an author's rule gives it content:
		// the user agent's own rules for it set none.
		authored := false
		for _, x := range ms {
			authored = authored || len(x.r.boxes[name]) > 0
		}
		if !authored {
			continue
		}
		var bd []*decl
		if ua := uaPageBoxes()[name]; ua != nil {
			for i := range ua {
				bd = append(bd, &ua[i])
			}
		}
		for _, imp := range []bool{false, true} {
			for _, x := range ms {
				ds := x.r.boxes[name]
				for i := range ds {
					if ds[i].imp == imp {
						bd = append(bd, &ds[i])
					}
				}
			}
		}
		if len(bd) == 0 {
			continue
		}
		box := &elemStyle{}
		ps.styleFrom(box, page, bd)
		if box.c.ContentNone {
			continue
		}
		box.c.Display = DisplayBlock
		c := box.c
		if out.Boxes == nil {
			out.Boxes = map[string]*Computed{}
		}
		out.Boxes[name] = &c
	}
	return out
}

// styleFrom computes a page context's or margin box's style from its
// declarations in cascade order.
func (ps *pageSet) styleFrom(e, parent *elemStyle, decls []*decl) *state {
	e.c = initialComputed
	inheritAll(&e.c, &parent.c)
	e.info = elemInfo{fontKw: parent.info.fontKw, fontAbs: parent.info.fontAbs, align: parent.info.align,
		last: parent.info.last, wsColl: parent.info.wsColl, nowrap: parent.info.nowrap, custom: parent.info.custom}
	st := &state{c: &e.c, p: &parent.c, pi: &parent.info, info: &e.info, opt: &ps.opt, rootFS: ps.root.FontSize}
	st.a.bw = [4]float64{3, 3, 3, 3}
	st.a.ow = 3
	st.a.curBorder = [4]bool{true, true, true, true}
	st.a.curOutline, st.a.curDeco = true, true
	st.a.ovx, st.a.ovy = "visible", "visible"
	var customs []winner
	for _, d := range decls {
		if d.prop == pCustom {
			customs = append(customs, winner{d: d})
		}
	}
	if len(customs) > 0 {
		e.info.custom = resolveCustoms(parent.info.custom, customs)
	}
	// Apply in property order, the last declaration of each property
	// winning.
	var win [numProps]*decl
	for _, d := range decls {
		if d.prop < numProps {
			win[d.prop] = d
		}
	}
	fontFixed := false
	for p := propID(1); p < numProps; p++ {
		if p > pFontSize && !fontFixed {
			st.fixFontSize()
			fontFixed = true
		}
		d := win[p]
		if d == nil || p == pSize {
			continue
		}
		v := d.v
		if d.raw != "" {
			v = nil
			if sub, ok := substitute(d.raw, e.info.custom, 0); ok {
				v = expandForPending(d.name, p, lexText(sub))
			}
			if v == nil {
				v = unsetValue
			}
		}
		if len(v) == 1 && v[0].kind == tIdent && isWideKeyword(v[0].k) {
			st.wide(p, v[0].k, parent)
			continue
		}
		if !st.apply(p, v) {
			st.wide(p, "unset", parent)
		}
	}
	st.finish(nil, nil, false, true)
	return st
}

// pageSize reads the size descriptor: auto, a paper name with an optional
// orientation, an orientation alone, or one or two lengths.
func pageSize(v []tok, lc *lenCtx) (w, h float64, ok bool) {
	w, h = defaultPage.Width, defaultPage.Height
	var orient string
	var lens []float64
	named := false
	for i := range v {
		t := &v[i]
		switch {
		case t.kind == tIdent && t.k == "auto":
			// auto stands alone: "58mm auto" is invalid, and a browser
			// drops the declaration (the page keeps its size).
			if len(v) != 1 {
				return 0, 0, false
			}
		case t.kind == tIdent && (t.k == "landscape" || t.k == "portrait"):
			if orient != "" {
				return 0, 0, false
			}
			orient = t.k
		case t.kind == tIdent:
			sz, ok := pageSizes[t.k]
			if !ok || named {
				return 0, 0, false
			}
			w, h, named = sz[0], sz[1], true
		default:
			l, ok, _ := lc.length(t, 0)
			if !ok || l.Unit != Px || l.V <= 0 {
				return 0, 0, false
			}
			lens = append(lens, l.V)
		}
	}
	switch len(lens) {
	case 0:
	case 1:
		if named || orient != "" {
			return 0, 0, false
		}
		w, h = lens[0], lens[0]
	case 2:
		if named || orient != "" {
			return 0, 0, false
		}
		w, h = lens[0], lens[1]
	default:
		return 0, 0, false
	}
	switch orient {
	case "landscape":
		if w < h {
			w, h = h, w
		}
	case "portrait":
		if w > h {
			w, h = h, w
		}
	}
	return w, h, true
}

var (
	uaBoxesOnce sync.Once
	uaBoxes     map[string][]decl
)

// uaPageBoxes returns the user-agent declarations of each margin box.
func uaPageBoxes() map[string][]decl {
	uaBoxesOnce.Do(func() {
		uaBoxes = map[string][]decl{}
		s := parseSheet(uaPageCSS)
		for _, r := range s.rules {
			uaBoxes[strings.TrimSpace(r.text)] = r.decls
		}
	})
	return uaBoxes
}
