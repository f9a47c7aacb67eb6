package style

import (
	"math"
)

// lenCtx is what resolving a length needs: the font size em refers to, the
// root's for rem, the page for vw and vh, and the font for ex and ch.
type lenCtx struct {
	em, rem      float64
	vw, vh       float64 // 1vw and 1vh in px
	exFn         func() (ex, ch float64)
	ex, ch       float64
	exDone       bool
	fontRelative bool // set when a font-relative unit was used (font-size's absoluteness)
	mathFn       bool // set when a math function was used
	// unresolved is set when a math function is valid but compares a
	// percentage with a length, which phantom cannot resolve before layout.
	unresolved bool
	// viewport, when set, is set when a viewport unit is used.
	viewport *bool
}

func (lc *lenCtx) exch() (float64, float64) {
	if !lc.exDone {
		lc.exDone = true
		if lc.exFn != nil {
			lc.ex, lc.ch = lc.exFn()
		} else {
			lc.ex, lc.ch = lc.em/2, lc.em/2
		}
	}
	return lc.ex, lc.ch
}

// unitPx converts n of unit u to px; ok is false for an unknown unit.
func (lc *lenCtx) unitPx(n float64, u string) (float64, bool) {
	switch u {
	case "px":
		return n, true
	case "pt":
		return n * 96 / 72, true
	case "pc":
		return n * 16, true
	case "in":
		return n * 96, true
	case "cm":
		return n * 96 / 2.54, true
	case "mm":
		return n * 96 / 25.4, true
	case "q":
		return n * 96 / 101.6, true
	case "em", "__qem":
		lc.fontRelative = true
		return n * lc.em, true
	case "rem":
		return n * lc.rem, true
	case "ex":
		lc.fontRelative = true
		ex, _ := lc.exch()
		return n * ex, true
	case "ch":
		lc.fontRelative = true
		_, ch := lc.exch()
		return n * ch, true
	case "rex", "rch":
		return n * lc.rem / 2, true
	case "cap":
		lc.fontRelative = true
		return n * lc.em * 0.7, true
	case "ic":
		lc.fontRelative = true
		return n * lc.em, true
	case "lh", "rlh":
		lc.fontRelative = true
		return n * lc.em * 1.2, true
	case "vw", "svw", "lvw", "dvw", "vi", "svi", "lvi", "dvi", "vh", "svh", "lvh", "dvh", "vb", "svb", "lvb", "dvb",
		"vmin", "svmin", "lvmin", "dvmin", "vmax", "svmax", "lvmax", "dvmax":
		if lc.viewport != nil {
			*lc.viewport = true
		}
	}
	switch u {
	case "vw", "svw", "lvw", "dvw", "vi", "svi", "lvi", "dvi":
		return n * lc.vw, true
	case "vh", "svh", "lvh", "dvh", "vb", "svb", "lvb", "dvb":
		return n * lc.vh, true
	case "vmin", "svmin", "lvmin", "dvmin":
		return n * math.Min(lc.vw, lc.vh), true
	case "vmax", "svmax", "lvmax", "dvmax":
		return n * math.Max(lc.vw, lc.vh), true
	}
	return 0, false
}

// calcVal is the value of a math expression: px + pct% (+ a plain number
// when num is set, for unitless expressions).
type calcVal struct {
	px, pct float64
	hasPct  bool
	num     float64
	isNum   bool
}

// maxCalcDepth bounds nested math functions and parentheses.
const maxCalcDepth = 16

// calc evaluates the arguments of calc(), min(), max() or clamp(). ok is
// false for a syntax error or a form that cannot be resolved at compute
// time (a comparison between percentages and lengths).
func (lc *lenCtx) calc(fn string, args []tok, depth int) (calcVal, bool) {
	lc.mathFn = true
	if depth > maxCalcDepth {
		return calcVal{}, false
	}
	switch fn {
	case "calc", "-webkit-calc":
		return lc.sum(args, depth)
	case "min", "max":
		var best calcVal
		for i, part := range splitCommas(args) {
			v, ok := lc.sum(part, depth)
			if ok && v.hasPct {
				lc.unresolved = true
			}
			if !ok || v.hasPct {
				return calcVal{}, false
			}
			if i == 0 || fn == "min" && lc.less(v, best) || fn == "max" && lc.less(best, v) {
				best = v
			}
		}
		return best, true
	case "clamp":
		parts := splitCommas(args)
		if len(parts) != 3 {
			return calcVal{}, false
		}
		var vs [3]calcVal
		for i, part := range parts {
			v, ok := lc.sum(part, depth)
			if ok && v.hasPct {
				lc.unresolved = true
			}
			if !ok || v.hasPct {
				return calcVal{}, false
			}
			vs[i] = v
		}
		v := vs[1]
		if lc.less(vs[2], v) {
			v = vs[2]
		}
		if lc.less(v, vs[0]) {
			v = vs[0]
		}
		return v, true
	}
	return calcVal{}, false
}

func (lc *lenCtx) less(a, b calcVal) bool {
	if a.isNum {
		return a.num < b.num
	}
	return a.px < b.px
}

// sum evaluates "product (('+'|'-') product)*"; CSS requires whitespace
// around + and -, so they always arrive as delimiters.
func (lc *lenCtx) sum(ts []tok, depth int) (calcVal, bool) {
	var acc calcVal
	sign := 1.0
	i := 0
	for first := true; ; first = false {
		j := i
		for j < len(ts) && !ts[j].isDelim("+") && !ts[j].isDelim("-") {
			j++
		}
		if j == i {
			return calcVal{}, false
		}
		v, ok := lc.product(ts[i:j], depth)
		if !ok {
			return calcVal{}, false
		}
		if first {
			acc = v
		} else {
			if acc.isNum != v.isNum {
				return calcVal{}, false
			}
			acc.px += sign * v.px
			acc.pct += sign * v.pct
			acc.num += sign * v.num
			acc.hasPct = acc.hasPct || v.hasPct
		}
		if j == len(ts) {
			return acc, true
		}
		sign = 1
		if ts[j].isDelim("-") {
			sign = -1
		}
		i = j + 1
	}
}

// product evaluates "value (('*'|'/') value)*".
func (lc *lenCtx) product(ts []tok, depth int) (calcVal, bool) {
	v, ok := lc.calcValue(&ts[0], depth)
	if !ok {
		return calcVal{}, false
	}
	for i := 1; i < len(ts); i += 2 {
		if i+1 >= len(ts) {
			return calcVal{}, false
		}
		w, ok := lc.calcValue(&ts[i+1], depth)
		if !ok {
			return calcVal{}, false
		}
		switch {
		case ts[i].isDelim("*"):
			switch {
			case v.isNum:
				w.px *= v.num
				w.pct *= v.num
				w.num *= v.num
				v = w
			case w.isNum:
				v.px *= w.num
				v.pct *= w.num
			default:
				return calcVal{}, false
			}
		case ts[i].isDelim("/"):
			if !w.isNum || w.num == 0 {
				return calcVal{}, false
			}
			v.px /= w.num
			v.pct /= w.num
			v.num /= w.num
		default:
			return calcVal{}, false
		}
	}
	return v, true
}

func (lc *lenCtx) calcValue(t *tok, depth int) (calcVal, bool) {
	switch t.kind {
	case tNumber:
		return calcVal{num: t.n, isNum: true}, true
	case tPercent:
		return calcVal{pct: t.n, hasPct: true}, true
	case tDim:
		px, ok := lc.unitPx(t.n, t.k)
		return calcVal{px: px}, ok
	case tParen:
		if t.s != "(" {
			return calcVal{}, false
		}
		return lc.sum(t.args, depth+1)
	case tFunc:
		return lc.calc(t.k, t.args, depth+1)
	case tIdent:
		switch t.k {
		case "pi":
			return calcVal{num: math.Pi, isNum: true}, true
		case "e":
			return calcVal{num: math.E, isNum: true}, true
		}
	}
	return calcVal{}, false
}

// isMath reports whether t is a math function phantom evaluates.
func isMath(t *tok) bool {
	if t.kind != tFunc {
		return false
	}
	switch t.k {
	case "calc", "-webkit-calc", "min", "max", "clamp":
		return true
	}
	return false
}

// lengthFlags say what a length value may be.
type lengthFlags uint8

const (
	allowPct      lengthFlags = 1 << iota
	allowNegative             // negative values allowed
	allowNumber0              // unitless 0 (always, except where numbers mean something else)
	allowUnitless             // quirky unitless lengths (presentational attributes)
)

// length parses one length or percentage. calcErr is set when the value is
// a math function phantom cannot resolve at compute time (it is reported).
func (lc *lenCtx) length(t *tok, f lengthFlags) (l Length, ok bool, calcErr bool) {
	switch t.kind {
	case tNumber:
		if t.n == 0 || f&allowUnitless != 0 {
			return Length{V: t.n}, true, false
		}
	case tDim:
		px, ok := lc.unitPx(t.n, t.k)
		if !ok || (px < 0 && f&allowNegative == 0) {
			return Length{}, false, false
		}
		return Length{V: clampPx(px)}, true, false
	case tPercent:
		if f&allowPct == 0 || (t.n < 0 && f&allowNegative == 0) {
			return Length{}, false, false
		}
		return Length{V: t.n, Unit: Percent}, true, false
	case tFunc:
		if !isMath(t) {
			return Length{}, false, false
		}
		lc.unresolved = false
		v, ok := lc.calc(t.k, t.args, 0)
		if !ok {
			return Length{}, false, lc.unresolved
		}
		if v.isNum {
			if v.num == 0 {
				return Length{}, true, false
			}
			return Length{}, false, false
		}
		if f&allowNegative == 0 {
			// Math results clamp to the allowed range rather than fail.
			if v.px < 0 && !v.hasPct {
				v.px = 0
			}
		}
		if v.hasPct {
			if f&allowPct == 0 {
				return Length{}, false, false
			}
			return Length{V: v.pct, Unit: Percent, Off: clampPx(v.px)}, true, false
		}
		return Length{V: clampPx(v.px)}, true, false
	}
	return Length{}, false, false
}

// clampPx keeps a length finite and within what layout can add up.
func clampPx(v float64) float64 {
	const lim = 1 << 25
	switch {
	case math.IsNaN(v):
		return 0
	case v > lim:
		return lim
	case v < -lim:
		return -lim
	}
	return v
}

// number parses a plain number (or a math function resolving to one).
func (lc *lenCtx) number(t *tok) (float64, bool) {
	switch t.kind {
	case tNumber:
		return clampPx(t.n), true
	case tFunc:
		if isMath(t) {
			v, ok := lc.calc(t.k, t.args, 0)
			if ok && v.isNum {
				return clampPx(v.num), true
			}
		}
	}
	return 0, false
}
