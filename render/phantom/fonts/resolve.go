package fonts

import (
	"strings"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/style"
)

// Query is a font as CSS asks for it.
type Query struct {
	// Families is the CSS font-family list as written (generic names
	// lower-case).
	Families []string
	// Weight is 100..900.
	Weight  int
	Style   style.FontStyle
	Stretch float64 // percent, 100 normal
}

// Resolved is the face a query resolves to, with what Blink synthesises
// when the family has no face of the asked weight or slope.
type Resolved struct {
	Font *draw.Font
	// Family is the family name of the face.
	Family     string
	FakeBold   bool
	FakeItalic bool
	face       *face
}

// resolution is the cached answer for one query: the primary face, and the
// face of each family of the list that resolved (for per-character
// fallback, which walks the list before asking the system).
type resolution struct {
	primary *Resolved
	chain   []*Resolved
}

type resolveKey struct {
	families string
	weight   int
	style    style.FontStyle
	stretch  float64
}

// Blink's generic family settings on Linux (chrome/app/resources/
// locale_settings_linux.grd): what each CSS generic family asks fontconfig.
var genericFamilies = map[string]string{
	"serif":            "Times New Roman",
	"sans-serif":       "Arial",
	"monospace":        "Monospace",
	"cursive":          "Comic Sans MS",
	"fantasy":          "Impact",
	"system-ui":        "sans",
	"-webkit-body":     "Times New Roman",
	"-webkit-standard": "Times New Roman",
}

// Resolve returns the face Chromium would use for the first available
// family of q (or its default font).
func (l *Library) Resolve(q Query) Resolved {
	return *l.resolve(q).primary
}

func (l *Library) resolve(q Query) resolution {
	q = normQuery(q)
	key := resolveKey{strings.Join(q.Families, "\x00"), q.Weight, q.Style, q.Stretch}
	l.mu.Lock()
	r, ok := l.resolved[key]
	l.mu.Unlock()
	if ok {
		return r
	}
	r = l.resolveUncached(q)
	l.mu.Lock()
	if len(l.resolved) > 4096 {
		clear(l.resolved)
	}
	l.resolved[key] = r
	l.mu.Unlock()
	return r
}

func normQuery(q Query) Query {
	if q.Weight <= 0 {
		q.Weight = 400
	}
	if q.Weight > 1000 {
		q.Weight = 1000
	}
	if q.Stretch <= 0 {
		q.Stretch = 100
	}
	return q
}

func (l *Library) resolveUncached(q Query) resolution {
	var r resolution
	for _, fam := range q.Families {
		if res, ok := l.resolveFamily(fam, q); ok {
			r.chain = append(r.chain, res)
		}
	}
	// Blink appends the standard font after the list.
	if res, ok := l.resolveFamily("-webkit-standard", q); ok {
		r.chain = append(r.chain, res)
	}
	if len(r.chain) == 0 {
		for _, fam := range []string{"sans", "Arial", "Times New Roman", "Courier New"} {
			if res, ok := l.resolveFamily(fam, q); ok {
				r.chain = append(r.chain, res)
				break
			}
		}
	}
	if len(r.chain) == 0 {
		fc := l.faces[0]
		r.chain = append(r.chain, l.intern(l.synth(fc, q)))
	}
	r.primary = r.chain[0]
	return r
}

// resolveFamily resolves one family of a CSS list as Blink does: generic
// names through the browser's settings, then fontconfig, accepting its
// answer only when it is that family or a metric-compatible one, then
// Blink's alternate name (Arial and Helvetica, Times and Times New Roman,
// Courier and Courier New).
func (l *Library) resolveFamily(fam string, q Query) (*Resolved, bool) {
	name := fam
	if g, ok := genericFamilies[fam]; ok {
		name = g
	}
	if fc := l.matchFamily(name, q); fc != nil {
		return l.intern(l.synth(fc, q)), true
	}
	if alt := alternateFamily(name); alt != "" {
		if fc := l.matchFamily(alt, q); fc != nil {
			return l.intern(l.synth(fc, q)), true
		}
	}
	return nil, false
}

// synth fills in Blink's synthetic bold and italic for face fc used for q:
// bold is synthesised when 600 or more is asked and the face is lighter
// than 600, italic when italic is asked of an upright face.
func (l *Library) synth(fc *face, q Query) Resolved {
	_ = fc.load()
	r := Resolved{Font: fc.font, Family: fc.info.families[0], face: fc}
	r.FakeBold = q.Weight >= 600 && fc.weight < 600
	r.FakeItalic = q.Style == style.FontItalic && fc.slant == 0
	return r
}

func alternateFamily(name string) string {
	switch foldFamily(name) {
	case "courier":
		return "Courier New"
	case "couriernew":
		return "Courier"
	case "times":
		return "Times New Roman"
	case "timesnewroman":
		return "Times"
	case "arial":
		return "Helvetica"
	case "helvetica":
		return "Arial"
	}
	return ""
}

// matchFamily is Skia's SkFontConfigInterfaceDirect::matchFamilyName: ask
// fontconfig for the best face for name and the style, and accept it only
// if it is what was asked.
func (l *Library) matchFamily(name string, q Query) *face {
	fams := l.cfg.substitute(name)
	best, bestScore := (*face)(nil), score{}
	for _, fc := range l.faces {
		s := l.score(fc, fams, q)
		if best == nil || s.less(bestScore) {
			best, bestScore = fc, s
		}
	}
	if best == nil || bestScore.family >= 1e9 {
		return nil
	}
	if fallbackAllowed(name) {
		return best
	}
	post := fams[0].name
	for _, f := range best.info.families {
		if strings.EqualFold(f, post) || strings.EqualFold(f, name) || metricCompatible(name, f) {
			return best
		}
	}
	return nil
}

// fallbackAllowed is Skia's IsFallbackFontAllowed: the generic fontconfig
// names accept whatever fontconfig answers.
func fallbackAllowed(name string) bool {
	switch strings.ToLower(name) {
	case "", "sans", "serif", "monospace":
		return true
	}
	return false
}

// metricCompatible is Skia's IsMetricCompatibleReplacement.
func metricCompatible(a, b string) bool {
	ca, cb := equivClass(a), equivClass(b)
	return ca != 0 && ca == cb
}

func equivClass(name string) int {
	switch foldFamily(name) {
	case "arial", "arimo", "liberationsans":
		return 1
	case "timesnewroman", "tinos", "liberationserif":
		return 2
	case "couriernew", "cousine", "liberationmono":
		return 3
	case "symbol", "symbolneu":
		return 4
	case "arialnarrow", "liberationsansnarrow":
		return 5
	case "calibri", "carlito":
		return 6
	case "cambria", "caladea":
		return 7
	}
	return 0
}

// score is a face's distance from a pattern, compared in fontconfig's
// priority order.
type score struct {
	family        float64
	slant, weight float64
	width         float64
	order         int
}

func (a score) less(b score) bool {
	switch {
	case a.family != b.family:
		return a.family < b.family
	case a.slant != b.slant:
		return a.slant < b.slant
	case a.weight != b.weight:
		return a.weight < b.weight
	case a.width != b.width:
		return a.width < b.width
	}
	return a.order < b.order
}

func (l *Library) score(fc *face, fams []fcFamily, q Query) score {
	s := score{family: 1e9, order: fc.order}
	for i, f := range fams {
		k := foldFamily(f.name)
		for _, ff := range fc.info.families {
			if foldFamily(ff) == k {
				s.family = float64(i)
				break
			}
		}
		if s.family < 1e9 {
			break
		}
	}
	want := 0
	switch q.Style {
	case style.FontItalic:
		want = 100
	case style.FontOblique:
		want = 110
	}
	s.slant = abs(float64(want - fc.slant))
	s.weight = abs(skWeightToFc(q.Weight) - fc.fcWeight)
	s.width = abs(q.Stretch - fc.width)
	return s
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// skWeightToFc is Skia's mapping of a CSS weight onto fontconfig's scale
// (fcpattern_from_skfontstyle).
func skWeightToFc(w int) float64 {
	return interp(float64(w), skWeights[:], skFcWeights[:])
}

var (
	skWeights   = [...]float64{0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000}
	skFcWeights = [...]float64{0, 0, 40, 50, 80, 100, 180, 200, 205, 210, 215}
)
