package style

import "strings"

// shorthand is a shorthand property: its longhands and how to split a
// value among them (nil for the box shorthands' 1-to-4 value rule).
type shorthand struct {
	longhands []propID
	expand    func(v []tok) ([][]tok, bool) // one value per longhand, nil for a longhand reset to initial
}

var (
	kwInitial = []tok{{kind: tIdent, k: "initial", s: "initial"}}
	kwNone    = []tok{{kind: tIdent, k: "none", s: "none"}}
)

func ident(k string) tok { return tok{kind: tIdent, k: k, s: k} }

// shorthands are the shorthands phantom expands.
var shorthands map[string]*shorthand

func init() {
	box := func(ps ...propID) *shorthand { return &shorthand{longhands: ps, expand: expandBox(ps)} }
	pair := func(ps ...propID) *shorthand { return &shorthand{longhands: ps, expand: expandPair(ps)} }
	shorthands = map[string]*shorthand{
		"margin":              box(pMarginTop, pMarginRight, pMarginBottom, pMarginLeft),
		"padding":             box(pPaddingTop, pPaddingRight, pPaddingBottom, pPaddingLeft),
		"inset":               box(pTop, pRight, pBottom, pLeft),
		"border-width":        box(pBorderTopWidth, pBorderRightWidth, pBorderBottomWidth, pBorderLeftWidth),
		"border-style":        box(pBorderTopStyle, pBorderRightStyle, pBorderBottomStyle, pBorderLeftStyle),
		"border-color":        box(pBorderTopColor, pBorderRightColor, pBorderBottomColor, pBorderLeftColor),
		"margin-inline":       pair(pMarginInlineStart, pMarginInlineEnd),
		"margin-block":        pair(pMarginTop, pMarginBottom),
		"padding-inline":      pair(pPaddingInlineStart, pPaddingInlineEnd),
		"padding-block":       pair(pPaddingTop, pPaddingBottom),
		"inset-inline":        pair(pInsetInlineStart, pInsetInlineEnd),
		"inset-block":         pair(pTop, pBottom),
		"border-inline-width": pair(pBorderInlineStartWidth, pBorderInlineEndWidth),
		"border-inline-style": pair(pBorderInlineStartStyle, pBorderInlineEndStyle),
		"border-inline-color": pair(pBorderInlineStartColor, pBorderInlineEndColor),
		"border-block-width":  pair(pBorderTopWidth, pBorderBottomWidth),
		"border-block-style":  pair(pBorderTopStyle, pBorderBottomStyle),
		"border-block-color":  pair(pBorderTopColor, pBorderBottomColor),
		"border-spacing-pair": nil,
		"overflow":            {longhands: []propID{pOverflowX, pOverflowY}, expand: expandPair([]propID{pOverflowX, pOverflowY})},
		"border-top":          borderSide(pBorderTopWidth, pBorderTopStyle, pBorderTopColor),
		"border-right":        borderSide(pBorderRightWidth, pBorderRightStyle, pBorderRightColor),
		"border-bottom":       borderSide(pBorderBottomWidth, pBorderBottomStyle, pBorderBottomColor),
		"border-left":         borderSide(pBorderLeftWidth, pBorderLeftStyle, pBorderLeftColor),
		"border-block-start":  borderSide(pBorderTopWidth, pBorderTopStyle, pBorderTopColor),
		"border-block-end":    borderSide(pBorderBottomWidth, pBorderBottomStyle, pBorderBottomColor),
		"border-inline-start": borderSide(pBorderInlineStartWidth, pBorderInlineStartStyle, pBorderInlineStartColor),
		"border-inline-end":   borderSide(pBorderInlineEndWidth, pBorderInlineEndStyle, pBorderInlineEndColor),
		"border": {longhands: []propID{pBorderTopWidth, pBorderRightWidth, pBorderBottomWidth, pBorderLeftWidth,
			pBorderTopStyle, pBorderRightStyle, pBorderBottomStyle, pBorderLeftStyle,
			pBorderTopColor, pBorderRightColor, pBorderBottomColor, pBorderLeftColor}, expand: expandBorderAll(4)},
		"border-block": {longhands: []propID{pBorderTopWidth, pBorderBottomWidth, pBorderTopStyle, pBorderBottomStyle,
			pBorderTopColor, pBorderBottomColor}, expand: expandBorderAll(2)},
		"border-inline": {longhands: []propID{pBorderInlineStartWidth, pBorderInlineEndWidth, pBorderInlineStartStyle,
			pBorderInlineEndStyle, pBorderInlineStartColor, pBorderInlineEndColor}, expand: expandBorderAll(2)},
		"columns":             {longhands: []propID{pColumnWidth, pColumnCount}, expand: expandColumns},
		"-webkit-columns":     {longhands: []propID{pColumnWidth, pColumnCount}, expand: expandColumns},
		"column-rule":         {longhands: []propID{pColumnRuleWidth, pColumnRuleStyle, pColumnRuleColor}, expand: expandLine(pColumnRuleWidth, pColumnRuleStyle, pColumnRuleColor)},
		"-webkit-column-rule": {longhands: []propID{pColumnRuleWidth, pColumnRuleStyle, pColumnRuleColor}, expand: expandLine(pColumnRuleWidth, pColumnRuleStyle, pColumnRuleColor)},
		"outline":             {longhands: []propID{pOutlineWidth, pOutlineStyle, pOutlineColor}, expand: expandLine(pOutlineWidth, pOutlineStyle, pOutlineColor)},
		"border-radius": {longhands: []propID{pBorderTopLeftRadius, pBorderTopRightRadius, pBorderBottomRightRadius,
			pBorderBottomLeftRadius}, expand: expandRadius},
		"font": {longhands: []propID{pFontStyle, pFontVariantCaps, pFontWeight, pFontStretch, pFontSize, pLineHeight,
			pFontFamily}, expand: expandFont},
		"background": {longhands: []propID{pBackgroundColor, pBackgroundImage, pBackgroundRepeat, pBackgroundPositionX,
			pBackgroundPositionY, pBackgroundSize, pBackgroundClip, pBackgroundOrigin, pBackgroundAttachment},
			expand: expandBackground},
		"background-position": {longhands: []propID{pBackgroundPositionX, pBackgroundPositionY}, expand: expandBgPosition},
		"list-style":          {longhands: []propID{pListStyleType, pListStylePosition, pListStyleImage}, expand: expandListStyle},
		"text-decoration": {longhands: []propID{pTextDecorationLine, pTextDecorationStyle, pTextDecorationColor,
			pTextDecorationThickness}, expand: expandTextDecoration},
		"white-space":       {longhands: []propID{pWhiteSpaceCollapse, pTextWrapMode}, expand: expandWhiteSpace},
		"text-wrap":         {longhands: []propID{pTextWrapMode}, expand: expandTextWrap},
		"font-variant":      {longhands: []propID{pFontVariantCaps, pFontVariantNumeric}, expand: expandFontVariant},
		"flex":              {longhands: []propID{pFlexGrow, pFlexShrink, pFlexBasis}, expand: expandFlex},
		"-webkit-flex":      {longhands: []propID{pFlexGrow, pFlexShrink, pFlexBasis}, expand: expandFlex},
		"flex-flow":         {longhands: []propID{pFlexDirection, pFlexWrap}, expand: expandFlexFlow},
		"-webkit-flex-flow": {longhands: []propID{pFlexDirection, pFlexWrap}, expand: expandFlexFlow},
		"gap":               {longhands: []propID{pRowGap, pColumnGap}, expand: expandPair([]propID{pRowGap, pColumnGap})},
		"grid-gap":          {longhands: []propID{pRowGap, pColumnGap}, expand: expandPair([]propID{pRowGap, pColumnGap})},
		"place-content":     {longhands: []propID{pAlignContent, pJustifyContent}, expand: expandPlace},
		"place-items":       {longhands: []propID{pAlignItems, pJustifyItems}, expand: expandPlaceSelf},
		"place-self":        {longhands: []propID{pAlignSelf, pJustifySelf}, expand: expandPlaceSelf},
		"grid-row":          {longhands: []propID{pGridRowStart, pGridRowEnd}, expand: expandGridLinePair},
		"grid-column":       {longhands: []propID{pGridColumnStart, pGridColumnEnd}, expand: expandGridLinePair},
		"grid-area": {longhands: []propID{pGridRowStart, pGridRowEnd, pGridColumnStart, pGridColumnEnd},
			expand: expandGridArea},
		"grid-template": {longhands: []propID{pGridTemplateRows, pGridTemplateColumns, pGridTemplateAreas},
			expand: expandGridTemplate},
		"grid": {longhands: []propID{pGridTemplateRows, pGridTemplateColumns, pGridTemplateAreas, pGridAutoRows,
			pGridAutoColumns, pGridAutoFlow}, expand: expandGrid},
		"page-break-before":           {longhands: []propID{pBreakBefore}, expand: legacyBreak},
		"page-break-after":            {longhands: []propID{pBreakAfter}, expand: legacyBreak},
		"page-break-inside":           {longhands: []propID{pBreakInside}, expand: legacyBreak},
		"-webkit-column-break-before": {longhands: []propID{pBreakBefore}, expand: legacyColumnBreak},
		"-webkit-column-break-after":  {longhands: []propID{pBreakAfter}, expand: legacyColumnBreak},
		"-webkit-column-break-inside": {longhands: []propID{pBreakInside}, expand: legacyColumnBreak},
	}
	delete(shorthands, "border-spacing-pair")
}

// expandDecl appends the longhand declarations of "name: v" to out. An
// invalid declaration appends nothing (CSS drops it at parse time, so an
// earlier valid one stays in force).
func expandDecl(name string, v []tok, imp bool, out []decl) []decl {
	if len(v) == 0 {
		return out
	}
	sh := shorthands[name]
	id, isLong := longhands[name]
	if hasVar(v) {
		var b strings.Builder
		tokText(&b, v)
		raw := b.String()
		switch {
		case isLong:
			return append(out, decl{prop: id, imp: imp, raw: raw, name: name})
		case sh != nil:
			for _, p := range sh.longhands {
				out = append(out, decl{prop: p, imp: imp, raw: raw, name: name})
			}
			return out
		}
		return append(out, decl{prop: pOther, imp: imp, name: name, v: v})
	}
	if len(v) == 1 && v[0].kind == tIdent && isWideKeyword(v[0].k) {
		switch {
		case isLong:
			return append(out, decl{prop: id, imp: imp, v: v})
		case sh != nil:
			for _, p := range sh.longhands {
				out = append(out, decl{prop: p, imp: imp, v: v})
			}
			return out
		}
		return append(out, decl{prop: pOther, imp: imp, name: name, v: v})
	}
	// An invalid declaration that quirks mode may accept is kept under a
	// name that only the quirks-mode check reads (compute.go).
	invalid := func(out []decl) []decl {
		if quirkyValue(v) {
			return append(out, decl{prop: pOther, imp: imp, name: quirkyPrefix + name, v: v})
		}
		return out
	}
	switch {
	case isLong:
		if !validLonghand(id, v) {
			return invalid(out)
		}
		return append(out, decl{prop: id, imp: imp, v: v})
	case sh != nil:
		vals, ok := sh.expand(v)
		if !ok || len(vals) != len(sh.longhands) {
			return invalid(out)
		}
		n := len(out)
		for i, p := range sh.longhands {
			lv := vals[i]
			if lv == nil {
				lv = kwInitial
			} else if !validLonghand(p, lv) {
				return invalid(out[:n]) // the whole declaration is invalid
			}
			out = append(out, decl{prop: p, imp: imp, v: lv})
		}
		// Unimplemented parts of a shorthand are reported under their
		// own names when they take effect.
		if name == "font-variant" || name == "text-wrap" {
			if extra := extraParts(name, v); extra != "" {
				out = append(out, decl{prop: pOther, imp: imp, name: extra, v: v})
			}
		}
		return out
	}
	return append(out, decl{prop: pOther, imp: imp, name: name, v: v})
}

// expandColumns splits columns: a column width and a column count in
// either order, either left out or auto (CSS Multi-column 1 §3.3).
func expandColumns(v []tok) ([][]tok, bool) {
	if len(v) == 0 || len(v) > 2 {
		return nil, false
	}
	var width, count []tok
	for i := range v {
		t := v[i : i+1]
		switch {
		case t[0].isIdent("auto"):
		case t[0].kind == tNumber && count == nil:
			count = t
		case width == nil && validLonghand(pColumnWidth, t):
			width = t
		default:
			return nil, false
		}
	}
	return [][]tok{width, count}, true
}

// quirkyPrefix names an invalid declaration that quirks mode may accept.
const quirkyPrefix = "quirks-mode:"

// quirkyValue reports whether an invalid value holds what only quirks mode
// accepts: a length without its unit (a number other than 0) or a colour
// without its # (three or six hex digits).
func quirkyValue(v []tok) bool {
	isHex := func(s string) bool { return strings.Trim(strings.ToLower(s), "0123456789abcdef") == "" }
	for i := range v {
		t := &v[i]
		switch t.kind {
		case tNumber:
			return true
		case tDim:
			// 00ff00 is a number with the unit ff00.
			if isHex(t.k) {
				return true
			}
		case tIdent:
			if (len(t.s) == 3 || len(t.s) == 6) && isHex(t.s) {
				return true
			}
		case tFunc, tParen:
			if quirkyValue(t.args) {
				return true
			}
		}
	}
	return false
}

// expandForPending expands a substituted var() value and returns the value
// of longhand p, or nil if the declaration is invalid.
func expandForPending(name string, p propID, v []tok) []tok {
	if len(v) == 0 {
		return nil
	}
	if len(v) == 1 && v[0].kind == tIdent && isWideKeyword(v[0].k) {
		return v
	}
	if id, ok := longhands[name]; ok && id == p {
		return v // validated when applied
	}
	sh := shorthands[name]
	if sh == nil {
		return nil
	}
	vals, ok := sh.expand(v)
	if !ok || len(vals) != len(sh.longhands) {
		return nil
	}
	for i, q := range sh.longhands {
		if q == p {
			if vals[i] == nil {
				return kwInitial
			}
			return vals[i] // validated when applied
		}
	}
	return nil
}

func isWideKeyword(k string) bool {
	switch k {
	case "inherit", "initial", "unset", "revert", "revert-layer":
		return true
	}
	return false
}

// hasVar reports whether a value holds var() (or env()) anywhere.
func hasVar(v []tok) bool {
	for i := range v {
		if v[i].kind == tFunc && (v[i].k == "var" || v[i].k == "env") {
			return true
		}
		if len(v[i].args) > 0 && hasVar(v[i].args) {
			return true
		}
	}
	return false
}

// extraParts names the unimplemented longhand a font-variant or text-wrap
// value sets, "" when it sets none.
func extraParts(name string, v []tok) string {
	for i := range v {
		if v[i].kind != tIdent {
			return name
		}
		if _, ok := numericKeywords[v[i].k]; ok && name == "font-variant" {
			continue
		}
		switch v[i].k {
		case "normal", "small-caps", "all-small-caps", "wrap", "nowrap", "none", "auto", "stable":
		default:
			if name == "text-wrap" {
				return "text-wrap-style"
			}
			return "font-variant"
		}
	}
	return ""
}

// expandBox applies CSS's 1-to-4 value rule: top, right, bottom, left.
func expandBox(ps []propID) func(v []tok) ([][]tok, bool) {
	return func(v []tok) ([][]tok, bool) {
		if len(v) < 1 || len(v) > 4 {
			return nil, false
		}
		one := func(i int) []tok { return v[i : i+1] }
		switch len(v) {
		case 1:
			return [][]tok{one(0), one(0), one(0), one(0)}, true
		case 2:
			return [][]tok{one(0), one(1), one(0), one(1)}, true
		case 3:
			return [][]tok{one(0), one(1), one(2), one(1)}, true
		}
		return [][]tok{one(0), one(1), one(2), one(3)}, true
	}
}

// expandPair applies the 1-to-2 value rule of the logical shorthands.
func expandPair(ps []propID) func(v []tok) ([][]tok, bool) {
	return func(v []tok) ([][]tok, bool) {
		switch len(v) {
		case 1:
			return [][]tok{v[:1], v[:1]}, true
		case 2:
			return [][]tok{v[:1], v[1:2]}, true
		}
		return nil, false
	}
}

// isLineWidth reports whether t can be a border width.
func isLineWidth(t *tok) bool {
	switch t.kind {
	case tIdent:
		return t.k == "thin" || t.k == "medium" || t.k == "thick"
	case tNumber:
		return t.n == 0
	case tDim:
		return t.n >= 0
	case tFunc:
		return isMath(t)
	}
	return false
}

func isLineStyle(t *tok) bool {
	if t.kind != tIdent {
		return false
	}
	_, ok := borderStyles[t.k]
	return ok
}

// splitLine splits "width style color" in any order.
func splitLine(v []tok) (w, s, c []tok, ok bool) {
	if len(v) == 0 || len(v) > 3 {
		return nil, nil, nil, false
	}
	for i := range v {
		t := v[i : i+1]
		switch {
		case w == nil && isLineWidth(&v[i]):
			w = t
		case s == nil && isLineStyle(&v[i]):
			s = t
		case c == nil:
			if _, ok := parseColor(&v[i]); !ok {
				return nil, nil, nil, false
			}
			c = t
		default:
			return nil, nil, nil, false
		}
	}
	return w, s, c, true
}

func borderSide(w, s, c propID) *shorthand {
	return &shorthand{longhands: []propID{w, s, c}, expand: expandLine(w, s, c)}
}

func expandLine(_, _, _ propID) func(v []tok) ([][]tok, bool) {
	return func(v []tok) ([][]tok, bool) {
		w, s, c, ok := splitLine(v)
		if !ok {
			return nil, false
		}
		if c == nil {
			c = []tok{ident("currentcolor")}
		}
		if w == nil {
			w = []tok{ident("medium")}
		}
		if s == nil {
			s = kwNone
		}
		return [][]tok{w, s, c}, true
	}
}

// expandBorderAll expands border (n = 4 sides) or border-block/-inline
// (n = 2): widths, then styles, then colours.
func expandBorderAll(n int) func(v []tok) ([][]tok, bool) {
	return func(v []tok) ([][]tok, bool) {
		w, s, c, ok := splitLine(v)
		if !ok {
			return nil, false
		}
		if c == nil {
			c = []tok{ident("currentcolor")}
		}
		if w == nil {
			w = []tok{ident("medium")}
		}
		if s == nil {
			s = kwNone
		}
		out := make([][]tok, 0, 3*n)
		for _, x := range [][]tok{w, s, c} {
			for i := 0; i < n; i++ {
				out = append(out, x)
			}
		}
		return out, true
	}
}

// expandRadius expands border-radius: up to four horizontal radii, an
// optional "/" and up to four vertical ones. Each longhand value is "h v".
func expandRadius(v []tok) ([][]tok, bool) {
	var h, vv []tok
	slash := -1
	for i := range v {
		if v[i].isDelim("/") {
			if slash >= 0 {
				return nil, false
			}
			slash = i
		}
	}
	if slash >= 0 {
		h, vv = v[:slash], v[slash+1:]
	} else {
		h, vv = v, v
	}
	four := func(x []tok) ([4]tok, bool) {
		var out [4]tok
		switch len(x) {
		case 1:
			out = [4]tok{x[0], x[0], x[0], x[0]}
		case 2:
			out = [4]tok{x[0], x[1], x[0], x[1]}
		case 3:
			out = [4]tok{x[0], x[1], x[2], x[1]}
		case 4:
			out = [4]tok{x[0], x[1], x[2], x[3]}
		default:
			return out, false
		}
		return out, true
	}
	hs, ok1 := four(h)
	vs, ok2 := four(vv)
	if !ok1 || !ok2 {
		return nil, false
	}
	out := make([][]tok, 4)
	for i := 0; i < 4; i++ {
		a, b := hs[i], vs[i]
		b.ws = true
		out[i] = []tok{a, b}
	}
	return out, true
}

// fontStretchKeywords maps font-stretch keywords to percentages.
var fontStretchKeywords = map[string]float64{
	"ultra-condensed": 50, "extra-condensed": 62.5, "condensed": 75, "semi-condensed": 87.5, "normal": 100,
	"semi-expanded": 112.5, "expanded": 125, "extra-expanded": 150, "ultra-expanded": 200,
}

// expandFont expands the font shorthand: [style || variant || weight ||
// stretch]? size [/ line-height]? family. Omitted parts reset to initial.
func expandFont(v []tok) ([][]tok, bool) {
	var style, variant, weight, stretch, size, lh, family []tok
	i := 0
	normals := 0
	for ; i < len(v); i++ {
		t := &v[i]
		one := v[i : i+1]
		if t.kind == tIdent {
			switch {
			case t.k == "normal":
				normals++
				continue
			case style == nil && (t.k == "italic" || t.k == "oblique"):
				style = one
				if t.k == "oblique" && i+1 < len(v) && v[i+1].kind == tDim {
					style = v[i : i+2]
					i++
				}
				continue
			case variant == nil && t.k == "small-caps":
				variant = one
				continue
			case weight == nil && (t.k == "bold" || t.k == "bolder" || t.k == "lighter"):
				weight = one
				continue
			case stretch == nil && fontStretchKeywords[t.k] > 0:
				stretch = one
				continue
			}
		}
		if t.kind == tNumber && weight == nil && t.n >= 1 && t.n <= 1000 {
			weight = one
			continue
		}
		break
	}
	if i+normals > len(v) || normals+countNonNil(style, variant, weight, stretch) > 4 {
		return nil, false
	}
	if i >= len(v) {
		return nil, false
	}
	size = v[i : i+1]
	i++
	if i < len(v) && v[i].isDelim("/") {
		if i+1 >= len(v) {
			return nil, false
		}
		lh = v[i+1 : i+2]
		i += 2
	}
	family = v[i:]
	if len(family) == 0 || parseFamilies(family) == nil {
		return nil, false
	}
	return [][]tok{style, variant, weight, stretch, size, lh, family}, true
}

func countNonNil(xs ...[]tok) int {
	n := 0
	for _, x := range xs {
		if x != nil {
			n++
		}
	}
	return n
}

// expandBackground expands the background shorthand, layer by layer. The
// longhands hold comma-separated lists when there are several layers.
func expandBackground(v []tok) ([][]tok, bool) {
	layers := splitCommas(v)
	var image, repeat, posX, posY, size, clip, origin, attach, color []tok
	for li, layer := range layers {
		last := li == len(layers)-1
		var img, rep, px, py, sz, cl, or, at, col []tok
		boxes := 0
		for i := 0; i < len(layer); i++ {
			t := &layer[i]
			one := layer[i : i+1]
			switch {
			case img == nil && (t.kind == tURL || t.isIdent("none") || t.kind == tFunc && isImageFunc(t.k)):
				img = one
			case rep == nil && t.kind == tIdent && isRepeatKeyword(t.k):
				rep = one
				if t.k != "repeat-x" && t.k != "repeat-y" && i+1 < len(layer) && layer[i+1].kind == tIdent && isRepeatKeyword(layer[i+1].k) && layer[i+1].k != "repeat-x" && layer[i+1].k != "repeat-y" {
					rep = layer[i : i+2]
					i++
				}
			case at == nil && t.kind == tIdent && (t.k == "scroll" || t.k == "fixed" || t.k == "local"):
				at = one
			case t.kind == tIdent && isBoxKeyword(t.k) && boxes < 2:
				if boxes == 0 {
					or, cl = one, one
				} else {
					cl = one
				}
				boxes++
			case px == nil && isPositionStart(t):
				j := i
				for j < len(layer) && isPositionPart(&layer[j]) {
					j++
				}
				x, y, ok := splitPosition(layer[i:j])
				if !ok {
					return nil, false
				}
				px, py = x, y
				i = j - 1
				if j < len(layer) && layer[j].isDelim("/") {
					k := j + 1
					for k < len(layer) && k < j+3 && isSizePart(&layer[k]) {
						k++
					}
					if k == j+1 {
						return nil, false
					}
					sz = layer[j+1 : k]
					i = k - 1
				}
			case col == nil && last:
				if _, ok := parseColor(t); !ok {
					return nil, false
				}
				col = one
			default:
				return nil, false
			}
		}
		add := func(list *[]tok, part []tok, def string) {
			if li > 0 {
				*list = append(*list, tok{kind: tDelim, s: ","})
			}
			if part == nil {
				part = []tok{ident(def)}
			}
			for k := range part {
				t := part[k]
				t.ws = k > 0
				*list = append(*list, t)
			}
		}
		add(&image, img, "none")
		add(&repeat, rep, "repeat")
		add(&posX, px, "0%")
		add(&posY, py, "0%")
		add(&size, sz, "auto")
		add(&clip, cl, "border-box")
		add(&origin, or, "padding-box")
		add(&attach, at, "scroll")
		if last {
			color = col
		}
	}
	fixPct := func(list []tok) []tok {
		for k := range list {
			if list[k].kind == tIdent && list[k].k == "0%" {
				list[k] = tok{kind: tPercent, n: 0, ws: list[k].ws}
			}
		}
		return list
	}
	if color == nil {
		color = []tok{ident("transparent")}
	}
	return [][]tok{color, image, repeat, fixPct(posX), fixPct(posY), size, clip, origin, attach}, true
}

func isImageFunc(k string) bool {
	switch k {
	case "linear-gradient", "radial-gradient", "conic-gradient", "repeating-linear-gradient",
		"repeating-radial-gradient", "repeating-conic-gradient", "-webkit-linear-gradient",
		"-webkit-radial-gradient", "-webkit-gradient", "-webkit-repeating-linear-gradient",
		"-webkit-repeating-radial-gradient", "image-set", "-webkit-image-set", "cross-fade", "element", "image", "paint":
		return true
	}
	return false
}

func isRepeatKeyword(k string) bool {
	switch k {
	case "repeat", "repeat-x", "repeat-y", "no-repeat", "space", "round":
		return true
	}
	return false
}

func isBoxKeyword(k string) bool {
	switch k {
	case "border-box", "padding-box", "content-box", "text":
		return true
	}
	return false
}

func isPositionStart(t *tok) bool {
	switch t.kind {
	case tIdent:
		switch t.k {
		case "left", "right", "top", "bottom", "center":
			return true
		}
	case tNumber:
		return t.n == 0
	case tDim, tPercent:
		return true
	case tFunc:
		return isMath(t)
	}
	return false
}

func isPositionPart(t *tok) bool { return isPositionStart(t) }

func isSizePart(t *tok) bool {
	if t.kind == tIdent {
		return t.k == "auto" || t.k == "cover" || t.k == "contain"
	}
	return isPositionStart(t) && t.kind != tIdent
}

// splitPosition splits a <bg-position> (1 to 4 values) into its x and y
// parts, each "keyword", "length", or "keyword length".
func splitPosition(v []tok) (x, y []tok, ok bool) {
	isX := func(t *tok) bool { return t.isIdent("left") || t.isIdent("right") }
	isY := func(t *tok) bool { return t.isIdent("top") || t.isIdent("bottom") }
	isKw := func(t *tok) bool { return t.kind == tIdent }
	center := []tok{ident("center")}
	switch len(v) {
	case 1:
		switch {
		case isY(&v[0]):
			return center, v, true
		case isKw(&v[0]) && !isX(&v[0]) && !v[0].isIdent("center"):
			return nil, nil, false
		}
		return v, center, true
	case 2:
		a, b := &v[0], &v[1]
		if isY(a) || isX(b) {
			if !isKw(a) || !isKw(b) {
				return nil, nil, false
			}
			a, b = b, a
			return []tok{*a}, []tok{*b}, true
		}
		if isY(a) && isY(b) || isX(a) && isX(b) {
			return nil, nil, false
		}
		return v[:1], v[1:], true
	case 3, 4:
		// keyword offsets: "right 10px bottom" / "left 10px top 20px".
		var parts [][]tok
		for i := 0; i < len(v); {
			if !isKw(&v[i]) {
				return nil, nil, false
			}
			j := i + 1
			if j < len(v) && !isKw(&v[j]) {
				j++
			}
			parts = append(parts, v[i:j])
			i = j
		}
		if len(parts) != 2 {
			return nil, nil, false
		}
		if isY(&parts[0][0]) || isX(&parts[1][0]) {
			parts[0], parts[1] = parts[1], parts[0]
		}
		if isY(&parts[0][0]) || isX(&parts[1][0]) {
			return nil, nil, false
		}
		return parts[0], parts[1], true
	}
	return nil, nil, false
}

func expandBgPosition(v []tok) ([][]tok, bool) {
	var xs, ys []tok
	for li, layer := range splitCommas(v) {
		x, y, ok := splitPosition(layer)
		if !ok {
			return nil, false
		}
		if li > 0 {
			xs = append(xs, tok{kind: tDelim, s: ","})
			ys = append(ys, tok{kind: tDelim, s: ","})
		}
		xs = append(xs, x...)
		ys = append(ys, y...)
	}
	return [][]tok{xs, ys}, true
}

func expandListStyle(v []tok) ([][]tok, bool) {
	var typ, pos, img []tok
	nones := 0
	for i := range v {
		t := &v[i]
		one := v[i : i+1]
		switch {
		case t.isIdent("none"):
			nones++
		case pos == nil && (t.isIdent("inside") || t.isIdent("outside")):
			pos = one
		case img == nil && (t.kind == tURL || t.kind == tFunc && isImageFunc(t.k)):
			img = one
		case typ == nil && (t.kind == tIdent || t.kind == tString || t.kind == tFunc && t.k == "symbols"):
			typ = one
		default:
			return nil, false
		}
	}
	switch nones {
	case 0:
	case 1:
		if typ == nil {
			typ = kwNone
		} else if img == nil {
			img = kwNone
		} else {
			return nil, false
		}
	case 2:
		if typ != nil || img != nil {
			return nil, false
		}
		typ, img = kwNone, kwNone
	default:
		return nil, false
	}
	return [][]tok{typ, pos, img}, true
}

func expandTextDecoration(v []tok) ([][]tok, bool) {
	var line, style, color, thick []tok
	for i := range v {
		t := &v[i]
		switch {
		case t.kind == tIdent && (t.k == "underline" || t.k == "overline" || t.k == "line-through" || t.k == "blink"):
			if line != nil && line[0].isIdent("none") {
				return nil, false
			}
			line = append(line, *t)
		case line == nil && t.isIdent("none"):
			line = v[i : i+1]
		case style == nil && t.kind == tIdent && (t.k == "solid" || t.k == "double" || t.k == "dotted" || t.k == "dashed" || t.k == "wavy"):
			style = v[i : i+1]
		case thick == nil && (t.isIdent("auto") || t.isIdent("from-font") || t.kind == tDim || t.kind == tPercent || isMath(t)):
			thick = v[i : i+1]
		case color == nil:
			if _, ok := parseColor(t); !ok {
				return nil, false
			}
			color = v[i : i+1]
		default:
			return nil, false
		}
	}
	if len(line) > 1 {
		for k := range line {
			line[k].ws = k > 0
		}
	}
	return [][]tok{line, style, color, thick}, true
}

// expandWhiteSpace splits white-space into white-space-collapse and
// text-wrap-mode (CSS Text 4).
func expandWhiteSpace(v []tok) ([][]tok, bool) {
	if len(v) == 1 && v[0].kind == tIdent {
		var c, w string
		switch v[0].k {
		case "normal":
			c, w = "collapse", "wrap"
		case "nowrap":
			c, w = "collapse", "nowrap"
		case "pre":
			c, w = "preserve", "nowrap"
		case "pre-wrap":
			c, w = "preserve", "wrap"
		case "pre-line":
			c, w = "preserve-breaks", "wrap"
		case "break-spaces":
			c, w = "break-spaces", "wrap"
		case "-webkit-nowrap":
			c, w = "collapse", "nowrap"
		default:
			return nil, false
		}
		return [][]tok{{ident(c)}, {ident(w)}}, true
	}
	var c, w []tok
	for i := range v {
		switch {
		case c == nil && v[i].kind == tIdent && (v[i].k == "collapse" || v[i].k == "preserve" || v[i].k == "preserve-breaks" || v[i].k == "break-spaces" || v[i].k == "preserve-spaces"):
			c = v[i : i+1]
		case w == nil && (v[i].isIdent("wrap") || v[i].isIdent("nowrap")):
			w = v[i : i+1]
		default:
			return nil, false
		}
	}
	return [][]tok{c, w}, true
}

func expandTextWrap(v []tok) ([][]tok, bool) {
	var w []tok
	for i := range v {
		switch {
		case w == nil && (v[i].isIdent("wrap") || v[i].isIdent("nowrap")):
			w = v[i : i+1]
		case v[i].kind == tIdent && (v[i].k == "balance" || v[i].k == "pretty" || v[i].k == "stable" || v[i].k == "auto"):
		default:
			return nil, false
		}
	}
	return [][]tok{w}, true
}

func expandFontVariant(v []tok) ([][]tok, bool) {
	var caps, num []tok
	for i := range v {
		if v[i].kind == tIdent {
			switch v[i].k {
			case "small-caps", "all-small-caps", "petite-caps", "all-petite-caps", "unicase", "titling-caps":
				caps = v[i : i+1]
			}
			if _, ok := numericKeywords[v[i].k]; ok {
				num = append(num, v[i])
			}
		}
	}
	if len(v) == 1 && (v[0].isIdent("none") || v[0].isIdent("normal")) {
		caps, num = nil, nil
	}
	return [][]tok{caps, num}, true
}

// legacyBreak maps page-break-* values to break-* (CSS Fragmentation 3,
// section 3.4).
func legacyBreak(v []tok) ([][]tok, bool) {
	if len(v) != 1 || v[0].kind != tIdent {
		return nil, false
	}
	switch v[0].k {
	case "always":
		return [][]tok{{ident("page")}}, true
	case "auto", "avoid", "left", "right":
		return [][]tok{v}, true
	}
	return nil, false
}

// legacyColumnBreak maps -webkit-column-break-* values to break-*: always
// is column, avoid avoid-column (as Blink maps them).
func legacyColumnBreak(v []tok) ([][]tok, bool) {
	if len(v) != 1 || v[0].kind != tIdent {
		return nil, false
	}
	switch v[0].k {
	case "always":
		return [][]tok{{ident("column")}}, true
	case "avoid":
		return [][]tok{{ident("avoid-column")}}, true
	case "auto":
		return [][]tok{v}, true
	}
	return nil, false
}

// expandFlex expands flex: none, auto, or up to two numbers (grow, then
// shrink) and a basis in either order; an omitted basis is 0%, an omitted
// shrink 1 (CSS Flexbox 1 §7.2).
func expandFlex(v []tok) ([][]tok, bool) {
	num := func(g float64) []tok { return []tok{{kind: tNumber, n: g}} }
	if len(v) == 1 && v[0].kind == tIdent {
		switch v[0].k {
		case "none":
			return [][]tok{num(0), num(0), {ident("auto")}}, true
		case "auto":
			return [][]tok{num(1), num(1), {ident("auto")}}, true
		}
	}
	var nums, basis []tok
	closed := false // a basis came after the numbers began
	for i := range v {
		if v[i].kind == tNumber && len(nums) < 2 && !closed {
			nums = append(nums, v[i])
			continue
		}
		if basis != nil {
			return nil, false
		}
		basis = v[i : i+1]
		closed = len(nums) > 0
	}
	if len(nums) == 0 {
		nums = []tok{{kind: tNumber, n: 1}}
	}
	out := [][]tok{nums[:1], num(1), basis}
	if len(nums) == 2 {
		out[1] = nums[1:2]
	}
	if basis == nil {
		out[2] = []tok{{kind: tPercent, n: 0}}
	}
	return out, true
}

// expandFlexFlow expands flex-flow: a direction and a wrap in any order.
func expandFlexFlow(v []tok) ([][]tok, bool) {
	var dir, wrap []tok
	for i := range v {
		switch kw1(v[i : i+1]) {
		case "row", "row-reverse", "column", "column-reverse":
			if dir != nil {
				return nil, false
			}
			dir = v[i : i+1]
		case "nowrap", "wrap", "wrap-reverse":
			if wrap != nil {
				return nil, false
			}
			wrap = v[i : i+1]
		default:
			return nil, false
		}
	}
	return [][]tok{dir, wrap}, len(v) > 0
}

// expandPlace expands place-content: align-content, then justify-content
// (the first value for both when alone, except that a lone baseline
// value justifies as start).
func expandPlace(v []tok) ([][]tok, bool) {
	for i := 1; i < len(v); i++ {
		if v[i-1].kind == tIdent && (v[i-1].k == "first" || v[i-1].k == "last" || v[i-1].k == "safe" || v[i-1].k == "unsafe") {
			continue
		}
		// v[:i] and v[i:] both parse: two values.
		if _, ok := parseAxisAlign(v[:i], contentAligns); ok {
			if _, ok := parseAxisAlign(v[i:], contentAligns); ok {
				return [][]tok{v[:i], v[i:]}, true
			}
		}
	}
	a, ok := parseAxisAlign(v, contentAligns)
	if !ok {
		return nil, false
	}
	if a == AxBaseline || a == AxLastBaseline {
		return [][]tok{v, {ident("start")}}, true
	}
	return [][]tok{v, v}, true
}

// expandPlaceSelf expands place-items and place-self: the align value,
// then the justify value (the same when alone).
func expandPlaceSelf(v []tok) ([][]tok, bool) {
	if len(v) == 1 {
		return [][]tok{v, v}, true
	}
	for i := 1; i < len(v); i++ {
		first, rest := v[:i], v[i:]
		if _, ok := parseAxisAlign(first, selfAligns); !ok && kw1(first) != "auto" {
			continue
		}
		if _, ok := parseJustify(rest, true); ok || kw1(rest) == "auto" {
			return [][]tok{first, rest}, true
		}
	}
	return nil, false
}
