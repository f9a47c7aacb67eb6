package fonts

import (
	"math"
	"sort"
	"unicode"
	"unicode/utf8"

	gofont "github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/harfbuzz"
	"github.com/go-text/typesetting/language"

	"github.com/platen/platen/render/phantom/draw"
)

// This file is Blink's HarfBuzzShaper::ShapeSegment: an item is shaped
// with its first font; the clusters that come out as .notdef are shaped
// again with the next font the fallback iterator gives, and so on, until
// none is left or the fonts run out and the primary font's .notdef glyphs
// stay. The iterator's order (FontFallbackIterator) is the list's faces,
// then the system's face for one "hint" character of what is left, again
// while it finds new faces, then the last-resort font. Faces are compared
// by typeface, synthesis aside, as Blink compares them.

// piece is one cluster (or several) set in one face: a byte range of the
// text and its glyphs in visual order.
type piece struct {
	start, end int
	res        *Resolved
	glyphs     []draw.Glyph
}

// span is a byte range of text still to shape.
type span struct{ start, end int }

func (s *Shaper) shape(res *resolution, size float64, text string, opt ShapeOptions) []Run {
	smallCaps := false
	if opt.SmallCaps {
		if sf := s.shFace(res.primary.face); sf == nil || !sf.smcp {
			smallCaps = true // synthesised: the font has no small capitals
		}
	}
	s.items = itemize(s.items, text, smallCaps)
	runs := make([]Run, 0, len(s.items))
	for _, it := range s.items {
		runs = s.shapeItem(runs, res, size, text, it, opt)
	}
	return runs
}

// shapeItem shapes one item, appending its runs in logical order.
func (s *Shaper) shapeItem(runs []Run, res *resolution, size float64, text string, it item, opt ShapeOptions) []Run {
	rsz := size
	if it.small {
		rsz = smallCapsSize(size)
	}
	primary := res.primary
	// Most text has every character in its first face: one shaping, one run.
	// (Not when a unicode-range face comes first: it sets only its range,
	// and the primary font may be a later one.)
	if primary == res.chain[0] && (primary.face.web == nil || !primary.face.web.ranged) &&
		s.shapeRange(primary, rsz, text, it.start, it.end, it, opt) && !s.hasNotdef(text) {
		return append(runs, s.runFromBuffer(primary, rsz, text, it.start, it.end, opt))
	}
	pieces := s.pieces[:0]
	holes := []span{{it.start, it.end}}
	used := make(map[*face]bool, 4)
	try := func(r *Resolved, last bool) {
		if r == nil || used[r.face] {
			return
		}
		used[r.face] = true
		var next []span
		todo := holes
		if w := r.face.web; w != nil && w.ranged {
			// A face with a unicode-range sets only the characters in
			// it: the rest stay holes for the next face.
			todo = nil
			for _, h := range holes {
				todo, next = splitCovered(r.face, text, h, todo, next)
			}
		}
		for _, h := range todo {
			if !s.shapeRange(r, rsz, text, h.start, h.end, it, opt) {
				next = append(next, h)
				continue
			}
			pieces, next = s.splitClusters(pieces, next, r, rsz, text, h, opt, last)
		}
		holes = next
	}
	// The list's faces, the primary first.
	for _, c := range res.chain {
		if len(holes) == 0 {
			break
		}
		try(c, false)
	}
	// Emoji first ask the system for an emoji font (FontFallbackIterator's
	// fallback-priority stage, which asks for U+1F46A FAMILY).
	if it.emoji && len(holes) > 0 {
		if f := s.lib.emojiFallback(res); f != nil && !used[f.face] {
			try(f, false)
		}
	}
	// The system's fallback, one hint character at a time.
	var asked []rune
	for len(holes) > 0 {
		h := hintChar(text, holes)
		if h == 0 || containsRune(asked, h) {
			break
		}
		asked = append(asked, h)
		f := s.lib.fallbackFor(h, res)
		if f == nil || used[f.face] {
			break
		}
		try(f, false)
	}
	// The last-resort font, then .notdef in the primary font.
	if len(holes) > 0 {
		try(s.lib.lastResort(res), false)
	}
	if len(holes) > 0 {
		delete(used, primary.face)
		try(primary, true)
	}
	s.pieces = pieces
	n := len(runs)
	runs = s.appendRuns(runs, pieces, rsz, opt.RTL)
	for i := n; i < len(runs); i++ {
		joinGraphemes(runs[i].Glyphs, text, runs[i].Start, opt.RTL)
	}
	return runs
}

// smallCapsSize is the size of synthesised small capitals: Blink's
// kSmallCapsFontSizeMultiplier (0.7) of the size, rounded to whole pixels
// (SimpleFontData::CreateScaledFontData uses lroundf), as Chromium's PDFs
// show (11 px capitals in 16 px text).
func smallCapsSize(size float64) float64 {
	return math.Round(float64(float32(size) * 0.7))
}

func containsRune(rs []rune, r rune) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// hintChar is the character the fallback iterator asks the system about
// (HarfBuzzShaper::CollectFallbackHintChars and FontFallbackIterator::
// ChooseHintIndex): the first character of a definite script in what is
// left to shape, or else the first character left.
func hintChar(text string, holes []span) rune {
	first := rune(0)
	n := 0
	for _, h := range holes {
		for _, r := range text[h.start:h.end] {
			if n == 0 {
				first = r
			}
			n++
			sc := language.LookupScript(r)
			if sc != language.Common && sc != language.Inherited && sc != language.Unknown {
				return r
			}
		}
	}
	return first
}

// shapeRange fills the HarfBuzz buffer with text[start:end] shaped in r's
// face (the whole text as context); false when the face cannot be loaded.
func (s *Shaper) shapeRange(r *Resolved, size float64, text string, start, end int, it item, opt ShapeOptions) bool {
	sf := s.shFace(r.face)
	if sf == nil {
		return false
	}
	b := s.buf
	b.Clear()
	b.Props.Direction = harfbuzz.LeftToRight
	if opt.RTL {
		b.Props.Direction = harfbuzz.RightToLeft
	}
	b.Props.Script = it.script
	b.Props.Language = ""
	if opt.Language != "" {
		b.Props.Language = language.NewLanguage(opt.Language)
	}
	b.ClusterLevel = harfbuzz.MonotoneCharacters
	b.Flags = 0
	if start == 0 {
		b.Flags |= harfbuzz.Bot
	}
	if end == len(text) {
		b.Flags |= harfbuzz.Eot
	}
	for i, c := range text[start:end] {
		if it.small {
			c = unicode.ToUpper(c)
		}
		b.AddRune(c, start+i)
	}
	var feats []harfbuzz.Feature
	if opt.SmallCaps && sf.smcp {
		feats = smcpFeature
	}
	if opt.Numeric != 0 {
		feats = append([]harfbuzz.Feature(nil), feats...)
		for i, name := range NumericFeatures {
			if opt.Numeric&(1<<i) != 0 {
				tag := gofont.Tag(uint32(name[0])<<24 | uint32(name[1])<<16 | uint32(name[2])<<8 | uint32(name[3]))
				feats = append(feats, harfbuzz.Feature{Tag: tag, Value: 1, Start: 0, End: math.MaxInt})
			}
		}
	}
	b.Shape(sf.hb, feats)
	s.cur = sf
	return true
}

// hasNotdef reports whether the buffer holds a cluster Blink would shape
// again with the next font: a .notdef glyph, or U+3000 that HarfBuzz set
// with the space glyph.
func (s *Shaper) hasNotdef(text string) bool {
	for _, gi := range s.buf.Info {
		if gi.Glyph == 0 || s.isSynthesizedIdeographicSpace(gi, text) {
			return true
		}
	}
	return false
}

func (s *Shaper) isSynthesizedIdeographicSpace(gi harfbuzz.GlyphInfo, text string) bool {
	if gi.Cluster+3 > len(text) || text[gi.Cluster] != 0xE3 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(text[gi.Cluster:])
	if r != 0x3000 {
		return false
	}
	space, ok := s.cur.face.NominalGlyph(' ')
	return ok && gi.Glyph == space
}

// glyphsFromBuffer converts the buffer's glyphs [i, j) to px in r's face,
// appending them to dst.
func (s *Shaper) glyphsFromBuffer(dst []draw.Glyph, i, j int, r *Resolved, size float64) []draw.Glyph {
	sc := newScaler(size, r.face.info.unitsPerEm)
	b := s.buf
	for k := i; k < j; k++ {
		gi, p := b.Info[k], b.Pos[k]
		hmtx := int32(s.cur.face.HorizontalAdvance(gi.Glyph))
		dst = append(dst, draw.Glyph{
			ID:      uint16(gi.Glyph),
			Advance: sc.advance(hmtx, p.XAdvance-hmtx),
			XOffset: sc.offset(p.XOffset),
			YOffset: -sc.offset(p.YOffset),
		})
	}
	return dst
}

// runFromBuffer makes one run of the whole buffer.
func (s *Shaper) runFromBuffer(r *Resolved, size float64, text string, start, end int, opt ShapeOptions) Run {
	run := s.newRun(r, size, start, end)
	run.Glyphs = s.glyphsFromBuffer(make([]draw.Glyph, 0, len(s.buf.Info)), 0, len(s.buf.Info), r, size)
	for _, g := range run.Glyphs {
		run.Width += g.Advance
	}
	setClusterText(run.Glyphs, s.buf.Info, text, start, end, opt.RTL)
	joinGraphemes(run.Glyphs, text, start, opt.RTL)
	return run
}

func (s *Shaper) newRun(r *Resolved, size float64, start, end int) Run {
	run := Run{
		Font:       r.Font,
		Size:       size,
		Metrics:    s.faceMetrics(r.face, size),
		FakeItalic: r.FakeItalic,
		Start:      start,
		End:        end,
	}
	if r.FakeBold {
		run.FakeBold = fakeBoldWidth(size)
	}
	return run
}

// splitClusters walks the buffer's clusters (shaped from hole h) in
// logical order: those with a .notdef glyph go back to the holes (unless
// this is the last font), the others become pieces in face r.
func (s *Shaper) splitClusters(pieces []piece, holes []span, r *Resolved, size float64, text string, h span, opt ShapeOptions, last bool) ([]piece, []span) {
	info := s.buf.Info
	n := len(info)
	// Glyph groups by cluster, in visual order; visit them in logical order.
	type group struct{ i, j, start, end int }
	var groups []group
	for i := 0; i < n; {
		j := i
		for j < n && info[j].Cluster == info[i].Cluster {
			j++
		}
		groups = append(groups, group{i: i, j: j, start: info[i].Cluster})
		i = j
	}
	// Logical order; clusters are monotone, but default ignorables and
	// marks may leave a group out of place, so sort, and clamp each end
	// to the next start.
	sort.SliceStable(groups, func(a, b int) bool { return groups[a].start < groups[b].start })
	for k := range groups {
		if groups[k].start < h.start {
			groups[k].start = h.start
		}
		groups[k].end = h.end
		for m := k + 1; m < len(groups); m++ {
			if groups[m].start > groups[k].start {
				groups[k].end = groups[m].start
				break
			}
		}
	}
	for _, g := range groups {
		notdef := false
		for k := g.i; k < g.j; k++ {
			if info[k].Glyph == 0 || (!last && s.isSynthesizedIdeographicSpace(info[k], text)) {
				notdef = true
			}
		}
		if notdef && !last {
			if m := len(holes); m > 0 && holes[m-1].end == g.start {
				holes[m-1].end = g.end
			} else {
				holes = append(holes, span{g.start, g.end})
			}
			continue
		}
		gs := s.glyphsFromBuffer(nil, g.i, g.j, r, size)
		// The cluster's text goes on its first glyph in logical order.
		first := 0
		if opt.RTL {
			first = len(gs) - 1
		}
		if len(gs) > 0 {
			gs[first].Text = text[g.start:g.end]
		}
		pieces = append(pieces, piece{start: g.start, end: g.end, res: r, glyphs: gs})
	}
	return pieces, holes
}

// appendRuns orders the pieces logically and joins neighbours in the same
// face into runs (glyphs in visual order).
func (s *Shaper) appendRuns(runs []Run, pieces []piece, size float64, rtl bool) []Run {
	sort.Slice(pieces, func(i, j int) bool { return pieces[i].start < pieces[j].start })
	for i := 0; i < len(pieces); {
		j := i + 1
		for j < len(pieces) && pieces[j].res == pieces[i].res && pieces[j].start == pieces[j-1].end {
			j++
		}
		run := s.newRun(pieces[i].res, size, pieces[i].start, pieces[j-1].end)
		n := 0
		for k := i; k < j; k++ {
			n += len(pieces[k].glyphs)
		}
		run.Glyphs = make([]draw.Glyph, 0, n)
		for k := i; k < j; k++ {
			p := pieces[k]
			if rtl {
				p = pieces[i+j-1-k]
			}
			run.Glyphs = append(run.Glyphs, p.glyphs...)
		}
		for _, g := range run.Glyphs {
			run.Width += g.Advance
		}
		runs = append(runs, run)
		i = j
	}
	return runs
}

// setClusterText sets each cluster's source text on its first glyph in
// logical order (the leftmost in LTR, the rightmost in RTL).
func setClusterText(gs []draw.Glyph, info []harfbuzz.GlyphInfo, text string, start, end int, rtl bool) {
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
		if c < start {
			c = start
		}
		if ce < c {
			_, w := utf8.DecodeRuneInString(text[c:])
			ce = c + w
		}
		first := j
		if rtl {
			first = k - 1
		}
		gs[first].Text = text[c:ce]
		j = k
	}
}

// joinGraphemes makes the clusters of a run's glyphs graphemes: a cluster
// that begins with a character extending a grapheme (a combining mark, a
// joiner) joins the cluster before it in logical order, its text going on
// that cluster's first glyph. Blink shapes with HarfBuzz's monotone
// characters, as phantom does, yet its glyph runs count one cluster per
// grapheme: Chromium's PDF marks a base and its marks as one ActualText
// span, and letter-spacing follows the grapheme, not each mark. The texts
// are the run's consecutive slices of text from start; where they are not
// (never, short of a shaper surprise), the clusters are left as they are.
func joinGraphemes(gs []draw.Glyph, text string, start int, rtl bool) {
	prev, prevStart := -1, 0 // the glyph holding the previous cluster's text
	off := start
	for k := range gs {
		i := k
		if rtl {
			i = len(gs) - 1 - k
		}
		t := gs[i].Text
		if t == "" {
			continue
		}
		if off+len(t) > len(text) || text[off:off+len(t)] != t {
			return
		}
		r, _ := utf8.DecodeRuneInString(t)
		if prev >= 0 && extendsGrapheme(r) {
			gs[prev].Text = text[prevStart : off+len(t)]
			gs[i].Text = ""
		} else {
			prev, prevStart = i, off
		}
		off += len(t)
	}
}

// extendsGrapheme reports whether r continues the grapheme before it
// (UAX #29 Extend and SpacingMark, as far as the marks categories and the
// joiners reach).
func extendsGrapheme(r rune) bool {
	if r < 0x300 {
		return false
	}
	return r == 0x200C || r == 0x200D || unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc)
}

// smcpFeature turns on the font's small capitals (font-variant: small-caps
// with a font that has them).
var smcpFeature = []harfbuzz.Feature{{Tag: gofont.Tag(0x736d6370), Value: 1, Start: 0, End: math.MaxInt}}
