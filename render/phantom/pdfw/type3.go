package pdfw

import (
	"math"
	"sort"
	"unicode/utf8"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/tdewolff/font"
)

// Fake bold is written as Chromium writes it: Skia cannot embolden an
// embedded font program, so it turns a run drawn in a synthesised bold
// into Type 3 fonts whose glyph procedures are the emboldened outlines.
// This matters beyond looks, because pdftotext reads such text differently
// from the same glyphs in a CIDFont: having no font program, poppler scales
// a Type 3 font's size by the width of its first named glyph over 0.5 (code
// 0, .notdef, 1229/2048 em in DejaVu Sans: words 1.2 times as tall), takes
// the default ascent and descent (0.95 and -0.35) from a descriptor that
// has none, and ends a word where the size changes, so a fake-bold ₪ is a
// word apart from the real bold digits after it.
//
// The fonts are laid out as Skia's (SkPDFFont.cpp, its Type 3 path), so
// that every one of those numbers comes out the same: one font per block of
// 255 glyph ids (ids 255b+1 to 255b+255 are codes 1 to 255, code 0 is
// .notdef), Widths with 0 for the codes not shown, every such code named
// /g0, glyphs named g<hex id>, and a descriptor without Ascent, Descent or
// FontBBox. Skia's FontMatrix is one font unit; ours is 1/1000 em, as for
// the CIDFonts, so that widths and positions are written the same way. A
// glyph procedure fills and strokes the glyph's outline with the run's
// fake-bold width (Chromium's is 1/32 em), which paints what Skia's
// stroke-and-fill path of the outline paints.

// type3Font is one block of a font's glyphs shown in fake bold in one
// document, at one stroke width.
type type3Font struct {
	key   t3Key
	info  *fontInfo
	index int // resource name /T<index>
	ref   int
	used  [256]bool
	texts [256]string // ToUnicode, by code: see preferText
}

// t3Key names a type3Font: the font, the first glyph id of the block (code
// 1), and the stroke width in glyph space.
type t3Key struct {
	font   *draw.Font
	first  uint16
	stroke float64
}

// t3Code is glyph gid's block (the glyph id of its code 1) and code in it,
// as Skia numbers them; .notdef is code 0 of the first block.
func t3Code(gid uint16) (first uint16, code byte) {
	if gid == 0 {
		return 1, 0
	}
	first = gid - (gid-1)%255
	return first, byte(gid - first + 1)
}

// t3Stroke is a run's fake-bold stroke in glyph space (1000 per em),
// rounded so that runs of nearly one ratio share their fonts.
func t3Stroke(t *draw.Text) float64 {
	return math.Round(t.FakeBold/t.Size*1000*16) / 16
}

// fakeBold reports whether t is drawn in fake bold, with Type 3 fonts.
func fakeBold(t *draw.Text) bool {
	return t.FakeBold > 0 && !math.IsInf(t.FakeBold, 0)
}

// markType3 collects the glyphs of fake-bold run t into Type 3 fonts,
// creating them in order of first use.
func (w *writer) markType3(t *draw.Text) {
	fi, err := loadFont(t.Font)
	if err != nil {
		if w.err == nil {
			w.err = err
		}
		return
	}
	stroke := t3Stroke(t)
	for i := range t.Glyphs {
		g := &t.Glyphs[i]
		tf, code := w.type3(t.Font, fi, stroke, g.ID)
		tf.used[code] = true
		if preferText(g.Text, tf.texts[code]) {
			tf.texts[code] = g.Text
		}
	}
}

// type3 returns the Type 3 font and code showing glyph gid of f (ids
// outside the font show .notdef).
func (w *writer) type3(f *draw.Font, fi *fontInfo, stroke float64, gid uint16) (*type3Font, byte) {
	if int(gid) >= fi.numGlyphs {
		gid = 0
	}
	first, code := t3Code(gid)
	k := t3Key{f, first, stroke}
	tf := w.t3Of[k]
	if tf == nil {
		tf = &type3Font{key: k, info: fi, index: len(w.t3), ref: w.alloc()}
		tf.used[0] = true
		w.t3 = append(w.t3, tf)
		w.t3Of[k] = tf
	}
	return tf, code
}

// gid is the glyph id shown by code.
func (tf *type3Font) gid(code int) uint16 {
	if code == 0 {
		return 0
	}
	return tf.key.first + uint16(code) - 1
}

// width is code's width in glyph space (1000 per em), as Widths says.
func (tf *type3Font) width(code byte) float64 {
	return tf.info.width(tf.gid(int(code)))
}

// writeType3Fonts writes the Type 3 fonts in the order of their fonts' keys
// and blocks: glyph procedures, descriptor, ToUnicode and font.
func (w *writer) writeType3Fonts() {
	order := make([]*type3Font, len(w.t3))
	copy(order, w.t3)
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i].key, order[j].key
		if a.font.Key != b.font.Key {
			return a.font.Key < b.font.Key
		}
		if a.first != b.first {
			return a.first < b.first
		}
		return a.stroke < b.stroke
	})
	for _, tf := range order {
		w.writeType3(tf)
	}
}

func (w *writer) writeType3(tf *type3Font) {
	fi := tf.info
	last := 0
	for c := range tf.used {
		if tf.used[c] {
			last = c
		}
	}
	// The glyph procedures, and the box around all of them.
	procs := make([]int, last+1)
	bbox := [4]float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for c := 0; c <= last; c++ {
		if !tf.used[c] {
			continue
		}
		gid := tf.gid(c)
		proc, box := fi.type3Glyph(gid, tf.key.stroke)
		bbox = [4]float64{math.Min(bbox[0], box[0]), math.Min(bbox[1], box[1]), math.Max(bbox[2], box[2]), math.Max(bbox[3], box[3])}
		procs[c] = w.alloc()
		w.putFlate(procs[c], w.tmp[:0], proc)
	}

	fd, tu := w.alloc(), w.alloc()
	b := append(w.tmp[:0], "<</Type/FontDescriptor/FontName"...)
	b = appendBaseFont(b, subsetTag(hashGIDs(tf.key.font.Key, []uint16{tf.key.first})), fi.psName)
	b = append(b, "/FontFamily"...)
	b = appendTextString(b, fi.family)
	b = append(b, "/Flags "...)
	b = appendInt(b, fi.flags())
	b = append(b, "/ItalicAngle "...)
	b = appendNum(b, fi.italic, 2)
	b = append(b, "/CapHeight "...)
	b = appendNum(b, fi.capH, 3)
	b = append(b, "/StemV "...)
	b = appendInt(b, fi.stemV())
	b = append(b, ">>"...)
	w.tmp = b
	w.putObj(fd, b)

	w.raw = appendType3ToUnicode(w.raw[:0], tf.texts[:last+1])
	w.putFlate(tu, w.tmp[:0], w.raw)

	b = append(w.tmp[:0], "<</Type/Font/Subtype/Type3/FontMatrix[.001 0 0 .001 0 0]/FontBBox["...)
	b = appendNums(b, 0, bbox[:]...)
	b = append(b, "]/FirstChar 0/LastChar "...)
	b = appendInt(b, last)
	b = append(b, "/Widths["...)
	for c := 0; c <= last; c++ {
		if c > 0 {
			b = append(b, ' ')
		}
		if tf.used[c] {
			b = appendNum(b, fi.width(tf.gid(c)), widthDecimals)
		} else {
			b = append(b, '0')
		}
	}
	b = append(b, "]/Encoding<</Type/Encoding/Differences[0"...)
	for c := 0; c <= last; c++ {
		b = appendGlyphName(b, tf, c)
	}
	b = append(b, "]>>/CharProcs<<"...)
	for c := 0; c <= last; c++ {
		if tf.used[c] {
			b = appendGlyphName(b, tf, c)
			b = append(b, ' ')
			b = appendRef(b, procs[c])
		}
	}
	b = append(b, ">>/FontDescriptor "...)
	b = appendRef(b, fd)
	b = append(b, "/ToUnicode "...)
	b = appendRef(b, tu)
	b = append(b, "/Resources<<>>>>"...)
	w.tmp = b
	w.putObj(tf.ref, b)
}

// appendGlyphName appends code's glyph name: /g and the glyph id in hex, or
// /g0 for a code not shown.
func appendGlyphName(b []byte, tf *type3Font, code int) []byte {
	b = append(b, "/g"...)
	gid := uint16(0)
	if tf.used[code] {
		gid = tf.gid(code)
	}
	started := false
	for s := 12; s >= 0; s -= 4 {
		d := gid >> s & 15
		if d != 0 || started || s == 0 {
			b = append(b, hexDigits[d])
			started = true
		}
	}
	return b
}

const type3ToUnicodeHead = "/CIDInit/ProcSet findresource begin\n12 dict begin\nbegincmap\n" +
	"/CIDSystemInfo<</Registry(Adobe)/Ordering(UCS)/Supplement 0>>def\n" +
	"/CMapName/Adobe-Identity-UCS def\n/CMapType 2 def\n" +
	"1 begincodespacerange\n<00><FF>\nendcodespacerange\n"

// appendType3ToUnicode appends a ToUnicode CMap of one-byte codes: each
// code with text maps to it, in blocks of at most 100 (the format's limit).
func appendType3ToUnicode(b []byte, texts []string) []byte {
	b = append(b, type3ToUnicodeHead...)
	n := 0
	for _, t := range texts {
		if t != "" {
			n++
		}
	}
	left := 0
	for c, t := range texts {
		if t == "" {
			continue
		}
		if left == 0 {
			left = min(n, 100)
			n -= left
			b = appendInt(b, left)
			b = append(b, " beginbfchar\n"...)
		}
		b = append(b, '<', hexDigits[c>>4], hexDigits[c&15], '>', '<')
		for runes := 0; len(t) > 0 && runes < maxToUnicodeRunes; runes++ {
			r, size := utf8.DecodeRuneInString(t)
			t = t[size:]
			b = appendUTF16Hex(b, r)
		}
		b = append(b, ">\n"...)
		if left--; left == 0 {
			b = append(b, "endbfchar\n"...)
		}
	}
	return append(b, toUnicodeTail...)
}

// type3Glyph returns glyph gid's procedure at stroke width stroke (glyph
// space) and its box (for the font's FontBBox), cached on the font: the
// advance (d0), then the outline filled and stroked with miter joins
// limited at 4, as Skia strokes. Skia writes d1, a shape painted in the
// text's colour, but its outline is already emboldened; PDFium (Chrome's
// viewer) paints a d1 shape without its stroke, so ours is a d0 glyph
// painted in the current fill and stroke colours, which the text sets to
// its own.
func (fi *fontInfo) type3Glyph(gid uint16, stroke float64) ([]byte, [4]float64) {
	fi.t3mu.Lock()
	defer fi.t3mu.Unlock()
	k := t3GlyphKey{gid, stroke}
	if g, ok := fi.t3glyphs[k]; ok {
		return g.proc, g.box
	}
	p := &t3Pather{}
	// A glyph tdewolff/font cannot read is drawn empty, as a glyph id
	// outside the font is elsewhere.
	func() {
		defer func() { _ = recover() }()
		_ = fi.sfnt.GlyphPath(p, gid, 0, 0, 0, 1000/fi.upem, font.NoHinting)
	}()
	p.Close()
	box := [4]float64{0, 0, 0, 0}
	if p.n > 0 {
		// The miter limit 4 lets a corner reach twice the stroke from the outline.
		pad := 2 * stroke
		box = [4]float64{math.Floor(p.box[0] - pad), math.Floor(p.box[1] - pad), math.Ceil(p.box[2] + pad), math.Ceil(p.box[3] + pad)}
	}
	b := appendNum(nil, fi.width(gid), widthDecimals)
	b = append(b, " 0 d0\n"...)
	if p.n > 0 {
		b = appendNum(b, stroke, 2)
		b = append(b, " w 4 M\n"...)
		b = append(b, p.b...)
		b = append(b, "B\n"...)
	}
	if fi.t3glyphs == nil {
		fi.t3glyphs = make(map[t3GlyphKey]t3Glyph)
	}
	fi.t3glyphs[k] = t3Glyph{b, box}
	return b, box
}

// t3GlyphKey and t3Glyph cache glyph procedures on a fontInfo.
type (
	t3GlyphKey struct {
		gid    uint16
		stroke float64
	}
	t3Glyph struct {
		proc []byte
		box  [4]float64
	}
)

// t3Pather writes a glyph outline as path operators in font units,
// in glyph space, quadratic curves raised to cubic, and measures it.
type t3Pather struct {
	b    []byte
	x, y float64
	n    int // points seen
	box  [4]float64
	open bool // a contour is open
}

func (p *t3Pather) pt(x, y float64) {
	if p.n == 0 {
		p.box = [4]float64{x, y, x, y}
	} else {
		p.box = [4]float64{math.Min(p.box[0], x), math.Min(p.box[1], y), math.Max(p.box[2], x), math.Max(p.box[3], y)}
	}
	p.n++
	p.b = appendNum(p.b, x, 2)
	p.b = append(p.b, ' ')
	p.b = appendNum(p.b, y, 2)
	p.b = append(p.b, ' ')
}

func (p *t3Pather) MoveTo(x, y float64) {
	p.Close()
	p.pt(x, y)
	p.b = append(p.b, "m\n"...)
	p.x, p.y = x, y
	p.open = true
}

func (p *t3Pather) LineTo(x, y float64) {
	p.pt(x, y)
	p.b = append(p.b, "l\n"...)
	p.x, p.y = x, y
}

func (p *t3Pather) QuadTo(cx, cy, x, y float64) {
	p.CubeTo(p.x+2*(cx-p.x)/3, p.y+2*(cy-p.y)/3, x+2*(cx-x)/3, y+2*(cy-y)/3, x, y)
}

func (p *t3Pather) CubeTo(c1x, c1y, c2x, c2y, x, y float64) {
	p.pt(c1x, c1y)
	p.pt(c2x, c2y)
	p.pt(x, y)
	p.b = append(p.b, "c\n"...)
	p.x, p.y = x, y
}

func (p *t3Pather) Close() {
	if p.open {
		p.b = append(p.b, "h\n"...)
		p.open = false
	}
}

// collectText collects run t's glyphs: into its font's CIDFont or, drawn in
// fake bold, into Type 3 fonts.
func (w *writer) collectText(t *draw.Text) {
	if fakeBold(t) && t.Font != nil && t.Size > 0 && t.Size <= maxFontSize {
		w.markType3(t)
		return
	}
	w.markGlyphs(t.Font, t.Size, t.Glyphs)
}
