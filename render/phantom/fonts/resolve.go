package fonts

import (
	"math"
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
	query   Query
	primary *Resolved
	chain   []*Resolved
}

// queryKey is a Query as a map key: the first four families in fields
// (no allocation for the common lists), the rest joined.
type queryKey struct {
	f0, f1, f2, f3 string
	rest           string
	weight         int
	style          style.FontStyle
	stretch        float64
}

func makeQueryKey(q Query) queryKey {
	k := queryKey{weight: q.Weight, style: q.Style, stretch: q.Stretch}
	for i, f := range q.Families {
		switch i {
		case 0:
			k.f0 = f
		case 1:
			k.f1 = f
		case 2:
			k.f2 = f
		case 3:
			k.f3 = f
		default:
			k.rest += "\x00" + f
		}
	}
	return k
}

// genericFamilies are Blink's generic family settings on Linux
// (chrome/app/resources/locale_settings_linux.grd): the family each CSS
// generic name asks fontconfig for. system-ui is Blink's system font,
// fontconfig's "sans" on Linux. Measured on this machine: serif and
// sans-serif print in Liberation Serif and Liberation Sans, monospace and
// system-ui in DejaVu Sans Mono and DejaVu Sans, and cursive and fantasy
// (no Comic Sans MS or Impact) fall through to the standard font.
var genericFamilies = map[string]string{
	"serif":            "Times New Roman",
	"sans-serif":       "Arial",
	"monospace":        "Monospace",
	"cursive":          "Comic Sans MS",
	"fantasy":          "Impact",
	"system-ui":        "sans",
	"-webkit-standard": "Times New Roman",
	"-webkit-body":     "Times New Roman",
}

// standardFamily is Blink's standard font: what the list falls back to.
const standardFamily = "-webkit-standard"

// Resolve returns the face Chromium would use for the first available
// family of q (or its default font).
func (l *Library) Resolve(q Query) Resolved {
	return *l.resolve(normQuery(q)).primary
}

func (l *Library) resolve(q Query) resolution {
	key := makeQueryKey(q)
	l.mu.Lock()
	r, ok := l.resolved[key]
	l.mu.Unlock()
	if ok {
		return r
	}
	r = l.resolveUncached(q)
	l.mu.Lock()
	if len(l.resolved) >= maxResolved {
		clear(l.resolved)
	}
	l.resolved[key] = r
	l.mu.Unlock()
	return r
}

// maxResolved bounds the library's cache of resolved queries.
const maxResolved = 4096

// maxFamilies bounds how many families of one list are tried.
const maxFamilies = 32

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
	if len(q.Families) > maxFamilies {
		q.Families = q.Families[:maxFamilies]
	}
	return q
}

// resolveUncached builds Blink's font fallback list for q: the face of
// each family that resolves, then the standard font; the first is the
// primary font. With none, Blink's last resort (FontCache::
// GetLastResortFallbackFont) tries fontconfig's sans and a few names.
func (l *Library) resolveUncached(q Query) resolution {
	r := resolution{query: q}
	r.query.Families = append([]string(nil), q.Families...)
	for _, fam := range q.Families {
		if ws := l.webFamily(fam, q); ws != nil {
			for _, res := range ws {
				r.chain = appendUnique(r.chain, res)
			}
			continue
		}
		if res := l.resolveFamily(fam, q); res != nil {
			r.chain = appendUnique(r.chain, res)
		}
	}
	if res := l.resolveFamily(standardFamily, q); res != nil {
		r.chain = appendUnique(r.chain, res)
	}
	if len(r.chain) == 0 {
		for _, fam := range []string{"Sans", "Arial", "Times New Roman", "Courier New"} {
			if res := l.resolveFamily(fam, q); res != nil {
				r.chain = append(r.chain, res)
				break
			}
		}
	}
	if len(r.chain) == 0 {
		for _, fc := range l.faces {
			if fc.load() == nil {
				r.chain = append(r.chain, l.synth(fc, q))
				break
			}
		}
	}
	if len(r.chain) == 0 {
		// No face on the machine can be read: an empty face sets nothing.
		r.chain = append(r.chain, l.intern(Resolved{face: &face{lib: l, info: &sfntInfo{unitsPerEm: 1000, families: []string{""}}}}))
	}
	r.primary = r.chain[0]
	if r.primary.face.web != nil {
		// A family split by unicode-range: the primary font is the first
		// whose range holds the space (Blink's
		// FontFallbackList::DeterminePrimarySimpleFontData).
		for _, c := range r.chain {
			if c.face.covers(' ') {
				r.primary = c
				break
			}
		}
	}
	return r
}

func appendUnique(chain []*Resolved, r *Resolved) []*Resolved {
	for _, c := range chain {
		if c == r {
			return chain
		}
	}
	return append(chain, r)
}

// resolveFamily resolves one family of a CSS list as Blink does: generic
// names through the browser's settings, then fontconfig, accepting its
// answer only when it is that family or a metric-compatible one, then
// Blink's alternate name (Arial and Helvetica, Times and Times New Roman,
// Courier and Courier New: FontCache::GetFontPlatformData).
func (l *Library) resolveFamily(fam string, q Query) *Resolved {
	name := fam
	if g, ok := genericFamilies[strings.ToLower(fam)]; ok {
		name = g
	}
	if fc := l.matchFamily(name, q); fc != nil {
		return l.synth(fc, q)
	}
	if alt := alternateFamily(name); alt != "" {
		if fc := l.matchFamily(alt, q); fc != nil {
			return l.synth(fc, q)
		}
	}
	return nil
}

// synth returns the interned Resolved for face fc used for q, with what
// Blink synthesises (FontCache::CreateFontPlatformData on Linux): bold
// when the asked weight is more than 200 above the face's, italic when
// italic or oblique is asked of an upright face. Chromium's PDFs agree:
// OpenSymbol (400) prints faked at 700, not at 600.
func (l *Library) synth(fc *face, q Query) *Resolved {
	_ = fc.load()
	return l.intern(Resolved{
		Font:       fc.font,
		Family:     fc.info.families[0],
		FakeBold:   q.Weight > fc.weight+200,
		FakeItalic: q.Style != style.FontNormal && fc.slant == 0,
		face:       fc,
	})
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

// pattern is the fontconfig pattern Skia builds for a family and q
// (fcpattern_from_skfontstyle).
func (l *Library) pattern(family string, q Query) *fcPattern {
	p := &fcPattern{
		families: l.cfg.substitute(family),
		weight:   skWeightToFc(q.Weight),
		width:    skWidthToFc(q.Stretch),
	}
	switch q.Style {
	case style.FontItalic:
		p.slant = 100
	case style.FontOblique:
		p.slant = 110
	}
	return p
}

// matchFamily is Skia's SkFontConfigInterfaceDirect::matchFamilyName: the
// face fontconfig sorts first for name and the style, accepted only if one
// of its family names is the family fontconfig's configuration put first,
// or the asked name, or metric-compatible with it; generic fontconfig
// names (sans, serif, monospace) accept any answer.
func (l *Library) matchFamily(name string, q Query) *face {
	if len(name) > 2048 {
		return nil
	}
	k := familyKey{name, q.Weight, q.Style, q.Stretch}
	l.mu.Lock()
	fc, ok := l.families[k]
	l.mu.Unlock()
	if ok {
		return fc
	}
	fc = l.matchFamilyUncached(name, q)
	l.mu.Lock()
	if len(l.families) >= maxResolved {
		clear(l.families)
	}
	l.families[k] = fc
	l.mu.Unlock()
	return fc
}

type familyKey struct {
	name    string
	weight  int
	style   style.FontStyle
	stretch float64
}

func (l *Library) matchFamilyUncached(name string, q Query) *face {
	p := l.pattern(name, q)
	best := l.fcBest(p, nil)
	if best == nil || best.load() != nil {
		return nil // a face go-text cannot read is no answer here
	}
	if fallbackAllowed(name) {
		return best
	}
	post := ""
	if len(p.families) > 0 {
		post = p.families[0].name
	}
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

// metricCompatible is Skia's IsMetricCompatibleReplacement
// (GetFontEquivClass), for the families a Linux machine may have.
func metricCompatible(a, b string) bool {
	ca, cb := equivClass(a), equivClass(b)
	return ca != 0 && ca == cb
}

func equivClass(name string) int {
	switch strings.ToLower(name) {
	case "arial", "arimo", "liberation sans":
		return 1
	case "times new roman", "tinos", "liberation serif":
		return 2
	case "courier new", "cousine", "liberation mono":
		return 3
	case "symbol", "symbol neu":
		return 4
	case "cambria", "caladea":
		return 5
	case "calibri", "carlito":
		return 6
	case "ms pgothic", "noto sans cjk jp", "ipapgothic", "motoyag04gothic":
		return 7
	case "ms gothic", "noto sans mono cjk jp", "ipagothic", "motoyag04gothicmono":
		return 8
	case "ms pmincho", "ipapmincho", "motoyag04mincho":
		return 9
	case "ms mincho", "noto serif cjk jp", "ipamincho", "motoyag04minchomono":
		return 10
	case "simsun", "noto serif cjk sc", "msung gb18030", "song asc":
		return 11
	case "simhei", "noto sans cjk sc", "myingheigb18030", "myingheib5hk":
		return 12
	}
	return 0
}

// skWeightToFc is Skia's mapping of a CSS weight onto fontconfig's scale
// (fcpattern_from_skfontstyle), truncated to an integer as Skia does.
func skWeightToFc(w int) float64 {
	return math.Trunc(interp(float64(w), skWeights[:], skFcWeights[:]))
}

var (
	skWeights   = [...]float64{0, 100, 200, 300, 350, 380, 400, 500, 600, 700, 800, 900, 1000}
	skFcWeights = [...]float64{0, 0, 40, 50, 55, 75, 80, 100, 180, 200, 205, 210, 215}
)
