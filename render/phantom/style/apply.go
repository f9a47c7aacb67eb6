package style

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/platen/platen/render/phantom/draw"
	"golang.org/x/net/html"
)

// elemInfo is what an element's style keeps beyond Computed for its
// children to inherit: the raw values that inherit before they resolve.
type elemInfo struct {
	fontKw  int8 // font-size keyword (1 xx-small … 8 xxx-large), 0 when not keyword-derived
	fontAbs bool // font-size is absolute (Chromium's FontDescription::Size::is_absolute)
	align   alignKw
	last    alignKw
	wsColl  uint8 // white-space-collapse: 0 collapse, 1 preserve, 2 preserve-breaks, 3 break-spaces
	nowrap  bool  // text-wrap-mode: nowrap
	// multicol is set inside (and on) a multi-column container.
	multicol bool
	custom   *customSet
}

// alignKw is a text-align or text-align-last keyword as specified.
type alignKw uint8

const (
	alStart alignKw = iota
	alEnd
	alLeft
	alRight
	alCenter
	alJustify
	alWebkitLeft
	alWebkitRight
	alWebkitCenter
	alInternalCenter
	alMatchParent
	alAuto // text-align-last only
)

var alignKeywords = map[string]alignKw{
	"start": alStart, "end": alEnd, "left": alLeft, "right": alRight, "center": alCenter, "justify": alJustify,
	"-webkit-left": alWebkitLeft, "-webkit-right": alWebkitRight, "-webkit-center": alWebkitCenter,
	"-internal-center": alInternalCenter, "match-parent": alMatchParent, "justify-all": alJustify,
}

// aux is an element's transient state while its declarations apply.
type aux struct {
	bw         [4]float64 // border widths before a none style zeroes them
	ow         float64    // outline width likewise
	crw        float64    // column rule width likewise
	curRule    bool       // column rule colour is currentColor
	curBorder  [4]bool    // border colour is currentColor
	curOutline bool
	curDeco    bool
	curBg      bool
	ovx, ovy   string
	display    string // the display as written, for reports
	bgLayers   bool   // more than one background image layer
	gradient   bool
}

// state is one element (or pseudo-element, or margin box) being styled.
type state struct {
	c      *Computed
	p      *Computed // parent's computed style (the initial style for the root)
	pi     *elemInfo
	info   *elemInfo
	a      aux
	opt    *Options
	rootFS float64
	lc     lenCtx
	lcOK   bool
	// fontSizeSet is set once font-size was declared on this element.
	fontSizeSet bool
	// cp, node and src say where a value phantom cannot compute is
	// reported: cp is nil when validating or styling a page.
	cp   *computer
	node *html.Node
	src  string
}

// report records that the value being applied uses something phantom
// does not lay out.
func (st *state) report(name string) {
	if st.cp != nil {
		st.cp.pending = append(st.cp.pending, Feature{name, st.cp.where(st.src, st.node)})
	}
}

// len returns a length context for properties measured against this
// element's font.
func (st *state) len() *lenCtx {
	if !st.lcOK {
		st.lcOK = true
		st.lc = lenCtx{em: st.c.FontSize, rem: st.rootFS, vw: st.opt.ViewportWidth / 100, vh: st.opt.ViewportHeight / 100}
		if st.cp != nil {
			st.lc.viewport = &st.cp.viewport
		}
		if fm := st.opt.FontMetrics; fm != nil {
			c := st.c
			st.lc.exFn = func() (float64, float64) { return fm(c.FontFamily, c.FontWeight, c.FontStyle, c.FontSize) }
		}
	}
	return &st.lc
}

// validLonghand reports whether v is a valid value of p, by applying it to
// a scratch style (CSS drops an invalid declaration when parsing, so an
// earlier valid one stays in force).
func validLonghand(p propID, v []tok) bool {
	sc := scratchPool.Get().(*scratch)
	sc.c, sc.parent = initialComputed, initialComputed
	sc.info = elemInfo{}
	sc.st = state{c: &sc.c, p: &sc.parent, pi: &rootInfo, info: &sc.info, opt: &scratchOpt, rootFS: 16}
	ok := sc.st.apply(p, v)
	scratchPool.Put(sc)
	return ok
}

// scratch is validLonghand's reusable state.
type scratch struct {
	c, parent Computed
	info      elemInfo
	st        state
}

var (
	scratchPool = sync.Pool{New: func() any { return new(scratch) }}
	scratchOpt  = Options{PageWidth: 800, PageHeight: 1000, ViewportWidth: 800, ViewportHeight: 1000}
)

// rootInfo is the parent info of the root element.
var rootInfo = elemInfo{fontKw: 4}

// lengthOf reads a single-token length.
func (st *state) lengthOf(v []tok, f lengthFlags, kw ...string) (Length, bool) {
	if len(v) != 1 {
		return Length{}, false
	}
	if v[0].kind == tIdent {
		for _, k := range kw {
			if v[0].k == k {
				switch k {
				case "auto":
					return Length{Unit: Auto}, true
				case "none":
					return Length{Unit: None}, true
				case "normal":
					return Length{Unit: Normal}, true
				case "min-content", "-webkit-min-content":
					return Length{Unit: MinContent}, true
				case "max-content", "-webkit-max-content":
					return Length{Unit: MaxContent}, true
				case "fit-content", "-webkit-fit-content":
					return Length{Unit: FitContent}, true
				}
			}
		}
		return Length{}, false
	}
	l, ok, calcErr := st.len().length(&v[0], f)
	if calcErr {
		// Valid CSS phantom cannot resolve before layout: reported, and
		// computed as the property's first keyword (auto) or 0.
		st.report("calc")
		if len(kw) > 0 {
			return st.lengthOf([]tok{ident(kw[0])}, f, kw...)
		}
		return Length{}, true
	}
	return l, ok
}

var sizeKeywords = []string{"auto", "min-content", "max-content", "fit-content", "-webkit-min-content", "-webkit-max-content", "-webkit-fit-content"}
var maxSizeKeywords = []string{"none", "min-content", "max-content", "fit-content", "-webkit-min-content", "-webkit-max-content", "-webkit-fit-content"}

var borderStyles = map[string]BorderStyle{
	"none": BorderNone, "hidden": BorderHidden, "solid": BorderSolid, "dashed": BorderDashed,
	"dotted": BorderDotted, "double": BorderDouble, "groove": BorderGroove, "ridge": BorderRidge,
	"inset": BorderInset, "outset": BorderOutset,
}

// lineWidth reads a border or outline width in px.
func (st *state) lineWidth(v []tok) (float64, bool) {
	if len(v) != 1 {
		return 0, false
	}
	if v[0].kind == tIdent {
		switch v[0].k {
		case "thin":
			return 1, true
		case "medium":
			return 3, true
		case "thick":
			return 5, true
		}
		return 0, false
	}
	l, ok := st.lengthOf(v, 0)
	if !ok || l.Unit != Px {
		return 0, false
	}
	return l.V, true
}

// snapBorder rounds a border width as Chromium does before layout: a
// width between 0 and 1px becomes 1px, a larger one is floored to whole
// pixels (CSS Values 4 "snap as a border width", at one device pixel per
// CSS pixel when printing).
func snapBorder(w float64) float64 {
	switch {
	case w <= 0:
		return 0
	case w < 1:
		return 1
	}
	return math.Floor(w)
}

func (st *state) color(v []tok) (colorResult, bool) {
	if len(v) != 1 {
		return colorResult{}, false
	}
	return parseColor(&v[0])
}

func kw1(v []tok) string {
	if len(v) == 1 && v[0].kind == tIdent {
		return v[0].k
	}
	return ""
}

// apply sets property p from value v (already free of var() and of the
// CSS-wide keywords). It reports false for an invalid value.
func (st *state) apply(p propID, v []tok) bool {
	c := st.c
	switch p {
	case pFontFamily:
		f := parseFamilies(v)
		if f == nil {
			return false
		}
		c.FontFamily = f
	case pFontSize:
		return st.applyFontSize(v)
	case pFontWeight:
		if len(v) != 1 {
			return false
		}
		switch {
		case v[0].isIdent("normal"):
			c.FontWeight = 400
		case v[0].isIdent("bold"):
			c.FontWeight = 700
		case v[0].isIdent("bolder"):
			c.FontWeight = bolder(st.p.FontWeight)
		case v[0].isIdent("lighter"):
			c.FontWeight = lighter(st.p.FontWeight)
		default:
			n, ok := st.len().number(&v[0])
			if !ok || n < 1 || n > 1000 {
				return false
			}
			c.FontWeight = int(math.Round(n))
		}
	case pFontStyle:
		switch kw1(v) {
		case "normal":
			c.FontStyle = FontNormal
		case "italic":
			c.FontStyle = FontItalic
		case "oblique":
			c.FontStyle = FontOblique
		default:
			if len(v) == 2 && v[0].isIdent("oblique") && v[1].kind == tDim {
				c.FontStyle = FontOblique
				return true
			}
			return false
		}
	case pFontVariantNumeric:
		n, ok := parseNumericVariant(v)
		if !ok {
			return false
		}
		c.Numeric = n
	case pFontFeatureSettings:
		n, ok, other := parseFeatureSettings(v)
		if !ok {
			return false
		}
		if other {
			st.report("css:font-feature-settings") // features beyond the numeric ones
		}
		c.FeatureNumeric = n
	case pFontVariantCaps:
		switch kw1(v) {
		case "normal":
			c.SmallCaps = false
		case "small-caps", "all-small-caps":
			c.SmallCaps = true
		case "petite-caps", "all-petite-caps", "unicase", "titling-caps":
			c.SmallCaps = true
			st.report("css:font-variant-caps")
		default:
			return false
		}
	case pFontStretch:
		if len(v) != 1 {
			return false
		}
		if v[0].kind == tIdent {
			pct, ok := fontStretchKeywords[v[0].k]
			if !ok {
				return false
			}
			c.FontStretch = pct
		} else if v[0].kind == tPercent && v[0].n >= 0 {
			c.FontStretch = v[0].n
		} else {
			return false
		}
	case pLineHeight:
		if len(v) != 1 {
			return false
		}
		switch v[0].kind {
		case tIdent:
			if v[0].k != "normal" {
				return false
			}
			c.LineHeight, c.LineHeightNumber = Length{Unit: Normal}, false
		case tNumber:
			if v[0].n < 0 {
				return false
			}
			c.LineHeight, c.LineHeightNumber = Length{V: v[0].n}, true
		case tPercent:
			if v[0].n < 0 {
				return false
			}
			c.LineHeight, c.LineHeightNumber = Length{V: clampPx(v[0].n * c.FontSize / 100)}, false
		default:
			if n, ok := st.len().number(&v[0]); ok {
				c.LineHeight, c.LineHeightNumber = Length{V: math.Max(n, 0)}, true
				return true
			}
			l, ok := st.lengthOf(v, allowPct)
			if !ok {
				return false
			}
			if l.Unit == Percent {
				l = Length{V: l.V*c.FontSize/100 + l.Off}
			}
			c.LineHeight, c.LineHeightNumber = Length{V: math.Max(l.V, 0)}, false
		}
	case pColor:
		col, ok := st.color(v)
		if !ok {
			return false
		}
		if col.current {
			c.Color = st.p.Color
		} else {
			c.Color = col.c
		}
	case pDirection:
		switch kw1(v) {
		case "ltr", "rtl":
			c.Direction = kw1(v)
		default:
			return false
		}
	case pWritingMode:
		switch kw1(v) {
		case "horizontal-tb", "lr", "lr-tb", "rl", "rl-tb":
		case "vertical-rl", "vertical-lr", "sideways-rl", "sideways-lr", "tb", "tb-rl":
			st.report("writing-mode")
		default:
			return false
		}
	case pDisplay:
		return st.applyDisplay(v)
	case pPosition:
		switch kw1(v) {
		case "static":
			c.Position = Static
		case "relative":
			c.Position = Relative
		case "absolute":
			c.Position = Absolute
		case "fixed":
			c.Position = Fixed
		case "sticky", "-webkit-sticky":
			c.Position = Sticky
		default:
			return false
		}
	case pTop, pRight, pBottom, pLeft:
		l, ok := st.lengthOf(v, allowPct|allowNegative, "auto")
		if !ok {
			return false
		}
		c.Inset[p-pTop] = l
	case pInsetInlineStart, pInsetInlineEnd, pMarginInlineStart, pMarginInlineEnd, pPaddingInlineStart,
		pPaddingInlineEnd, pBorderInlineStartWidth, pBorderInlineEndWidth, pBorderInlineStartStyle,
		pBorderInlineEndStyle, pBorderInlineStartColor, pBorderInlineEndColor:
		return st.apply(st.physical(p), v)
	case pZIndex:
		if kw1(v) == "auto" {
			c.ZIndex, c.ZIndexAuto = 0, true
			return true
		}
		if len(v) != 1 || v[0].kind != tNumber || v[0].n != math.Trunc(v[0].n) {
			return false
		}
		c.ZIndex, c.ZIndexAuto = int(math.Max(math.Min(v[0].n, math.MaxInt32), math.MinInt32)), false
	case pFloat:
		switch kw1(v) {
		case "none", "left", "right":
			c.Float = kw1(v)
		case "inline-start":
			c.Float = st.startSide()
		case "inline-end":
			c.Float = st.endSide()
		default:
			return false
		}
	case pClear:
		switch kw1(v) {
		case "none", "left", "right", "both":
			c.Clear = kw1(v)
		case "inline-start":
			c.Clear = st.startSide()
		case "inline-end":
			c.Clear = st.endSide()
		default:
			return false
		}
	case pWidth, pHeight, pMinWidth, pMinHeight:
		kws := sizeKeywords
		l, ok := st.lengthOf(v, allowPct, kws...)
		if !ok {
			if kw1(v) == "stretch" || kw1(v) == "-webkit-fill-available" {
				st.report("css:" + propName[p] + ":stretch")
				l, ok = Length{Unit: Auto}, true
			} else {
				return false
			}
		}
		switch p {
		case pWidth:
			c.Width = l
		case pHeight:
			c.Height = l
		case pMinWidth:
			c.MinWidth = l
		case pMinHeight:
			c.MinHeight = l
		}
	case pMaxWidth, pMaxHeight:
		l, ok := st.lengthOf(v, allowPct, maxSizeKeywords...)
		if !ok {
			return false
		}
		if p == pMaxWidth {
			c.MaxWidth = l
		} else {
			c.MaxHeight = l
		}
	case pBoxSizing:
		switch kw1(v) {
		case "content-box":
			c.BorderBox = false
		case "border-box":
			c.BorderBox = true
		default:
			return false
		}
	case pMarginTop, pMarginRight, pMarginBottom, pMarginLeft:
		l, ok := st.lengthOf(v, allowPct|allowNegative, "auto")
		if !ok {
			return false
		}
		c.Margin[p-pMarginTop] = l
	case pPaddingTop, pPaddingRight, pPaddingBottom, pPaddingLeft:
		l, ok := st.lengthOf(v, allowPct)
		if !ok {
			return false
		}
		c.Padding[p-pPaddingTop] = l
	case pBorderTopWidth, pBorderRightWidth, pBorderBottomWidth, pBorderLeftWidth:
		w, ok := st.lineWidth(v)
		if !ok {
			return false
		}
		st.a.bw[p-pBorderTopWidth] = w
	case pBorderTopStyle, pBorderRightStyle, pBorderBottomStyle, pBorderLeftStyle:
		s, ok := borderStyles[kw1(v)]
		if !ok {
			return false
		}
		c.Border[p-pBorderTopStyle].Style = s
	case pBorderTopColor, pBorderRightColor, pBorderBottomColor, pBorderLeftColor:
		col, ok := st.color(v)
		if !ok {
			return false
		}
		i := p - pBorderTopColor
		c.Border[i].Color, st.a.curBorder[i] = col.c, col.current
	case pBorderTopLeftRadius, pBorderTopRightRadius, pBorderBottomRightRadius, pBorderBottomLeftRadius:
		if len(v) < 1 || len(v) > 2 {
			return false
		}
		h, ok1 := st.lengthOf(v[:1], allowPct)
		vv := h
		ok2 := true
		if len(v) == 2 {
			vv, ok2 = st.lengthOf(v[1:], allowPct)
		}
		if !ok1 || !ok2 {
			return false
		}
		c.Radius[p-pBorderTopLeftRadius] = Radius{H: h, V: vv}
	case pOutlineWidth:
		w, ok := st.lineWidth(v)
		if !ok {
			return false
		}
		st.a.ow = w
	case pOutlineStyle:
		if kw1(v) == "auto" {
			c.Outline.Style = BorderSolid
			return true
		}
		s, ok := borderStyles[kw1(v)]
		if !ok || s == BorderHidden {
			return false
		}
		c.Outline.Style = s
	case pOutlineColor:
		if kw1(v) == "invert" {
			c.Outline.Color, st.a.curOutline = draw.Color{}, true
			return true
		}
		col, ok := st.color(v)
		if !ok {
			return false
		}
		c.Outline.Color, st.a.curOutline = col.c, col.current
	case pColumnCount:
		if kw1(v) == "auto" {
			c.ColumnCount = 0
			return true
		}
		if len(v) != 1 || v[0].kind != tNumber || v[0].n < 1 || v[0].n != math.Trunc(v[0].n) {
			return false
		}
		c.ColumnCount = int(math.Min(v[0].n, 1000))
	case pColumnWidth:
		l, ok := st.lengthOf(v, 0, "auto")
		if !ok || l.Unit != Px && l.Unit != Auto {
			return false
		}
		c.ColumnWidth = l
	case pColumnRuleWidth:
		w, ok := st.lineWidth(v)
		if !ok {
			return false
		}
		st.a.crw = w
	case pColumnRuleStyle:
		s, ok := borderStyles[kw1(v)]
		if !ok {
			return false
		}
		c.ColumnRule.Style = s
	case pColumnRuleColor:
		col, ok := st.color(v)
		if !ok {
			return false
		}
		c.ColumnRule.Color, st.a.curRule = col.c, col.current
	case pColumnSpan:
		switch kw1(v) {
		case "none":
			c.ColumnSpanAll = false
		case "all":
			c.ColumnSpanAll = true
		default:
			return false
		}
	case pColumnFill:
		switch kw1(v) {
		case "balance", "balance-all":
			c.ColumnFillAuto = false
		case "auto":
			c.ColumnFillAuto = true
		default:
			return false
		}
	case pOutlineOffset:
		l, ok := st.lengthOf(v, allowNegative)
		if !ok || l.Unit != Px {
			return false
		}
		c.OutlineOffset = l.V
	case pOverflowX, pOverflowY:
		switch kw1(v) {
		case "visible", "hidden", "clip", "scroll", "auto", "overlay":
			if p == pOverflowX {
				st.a.ovx = kw1(v)
			} else {
				st.a.ovy = kw1(v)
			}
		default:
			return false
		}
	case pVisibility:
		switch kw1(v) {
		case "visible", "hidden", "collapse":
			c.Visibility = kw1(v)
		default:
			return false
		}
	case pOpacity:
		if len(v) != 1 {
			return false
		}
		switch v[0].kind {
		case tPercent:
			c.Opacity = clamp01(v[0].n / 100)
		default:
			n, ok := st.len().number(&v[0])
			if !ok {
				return false
			}
			c.Opacity = clamp01(n)
		}
	case pBackgroundColor:
		col, ok := st.color(v)
		if !ok {
			return false
		}
		c.Background.Color, st.a.curBg = col.c, col.current
	case pBackgroundImage:
		return st.applyBgImage(v)
	case pBackgroundRepeat:
		layer := firstLayer(v)
		r := ""
		switch len(layer) {
		case 1:
			switch kw1(layer) {
			case "repeat", "repeat-x", "repeat-y", "no-repeat":
				r = kw1(layer)
			case "space", "round":
				r = "repeat"
				st.report("css:background-repeat")
			}
		case 2:
			x, y := kw1(layer[:1]), kw1(layer[1:])
			if !isRepeatKeyword(x) || !isRepeatKeyword(y) || x == "repeat-x" || x == "repeat-y" || y == "repeat-x" || y == "repeat-y" {
				return false
			}
			if x == "space" || x == "round" || y == "space" || y == "round" {
				st.report("css:background-repeat")
			}
			rx, ry := x != "no-repeat", y != "no-repeat"
			switch {
			case rx && ry:
				r = "repeat"
			case rx:
				r = "repeat-x"
			case ry:
				r = "repeat-y"
			default:
				r = "no-repeat"
			}
		}
		if r == "" {
			return false
		}
		c.Background.Repeat = r
	case pBackgroundPositionX, pBackgroundPositionY:
		l, ok := st.bgPos(firstLayer(v), p == pBackgroundPositionX)
		if !ok {
			return false
		}
		if p == pBackgroundPositionX {
			c.Background.PositionX = l
		} else {
			c.Background.PositionY = l
		}
	case pBackgroundSize:
		layer := firstLayer(v)
		b := &c.Background
		switch {
		case kw1(layer) == "cover":
			b.Cover, b.Contain, b.SizeW, b.SizeH = true, false, Length{Unit: Auto}, Length{Unit: Auto}
		case kw1(layer) == "contain":
			b.Cover, b.Contain, b.SizeW, b.SizeH = false, true, Length{Unit: Auto}, Length{Unit: Auto}
		case len(layer) == 1 || len(layer) == 2:
			w, ok := st.lengthOf(layer[:1], allowPct, "auto")
			if !ok {
				return false
			}
			h := Length{Unit: Auto}
			if len(layer) == 2 {
				if h, ok = st.lengthOf(layer[1:], allowPct, "auto"); !ok {
					return false
				}
			}
			b.Cover, b.Contain, b.SizeW, b.SizeH = false, false, w, h
		default:
			return false
		}
	case pBackgroundClip, pBackgroundOrigin:
		k := kw1(firstLayer(v))
		switch k {
		case "border-box", "padding-box", "content-box":
		case "text":
			if p == pBackgroundOrigin {
				return false
			}
			st.report("css:background-clip:text")
		default:
			return false
		}
		if p == pBackgroundClip {
			c.Background.Clip = k
		} else {
			c.Background.Origin = k
		}
	case pBackgroundAttachment:
		switch kw1(firstLayer(v)) {
		case "scroll", "local":
		case "fixed":
			st.report("css:background-attachment")
		default:
			return false
		}
	case pTextAlign, pTextAlignLast:
		k, ok := alignKeywords[kw1(v)]
		if p == pTextAlignLast && kw1(v) == "auto" {
			k, ok = alAuto, true
		}
		if !ok {
			return false
		}
		if p == pTextAlign {
			switch k {
			case alInternalCenter:
				// th: center unless the parent aligns otherwise than start.
				if st.pi.align != alStart {
					k = st.pi.align
				} else {
					k = alCenter
				}
			case alMatchParent:
				k = st.matchParent(st.pi.align)
			}
			st.info.align = k
		} else {
			if k == alMatchParent {
				k = st.matchParent(st.pi.last)
			}
			st.info.last = k
		}
	case pTextIndent:
		if len(v) != 1 {
			for i := range v {
				if v[i].isIdent("hanging") || v[i].isIdent("each-line") {
					st.report("css:text-indent")
				}
			}
			v = v[:1]
		}
		l, ok := st.lengthOf(v, allowPct|allowNegative)
		if !ok {
			return false
		}
		c.TextIndent = l
	case pTextTransform:
		switch kw1(v) {
		case "none", "uppercase", "lowercase", "capitalize":
			c.TextTransform = kw1(v)
		case "full-width", "full-size-kana", "math-auto":
			st.report("css:text-transform")
		default:
			return false
		}
	case pTextDecorationLine:
		d := &c.Decoration
		u, o, l := false, false, false
		if kw1(v) != "none" {
			for i := range v {
				switch {
				case v[i].isIdent("underline"):
					u = true
				case v[i].isIdent("overline"):
					o = true
				case v[i].isIdent("line-through"):
					l = true
				case v[i].isIdent("blink"):
				case v[i].isIdent("spelling-error"), v[i].isIdent("grammar-error"):
				default:
					return false
				}
			}
		}
		d.Underline, d.Overline, d.LineThrough = u, o, l
	case pTextDecorationStyle:
		switch kw1(v) {
		case "solid", "wavy":
			c.Decoration.Style = BorderSolid
			if kw1(v) == "wavy" {
				st.report("css:text-decoration-style:wavy")
			}
		case "double":
			c.Decoration.Style = BorderDouble
		case "dotted":
			c.Decoration.Style = BorderDotted
		case "dashed":
			c.Decoration.Style = BorderDashed
		default:
			return false
		}
	case pTextDecorationColor:
		col, ok := st.color(v)
		if !ok {
			return false
		}
		c.Decoration.Color, st.a.curDeco = col.c, col.current
	case pTextDecorationThickness:
		switch kw1(v) {
		case "auto", "from-font":
			c.Decoration.Thickness = Length{Unit: Auto}
			return true
		}
		l, ok := st.lengthOf(v, allowPct)
		if !ok {
			return false
		}
		if l.Unit == Percent {
			l = Length{V: l.V*c.FontSize/100 + l.Off}
		}
		c.Decoration.Thickness = l
	case pLetterSpacing, pWordSpacing:
		var px float64
		if kw1(v) == "normal" {
			px = 0
		} else {
			l, ok := st.lengthOf(v, allowNegative|allowPct)
			if !ok {
				return false
			}
			if l.Unit == Percent {
				// A percentage of the font size (letter-spacing) or of the
				// space's advance (word-spacing, resolved as 0.25em here).
				base := c.FontSize
				if p == pWordSpacing {
					base = c.FontSize / 4
					st.report("css:word-spacing")
				}
				px = l.V*base/100 + l.Off
			} else {
				px = l.V
			}
		}
		if p == pLetterSpacing {
			c.LetterSpacing = px
		} else {
			c.WordSpacing = px
		}
	case pWhiteSpaceCollapse:
		switch kw1(v) {
		case "collapse":
			st.info.wsColl = 0
		case "preserve":
			st.info.wsColl = 1
		case "preserve-breaks":
			st.info.wsColl = 2
		case "break-spaces":
			st.info.wsColl = 3
		case "preserve-spaces", "discard":
			st.info.wsColl = 1
			st.report("css:white-space-collapse")
		default:
			return false
		}
	case pTextWrapMode:
		switch kw1(v) {
		case "wrap":
			st.info.nowrap = false
		case "nowrap":
			st.info.nowrap = true
		default:
			return false
		}
	case pWordBreak:
		switch kw1(v) {
		case "normal", "break-all", "keep-all", "break-word":
			c.WordBreak = kw1(v)
		case "auto-phrase":
			c.WordBreak = "normal"
		default:
			return false
		}
	case pOverflowWrap:
		switch kw1(v) {
		case "normal", "break-word", "anywhere":
			c.OverflowWrap = kw1(v)
		default:
			return false
		}
	case pHyphens:
		switch kw1(v) {
		case "none", "manual", "auto":
			c.Hyphens = kw1(v)
		default:
			return false
		}
	case pVerticalAlign:
		return st.applyVerticalAlign(v)
	case pUnicodeBidi:
		switch kw1(v) {
		case "normal", "embed", "isolate", "bidi-override", "isolate-override", "plaintext":
			c.UnicodeBidi = kw1(v)
		case "-webkit-isolate":
			c.UnicodeBidi = "isolate"
		case "-webkit-isolate-override":
			c.UnicodeBidi = "isolate-override"
		case "-webkit-plaintext":
			c.UnicodeBidi = "plaintext"
		default:
			return false
		}
	case pTabSize:
		if len(v) != 1 {
			return false
		}
		if v[0].kind == tNumber && v[0].n >= 0 {
			c.TabSize = v[0].n
			return true
		}
		l, ok := st.lengthOf(v, 0)
		if !ok {
			return false
		}
		// A length: in spaces of 0.25em, as near as phantom keeps it.
		if c.FontSize > 0 {
			c.TabSize = l.V / (c.FontSize / 4)
		}
		st.report("css:tab-size")
	case pListStyleType:
		if len(v) != 1 {
			return false
		}
		switch v[0].kind {
		case tIdent:
			c.ListStyleType = v[0].k
		case tString:
			c.ListStyleType = strconv.Quote(v[0].s)
		case tFunc:
			if v[0].k != "symbols" {
				return false
			}
			c.ListStyleType = "disc"
			st.report("css:list-style-type")
		default:
			return false
		}
	case pListStylePosition:
		switch kw1(v) {
		case "inside", "outside":
			c.ListStylePosition = kw1(v)
		default:
			return false
		}
	case pListStyleImage:
		switch {
		case kw1(v) == "none":
			c.ListStyleImage = ""
		case len(v) == 1 && v[0].kind == tURL:
			c.ListStyleImage = v[0].s
		case len(v) == 1 && v[0].kind == tFunc && isImageFunc(v[0].k):
			c.ListStyleImage = ""
			st.report("css:list-style-image")
		default:
			return false
		}
	case pCounterReset, pCounterIncrement, pCounterSet:
		def := 0
		if p == pCounterIncrement {
			def = 1
		}
		cs, ok := parseCounters(v, def)
		if !ok {
			return false
		}
		switch p {
		case pCounterReset:
			c.CounterReset = cs
		case pCounterIncrement:
			c.CounterIncrement = cs
		default:
			c.CounterSet = cs
		}
	case pContent:
		items, none, ok := st.parseContent(v)
		if !ok {
			return false
		}
		c.Content, c.ContentNone = items, none
	case pQuotes:
		switch kw1(v) {
		case "none":
			c.Quotes = []string{}
		case "auto":
			c.Quotes = nil
		default:
			if len(v) == 0 || len(v)%2 != 0 {
				return false
			}
			q := make([]string, len(v))
			for i := range v {
				if v[i].kind != tString {
					return false
				}
				q[i] = v[i].s
			}
			c.Quotes = q
		}
	case pTableLayout:
		switch kw1(v) {
		case "auto", "fixed":
			c.TableLayout = kw1(v)
		default:
			return false
		}
	case pBorderCollapse:
		switch kw1(v) {
		case "separate":
			c.BorderCollapse = false
		case "collapse":
			c.BorderCollapse = true
		default:
			return false
		}
	case pBorderSpacing:
		if len(v) < 1 || len(v) > 2 {
			return false
		}
		h, ok := st.lengthOf(v[:1], 0)
		if !ok || h.Unit != Px {
			return false
		}
		vv := h
		if len(v) == 2 {
			if vv, ok = st.lengthOf(v[1:], 0); !ok || vv.Unit != Px {
				return false
			}
		}
		c.BorderSpacing = [2]float64{h.V, vv.V}
	case pCaptionSide:
		switch kw1(v) {
		case "top", "block-start":
			c.CaptionSide = "top"
		case "bottom", "block-end":
			c.CaptionSide = "bottom"
		default:
			return false
		}
	case pEmptyCells:
		switch kw1(v) {
		case "show", "hide":
			c.EmptyCells = kw1(v)
		default:
			return false
		}
	case pBreakBefore, pBreakAfter:
		var b Break
		switch kw1(v) {
		case "auto", "region", "avoid-region":
			b = BreakAuto
		case "column":
			b = BreakColumn
		case "avoid-column":
			b = BreakAvoidColumn
		case "avoid":
			b = BreakAvoid
		case "avoid-page":
			b = BreakAvoidPage
		case "page":
			b = BreakPage // Chromium does not accept always and all here (page-break-* maps always to page)
		case "left":
			b = BreakLeft
		case "right":
			b = BreakRight
		case "recto":
			b = BreakRight
			if c.Direction == "rtl" {
				b = BreakLeft
			}
		case "verso":
			b = BreakLeft
			if c.Direction == "rtl" {
				b = BreakRight
			}
		default:
			return false
		}
		if p == pBreakBefore {
			c.BreakBefore = b
		} else {
			c.BreakAfter = b
		}
	case pBreakInside:
		switch kw1(v) {
		case "auto", "avoid-region":
			c.BreakInside = BreakAuto
		case "avoid-column":
			c.BreakInside = BreakAvoidColumn
		case "avoid":
			c.BreakInside = BreakAvoid
		case "avoid-page":
			c.BreakInside = BreakAvoidPage
		default:
			return false
		}
	case pOrphans, pWidows:
		if len(v) != 1 || v[0].kind != tNumber || v[0].n < 1 || v[0].n != math.Trunc(v[0].n) {
			return false
		}
		n := int(math.Min(v[0].n, 1000))
		if p == pOrphans {
			c.Orphans = n
		} else {
			c.Widows = n
		}
	case pPage:
		if len(v) != 1 || v[0].kind != tIdent {
			return false
		}
		if v[0].k == "auto" {
			c.Page = ""
		} else {
			c.Page = v[0].s
		}
	case pObjectFit:
		switch kw1(v) {
		case "fill", "contain", "cover", "none", "scale-down":
			c.ObjectFit = kw1(v)
		default:
			return false
		}
	case pObjectPosition:
		x, y, ok := splitPosition(v)
		if !ok {
			return false
		}
		lx, ok1 := st.bgPos(x, true)
		ly, ok2 := st.bgPos(y, false)
		if !ok1 || !ok2 {
			return false
		}
		c.ObjectPosition = [2]Length{lx, ly}
	case pAspectRatio:
		r, ok := parseRatio(v)
		if !ok {
			return false
		}
		c.AspectRatio = r
	case pBoxShadow:
		sh, ok := st.shadows(v, true)
		if !ok {
			return false
		}
		c.BoxShadow = sh
	case pFlexDirection:
		switch kw1(v) {
		case "row":
			c.FlexDirection = FlexRow
		case "row-reverse":
			c.FlexDirection = FlexRowReverse
		case "column":
			c.FlexDirection = FlexColumn
		case "column-reverse":
			c.FlexDirection = FlexColumnReverse
		default:
			return false
		}
	case pFlexWrap:
		switch kw1(v) {
		case "nowrap":
			c.FlexWrap = NoWrap
		case "wrap":
			c.FlexWrap = Wrap
		case "wrap-reverse":
			c.FlexWrap = WrapReverse
		default:
			return false
		}
	case pFlexGrow, pFlexShrink:
		if len(v) != 1 || v[0].kind != tNumber || v[0].n < 0 {
			return false
		}
		if p == pFlexGrow {
			c.FlexGrow = v[0].n
		} else {
			c.FlexShrink = v[0].n
		}
	case pFlexBasis:
		if len(v) == 1 && v[0].isIdent("content") {
			c.FlexBasis = Length{Unit: MaxContent}
			return true
		}
		l, ok := st.lengthOf(v, allowPct, sizeKeywords...)
		if !ok {
			return false
		}
		c.FlexBasis = l
	case pOrder:
		if len(v) != 1 || v[0].kind != tNumber || v[0].n != math.Trunc(v[0].n) {
			return false
		}
		c.Order = int(math.Max(-1e9, math.Min(1e9, v[0].n)))
	case pJustifyContent, pAlignContent:
		a, ok := parseAxisAlign(v, contentAligns)
		if !ok {
			return false
		}
		if p == pJustifyContent {
			c.JustifyContent = a
		} else {
			c.AlignContent = a
		}
	case pAlignItems:
		a, ok := parseAxisAlign(v, selfAligns)
		if !ok {
			return false
		}
		c.AlignItems = a
	case pAlignSelf:
		if kw1(v) == "auto" {
			c.AlignSelf = AxAuto
			return true
		}
		a, ok := parseAxisAlign(v, selfAligns)
		if !ok {
			return false
		}
		c.AlignSelf = a
	case pTransform:
		if kw1(v) == "none" {
			c.Transform = nil
			return true
		}
		fns, ok, flat := st.transform(v)
		if !ok {
			return false
		}
		if !flat {
			st.report("transform") // 3D: Chromium's to print
		}
		c.Transform = fns
	case pTransformOrigin:
		o, ok := st.transformOrigin(v)
		if !ok {
			return false
		}
		c.TransformOrigin = o
	case pGridTemplateColumns, pGridTemplateRows:
		tl, ok := st.trackList(v)
		if !ok {
			return false
		}
		if p == pGridTemplateColumns {
			c.GridTemplateColumns = tl
		} else {
			c.GridTemplateRows = tl
		}
	case pGridTemplateAreas:
		a, ok := gridAreas(v)
		if !ok {
			return false
		}
		c.GridTemplateAreas = a
	case pGridAutoColumns, pGridAutoRows:
		ts, ok := st.autoTracks(v)
		if !ok {
			return false
		}
		if p == pGridAutoColumns {
			c.GridAutoColumns = ts
		} else {
			c.GridAutoRows = ts
		}
	case pGridAutoFlow:
		f, ok := gridFlow(v)
		if !ok {
			return false
		}
		c.GridAutoFlow = f
	case pGridRowStart, pGridRowEnd, pGridColumnStart, pGridColumnEnd:
		g, ok := gridLine(v)
		if !ok {
			return false
		}
		switch p {
		case pGridRowStart:
			c.GridRowStart = g
		case pGridRowEnd:
			c.GridRowEnd = g
		case pGridColumnStart:
			c.GridColumnStart = g
		default:
			c.GridColumnEnd = g
		}
	case pTextOverflow:
		switch kw1(v) {
		case "clip":
			c.TextEllipsis = false
		case "ellipsis":
			c.TextEllipsis = true
			if c.Direction == "rtl" {
				st.report("css:text-overflow") // phantom ellipsizes left to right lines
			}
		default:
			// A string, or a value for each end: Chromium's to print.
			if len(v) == 0 || len(v) > 2 {
				return false
			}
			for i := range v {
				if v[i].kind != tString && !v[i].isIdent("clip") && !v[i].isIdent("ellipsis") {
					return false
				}
			}
			st.report("css:text-overflow")
		}
	case pJustifyItems, pJustifySelf:
		a, ok := parseJustify(v, p == pJustifyItems)
		if !ok {
			return false
		}
		if p == pJustifyItems {
			c.JustifyItems = a
		} else {
			c.JustifySelf = a
		}
	case pRowGap, pColumnGap:
		l, ok := st.lengthOf(v, allowPct, "normal")
		if !ok {
			return false
		}
		if p == pRowGap {
			c.RowGap = l
		} else {
			c.ColumnGap = l
		}
	case pSize:
		return true // @page only; checked there
	default:
		return false
	}
	return true
}

// maxShadows bounds the shadows of one box: each is painted, a blurred
// one as an image.
const maxShadows = 16

// shadows reads a box-shadow (box true) or text-shadow value: none, or a
// comma-separated list of shadows, each two to four lengths (offsets,
// blur, and for a box the spread), an optional colour (currentColor by
// default, resolved now: color is applied first) and for a box an
// optional inset, in any order (CSS Backgrounds 3, 7.1).
func (st *state) shadows(v []tok, box bool) ([]Shadow, bool) {
	if len(v) == 1 && v[0].isIdent("none") {
		return nil, true
	}
	parts := splitCommas(v)
	if len(parts) > maxShadows {
		return nil, false
	}
	out := make([]Shadow, 0, len(parts))
	for _, part := range parts {
		var sh Shadow
		var lens []float64
		colored, lensDone := false, false
		for i := range part {
			t := &part[i]
			if box && t.isIdent("inset") {
				if sh.Inset {
					return nil, false
				}
				sh.Inset = true
				lensDone = len(lens) > 0
				continue
			}
			if l, ok, _ := st.len().length(t, allowNegative); ok {
				if l.Unit != Px || lensDone {
					return nil, false
				}
				lens = append(lens, l.V)
				continue
			}
			col, ok := parseColor(t)
			if !ok || colored {
				return nil, false
			}
			colored, lensDone = true, len(lens) > 0
			sh.Color = col.c
			if col.current {
				sh.Color = st.c.Color
			}
		}
		maxLens := 3
		if box {
			maxLens = 4
		}
		if len(lens) < 2 || len(lens) > maxLens {
			return nil, false
		}
		if !colored {
			sh.Color = st.c.Color
		}
		sh.X, sh.Y = lens[0], lens[1]
		if len(lens) > 2 {
			if lens[2] < 0 {
				return nil, false
			}
			sh.Blur = lens[2]
		}
		if len(lens) > 3 {
			sh.Spread = lens[3]
		}
		out = append(out, sh)
	}
	return out, true
}

// parseRatio reads aspect-ratio: auto, a number, "w / h", or auto with a
// ratio (the ratio is kept).
func parseRatio(v []tok) (float64, bool) {
	var nums []float64
	for i := range v {
		switch {
		case v[i].isIdent("auto"):
		case v[i].kind == tNumber && v[i].n >= 0:
			nums = append(nums, v[i].n)
		case v[i].isDelim("/"):
		default:
			return 0, false
		}
	}
	switch len(nums) {
	case 0:
		return 0, len(v) == 1
	case 1:
		return nums[0], true
	case 2:
		if nums[1] == 0 {
			return 0, true
		}
		return nums[0] / nums[1], true
	}
	return 0, false
}

// physical maps a logical inline property to its physical side by the
// element's direction.
func (st *state) physical(p propID) propID {
	rtl := st.c.Direction == "rtl"
	pick := func(l, r propID) propID {
		if rtl {
			return r
		}
		return l
	}
	switch p {
	case pInsetInlineStart:
		return pick(pLeft, pRight)
	case pInsetInlineEnd:
		return pick(pRight, pLeft)
	case pMarginInlineStart:
		return pick(pMarginLeft, pMarginRight)
	case pMarginInlineEnd:
		return pick(pMarginRight, pMarginLeft)
	case pPaddingInlineStart:
		return pick(pPaddingLeft, pPaddingRight)
	case pPaddingInlineEnd:
		return pick(pPaddingRight, pPaddingLeft)
	case pBorderInlineStartWidth:
		return pick(pBorderLeftWidth, pBorderRightWidth)
	case pBorderInlineEndWidth:
		return pick(pBorderRightWidth, pBorderLeftWidth)
	case pBorderInlineStartStyle:
		return pick(pBorderLeftStyle, pBorderRightStyle)
	case pBorderInlineEndStyle:
		return pick(pBorderRightStyle, pBorderLeftStyle)
	case pBorderInlineStartColor:
		return pick(pBorderLeftColor, pBorderRightColor)
	case pBorderInlineEndColor:
		return pick(pBorderRightColor, pBorderLeftColor)
	}
	return p
}

// isLogical reports whether p is a logical inline property.
func isLogical(p propID) bool {
	switch p {
	case pInsetInlineStart, pInsetInlineEnd, pMarginInlineStart, pMarginInlineEnd, pPaddingInlineStart,
		pPaddingInlineEnd, pBorderInlineStartWidth, pBorderInlineEndWidth, pBorderInlineStartStyle,
		pBorderInlineEndStyle, pBorderInlineStartColor, pBorderInlineEndColor:
		return true
	}
	return false
}

func (st *state) startSide() string {
	if st.c.Direction == "rtl" {
		return "right"
	}
	return "left"
}

func (st *state) endSide() string {
	if st.c.Direction == "rtl" {
		return "left"
	}
	return "right"
}

// matchParent resolves match-parent: the parent's start or end made
// physical by the parent's direction.
func (st *state) matchParent(k alignKw) alignKw {
	rtl := st.p.Direction == "rtl"
	switch k {
	case alStart:
		if rtl {
			return alRight
		}
		return alLeft
	case alEnd:
		if rtl {
			return alLeft
		}
		return alRight
	}
	return k
}

func bolder(w int) int {
	switch {
	case w < 350:
		return 400
	case w < 550:
		return 700
	case w < 900:
		return 900
	}
	return w
}

func lighter(w int) int {
	switch {
	case w < 100:
		return w
	case w < 550:
		return 100
	case w < 750:
		return 400
	}
	return 700
}

// Chromium's font sizes for the keywords xx-small … xxx-large, for the
// default font size (16px) and the default fixed (monospace) size (13px),
// as Chromium 156 computes them.
var (
	keywordSizes     = [9]float64{0, 9, 10, 13, 16, 18, 24, 32, 48}
	keywordSizesMono = [9]float64{0, 9, 10, 12, 13, 16, 20, 26, 39}
)

var fontSizeKeywords = map[string]int8{
	"xx-small": 1, "x-small": 2, "small": 3, "medium": 4, "large": 5, "x-large": 6, "xx-large": 7,
	"xxx-large": 8, "-webkit-xxx-large": 8,
}

// isMonospace reports whether a family list is exactly the generic
// monospace, the only case in which Chromium uses the fixed font size.
func isMonospace(f []string) bool { return len(f) == 1 && f[0] == "monospace" }

func keywordSize(kw int8, mono bool) float64 {
	if mono {
		return keywordSizesMono[kw]
	}
	return keywordSizes[kw]
}

// applyFontSize computes font-size as Chromium's font builder does:
// keywords from the table of the element's generic family, em and
// percentages of the parent's size keeping whether it is absolute.
func (st *state) applyFontSize(v []tok) bool {
	if len(v) != 1 {
		return false
	}
	c, info, pc, pinfo := st.c, st.info, st.p, st.pi
	t := &v[0]
	if t.kind == tIdent {
		if kw, ok := fontSizeKeywords[t.k]; ok {
			c.FontSize, info.fontKw, info.fontAbs = keywordSize(kw, isMonospace(c.FontFamily)), kw, false
			st.fontSizeSet = true
			return true
		}
		switch t.k {
		case "smaller":
			c.FontSize, info.fontKw, info.fontAbs = pc.FontSize/1.2, 0, pinfo.fontAbs
		case "larger":
			c.FontSize, info.fontKw, info.fontAbs = pc.FontSize*1.2, 0, pinfo.fontAbs
		case "math":
			c.FontSize, info.fontKw, info.fontAbs = pc.FontSize, pinfo.fontKw, pinfo.fontAbs
		default:
			return false
		}
		st.fontSizeSet = true
		return true
	}
	if t.kind == tPercent {
		if t.n < 0 {
			return false
		}
		c.FontSize, info.fontKw, info.fontAbs = clampPx(pc.FontSize*t.n/100), 0, pinfo.fontAbs
		st.fontSizeSet = true
		return true
	}
	// Lengths: em, ex and ch against the parent's font.
	lc := lenCtx{em: pc.FontSize, rem: st.rootFS, vw: st.opt.ViewportWidth / 100, vh: st.opt.ViewportHeight / 100}
	if st.cp != nil {
		lc.viewport = &st.cp.viewport
	}
	if fm := st.opt.FontMetrics; fm != nil {
		lc.exFn = func() (float64, float64) { return fm(pc.FontFamily, pc.FontWeight, pc.FontStyle, pc.FontSize) }
	}
	l, ok, calcErr := lc.length(t, allowPct)
	if calcErr {
		st.report("calc")
	}
	if !ok || l.V < 0 {
		return false
	}
	if l.Unit == Percent {
		l = Length{V: l.V*pc.FontSize/100 + l.Off}
	}
	c.FontSize, info.fontKw = l.V, 0
	info.fontAbs = pinfo.fontAbs || !lc.fontRelative || lc.mathFn
	st.fontSizeSet = true
	return true
}

// fixFontSize applies Chromium's generic family change: entering or
// leaving the monospace generic rescales a size that is not absolute
// (keyword sizes are looked up again, others scaled by 13/16).
func (st *state) fixFontSize() {
	c, info := st.c, st.info
	mono, pmono := isMonospace(c.FontFamily), isMonospace(st.p.FontFamily)
	if mono == pmono || info.fontAbs {
		return
	}
	if info.fontKw != 0 {
		c.FontSize = keywordSize(info.fontKw, mono)
		return
	}
	if mono {
		c.FontSize *= 13.0 / 16
	} else {
		c.FontSize *= 16.0 / 13
	}
}

// applyDisplay sets display, recording flex and grid for the support
// check.
func (st *state) applyDisplay(v []tok) bool {
	c := st.c
	k := kw1(v)
	if len(v) == 2 && v[0].kind == tIdent && v[1].kind == tIdent {
		a, b := v[0].k, v[1].k
		if a == "flow" || a == "flow-root" || a == "flex" || a == "grid" || a == "table" || a == "list-item" {
			a, b = b, a
		}
		switch a + " " + b {
		case "block flow":
			k = "block"
		case "inline flow":
			k = "inline"
		case "block flow-root":
			k = "flow-root"
		case "inline flow-root":
			k = "inline-block"
		case "block flex":
			k = "flex"
		case "inline flex":
			k = "inline-flex"
		case "block grid":
			k = "grid"
		case "inline grid":
			k = "inline-grid"
		case "block table":
			k = "table"
		case "inline table":
			k = "inline-table"
		case "block list-item", "flow list-item":
			k = "list-item"
		default:
			return false
		}
	}
	c.FlowRoot = false
	st.a.display = k
	switch k {
	case "inline":
		c.Display = DisplayInline
	case "block":
		c.Display = DisplayBlock
	case "inline-block":
		c.Display = DisplayInlineBlock
	case "list-item":
		c.Display = DisplayListItem
	case "none":
		c.Display = DisplayNone
	case "table":
		c.Display = DisplayTable
	case "inline-table":
		c.Display = DisplayInlineTable
	case "table-row-group":
		c.Display = DisplayTableRowGroup
	case "table-header-group":
		c.Display = DisplayTableHeaderGroup
	case "table-footer-group":
		c.Display = DisplayTableFooterGroup
	case "table-row":
		c.Display = DisplayTableRow
	case "table-cell":
		c.Display = DisplayTableCell
	case "table-column-group":
		c.Display = DisplayTableColumnGroup
	case "table-column":
		c.Display = DisplayTableColumn
	case "table-caption":
		c.Display = DisplayTableCaption
	case "contents":
		c.Display = DisplayContents
	case "flex", "-webkit-box", "-webkit-flex":
		c.Display = DisplayFlex
	case "inline-flex", "-webkit-inline-box", "-webkit-inline-flex":
		c.Display = DisplayInlineFlex
	case "grid":
		c.Display = DisplayGrid
	case "inline-grid":
		c.Display = DisplayInlineGrid
	case "flow-root":
		c.Display, c.FlowRoot = DisplayBlock, true
	case "ruby", "ruby-text", "math", "ruby-base", "ruby-text-container", "ruby-base-container":
		c.Display = DisplayInline
	case "run-in", "compact":
		return false
	default:
		return false
	}
	return true
}

var vaKeywords = map[string]VAKeyword{"baseline": VABaseline, "sub": VASub, "super": VASuper, "text-top": VATextTop,
	"text-bottom": VATextBottom, "middle": VAMiddle, "top": VATop, "bottom": VABottom,
	"-webkit-baseline-middle": VABaselineMiddle}

// applyVerticalAlign sets vertical-align.
func (st *state) applyVerticalAlign(v []tok) bool {
	va := &st.c.VerticalAlign
	if len(v) != 1 {
		return false
	}
	if v[0].kind == tIdent {
		k, ok := vaKeywords[v[0].k]
		if !ok {
			return false
		}
		*va = VerticalAlign{Keyword: k}
		return true
	}
	l, ok := st.lengthOf(v, allowPct|allowNegative)
	if !ok {
		return false
	}
	*va = VerticalAlign{Keyword: VALength, Length: l}
	return true
}

// bgPos reads one layer's background-position-x or -y.
func (st *state) bgPos(v []tok, x bool) (Length, bool) {
	if len(v) == 0 || len(v) > 2 {
		return Length{}, false
	}
	edge := func(k string) (float64, bool) {
		switch k {
		case "center":
			return 50, true
		case "left", "x-start":
			return 0, x
		case "right", "x-end":
			return 100, x
		case "top", "y-start":
			return 0, !x
		case "bottom", "y-end":
			return 100, !x
		}
		return 0, false
	}
	if v[0].kind == tIdent {
		pct, ok := edge(v[0].k)
		if !ok {
			return Length{}, false
		}
		if len(v) == 1 {
			return Length{V: pct, Unit: Percent}, true
		}
		if v[0].k == "center" {
			return Length{}, false
		}
		off, ok := st.lengthOf(v[1:], allowPct|allowNegative)
		if !ok {
			return Length{}, false
		}
		if off.Unit == Percent {
			if pct == 0 {
				return Length{V: off.V, Unit: Percent, Off: off.Off}, true
			}
			return Length{V: 100 - off.V, Unit: Percent, Off: -off.Off}, true
		}
		if pct == 0 {
			return off, true
		}
		return Length{V: 100, Unit: Percent, Off: -off.V}, true
	}
	if len(v) != 1 {
		return Length{}, false
	}
	return st.lengthOf(v, allowPct|allowNegative)
}

// applyBgImage sets background-image: the first layer's url; gradients
// and further image layers are reported.
func (st *state) applyBgImage(v []tok) bool {
	b := &st.c.Background
	b.Gradient = nil
	img := ""
	n := 0
	for i, rest := 0, v; rest != nil; i++ {
		layer := firstLayer(rest)
		rest = nextLayers(rest, len(layer))
		if len(layer) != 1 {
			return false
		}
		t := &layer[0]
		switch {
		case t.isIdent("none"):
		case t.kind == tURL:
			n++
			if i == 0 || img == "" {
				img = t.s
			}
		case t.kind == tFunc && isImageFunc(t.k):
			n++
			if g, ok := st.linearGradient(t); ok && i == 0 && len(rest) == 0 && !st.isRootOrBody() {
				b.Gradient = g // painted; others are reported below
			}
			if !strings.Contains(t.k, "gradient") {
				st.report("css:background-image")
			}
		default:
			return false
		}
	}
	b.Image = img
	if n != 1 || img != "" {
		b.Gradient = nil
	}
	// A gradient phantom does not paint (transparent stops, radial,
	// several layers, on the root) goes to Chromium.
	st.a.gradient = b.Gradient == nil && hasGradient(v)
	st.a.bgLayers = n > 1
	return true
}

// parseCounters reads counter-reset, -increment or -set.
func parseCounters(v []tok, def int) ([]Counter, bool) {
	if kw1(v) == "none" {
		return nil, true
	}
	var out []Counter
	for i := 0; i < len(v); i++ {
		t := &v[i]
		name := ""
		switch {
		case t.kind == tIdent && !isWideKeyword(t.k) && t.k != "none":
			name = t.s
		case t.kind == tFunc && t.k == "reversed" && len(t.args) == 1 && t.args[0].kind == tIdent:
			name = t.args[0].s
		default:
			return nil, false
		}
		val := def
		if i+1 < len(v) && v[i+1].kind == tNumber {
			n := v[i+1].n
			if n != math.Trunc(n) {
				return nil, false
			}
			val = int(math.Max(math.Min(n, math.MaxInt32), math.MinInt32))
			i++
		}
		if len(out) < 64 {
			out = append(out, Counter{Name: name, Value: val})
		}
	}
	return out, true
}

// parseContent reads the content property.
func (st *state) parseContent(v []tok) ([]ContentItem, bool, bool) {
	switch kw1(v) {
	case "normal", "none":
		return nil, true, true
	}
	// "content: x / alt": the alternative text is for accessibility only.
	for i := range v {
		if v[i].isDelim("/") {
			v = v[:i]
			break
		}
	}
	var items []ContentItem
	for i := range v {
		t := &v[i]
		switch {
		case t.kind == tString:
			items = append(items, ContentItem{Kind: ContentString, Text: t.s})
		case t.kind == tURL:
			items = append(items, ContentItem{Kind: ContentURL, Text: t.s})
		case t.isIdent("open-quote"):
			items = append(items, ContentItem{Kind: ContentOpenQuote})
		case t.isIdent("close-quote"):
			items = append(items, ContentItem{Kind: ContentCloseQuote})
		case t.isIdent("no-open-quote"):
			items = append(items, ContentItem{Kind: ContentNoOpenQuote})
		case t.isIdent("no-close-quote"):
			items = append(items, ContentItem{Kind: ContentNoCloseQuote})
		case t.kind == tFunc && t.k == "counter":
			parts := splitCommas(t.args)
			if len(parts) < 1 || len(parts) > 2 || len(parts[0]) != 1 || parts[0][0].kind != tIdent {
				return nil, false, false
			}
			style := "decimal"
			if len(parts) == 2 {
				if len(parts[1]) != 1 || parts[1][0].kind != tIdent {
					return nil, false, false
				}
				style = parts[1][0].k
			}
			items = append(items, ContentItem{Kind: ContentCounter, Name: parts[0][0].s, Style: style})
		case t.kind == tFunc && t.k == "counters":
			parts := splitCommas(t.args)
			if len(parts) < 2 || len(parts) > 3 || len(parts[0]) != 1 || parts[0][0].kind != tIdent ||
				len(parts[1]) != 1 || parts[1][0].kind != tString {
				return nil, false, false
			}
			style := "decimal"
			if len(parts) == 3 {
				if len(parts[2]) != 1 || parts[2][0].kind != tIdent {
					return nil, false, false
				}
				style = parts[2][0].k
			}
			items = append(items, ContentItem{Kind: ContentCounters, Name: parts[0][0].s, Sep: parts[1][0].s, Style: style})
		case t.kind == tFunc && t.k == "attr":
			if len(t.args) < 1 || t.args[0].kind != tIdent {
				return nil, false, false
			}
			items = append(items, ContentItem{Kind: ContentAttr, Name: t.args[0].k})
		case t.kind == tFunc && isImageFunc(t.k):
			st.report("css:content")
		default:
			return nil, false, false
		}
	}
	if len(items) == 0 {
		return nil, false, len(v) > 0
	}
	return items, false, true
}

// parseFamilies reads a font-family list: names as written (quotes
// removed, unquoted words joined by one space), generic names lower-case.
func parseFamilies(v []tok) []string {
	var out []string
	for rest := v; rest != nil; {
		part := firstLayer(rest)
		rest = nextLayers(rest, len(part))
		if len(part) == 0 {
			return nil
		}
		if len(part) == 1 && part[0].kind == tString {
			out = append(out, part[0].s)
			continue
		}
		var b strings.Builder
		for i := range part {
			if part[i].kind != tIdent {
				return nil
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(part[i].s)
		}
		name := b.String()
		if len(part) == 1 {
			switch part[0].k {
			case "serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif",
				"ui-sans-serif", "ui-monospace", "ui-rounded", "math", "emoji", "fangsong", "-webkit-body",
				"-webkit-pictograph":
				name = part[0].k
			case "inherit", "initial", "unset", "default", "revert", "revert-layer":
				return nil
			}
		}
		out = append(out, name)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Box alignment keywords: contentAligns are justify-content's and
// align-content's, selfAligns align-items' and align-self's.
var (
	contentAligns = map[string]AxisAlign{"normal": AxNormal, "stretch": AxStretch, "flex-start": AxFlexStart,
		"flex-end": AxFlexEnd, "start": AxStart, "end": AxEnd, "left": AxLeft, "right": AxRight, "center": AxCenter,
		"space-between": AxSpaceBetween, "space-around": AxSpaceAround, "space-evenly": AxSpaceEvenly,
		"baseline": AxBaseline}
	selfAligns = map[string]AxisAlign{"normal": AxNormal, "stretch": AxStretch, "flex-start": AxFlexStart,
		"flex-end": AxFlexEnd, "start": AxStart, "end": AxEnd, "self-start": AxSelfStart, "self-end": AxSelfEnd,
		"center": AxCenter, "baseline": AxBaseline}
)

// parseAxisAlign reads a box alignment value: a keyword of kws, after
// safe or unsafe for a positional one, or first or last baseline.
func parseAxisAlign(v []tok, kws map[string]AxisAlign) (AxisAlign, bool) {
	for _, t := range v {
		if t.kind != tIdent {
			return 0, false
		}
	}
	switch len(v) {
	case 1:
		a, ok := kws[v[0].k]
		return a, ok
	case 2:
		switch v[0].k {
		case "first", "last":
			if v[1].k != "baseline" {
				return 0, false
			}
			if v[0].k == "last" {
				return AxLastBaseline, true
			}
			return AxBaseline, true
		case "safe", "unsafe":
			a, ok := kws[v[1].k]
			switch a {
			case AxNormal, AxStretch, AxBaseline, AxSpaceBetween, AxSpaceAround, AxSpaceEvenly:
				return 0, false
			}
			return a, ok
		}
	}
	return 0, false
}

// numericKeywords are font-variant-numeric's values, and the group of
// values each excludes the others of.
var numericKeywords = map[string][2]NumericVariant{
	"lining-nums": {NumLining, NumLining | NumOldstyle}, "oldstyle-nums": {NumOldstyle, NumLining | NumOldstyle},
	"proportional-nums": {NumProportional, NumProportional | NumTabular}, "tabular-nums": {NumTabular, NumProportional | NumTabular},
	"diagonal-fractions": {NumDiagonalFractions, NumDiagonalFractions | NumStackedFractions},
	"stacked-fractions":  {NumStackedFractions, NumDiagonalFractions | NumStackedFractions},
	"ordinal":            {NumOrdinal, NumOrdinal}, "slashed-zero": {NumSlashedZero, NumSlashedZero},
}

// parseNumericVariant reads font-variant-numeric: normal, or at most one
// value of each group in any order.
func parseNumericVariant(v []tok) (NumericVariant, bool) {
	if kw1(v) == "normal" {
		return 0, true
	}
	var n NumericVariant
	for i := range v {
		if v[i].kind != tIdent {
			return 0, false
		}
		k, ok := numericKeywords[v[i].k]
		if !ok || n&k[1] != 0 {
			return 0, false
		}
		n |= k[0]
	}
	return n, len(v) > 0
}

// parseFeatureSettings reads font-feature-settings: normal, or a list of
// "tag" [integer | on | off]. It returns the numeric features turned on
// (those font-variant-numeric also names) and whether any other feature is
// set, which phantom does not shape.
func parseFeatureSettings(v []tok) (n NumericVariant, ok, other bool) {
	if kw1(v) == "normal" {
		return 0, true, false
	}
	for _, part := range splitCommas(v) {
		if len(part) == 0 || len(part) > 2 || part[0].kind != tString || len(part[0].s) != 4 {
			return 0, false, false
		}
		on := true
		if len(part) == 2 {
			switch {
			case part[1].isIdent("on"):
			case part[1].isIdent("off"):
				on = false
			case part[1].kind == tNumber && part[1].n >= 0 && part[1].n == math.Trunc(part[1].n):
				on = part[1].n != 0
			default:
				return 0, false, false
			}
		}
		bit := -1
		for i, name := range numericFeatureTags {
			if part[0].s == name {
				bit = i
			}
		}
		switch {
		case bit < 0:
			other = true
		case on:
			n |= 1 << bit
		}
	}
	return n, true, other
}

// numericFeatureTags are the OpenType features of NumericVariant's bits, in
// fonts.NumericFeatures' order.
var numericFeatureTags = [8]string{"lnum", "onum", "pnum", "tnum", "frac", "afrc", "ordn", "zero"}

// hasGradient reports whether a background-image value has a gradient.
func hasGradient(v []tok) bool {
	for i := range v {
		if v[i].kind == tFunc && strings.Contains(v[i].k, "gradient") {
			return true
		}
	}
	return false
}
