package fonts

import (
	gofont "github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/harfbuzz"
	"strings"

	"github.com/platen/platen/render/phantom/draw"
)

// ShapeOptions are the per-run settings of Shape.
type ShapeOptions struct {
	RTL       bool
	Language  string // BCP 47, e.g. "en", "he"; empty for undetermined
	SmallCaps bool
	// Numeric turns on numeric OpenType features, a bit each, in the
	// order of NumericFeatures (font-variant-numeric).
	Numeric uint8
}

// NumericFeatures are the features of ShapeOptions.Numeric's bits: lining,
// oldstyle, proportional and tabular figures, diagonal and stacked
// fractions, ordinals and slashed zero.
var NumericFeatures = [8]string{"lnum", "onum", "pnum", "tnum", "frac", "afrc", "ordn", "zero"}

// Run is shaped text in one face: glyphs in visual order, advances in px.
type Run struct {
	Font *draw.Font
	// Size is the font size to draw at, as Blink sets it: the asked size
	// truncated to 1/100 px (for the synthesised small capitals of
	// lowercase letters, 0.7 of it rounded to whole pixels). The PDF's text
	// size is this, not the CSS size.
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

	res     map[queryKey]*resolution
	cache   map[shapeKey][]Run
	metrics map[metricsKey]Metrics

	// Scratch reused between calls.
	items  []item
	pieces []piece
	cur    *shFace // the face the buffer was last shaped with

	// inkFont and inkFace are the face Ink last measured.
	inkFont *draw.Font
	inkFace *shFace

	// seen is the font lists shaped since Track, while tracking; last is
	// the list of the latest Shape.
	seen     map[*resolution]struct{}
	last     *resolution
	tracking bool
}

// shFace is a face as this Shaper shapes with it.
type shFace struct {
	face *gofont.Face
	hb   *harfbuzz.Font
	smcp bool
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
	k := makeQueryKey(q)
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

// HasLocal reports whether the shaper's library has the font an
// @font-face local() names.
func (s *Shaper) HasLocal(name string) bool { return s.lib.HasLocal(name) }

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
	var xTop, hTop int
	if sf := s.shFace(fc); sf != nil {
		zero = s.runeAdvance(sf, fc, '0', size)
		space = s.runeAdvance(sf, fc, ' ', size)
		xTop, hTop = glyphTop(sf, 'x'), glyphTop(sf, 'H')
	}
	m := computeMetrics(fc.info, size, zero, space, false, xTop, hTop)
	if len(s.metrics) > 4096 {
		clear(s.metrics)
	}
	s.metrics[k] = m
	return m
}

// glyphTop is the top of r's glyph in font units (0 without one), which
// Skia measures when the OS/2 table gives no x-height or cap height.
func glyphTop(sf *shFace, r rune) int {
	g, ok := sf.face.NominalGlyph(r)
	if !ok {
		return 0
	}
	e, ok := sf.face.GlyphExtents(g)
	if !ok {
		return 0
	}
	return int(e.YBearing)
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
	s.track(res)
	k := shapeKey{res, size, text, opt}
	if runs, ok := s.cache[k]; ok {
		return runs
	}
	// The cache outlives the document: keep a copy of the text, not the
	// caller's (possibly much larger) string it may be cut from; the
	// glyphs' Text are cut from the copy.
	text = strings.Clone(text)
	k.text = text
	runs := s.shape(res, size, text, opt)
	if len(s.cache) >= maxCacheEntries {
		clear(s.cache)
	}
	s.cache[k] = runs
	return runs
}

// fakeBoldWidth is the stroke width, in px, that thickens glyphs when
// Chromium fakes bold in a PDF: Skia draws such glyphs as Type 3 outlines
// taken at the em size and stroked by 1/32 em (SkScalerContext's fake-bold
// factor at sizes of 36 and above); measured in Chromium's PDFs, a face
// with 1000 units per em grows by 15.6 units on each side.
func fakeBoldWidth(size float64) float64 { return size / 32 }
