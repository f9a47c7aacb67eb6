package pdfw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/tdewolff/font"
)

// ErrFont is wrapped by the error Write returns for a font it cannot embed
// (unreadable data, a face index outside the collection, CFF2, a CID-keyed
// CFF with several font dictionaries).
var ErrFont = errors.New("pdfw: font cannot be embedded")

// fontInfo is what the writer knows about one draw.Font, parsed once per
// process: the tables subsetting reads, and the metrics the font dictionary
// needs. It is read-only once built, so documents share it freely.
type fontInfo struct {
	sfnt      *font.SFNT
	cff       bool     // CFF outlines (CIDFontType0), else glyf (CIDFontType2)
	cffProg   *cffFont // the CFF program, nil when our subsetter cannot take it
	numGlyphs int
	upem      float64
	// advances are the glyph widths in font units, from hmtx.
	advances []uint16

	// TrueType tables, raw: the subsetter copies glyph data as it is.
	glyf, loca, hmtx []byte
	longLoca         bool
	numHMetrics      int

	weight   int // OS/2 usWeightClass, 400 when absent
	fixed    bool
	psName   string
	family   string  // the name table's family, for /FontFamily
	ascent   float64 // in 1000 units per em, as the font descriptor wants
	descent  float64
	capH     float64
	bbox     [4]float64
	italic   float64 // degrees
	isItalic bool
	serif    bool

	// cids lends a glyph-to-CID table (len numGlyphs, all zero) to one
	// document at a time; the document zeroes what it set before returning it.
	cids sync.Pool

	subsets subsetCache
	cmaps   cmapCache

	// t3glyphs caches the Type 3 glyph procedures of fake bold (type3.go),
	// under t3mu.
	t3mu     sync.Mutex
	t3glyphs map[t3GlyphKey]t3Glyph
}

// fontCacheLimit bounds the process-wide table of parsed fonts. Fonts are one
// *draw.Font per face for the life of the process (draw's contract), so the
// limit is only a guard against a caller that makes fonts per document: past
// it a font is parsed for each document that uses it.
const fontCacheLimit = 512

var fontCache struct {
	sync.Mutex
	m map[*draw.Font]*fontEntry
}

type fontEntry struct {
	once sync.Once
	info *fontInfo
	err  error
}

// loadFont returns the parsed font, from the process-wide cache.
func loadFont(f *draw.Font) (*fontInfo, error) {
	fontCache.Lock()
	if fontCache.m == nil {
		fontCache.m = make(map[*draw.Font]*fontEntry)
	}
	e := fontCache.m[f]
	if e == nil {
		e = &fontEntry{}
		if len(fontCache.m) < fontCacheLimit {
			fontCache.m[f] = e
		}
	}
	fontCache.Unlock()
	e.once.Do(func() { e.info, e.err = parseFont(f) })
	return e.info, e.err
}

// parseFont reads the tables of f the writer needs.
func parseFont(f *draw.Font) (info *fontInfo, err error) {
	defer func() {
		// tdewolff/font trusts some offsets; a corrupt file must not take
		// the process down.
		if r := recover(); r != nil {
			info, err = nil, fmt.Errorf("%w: %s: %v", ErrFont, f.Key, r)
		}
	}()
	data, index := f.Data, f.Index
	if len(data) >= 4 && string(data[:4]) == "ttcf" {
		if data, err = extractFace(data, index); err != nil {
			return nil, fmt.Errorf("%w: %s (index %d): %v", ErrFont, f.Key, f.Index, err)
		}
		index = 0
	}
	s, err := font.ParseSFNT(data, index)
	if err != nil {
		return nil, fmt.Errorf("%w: %s (index %d): %v", ErrFont, f.Key, f.Index, err)
	}
	info = &fontInfo{sfnt: s, cff: s.IsCFF, numGlyphs: int(s.NumGlyphs())}
	if s.IsCFF {
		if _, ok := s.Tables["CFF2"]; ok {
			return nil, fmt.Errorf("%w: %s: CFF2 outlines", ErrFont, f.Key)
		}
		if s.CFF == nil {
			return nil, fmt.Errorf("%w: %s: no CFF table", ErrFont, f.Key)
		}
		// CID-keyed programs are left to tdewolff/font's subsetter.
		info.cffProg, _ = parseCFF(s.Tables["CFF "], info.numGlyphs)
	} else if !s.IsTrueType {
		return nil, fmt.Errorf("%w: %s: neither glyf nor CFF outlines", ErrFont, f.Key)
	}
	if s.Head == nil || s.Head.UnitsPerEm == 0 || info.numGlyphs == 0 {
		return nil, fmt.Errorf("%w: %s: no glyphs or units per em", ErrFont, f.Key)
	}
	info.upem = float64(s.Head.UnitsPerEm)

	// Widths from the raw hmtx, bounds-checked glyph by glyph.
	info.hmtx = s.Tables["hmtx"]
	if hhea := s.Tables["hhea"]; len(hhea) >= 36 {
		info.numHMetrics = int(binary.BigEndian.Uint16(hhea[34:]))
	}
	if info.numHMetrics == 0 || len(info.hmtx) < 4*info.numHMetrics {
		return nil, fmt.Errorf("%w: %s: bad hmtx", ErrFont, f.Key)
	}
	info.advances = make([]uint16, info.numGlyphs)
	for g := range info.advances {
		info.advances[g] = info.advance(g)
	}

	if s.IsTrueType {
		info.glyf, info.loca = s.Tables["glyf"], s.Tables["loca"]
		info.longLoca = s.Head.IndexToLocFormat != 0
		need := 2 * (info.numGlyphs + 1)
		if info.longLoca {
			need *= 2
		}
		if len(info.loca) < need {
			return nil, fmt.Errorf("%w: %s: loca too short", ErrFont, f.Key)
		}
		for _, tag := range []string{"head", "hhea", "maxp"} {
			if len(s.Tables[tag]) < 6 {
				return nil, fmt.Errorf("%w: %s: no %s table", ErrFont, f.Key, tag)
			}
		}
	}

	info.weight = 400
	if s.OS2 != nil && s.OS2.UsWeightClass != 0 {
		info.weight = int(s.OS2.UsWeightClass)
	}
	info.fixed = f.FixedPitch || (s.Post != nil && s.Post.IsFixedPitch != 0)
	info.psName = f.PostScriptName
	if info.psName == "" {
		info.psName = "Font"
	}
	info.family = familyName(s, info.psName)
	k := 1000 / info.upem
	upem := f.UnitsPerEm
	if upem > 0 {
		k = 1000 / float64(upem)
	}
	info.ascent = float64(f.Ascent) * k
	info.descent = float64(f.Descent) * k
	info.capH = float64(f.CapHeight) * k
	for i, v := range f.BBox {
		info.bbox[i] = float64(v) * k
	}
	if f.Ascent == 0 && f.Descent == 0 && s.Hhea != nil { // draw.Font left empty: use the font's own
		info.ascent = float64(s.Hhea.Ascender) * 1000 / info.upem
		info.descent = float64(s.Hhea.Descender) * 1000 / info.upem
	}
	if f.BBox == [4]int{} {
		h := s.Head
		info.bbox = [4]float64{float64(h.XMin) * 1000 / info.upem, float64(h.YMin) * 1000 / info.upem,
			float64(h.XMax) * 1000 / info.upem, float64(h.YMax) * 1000 / info.upem}
	}
	if info.capH == 0 {
		info.capH = info.ascent
	}
	info.italic = f.ItalicAngle
	info.isItalic = f.Italic || f.ItalicAngle != 0
	info.serif = f.Serif
	info.cids.New = func() any { s := make([]uint16, info.numGlyphs); return &s }
	return info, nil
}

// extractFace copies face index of a font collection into a font file of
// its own. tdewolff/font can parse collections, but rejects the last face
// of one (its bounds check counts the header twice), so the writer never
// hands it a collection.
func extractFace(b []byte, index int) ([]byte, error) {
	if len(b) < 12 {
		return nil, errors.New("truncated collection header")
	}
	n := int(binary.BigEndian.Uint32(b[8:]))
	if index < 0 || index >= n {
		return nil, fmt.Errorf("face index %d outside the collection's %d faces", index, n)
	}
	if 12+4*n > len(b) {
		return nil, errors.New("truncated collection header")
	}
	off := int(binary.BigEndian.Uint32(b[12+4*index:]))
	if off < 0 || off+12 > len(b) {
		return nil, errors.New("face offset outside the file")
	}
	numTables := int(binary.BigEndian.Uint16(b[off+4:]))
	dir := off + 12
	if dir+16*numTables > len(b) {
		return nil, errors.New("truncated table directory")
	}
	size := 12 + 16*numTables
	for i := 0; i < numTables; i++ {
		l := int(binary.BigEndian.Uint32(b[dir+16*i+12:]))
		size += (l + 3) &^ 3
	}
	if size > len(b) {
		return nil, errors.New("tables larger than the file")
	}
	out := make([]byte, 12+16*numTables, size)
	copy(out, b[off:off+12+16*numTables])
	for i := 0; i < numTables; i++ {
		rec := out[12+16*i:]
		to := int(binary.BigEndian.Uint32(rec[8:]))
		l := int(binary.BigEndian.Uint32(rec[12:]))
		if to < 0 || l < 0 || to+l > len(b) {
			return nil, errors.New("table outside the file")
		}
		binary.BigEndian.PutUint32(rec[8:], uint32(len(out)))
		out = append(out, b[to:to+l]...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	return out, nil
}

// familyName is the font's typographic family (name ID 16), else its family
// (ID 1), else the PostScript name up to its first hyphen.
func familyName(s *font.SFNT, ps string) string {
	if s.Name != nil {
		for _, id := range []font.NameID{font.NamePreferredFamily, font.NameFontFamily} {
			for _, r := range s.Name.Get(id) {
				if v := strings.TrimSpace(r.String()); v != "" && utf8.ValidString(v) {
					return v
				}
			}
		}
	}
	if i := strings.IndexByte(ps, '-'); i > 0 {
		return ps[:i]
	}
	return ps
}

// advance reads glyph g's advance from the raw hmtx (the last long metric
// covers the glyphs after it, as the table's format says).
func (fi *fontInfo) advance(g int) uint16 {
	i := g
	if i >= fi.numHMetrics {
		i = fi.numHMetrics - 1
	}
	return binary.BigEndian.Uint16(fi.hmtx[4*i:])
}

// lsb reads glyph g's left side bearing from the raw hmtx, 0 when missing.
func (fi *fontInfo) lsb(g int) int16 {
	if g < fi.numHMetrics {
		return int16(binary.BigEndian.Uint16(fi.hmtx[4*g+2:]))
	}
	o := 4*fi.numHMetrics + 2*(g-fi.numHMetrics)
	if o+2 > len(fi.hmtx) {
		return 0
	}
	return int16(binary.BigEndian.Uint16(fi.hmtx[o:]))
}

// glyph returns glyph g's glyf data, nil when empty or out of bounds.
func (fi *fontInfo) glyph(g int) []byte {
	var start, end uint32
	if fi.longLoca {
		start = binary.BigEndian.Uint32(fi.loca[4*g:])
		end = binary.BigEndian.Uint32(fi.loca[4*g+4:])
	} else {
		start = 2 * uint32(binary.BigEndian.Uint16(fi.loca[2*g:]))
		end = 2 * uint32(binary.BigEndian.Uint16(fi.loca[2*g+2:]))
	}
	if end <= start || end > uint32(len(fi.glyf)) || end-start < 10 {
		return nil
	}
	return fi.glyf[start:end]
}

// glyphBounds is glyph g's bounding box in font units (y up), and whether
// it has one: the box a TrueType glyph records; for CFF outlines, which
// record none, the font's box, so that no glyph is taken for outside a
// clip it reaches into.
func (fi *fontInfo) glyphBounds(g uint16) (x0, y0, x1, y1 float64, ink bool) {
	if int(g) >= fi.numGlyphs {
		g = 0
	}
	if fi.cff {
		k := fi.upem / 1000
		return fi.bbox[0] * k, fi.bbox[1] * k, fi.bbox[2] * k, fi.bbox[3] * k, true
	}
	d := fi.glyph(int(g))
	if d == nil {
		return 0, 0, 0, 0, false
	}
	v := func(o int) float64 { return float64(int16(binary.BigEndian.Uint16(d[o:]))) }
	x0, y0, x1, y1 = v(2), v(4), v(6), v(8)
	return x0, y0, x1, y1, x1 > x0 && y1 > y0
}

// stemV estimates the dominant vertical stem width from the weight class, as
// the font descriptor needs one and fonts do not record it (the usual
// heuristic: 50 + (weight/65)^2, 88 for regular, 166 for bold).
func (fi *fontInfo) stemV() int {
	w := float64(fi.weight) / 65
	return int(math.Round(50 + w*w))
}

// flags are the font descriptor's /Flags (9.8.2): always Symbolic, as the
// glyphs of a CIDFont are outside the standard Latin character set.
func (fi *fontInfo) flags() int {
	f := 4
	if fi.fixed {
		f |= 1
	}
	if fi.serif {
		f |= 2
	}
	if fi.isItalic {
		f |= 64
	}
	return f
}

// Composite glyph flags (OpenType glyf table).
const (
	argsAreWords    = 0x0001
	haveScale       = 0x0008
	moreComponents  = 0x0020
	haveXYScale     = 0x0040
	haveTwoByTwo    = 0x0080
	haveInstruction = 0x0100
)

// subsetTrueType builds a TrueType font holding gids (gids[i] becomes glyph
// i) and the components their composite glyphs use, copying glyph outlines
// as they are. Hinting (instructions, cvt, fpgm, prep) is dropped: PDF
// viewers render at high resolution, and it is a third of a typical subset.
func (fi *fontInfo) subsetTrueType(gids []uint16, sc *scratch) ([]byte, error) {
	order := append(sc.order[:0], gids...)
	newID := sc.newID
	clear(newID)
	for i, g := range gids {
		if _, ok := newID[g]; !ok {
			newID[g] = uint16(i)
		}
	}
	// Close over composite components (they may nest).
	for i := 0; i < len(order); i++ {
		b := fi.glyph(int(order[i]))
		if len(b) < 10 || int16(binary.BigEndian.Uint16(b)) >= 0 {
			continue
		}
		for o := 10; o+4 <= len(b); {
			flags := binary.BigEndian.Uint16(b[o:])
			sub := binary.BigEndian.Uint16(b[o+2:])
			if int(sub) >= fi.numGlyphs {
				return nil, fmt.Errorf("%w: composite glyph %d refers to glyph %d", ErrFont, order[i], sub)
			}
			if _, ok := newID[sub]; !ok {
				if len(order) >= math.MaxUint16 {
					return nil, fmt.Errorf("%w: too many glyphs", ErrFont)
				}
				newID[sub] = uint16(len(order))
				order = append(order, sub)
			}
			o += componentLength(flags)
			if flags&moreComponents == 0 {
				break
			}
		}
	}
	sc.order = order
	n := len(order)

	// glyf and the offsets for loca.
	glyf := sc.glyf[:0]
	offsets := append(sc.offsets[:0], 0)
	for _, g := range order {
		b := fi.glyph(int(g))
		if b != nil {
			glyf = appendGlyph(glyf, b, newID)
		}
		if len(glyf)%2 == 1 {
			glyf = append(glyf, 0)
		}
		offsets = append(offsets, uint32(len(glyf)))
	}
	sc.glyf, sc.offsets = glyf, offsets
	longLoca := len(glyf) > 0x1fffe
	loca := sc.loca[:0]
	for _, o := range offsets {
		if longLoca {
			loca = binary.BigEndian.AppendUint32(loca, o)
		} else {
			loca = binary.BigEndian.AppendUint16(loca, uint16(o/2))
		}
	}
	sc.loca = loca

	// hmtx, with the trailing run of equal advances folded.
	nh := n
	for nh > 1 && fi.advances[order[nh-1]] == fi.advances[order[nh-2]] {
		nh--
	}
	hmtx := sc.hmtx[:0]
	for i, g := range order {
		if i < nh {
			hmtx = binary.BigEndian.AppendUint16(hmtx, fi.advances[g])
		}
		hmtx = binary.BigEndian.AppendUint16(hmtx, uint16(fi.lsb(int(g))))
	}
	sc.hmtx = hmtx

	t := fi.sfnt.Tables
	head := append(sc.head[:0], t["head"]...)
	if len(head) < 54 {
		return nil, fmt.Errorf("%w: short head table", ErrFont)
	}
	binary.BigEndian.PutUint32(head[8:], 0) // checkSumAdjustment, set below
	loc := uint16(0)
	if longLoca {
		loc = 1
	}
	binary.BigEndian.PutUint16(head[50:], loc)
	sc.head = head
	hhea := append(sc.hhea[:0], t["hhea"]...)
	binary.BigEndian.PutUint16(hhea[34:], uint16(nh))
	sc.hhea = hhea
	maxp := append(sc.maxp[:0], t["maxp"]...)
	binary.BigEndian.PutUint16(maxp[4:], uint16(n))
	sc.maxp = maxp

	// Tables in tag order, as the directory must be sorted.
	tables := [...]struct {
		tag  string
		data []byte
	}{{"glyf", glyf}, {"head", head}, {"hhea", hhea}, {"hmtx", hmtx}, {"loca", loca}, {"maxp", maxp}}
	const numTables = len(tables)
	size := 12 + 16*numTables
	for _, tb := range tables {
		size += (len(tb.data) + 3) &^ 3
	}
	out := slices.Grow(sc.font[:0], size)[:12+16*numTables]
	clear(out)
	binary.BigEndian.PutUint32(out[0:], 0x00010000)
	binary.BigEndian.PutUint16(out[4:], uint16(numTables))
	binary.BigEndian.PutUint16(out[6:], 64) // searchRange: 16 * 2^floor(log2 6)
	binary.BigEndian.PutUint16(out[8:], 2)  // entrySelector
	binary.BigEndian.PutUint16(out[10:], uint16(16*numTables-64))
	headAt := 0
	for i, tb := range tables {
		rec := out[12+16*i:]
		copy(rec, tb.tag)
		binary.BigEndian.PutUint32(rec[4:], checksum(tb.data))
		binary.BigEndian.PutUint32(rec[8:], uint32(len(out)))
		binary.BigEndian.PutUint32(rec[12:], uint32(len(tb.data)))
		if tb.tag == "head" {
			headAt = len(out)
		}
		out = append(out, tb.data...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	binary.BigEndian.PutUint32(out[headAt+8:], 0xB1B0AFBA-checksum(out))
	sc.font = out
	return out, nil
}

// componentLength is the size of one composite glyph component record.
func componentLength(flags uint16) int {
	n := 6
	if flags&argsAreWords != 0 {
		n += 2
	}
	switch {
	case flags&haveScale != 0:
		n += 2
	case flags&haveXYScale != 0:
		n += 4
	case flags&haveTwoByTwo != 0:
		n += 8
	}
	return n
}

// appendGlyph appends one glyph's data without its instructions, with the
// glyph ids of a composite's components renumbered.
func appendGlyph(dst, b []byte, newID map[uint16]uint16) []byte {
	nc := int16(binary.BigEndian.Uint16(b))
	if nc >= 0 {
		// Simple glyph: header, endPtsOfContours, instructionLength,
		// instructions, then flags and coordinates.
		o := 10 + 2*int(nc)
		if o+2 > len(b) {
			return append(dst, b...)
		}
		il := int(binary.BigEndian.Uint16(b[o:]))
		if o+2+il > len(b) {
			return append(dst, b...)
		}
		dst = append(dst, b[:o]...)
		dst = append(dst, 0, 0)
		return append(dst, b[o+2+il:]...)
	}
	start := len(dst)
	dst = append(dst, b...)
	c := dst[start:]
	o := 10
	for o+4 <= len(c) {
		flags := binary.BigEndian.Uint16(c[o:])
		sub := binary.BigEndian.Uint16(c[o+2:])
		binary.BigEndian.PutUint16(c[o+2:], newID[sub])
		binary.BigEndian.PutUint16(c[o:], flags&^haveInstruction)
		o += componentLength(flags)
		if flags&moreComponents == 0 {
			break
		}
	}
	if o < len(c) {
		dst = dst[:start+o]
	}
	return dst
}

// checksum is the OpenType table checksum: the sum of big-endian uint32s,
// the data zero-padded to a multiple of four.
func checksum(b []byte) uint32 {
	var sum uint32
	for len(b) >= 4 {
		sum += binary.BigEndian.Uint32(b)
		b = b[4:]
	}
	if len(b) > 0 {
		var tail [4]byte
		copy(tail[:], b)
		sum += binary.BigEndian.Uint32(tail[:])
	}
	return sum
}

// subsetCFF builds a bare CFF font program holding gids (gids[i] becomes
// glyph i), for FontFile3 /CIDFontType0C. The program is not CID-keyed, so
// a reader uses the CIDs as glyph indices (ISO 32000-1, 9.7.4.2). Our own
// subsetter does it when it can read the program (a name-keyed CFF with
// charstrings it understands), tdewolff/font's otherwise (five times slower).
func (fi *fontInfo) subsetCFF(gids []uint16, sc *scratch) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%w: CFF subset: %v", ErrFont, r)
		}
	}()
	if fi.cffProg != nil && cffLayout != cffTdewolff {
		if out, err := fi.cffProg.subset(gids, sc); err == nil {
			return out, nil
		}
	}
	return fi.subsetCFFSlow(gids)
}

// subsetCFFSlow subsets with tdewolff/font, which renumbers subroutines.
func (fi *fontInfo) subsetCFFSlow(gids []uint16) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%w: CFF subset: %v", ErrFont, r)
		}
	}()
	s, err := fi.sfnt.Subset(gids, font.SubsetOptions{Tables: []string{"CFF "}})
	if err != nil {
		return nil, fmt.Errorf("%w: CFF subset: %v", ErrFont, err)
	}
	b := s.Tables["CFF "]
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: CFF subset is empty", ErrFont)
	}
	return b, nil
}

// subsetCacheSize bounds the subsets kept per font: a run of documents from
// one template tends to use the same glyphs in the same order, and then the
// font program is compressed once. Entries are a few kilobytes each.
const subsetCacheSize = 32

// subsetCache keeps the latest compressed font programs of one font, by the
// exact glyph list (CID order included), evicting the oldest.
type subsetCache struct {
	mu      sync.Mutex
	entries []subsetEntry
	next    int
}

type subsetEntry struct {
	level int
	gids  []uint16
	hash  uint64
	data  []byte // compressed font program
	raw   int    // its uncompressed length
}

func (c *subsetCache) get(h uint64, level int, gids []uint16) (data []byte, raw int, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.entries {
		e := &c.entries[i]
		if e.hash == h && e.level == level && equalGIDs(e.gids, gids) {
			return e.data, e.raw, true
		}
	}
	return nil, 0, false
}

func (c *subsetCache) put(h uint64, level int, gids []uint16, data []byte, raw int) {
	e := subsetEntry{level: level, gids: append([]uint16(nil), gids...), hash: h, data: data, raw: raw}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) < subsetCacheSize {
		c.entries = append(c.entries, e)
		return
	}
	c.entries[c.next] = e
	c.next = (c.next + 1) % subsetCacheSize
}

// cmapCache keeps the latest compressed ToUnicode CMaps of one font, by
// the texts of its CIDs, evicting the oldest: documents of one template map
// the same glyphs to the same text.
type cmapCache struct {
	mu      sync.Mutex
	entries []cmapEntry
	next    int
}

type cmapEntry struct {
	level int
	hash  uint64
	texts []string
	data  []byte // compressed CMap
}

func (c *cmapCache) get(h uint64, level int, texts []string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.entries {
		e := &c.entries[i]
		if e.hash == h && e.level == level && slices.Equal(e.texts, texts) {
			return e.data, true
		}
	}
	return nil, false
}

func (c *cmapCache) put(h uint64, level int, texts []string, data []byte) {
	e := cmapEntry{level: level, hash: h, texts: slices.Clone(texts), data: data}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) < subsetCacheSize {
		c.entries = append(c.entries, e)
		return
	}
	c.entries[c.next] = e
	c.next = (c.next + 1) % subsetCacheSize
}

// hashTexts is FNV-1a over the texts, each ended by a zero byte.
func hashTexts(texts []string) uint64 {
	h := uint64(14695981039346656037)
	for _, t := range texts {
		for i := 0; i < len(t); i++ {
			h ^= uint64(t[i])
			h *= 1099511628211
		}
		h *= 1099511628211 // the separator
	}
	return h
}

func equalGIDs(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// hashGIDs is FNV-1a over the glyph list, for the subset cache and the tag.
func hashGIDs(seed string, gids []uint16) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(seed); i++ {
		h ^= uint64(seed[i])
		h *= 1099511628211
	}
	for _, g := range gids {
		h ^= uint64(g & 0xff)
		h *= 1099511628211
		h ^= uint64(g >> 8)
		h *= 1099511628211
	}
	return h
}

// subsetTag is the six upper-case letters before a subset's name (9.6.4),
// derived from the glyph list so that equal subsets get equal tags.
func subsetTag(h uint64) [6]byte {
	var t [6]byte
	for i := range t {
		t[i] = byte('A' + h%26)
		h /= 26
	}
	return t
}
