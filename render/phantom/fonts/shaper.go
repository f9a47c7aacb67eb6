package fonts

import (
	"math"
	"unicode"
	"unicode/utf8"

	gofont "github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/harfbuzz"
	"github.com/go-text/typesetting/language"

	"github.com/platen/platen/render/phantom/draw"
)

// ShapeOptions are the per-run settings of Shape.
type ShapeOptions struct {
	RTL       bool
	Language  string // BCP 47, e.g. "en", "he"; empty for undetermined
	SmallCaps bool
}

// Run is shaped text in one face: glyphs in visual order, advances in px.
type Run struct {
	Font *draw.Font
	// Size is the font size to draw at, as Blink sets it: the asked size
	// truncated to 1/100 px (0.7 of it for the synthesised small capitals
	// of lowercase letters). The PDF's text size is this, not the CSS size.
	Size    float64
	Metrics Metrics // of this run's face at Size
	// FakeBold is the stroke width in px that thickens the glyphs when the
	// family has no bold face (0: none); FakeItalic slants them.
	FakeBold   float64
	FakeItalic bool
	Start, End int // byte range of the text
	// Glyphs are in visual order; Advance in px; Text set on each
	// cluster's first glyph.
	Glyphs []draw.Glyph
	Width  float64
}

// maxCacheEntries bounds a Shaper's cache of shaped text: layout shapes
// word by word, and a document's vocabulary is a few thousand words.
const maxCacheEntries = 1 << 14

// maxShapeLen bounds the text one Shape call takes (bytes); longer text is
// shaped in pieces by the caller, or cut here rather than running away.
const maxShapeLen = 1 << 20

// Shaper shapes text with one goroutine's go-text faces. Not safe for
// concurrent use: give each worker its own (Library.NewShaper).
type Shaper struct {
	lib   *Library
	faces map[*face]*shFace
	buf   *harfbuzz.Buffer
	runes []rune

	res     map[queryKey]*resolution
	cache   map[shapeKey][]Run
	metrics map[metricsKey]Metrics
}

// shFace is a face as this Shaper shapes with it.
type shFace struct {
	face *gofont.Face
	hb   *harfbuzz.Font
	smcp bool
}

type queryKey struct {
	f0, f1, f2, f3 string
	rest           string
	weight         int
	style          uint8
	stretch        float64
}

type shapeKey struct {
	res  *resolution
	size float64
	text string
	opt  ShapeOptions
}

type metricsKey struct {
	face *face
	size float64
}

// NewShaper returns a Shaper over the library's fonts.
func (l *Library) NewShaper() *Shaper {
	return &Shaper{
		lib:     l,
		faces:   make(map[*face]*shFace),
		buf:     harfbuzz.NewBuffer(),
		res:     make(map[queryKey]*resolution),
		cache:   make(map[shapeKey][]Run),
		metrics: make(map[metricsKey]Metrics),
	}
}

func (s *Shaper) resolution(q Query) *resolution {
	k := queryKey{weight: q.Weight, style: uint8(q.Style), stretch: q.Stretch}
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
	if r, ok := s.res[k]; ok {
		return r
	}
	r := s.lib.resolve(q)
	if len(s.res) > 1024 {
		clear(s.res)
	}
	s.res[k] = &r
	return &r
}

func (s *Shaper) shFace(fc *face) *shFace {
	if sf, ok := s.faces[fc]; ok {
		return sf
	}
	if fc.load() != nil {
		s.faces[fc] = nil
		return nil
	}
	f := gofont.NewFace(fc.ot)
	sf := &shFace{face: f, hb: harfbuzz.NewFont(f)}
	for _, fr := range fc.ot.GSUB.Features {
		if fr.Tag == gofont.Tag(0x736d6370) { // 'smcp'
			sf.smcp = true
		}
	}
	s.faces[fc] = sf
	return sf
}

// Metrics returns the metrics of q's primary face at size px.
func (s *Shaper) Metrics(q Query, size float64) Metrics {
	size = blinkSize(size)
	r := s.resolution(normQuery(q))
	return s.faceMetrics(r.primary.face, size)
}

func (s *Shaper) faceMetrics(fc *face, size float64) Metrics {
	k := metricsKey{fc, size}
	if m, ok := s.metrics[k]; ok {
		return m
	}
	var zero, space float64
	if sf := s.shFace(fc); sf != nil {
		zero = s.runeAdvance(sf, fc, '0', size)
		space = s.runeAdvance(sf, fc, ' ', size)
	}
	m := computeMetrics(fc.info, size, zero, space, false)
	if len(s.metrics) > 4096 {
		clear(s.metrics)
	}
	s.metrics[k] = m
	return m
}

func (s *Shaper) runeAdvance(sf *shFace, fc *face, r rune, size float64) float64 {
	g, ok := sf.face.NominalGlyph(r)
	if !ok {
		return 0
	}
	return glyphAdvance(sf.face.HorizontalAdvance(g), fc.info.unitsPerEm, size)
}

// glyphAdvance is a glyph's advance in px as Skia reports it to HarfBuzz.
func glyphAdvance(units float32, upem int, size float64) float64 {
	return newScaler(size, upem).advance(int32(units), 0)
}

// Shape shapes text in q's faces at size px: runs in logical order, split
// where the face changes (per-character fallback) or the size does
// (synthesised small capitals). Within an RTL run the glyphs are in visual
// order. Runs come from a cache: callers copy Glyphs before changing them.
func (s *Shaper) Shape(q Query, size float64, text string, opt ShapeOptions) []Run {
	if len(text) > maxShapeLen {
		text = text[:maxShapeLen]
	}
	q = normQuery(q)
	size = blinkSize(size)
	res := s.resolution(q)
	k := shapeKey{res, size, text, opt}
	if runs, ok := s.cache[k]; ok {
		return runs
	}
	runs := s.shape(res, size, text, opt)
	if len(s.cache) >= maxCacheEntries {
		clear(s.cache)
	}
	s.cache[k] = runs
	return runs
}

// segment is a range of text set in one face at one size.
type segment struct {
	start, end int
	res        *Resolved
	small      bool // synthesised small capitals
	script     language.Script
}

func (s *Shaper) shape(res *resolution, size float64, text string, opt ShapeOptions) []Run {
	if text == "" {
		return nil
	}
	s.runes = s.runes[:0]
	var segs []segment
	var cur *Resolved
	var curScript language.Script
	var curSmall bool
	start := 0
	for i, r := range text {
		s.runes = append(s.runes, r)
		sc := language.LookupScript(r)
		small := false
		if opt.SmallCaps && unicode.IsLower(r) {
			small = true
		}
		var rr *Resolved
		if cur != nil && (isMark(r) || r == 0x200D || (r >= 0xFE00 && r <= 0xFE0F)) {
			rr = cur
			sc = curScript
		} else {
			rr = s.faceFor(res, r)
		}
		if sc == language.Common || sc == language.Inherited {
			if cur != nil {
				sc = curScript
			}
		}
		if cur == nil {
			cur, curScript, curSmall = rr, sc, small
			continue
		}
		if rr != cur || small != curSmall || (sc != curScript && curScript != language.Common && curScript != language.Inherited) {
			segs = append(segs, segment{start, i, cur, curSmall, curScript})
			start = i
			cur, curScript, curSmall = rr, sc, small
		} else if curScript == language.Common || curScript == language.Inherited {
			curScript = sc
		}
	}
	segs = append(segs, segment{start, len(text), cur, curSmall, curScript})
	runs := make([]Run, 0, len(segs))
	for _, sg := range segs {
		runs = append(runs, s.shapeSegment(sg, size, text, opt))
	}
	return runs
}

func isMark(r rune) bool {
	return r >= 0x300 && (unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r))
}

// faceFor returns the face of res that sets r: the first family of the
// list whose face has it, else the system's fallback for it, else the
// primary face (which draws .notdef, as Chromium does).
func (s *Shaper) faceFor(res *resolution, r rune) *Resolved {
	if r < 0x20 || r == 0x200B || r == 0xAD {
		return res.primary
	}
	for _, c := range res.chain {
		if sf := s.shFace(c.face); sf != nil {
			if _, ok := sf.face.NominalGlyph(r); ok {
				return c
			}
		}
	}
	if fb := s.lib.fallbackFor(r, res); fb != nil {
		return fb
	}
	return res.primary
}

func (s *Shaper) shapeSegment(sg segment, size float64, text string, opt ShapeOptions) Run {
	rsz := size
	if sg.small {
		rsz = blinkSize(size * 0.7)
	}
	fc := sg.res.face
	run := Run{
		Font:       sg.res.Font,
		Size:       rsz,
		Metrics:    s.faceMetrics(fc, rsz),
		FakeItalic: sg.res.FakeItalic,
		Start:      sg.start,
		End:        sg.end,
	}
	if sg.res.FakeBold {
		run.FakeBold = fakeBoldWidth(rsz)
	}
	sf := s.shFace(fc)
	if sf == nil {
		return run
	}
	// The buffer holds the whole text as context, items are this segment:
	// clusters are byte offsets into text.
	b := s.buf
	b.Clear()
	b.Props.Direction = harfbuzz.LeftToRight
	if opt.RTL {
		b.Props.Direction = harfbuzz.RightToLeft
	}
	b.Props.Script = sg.script
	if opt.Language != "" {
		b.Props.Language = language.NewLanguage(opt.Language)
	}
	b.ClusterLevel = harfbuzz.MonotoneCharacters
	seg := text[sg.start:sg.end]
	for i, r := range seg {
		if sg.small {
			r = unicode.ToUpper(r)
		}
		b.AddRune(r, sg.start+i)
	}
	if sg.start == 0 {
		b.Flags |= harfbuzz.Bot
	} else {
		b.Flags &^= harfbuzz.Bot
	}
	if sg.end == len(text) {
		b.Flags |= harfbuzz.Eot
	} else {
		b.Flags &^= harfbuzz.Eot
	}
	hb := sf.hb
	var feats []harfbuzz.Feature
	if opt.SmallCaps && sf.smcp && !sg.small {
		feats = smcpFeature
	}
	// HarfBuzz works in font units here (its scale is the em); Blink's
	// rounding is applied below.
	b.Shape(hb, feats)
	sc := newScaler(rsz, fc.info.unitsPerEm)
	run.Glyphs = make([]draw.Glyph, len(b.Info))
	for i, gi := range b.Info {
		p := b.Pos[i]
		hmtx := sf.face.HorizontalAdvance(gi.Glyph)
		g := draw.Glyph{
			ID:      uint16(gi.Glyph),
			Advance: sc.advance(int32(hmtx), p.XAdvance-int32(hmtx)),
			XOffset: sc.offset(p.XOffset),
			YOffset: -sc.offset(p.YOffset),
		}
		run.Width += g.Advance
		run.Glyphs[i] = g
	}
	setClusterText(run.Glyphs, b.Info, text, sg.end, opt.RTL)
	return run
}

var smcpFeature = []harfbuzz.Feature{{Tag: gofont.Tag(0x736d6370), Value: 1, Start: 0, End: math.MaxInt}}

// setClusterText sets each cluster's source text on its first glyph in
// logical order (the leftmost in LTR, the rightmost in RTL).
func setClusterText(gs []draw.Glyph, info []harfbuzz.GlyphInfo, text string, end int, rtl bool) {
	n := len(gs)
	for j := 0; j < n; {
		c := info[j].Cluster
		k := j
		for k < n && info[k].Cluster == c {
			k++
		}
		// The cluster ends where the next cluster in logical order begins.
		ce := end
		if rtl {
			if j > 0 {
				ce = info[j-1].Cluster
			}
		} else if k < n {
			ce = info[k].Cluster
		}
		if ce < c {
			ce = c + utf8RuneLen(text, c)
		}
		first := j
		if rtl {
			first = k - 1
		}
		gs[first].Text = text[c:ce]
		j = k
	}
}

func utf8RuneLen(s string, i int) int {
	_, n := utf8.DecodeRuneInString(s[i:])
	return n
}

// fakeBoldWidth is the stroke width Skia thickens glyphs by when it fakes
// bold (SkScalerContext: size/24 at 9 px and below, size/32 at 36 px and
// above, interpolated between).
func fakeBoldWidth(size float64) float64 {
	const k0, k1, v0, v1 = 9.0, 36.0, 1.0 / 24, 1.0 / 32
	switch {
	case size <= k0:
		return size * v0
	case size >= k1:
		return size * v1
	}
	return size * (v0 + (size-k0)/(k1-k0)*(v1-v0))
}
