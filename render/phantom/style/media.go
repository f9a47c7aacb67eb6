package style

import (
	"strings"

	"github.com/tdewolff/parse/v2/css"
)

// mediaList is a parsed media query list: it holds when any query does.
type mediaList struct {
	queries []mediaQuery
}

// mediaQuery is "[not|only] type [and (feature)]*" or a condition alone.
type mediaQuery struct {
	not      bool
	typeOK   bool // the media type matches print (print, all, or none given)
	features []mediaFeature
	invalid  bool // an unparsable query never matches
}

// mediaFeature is one "(name: value)" or "(name)" test, or a range
// "(width >= 600px)".
type mediaFeature struct {
	name  string
	op    string // "", ":", "<", "<=", ">", ">=", "="
	value []tok
	not   bool
}

// parseMediaList parses the prelude of @media (or a media attribute).
func parseMediaList(vals []css.Token) mediaList {
	i := 0
	ts := lexToks(vals, &i, 0, false)
	return parseMediaToks(ts)
}

func parseMediaToks(ts []tok) mediaList {
	var ml mediaList
	if len(ts) == 0 {
		return mediaList{queries: []mediaQuery{{typeOK: true}}}
	}
	for _, part := range splitCommas(ts) {
		ml.queries = append(ml.queries, parseMediaQuery(part))
	}
	return ml
}

func parseMediaQuery(ts []tok) mediaQuery {
	q := mediaQuery{typeOK: true}
	i := 0
	if i < len(ts) && ts[i].kind == tIdent && (ts[i].k == "not" || ts[i].k == "only") {
		q.not = ts[i].k == "not"
		i++
	}
	if i < len(ts) && ts[i].kind == tIdent && ts[i].k != "and" {
		switch ts[i].k {
		case "print", "all":
		default:
			q.typeOK = false
		}
		i++
		if i < len(ts) && !ts[i].isIdent("and") {
			q.invalid = true
			return q
		}
	} else if q.not && i < len(ts) && ts[i].kind == tParen {
		// "not (feature)": a negated condition without a type.
	}
	for ; i < len(ts); i++ {
		t := &ts[i]
		switch {
		case t.isIdent("and"):
		case t.kind == tIdent && t.k == "not" && i+1 < len(ts) && ts[i+1].kind == tParen:
			f, ok := parseMediaFeature(ts[i+1].args)
			if !ok {
				q.invalid = true
			}
			f.not = true
			q.features = append(q.features, f)
			i++
		case t.kind == tParen && t.s == "(":
			f, ok := parseMediaFeature(t.args)
			if !ok {
				q.invalid = true
			}
			q.features = append(q.features, f)
		default:
			q.invalid = true // "or" and other forms: phantom treats as not matching
		}
	}
	return q
}

func parseMediaFeature(ts []tok) (mediaFeature, bool) {
	if len(ts) == 0 {
		return mediaFeature{}, false
	}
	if len(ts) == 1 && ts[0].kind == tIdent {
		return mediaFeature{name: ts[0].k}, true
	}
	if ts[0].kind == tIdent && len(ts) >= 3 && ts[1].isDelim(":") {
		return mediaFeature{name: ts[0].k, op: ":", value: ts[2:]}, true
	}
	// Range syntax: "width >= 600px" or "600px <= width".
	for j := 1; j < len(ts); j++ {
		if ts[j].kind != tDelim {
			continue
		}
		op := ts[j].s
		k := j + 1
		if (op == "<" || op == ">") && k < len(ts) && ts[k].isDelim("=") && !ts[k].ws {
			op += "="
			k++
		}
		if op != "<" && op != ">" && op != "<=" && op != ">=" && op != "=" {
			continue
		}
		left, right := ts[:j], ts[k:]
		if len(left) == 1 && left[0].kind == tIdent {
			return mediaFeature{name: left[0].k, op: op, value: right}, true
		}
		if len(right) == 1 && right[0].kind == tIdent {
			// "600px < width" is "width > 600px".
			flip := map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}
			return mediaFeature{name: right[0].k, op: flip[op], value: left}, true
		}
		return mediaFeature{}, false
	}
	return mediaFeature{}, false
}

// eval evaluates a media list for a printed page of w × h px.
func (ml *mediaList) eval(w, h float64) bool {
	for i := range ml.queries {
		if ml.queries[i].eval(w, h) {
			return true
		}
	}
	return false
}

func (q *mediaQuery) eval(w, h float64) bool {
	if q.invalid {
		return false
	}
	ok := q.typeOK
	for i := range q.features {
		if !ok {
			break
		}
		r := q.features[i].eval(w, h)
		if q.features[i].not {
			r = !r
		}
		ok = r
	}
	if q.not {
		return !ok
	}
	return ok
}

func (f *mediaFeature) eval(w, h float64) bool {
	lc := lenCtx{em: 16, rem: 16, vw: w / 100, vh: h / 100}
	num := func() (float64, bool) {
		if len(f.value) != 1 {
			return 0, false
		}
		if l, ok, _ := lc.length(&f.value[0], 0); ok {
			return l.V, true
		}
		return 0, false
	}
	cmp := func(have float64, op string) bool {
		v, ok := num()
		if !ok {
			return false
		}
		const eps = 1e-6
		switch op {
		case ":", "=":
			return have > v-eps && have < v+eps
		case "<":
			return have < v-eps
		case "<=":
			return have <= v+eps
		case ">":
			return have > v+eps
		case ">=":
			return have >= v-eps
		}
		return false
	}
	name := strings.TrimPrefix(f.name, "-webkit-")
	switch name {
	case "width", "device-width":
		if f.op == "" {
			return w > 0
		}
		return cmp(w, f.op)
	case "height", "device-height":
		if f.op == "" {
			return h > 0
		}
		return cmp(h, f.op)
	case "min-width", "min-device-width":
		return cmp(w, ">=")
	case "max-width", "max-device-width":
		return cmp(w, "<=")
	case "min-height", "min-device-height":
		return cmp(h, ">=")
	case "max-height", "max-device-height":
		return cmp(h, "<=")
	case "orientation":
		if len(f.value) != 1 {
			return false
		}
		if f.value[0].isIdent("portrait") {
			return h >= w
		}
		return f.value[0].isIdent("landscape") && w > h
	case "color", "min-color":
		if f.op == "" {
			return true
		}
		v, ok := num()
		return ok && v <= 8
	case "monochrome", "min-monochrome", "max-monochrome", "grid", "inverted-colors", "forced-colors",
		"prefers-reduced-transparency", "prefers-contrast":
		if f.op == "" {
			return false
		}
		return len(f.value) == 1 && (f.value[0].isIdent("none") || f.value[0].isIdent("no-preference") || f.value[0].k == "0" || f.value[0].kind == tNumber && f.value[0].n == 0)
	case "prefers-color-scheme":
		return len(f.value) == 1 && f.value[0].isIdent("light")
	case "prefers-reduced-motion":
		return len(f.value) == 1 && f.value[0].isIdent("no-preference")
	case "hover", "any-hover", "pointer", "any-pointer":
		if f.op == "" {
			return false
		}
		return len(f.value) == 1 && f.value[0].isIdent("none")
	case "scripting":
		return len(f.value) == 1 && f.value[0].isIdent("none")
	case "update":
		return len(f.value) == 1 && f.value[0].isIdent("none")
	case "overflow-block":
		return len(f.value) == 1 && f.value[0].isIdent("paged")
	case "overflow-inline":
		return len(f.value) == 1 && f.value[0].isIdent("none")
	case "display-mode":
		return len(f.value) == 1 && f.value[0].isIdent("browser")
	case "aspect-ratio", "min-aspect-ratio", "max-aspect-ratio", "resolution", "min-resolution", "max-resolution",
		"device-pixel-ratio", "min-device-pixel-ratio", "max-device-pixel-ratio":
		return evalRatioOrResolution(name, f.value, w, h)
	}
	return false
}

// evalRatioOrResolution evaluates aspect-ratio (w/h of the page) and
// resolution (a printed page is 1dppx in CSS, as Chromium reports it).
func evalRatioOrResolution(name string, v []tok, w, h float64) bool {
	switch {
	case strings.HasSuffix(name, "aspect-ratio"):
		if len(v) != 3 || v[0].kind != tNumber || !v[1].isDelim("/") || v[2].kind != tNumber || v[2].n == 0 || h == 0 {
			return false
		}
		want, have := v[0].n/v[2].n, w/h
		switch {
		case strings.HasPrefix(name, "min-"):
			return have >= want
		case strings.HasPrefix(name, "max-"):
			return have <= want
		}
		return have == want
	default:
		if len(v) != 1 {
			return false
		}
		var dppx float64
		switch {
		case v[0].kind == tNumber:
			dppx = v[0].n
		case v[0].kind == tDim && (v[0].k == "dppx" || v[0].k == "x"):
			dppx = v[0].n
		case v[0].kind == tDim && v[0].k == "dpi":
			dppx = v[0].n / 96
		case v[0].kind == tDim && v[0].k == "dpcm":
			dppx = v[0].n * 2.54 / 96
		default:
			return false
		}
		switch {
		case strings.HasPrefix(name, "min-"):
			return 1 >= dppx
		case strings.HasPrefix(name, "max-"):
			return 1 <= dppx
		}
		return dppx == 1
	}
}

// evalSupports evaluates an @supports condition the way Chromium would
// for what phantom knows: a declaration test holds when the property is
// one Chromium implements (phantom's own properties, those it reports and
// those it ignores); selector() holds when the selector parses. known is
// false when the condition holds something phantom cannot judge.
func evalSupports(vals []css.Token) (holds, known bool) {
	i := 0
	ts := lexToks(vals, &i, 0, false)
	return supportsCond(ts, 0)
}

func supportsCond(ts []tok, depth int) (bool, bool) {
	if depth > 8 || len(ts) == 0 {
		return false, false
	}
	if ts[0].isIdent("not") {
		if len(ts) != 2 {
			return false, false
		}
		h, k := supportsInParens(&ts[1], depth)
		return !h, k
	}
	h, k := supportsInParens(&ts[0], depth)
	for i := 1; i+1 < len(ts); i += 2 {
		op := &ts[i]
		h2, k2 := supportsInParens(&ts[i+1], depth)
		k = k && k2
		switch {
		case op.isIdent("and"):
			h = h && h2
		case op.isIdent("or"):
			h = h || h2
		default:
			return false, false
		}
	}
	if len(ts)%2 == 0 {
		return false, false
	}
	return h, k
}

func supportsInParens(t *tok, depth int) (bool, bool) {
	switch {
	case t.kind == tParen && t.s == "(":
		a := t.args
		if len(a) >= 2 && a[0].kind == tIdent && a[1].isDelim(":") {
			name := a[0].k
			if strings.HasPrefix(name, "--") {
				return true, true
			}
			if _, ok := longhands[name]; ok {
				return true, true
			}
			if _, ok := shorthands[name]; ok {
				return true, true
			}
			if silentProps[name] || initialValues[name] != nil {
				return true, true
			}
			if _, ok := featureProps[name]; ok {
				return true, true
			}
			return false, false
		}
		return supportsCond(a, depth+1)
	case t.kind == tFunc && t.k == "selector":
		var b strings.Builder
		tokText(&b, t.args)
		return true, false
	}
	return false, false
}
