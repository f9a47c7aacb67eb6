package style

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/unicode/bidi"
)

// hintsFor returns the presentational hints of n: the HTML attributes
// Chromium maps into style (HTMLElement::CollectStyleForPresentationAttribute
// and its overrides), as author declarations of specificity zero that come
// before every author rule.
//
// stable is set when the hints come from the process-wide cache (or there
// are none), so that equal hints are the same slice.
func (cp *computer) hintsFor(n *html.Node, isRoot bool) (h []decl, stable bool) {
	if n.Namespace != "" && n.Namespace != "html" && !(n.Namespace == "svg" && n.Data == "svg") {
		return nil, true
	}
	key, cacheable := hintKey(n)
	if key == "" {
		return nil, true
	}
	if cacheable {
		hintCache.RLock()
		h, ok := hintCache.m[key]
		hintCache.RUnlock()
		if ok {
			return h, true
		}
	}
	h = cp.buildHints(n)
	if cacheable {
		h = append([]decl(nil), h...)
		hintCache.Lock()
		if len(hintCache.m) >= 4096 {
			hintCache.m = map[string][]decl{}
		}
		hintCache.m[key] = h
		hintCache.Unlock()
	}
	return h, cacheable
}

// hintCache holds presentational hints by the attributes they come from:
// a template's cells and images repeat the same few in every document.
var hintCache = struct {
	sync.RWMutex // guards m
	m            map[string][]decl
}{m: map[string][]decl{}}

// hintKey names the attributes n's hints depend on; "" when it has none.
// cacheable is false when the hints depend on the content (dir=auto).
func hintKey(n *html.Node) (key string, cacheable bool) {
	cell := n.DataAtom == atom.Td || n.DataAtom == atom.Th
	var b strings.Builder
	for _, a := range n.Attr {
		switch a.Key {
		case "id", "class", "style", "href", "src", "alt", "title", "name", "lang", "srcset", "target", "rel", "colspan", "rowspan", "headers", "scope", "span", "start", "value", "reversed", "role":
			continue
		}
		if strings.HasPrefix(a.Key, "data-") || strings.HasPrefix(a.Key, "aria-") || a.Namespace != "" {
			continue
		}
		if a.Key == "dir" && strings.EqualFold(strings.TrimSpace(a.Val), "auto") {
			return "x", false
		}
		b.WriteString(a.Key)
		b.WriteByte('=')
		b.WriteString(a.Val)
		b.WriteByte(0)
	}
	if cell {
		if t := enclosingTable(n); t != nil {
			b.WriteByte(1)
			for _, k := range []string{"cellpadding", "border", "rules", "bordercolor"} {
				if v, ok := attrOK(t, k); ok {
					b.WriteString(k)
					b.WriteByte('=')
					b.WriteString(v)
					b.WriteByte(0)
				}
			}
		}
	} else if b.Len() == 0 {
		return "", false
	}
	return n.Data + "\x00" + b.String(), true
}

// buildHints computes n's presentational hints.
func (cp *computer) buildHints(n *html.Node) []decl {
	h := cp.hints[:0]
	if n.Namespace != "" && n.Namespace != "html" {
		if n.Namespace == "svg" && n.Data == "svg" && n.Parent != nil && (n.Parent.Namespace == "" || n.Parent.Namespace == "html") {
			// An inline <svg>'s width and height attributes size its box.
			for _, a := range []string{"width", "height"} {
				if v, ok := attrOK(n, a); ok {
					if t, ok := htmlLength(v, true, true); ok {
						h = addHint(h, a, t)
					}
				}
			}
		}
		cp.hints = h
		return h
	}
	// dir applies to every HTML element.
	if d, ok := attrOK(n, "dir"); ok {
		switch strings.ToLower(strings.TrimSpace(d)) {
		case "ltr":
			h = addHint(h, "direction", ident("ltr"))
		case "rtl":
			h = addHint(h, "direction", ident("rtl"))
		case "auto":
			h = addHint(h, "direction", ident(autoDirection(n)))
		}
	}
	switch n.DataAtom {
	case atom.Body:
		h = colorHint(h, n, "bgcolor", "background-color")
		h = colorHint(h, n, "text", "color")
		h = backgroundHint(h, n)
		for _, m := range [][3]string{{"marginwidth", "margin-left", "margin-right"}, {"leftmargin", "margin-left", ""},
			{"rightmargin", "margin-right", ""}, {"marginheight", "margin-top", "margin-bottom"},
			{"topmargin", "margin-top", ""}, {"bottommargin", "margin-bottom", ""}} {
			if v, ok := attrOK(n, m[0]); ok {
				if t, ok := htmlLength(v, false, true); ok {
					h = addHint(h, m[1], t)
					if m[2] != "" {
						h = addHint(h, m[2], t)
					}
				}
			}
		}
	case atom.Table:
		h = lengthHint(h, n, "width", "width", true, false)
		h = lengthHint(h, n, "height", "height", true, true)
		h = colorHint(h, n, "bgcolor", "background-color")
		h = backgroundHint(h, n)
		if v, ok := attrOK(n, "cellspacing"); ok {
			if t, ok := htmlLength(v, false, true); ok {
				h = addHint(h, "border-spacing", t)
			}
		}
		if v, ok := attrOK(n, "align"); ok {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "center":
				h = addHint(h, "margin-inline-start", ident("auto"))
				h = addHint(h, "margin-inline-end", ident("auto"))
			case "left", "right":
				h = addHint(h, "float", ident(strings.ToLower(strings.TrimSpace(v))))
			}
		}
		h = valignHint(h, n)
		border, hasBorder := tableBorder(n)
		_, hasRules := attrOK(n, "rules")
		if hasRules {
			h = addHint(h, "border-collapse", ident("collapse"))
		}
		if f, ok := attrOK(n, "frame"); ok {
			sides := map[string][4]bool{"void": {}, "above": {true}, "below": {false, false, true}, "hsides": {true, false, true},
				"lhs": {false, false, false, true}, "rhs": {false, true}, "vsides": {false, true, false, true},
				"box": {true, true, true, true}, "border": {true, true, true, true}}
			if s, ok := sides[strings.ToLower(strings.TrimSpace(f))]; ok {
				w := border
				if !hasBorder {
					w = 1
				}
				for i, side := range []string{"top", "right", "bottom", "left"} {
					if s[i] {
						h = addHint(h, "border-"+side+"-style", ident("solid"))
						h = addHint(h, "border-"+side+"-width", pxTok(w))
					} else {
						h = addHint(h, "border-"+side+"-style", ident("hidden"))
					}
				}
			}
		} else if hasBorder && border > 0 {
			h = addHint(h, "border-width", pxTok(border))
			style := "outset"
			if _, ok := attrOK(n, "bordercolor"); ok {
				style = "solid"
			}
			h = addHint(h, "border-style", ident(style))
			h = colorHint(h, n, "bordercolor", "border-color")
		} else if hasRules {
			h = addHint(h, "border-style", ident("hidden"))
		}
	case atom.Td, atom.Th:
		if table := enclosingTable(n); table != nil {
			h = cellHints(h, table)
		}
		h = lengthHint(h, n, "width", "width", true, false)
		h = lengthHint(h, n, "height", "height", true, false)
		h = colorHint(h, n, "bgcolor", "background-color")
		h = backgroundHint(h, n)
		h = alignHint(h, n)
		h = valignHint(h, n)
		if _, ok := attrOK(n, "nowrap"); ok {
			h = addHint(h, "white-space", ident("nowrap"))
		}
	case atom.Tr, atom.Thead, atom.Tbody, atom.Tfoot:
		h = colorHint(h, n, "bgcolor", "background-color")
		h = backgroundHint(h, n)
		h = alignHint(h, n)
		h = valignHint(h, n)
		if n.DataAtom == atom.Tr {
			h = lengthHint(h, n, "height", "height", true, false)
		}
	case atom.Col, atom.Colgroup:
		h = lengthHint(h, n, "width", "width", true, true)
		h = alignHint(h, n)
		h = valignHint(h, n)
	case atom.Caption:
		if v, ok := attrOK(n, "align"); ok {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "left", "right", "center", "justify":
				h = addHint(h, "text-align", ident(strings.ToLower(strings.TrimSpace(v))))
			case "top", "bottom":
				h = addHint(h, "caption-side", ident(strings.ToLower(strings.TrimSpace(v))))
			}
		}
	case atom.Img:
		h = lengthHint(h, n, "width", "width", true, true)
		h = lengthHint(h, n, "height", "height", true, true)
		if v, ok := attrOK(n, "border"); ok {
			if t, ok := htmlLength(v, false, true); ok {
				h = addHint(h, "border-width", t)
				h = addHint(h, "border-style", ident("solid"))
			}
		}
		if v, ok := attrOK(n, "align"); ok {
			switch a := strings.ToLower(strings.TrimSpace(v)); a {
			case "left", "right":
				// Chromium floats the image and aligns it to the top.
				h = addHint(h, "float", ident(a))
				h = addHint(h, "vertical-align", ident("top"))
			case "top", "middle", "bottom", "baseline", "texttop", "absmiddle", "absbottom":
				va := map[string]string{"top": "top", "middle": "-webkit-baseline-middle", "bottom": "baseline",
					"baseline": "baseline", "texttop": "text-top", "absmiddle": "middle", "absbottom": "bottom"}[a]
				h = addHint(h, "vertical-align", ident(va))
			}
		}
	case atom.Font:
		h = colorHint(h, n, "color", "color")
		if v, ok := attrOK(n, "face"); ok && strings.TrimSpace(v) != "" {
			var fam []tok
			for i, f := range strings.Split(v, ",") {
				if i > 0 {
					fam = append(fam, tok{kind: tDelim, s: ","})
				}
				fam = append(fam, tok{kind: tString, s: strings.TrimSpace(f)})
			}
			h = append(h, decl{prop: pFontFamily, v: fam})
		}
		if v, ok := attrOK(n, "size"); ok {
			if k := legacyFontSize(v); k != "" {
				h = addHint(h, "font-size", ident(k))
			}
		}
	case atom.Hr:
		if v, ok := attrOK(n, "align"); ok {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "left":
				h = addHint(h, "margin-left", pxTok(0))
				h = addHint(h, "margin-right", ident("auto"))
			case "right":
				h = addHint(h, "margin-left", ident("auto"))
				h = addHint(h, "margin-right", pxTok(0))
			default:
				h = addHint(h, "margin-left", ident("auto"))
				h = addHint(h, "margin-right", ident("auto"))
			}
		}
		h = lengthHint(h, n, "width", "width", true, true)
		_, hasColor := attrOK(n, "color")
		if hasColor {
			h = addHint(h, "border-style", ident("solid"))
			h = colorHint(h, n, "color", "border-color")
			h = colorHint(h, n, "color", "background-color")
		} else if _, ok := attrOK(n, "noshade"); ok {
			h = addHint(h, "border-style", ident("solid"))
			h = addHint(h, "border-color", ident("currentcolor"))
			h = addHint(h, "background-color", ident("currentcolor"))
		}
		if v, ok := attrOK(n, "size"); ok {
			size, _ := leadingInt(v)
			if size <= 1 {
				h = addHint(h, "border-bottom-width", pxTok(0))
			} else {
				h = addHint(h, "height", pxTok(float64(size-2)))
			}
		}
	case atom.Div, atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Legend:
		h = alignHint(h, n)
	case atom.Ul, atom.Ol, atom.Li:
		if v, ok := attrOK(n, "type"); ok {
			if k := listType(n.DataAtom, v); k != "" {
				h = addHint(h, "list-style-type", ident(k))
			}
		}
	case atom.Br:
		if v, ok := attrOK(n, "clear"); ok {
			switch c := strings.ToLower(strings.TrimSpace(v)); c {
			case "left", "right":
				h = addHint(h, "clear", ident(c))
			case "all", "both":
				h = addHint(h, "clear", ident("both"))
			}
		}
	case atom.Pre:
		if _, ok := attrOK(n, "wrap"); ok {
			h = addHint(h, "white-space", ident("pre-wrap"))
		}
	}
	if _, ok := attrOK(n, "hidden"); ok && n.DataAtom != 0 {
		// [hidden] is in the UA sheet; nothing else to add.
	}
	cp.hints = h
	return h
}

// addHint appends a hint declaration through the shorthand expander.
func addHint(h []decl, prop string, v ...tok) []decl {
	for i := range v {
		v[i].ws = i > 0
	}
	return expandDecl(prop, v, false, h)
}

func pxTok(v float64) tok { return tok{kind: tDim, n: v, k: "px"} }

// htmlLength parses an HTML dimension attribute ("100", "50%", "12px"):
// a number of pixels or a percentage, the rest ignored.
func htmlLength(s string, allowPct, allowZero bool) (tok, bool) {
	s = strings.TrimLeft(s, " \t\n\r\f")
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return tok{}, false
	}
	j := i
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	v, err := strconv.ParseFloat(s[:j], 64)
	if err != nil || math.IsInf(v, 0) {
		return tok{}, false
	}
	if v == 0 && !allowZero {
		return tok{}, false
	}
	if j < len(s) && s[j] == '%' {
		if !allowPct {
			return tok{}, false
		}
		return tok{kind: tPercent, n: v}, true
	}
	if j < len(s) && s[j] == '*' {
		return tok{}, false
	}
	return pxTok(v), true
}

func lengthHint(h []decl, n *html.Node, attrName, prop string, allowPct, allowZero bool) []decl {
	if v, ok := attrOK(n, attrName); ok {
		if t, ok := htmlLength(v, allowPct, allowZero); ok {
			h = addHint(h, prop, t)
		}
	}
	return h
}

func colorHint(h []decl, n *html.Node, attrName, prop string) []decl {
	if v, ok := attrOK(n, attrName); ok {
		if t, ok := legacyColor(v); ok {
			h = addHint(h, prop, t)
		}
	}
	return h
}

func backgroundHint(h []decl, n *html.Node) []decl {
	if v, ok := attrOK(n, "background"); ok && strings.TrimSpace(v) != "" {
		h = addHint(h, "background-image", tok{kind: tURL, s: strings.TrimSpace(v)})
	}
	return h
}

// alignHint maps align on blocks and table parts to text-align, with the
// -webkit- values that also align block children.
func alignHint(h []decl, n *html.Node) []decl {
	v, ok := attrOK(n, "align")
	if !ok {
		return h
	}
	switch a := strings.ToLower(strings.TrimSpace(v)); a {
	case "middle", "center":
		h = addHint(h, "text-align", ident("-webkit-center"))
	case "absmiddle":
		h = addHint(h, "text-align", ident("center"))
	case "left":
		h = addHint(h, "text-align", ident("-webkit-left"))
	case "right":
		h = addHint(h, "text-align", ident("-webkit-right"))
	case "justify":
		h = addHint(h, "text-align", ident("justify"))
	}
	return h
}

func valignHint(h []decl, n *html.Node) []decl {
	v, ok := attrOK(n, "valign")
	if !ok {
		return h
	}
	switch a := strings.ToLower(strings.TrimSpace(v)); a {
	case "top", "middle", "bottom", "baseline":
		h = addHint(h, "vertical-align", ident(a))
	}
	return h
}

// tableBorder reads a table's border attribute: present and empty means 1.
func tableBorder(n *html.Node) (float64, bool) {
	v, ok := attrOK(n, "border")
	if !ok {
		return 0, false
	}
	if strings.TrimSpace(v) == "" {
		return 1, true
	}
	i, ok := leadingInt(v)
	if !ok {
		return 1, true
	}
	if i < 0 {
		i = 0
	}
	return float64(i), true
}

// enclosingTable finds the table a cell belongs to.
func enclosingTable(n *html.Node) *html.Node {
	p := n.Parent
	for i := 0; p != nil && i < 3; i++ {
		if p.Type == html.ElementNode && p.DataAtom == atom.Table {
			return p
		}
		p = p.Parent
	}
	return nil
}

// cellHints are the styles a table gives its cells
// (HTMLTableElement::AdditionalCellStyle): padding from cellpadding (1px
// by default) and borders from border and rules.
func cellHints(h []decl, table *html.Node) []decl {
	pad := 1.0
	if v, ok := attrOK(table, "cellpadding"); ok {
		if t, ok := htmlLength(v, false, true); ok {
			pad = t.n
		}
	}
	h = addHint(h, "padding", pxTok(pad))
	border, hasBorder := tableBorder(table)
	rules, hasRules := attrOK(table, "rules")
	inherit := ident("inherit")
	switch {
	case hasRules:
		switch strings.ToLower(strings.TrimSpace(rules)) {
		case "all":
			h = addHint(h, "border-width", pxTok(1))
			h = addHint(h, "border-style", ident("solid"))
			h = addHint(h, "border-color", inherit)
		case "cols":
			h = addHint(h, "border-left-width", pxTok(1))
			h = addHint(h, "border-right-width", pxTok(1))
			h = addHint(h, "border-left-style", ident("solid"))
			h = addHint(h, "border-right-style", ident("solid"))
			h = addHint(h, "border-color", inherit)
		case "rows":
			h = addHint(h, "border-top-width", pxTok(1))
			h = addHint(h, "border-bottom-width", pxTok(1))
			h = addHint(h, "border-top-style", ident("solid"))
			h = addHint(h, "border-bottom-style", ident("solid"))
			h = addHint(h, "border-color", inherit)
		}
	case hasBorder && border > 0:
		style := "inset"
		if _, ok := attrOK(table, "bordercolor"); ok {
			style = "solid"
		}
		h = addHint(h, "border-width", pxTok(1))
		h = addHint(h, "border-style", ident(style))
		h = addHint(h, "border-color", inherit)
	}
	return h
}

func leadingInt(s string) (int, bool) {
	s = strings.TrimSpace(s)
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' && j-i < 9 {
		j++
	}
	if j == i {
		return 0, false
	}
	v, err := strconv.Atoi(s[:j])
	return v, err == nil
}

// legacyFontSize maps <font size> (1 to 7, or relative to 3) to a
// font-size keyword (HTMLFontElement).
func legacyFontSize(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	rel := 0
	if s[0] == '+' {
		rel = 1
	} else if s[0] == '-' {
		rel = -1
	}
	v, ok := leadingInt(s)
	if !ok {
		return ""
	}
	if rel != 0 {
		v += 3
	}
	if v < 1 {
		v = 1
	}
	if v > 7 {
		v = 7
	}
	return [...]string{"", "x-small", "small", "medium", "large", "x-large", "xx-large", "xxx-large"}[v]
}

// listType maps the type attribute of ul, ol and li.
func listType(a atom.Atom, v string) string {
	switch v {
	case "1":
		return "decimal"
	case "a":
		return "lower-alpha"
	case "A":
		return "upper-alpha"
	case "i":
		return "lower-roman"
	case "I":
		return "upper-roman"
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "disc":
		return "disc"
	case "circle":
		return "circle"
	case "square":
		return "square"
	case "none":
		return "none"
	}
	return ""
}

// legacyColor parses a colour attribute by HTML's "rules for parsing a
// legacy colour value".
func legacyColor(s string) (tok, bool) {
	s = strings.Trim(s, " \t\n\r\f")
	if s == "" || strings.EqualFold(s, "transparent") {
		return tok{}, false
	}
	if v, ok := namedColors[strings.ToLower(s)]; ok {
		return hexTok(v>>16, v>>8&0xff, v&0xff), true
	}
	if len(s) == 4 && s[0] == '#' && isHex(s[1]) && isHex(s[2]) && isHex(s[3]) {
		return hexTok(uint32(hexVal(s[1])*17), uint32(hexVal(s[2])*17), uint32(hexVal(s[3])*17)), true
	}
	// Replace non-hex characters by 0, keep at most 128 characters.
	var b []byte
	for _, r := range s {
		if r > 0xffff {
			b = append(b, '0', '0')
		} else {
			b = append(b, byte(r))
		}
	}
	if len(b) > 128 {
		b = b[:128]
	}
	if len(b) > 0 && b[0] == '#' {
		b = b[1:]
	}
	for i := range b {
		if !isHex(b[i]) {
			b[i] = '0'
		}
	}
	for len(b) == 0 || len(b)%3 != 0 {
		b = append(b, '0')
	}
	l := len(b) / 3
	r, g, bl := b[:l], b[l:2*l], b[2*l:]
	if l > 8 {
		r, g, bl = r[l-8:], g[l-8:], bl[l-8:]
		l = 8
	}
	for l > 2 && r[0] == '0' && g[0] == '0' && bl[0] == '0' {
		r, g, bl = r[1:], g[1:], bl[1:]
		l--
	}
	if l > 2 {
		r, g, bl = r[:2], g[:2], bl[:2]
	}
	pv := func(x []byte) uint32 {
		v := uint32(0)
		for _, c := range x {
			v = v*16 + uint32(hexVal(c))
		}
		return v
	}
	return hexTok(pv(r), pv(g), pv(bl)), true
}

func hexTok(r, g, b uint32) tok {
	const digits = "0123456789abcdef"
	s := []byte{digits[r>>4&15], digits[r&15], digits[g>>4&15], digits[g&15], digits[b>>4&15], digits[b&15]}
	return tok{kind: tHash, s: string(s)}
}

// autoDirection finds dir=auto's direction: that of the first strong
// character in the element's text, skipping elements that have their own
// direction (HTML "the directionality of an element").
func autoDirection(n *html.Node) string {
	dir := ""
	var walk func(x *html.Node, depth int) bool
	walk = func(x *html.Node, depth int) bool {
		if depth > 64 {
			return false
		}
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				for _, r := range c.Data {
					p, _ := bidi.LookupRune(r)
					switch p.Class() {
					case bidi.L:
						dir = "ltr"
						return true
					case bidi.R, bidi.AL:
						dir = "rtl"
						return true
					}
				}
			case html.ElementNode:
				switch c.DataAtom {
				case atom.Bdi, atom.Script, atom.Style, atom.Textarea:
					continue
				}
				if _, ok := attrOK(c, "dir"); ok {
					continue
				}
				if walk(c, depth+1) {
					return true
				}
			}
		}
		return false
	}
	walk(n, 0)
	if dir == "" {
		return "ltr"
	}
	return dir
}
