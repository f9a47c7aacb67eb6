package pdfw

import (
	"math"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/platen/platen/render/phantom/draw"
)

// noSubsetCache turns the subset cache off, for benchmarks of cold writes.
var noSubsetCache bool

// docFont is one font as used in one document: the glyphs it shows, each
// given a CID in glyph id order (CID 0 is .notdef). The subset font holds
// glyph i at CID i, so a CID is also the glyph index in the subset: no
// CIDToGIDMap, and the W array is one run. As the CIDs depend only on the
// set of glyphs, documents that use the same glyphs share a font program
// (and its cached compression).
type docFont struct {
	src    *draw.Font
	info   *fontInfo
	index  int // resource name /F<index>
	ref    int // the Type0 font object
	cidOf  []uint16
	cidBuf *[]uint16 // cidOf's pool handle
	gids   []uint16  // by CID
	widths []float64 // by CID, in glyph space (1000 per em), as written in W
	// texts is each glyph's ToUnicode text, by CID once numbered (in order
	// of collection before): see preferText. A cluster showing other text
	// through the glyph is written inside an ActualText span.
	texts []string
}

// font returns the document's font for f, nil (and the error recorded) when
// it cannot be embedded.
func (w *writer) font(f *draw.Font) *docFont {
	if df, ok := w.fontOf[f]; ok {
		return df
	}
	info, err := loadFont(f)
	if err != nil {
		if w.err == nil {
			w.err = err
		}
		w.fontOf[f] = nil
		return nil
	}
	buf := info.cids.Get().(*[]uint16)
	df := &docFont{src: f, info: info, index: len(w.fonts), ref: w.alloc(), cidOf: *buf, cidBuf: buf}
	df.gids = append(df.gids, 0)
	df.widths = append(df.widths, info.width(0))
	df.texts = append(df.texts, "")
	w.fonts = append(w.fonts, df)
	w.fontOf[f] = df
	return df
}

// width is glyph g's width in glyph space, rounded as W writes it.
func (fi *fontInfo) width(g uint16) float64 {
	return math.Round(float64(fi.advances[g])*1e6/fi.upem) / 1000
}

// mark collects glyph gid showing text (its cluster's, or empty); ids
// outside the font are left to show .notdef. Until number, cidOf holds the
// glyph's place in gids and texts, in order of collection.
func (f *docFont) mark(gid uint16, text string) {
	if gid == 0 || int(gid) >= f.info.numGlyphs {
		return
	}
	if i := f.cidOf[gid]; i != 0 {
		if preferText(text, f.texts[i]) {
			f.texts[i] = text
		}
		return
	}
	f.cidOf[gid] = uint16(len(f.gids))
	f.gids = append(f.gids, gid)
	f.texts = append(f.texts, text)
}

// preferText reports whether text should replace cur as a glyph's ToUnicode
// text. Skia maps a glyph to the lowest code point the font's cmap gives
// it and marks every cluster that reads otherwise with ActualText; the
// lowest single code point seen in the document comes closest without
// reading the cmap: the space glyph stays U+0020 when a soft hyphen or a
// zero-width space is shaped to it, and a capital stays a capital when
// synthesised small caps show a lower-case letter with it.
func preferText(text, cur string) bool {
	if text == "" || text == cur {
		return false
	}
	if cur == "" {
		return true
	}
	r, n := utf8.DecodeRuneInString(text)
	if n != len(text) {
		return false
	}
	rc, nc := utf8.DecodeRuneInString(cur)
	return nc != len(cur) || r < rc
}

// number gives the collected glyphs their CIDs, in glyph id order, their
// texts following them.
func (f *docFont) number() {
	collected := f.texts
	slices.Sort(f.gids[1:])
	f.texts = make([]string, len(f.gids))
	for c, g := range f.gids {
		if c == 0 {
			continue
		}
		f.texts[c] = collected[f.cidOf[g]]
		f.cidOf[g] = uint16(c)
		f.widths = append(f.widths, f.info.width(g))
	}
}

// cid returns the CID showing glyph gid.
func (f *docFont) cid(gid uint16) uint16 {
	if int(gid) >= f.info.numGlyphs {
		return 0
	}
	return f.cidOf[gid]
}

// collectGlyphs walks the pages once before any is written, loading each
// font in order of first use and numbering the glyphs it shows.
func (w *writer) collectGlyphs(doc *draw.Document) {
	for _, p := range doc.Pages {
		if p == nil {
			continue
		}
		for _, op := range p.Ops {
			switch o := op.(type) {
			case draw.Text:
				w.collectText(&o)
			case *draw.Text:
				if o != nil {
					w.collectText(o)
				}
			}
		}
	}
	for _, f := range w.fonts {
		f.number()
	}
}

func (w *writer) markGlyphs(font *draw.Font, size float64, gs []draw.Glyph) {
	if font == nil || !(size > 0) || size > maxFontSize || len(gs) == 0 {
		return
	}
	f := w.font(font)
	if f == nil {
		return
	}
	for i := range gs {
		f.mark(gs[i].ID, gs[i].Text)
	}
}

// release gives the glyph table back to the font, zeroed.
func (f *docFont) release() {
	for _, g := range f.gids {
		f.cidOf[g] = 0
	}
	f.info.cids.Put(f.cidBuf)
}

// writeFonts writes each font: program, descriptor, CIDFont, ToUnicode and
// the Type0 font, in the order of the fonts' keys.
func (w *writer) writeFonts() error {
	order := make([]*docFont, 0, len(w.fonts))
	order = append(order, w.fonts...)
	sort.SliceStable(order, func(i, j int) bool { return order[i].src.Key < order[j].src.Key })
	for _, f := range order {
		if err := w.writeFont(f); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) writeFont(f *docFont) error {
	fi := f.info
	h := hashGIDs(f.src.Key, f.gids)
	tag := subsetTag(h)

	program, rawLen, ok := fi.subsets.get(h, w.level, f.gids)
	if !ok || noSubsetCache {
		var raw []byte
		var err error
		if fi.cff {
			raw, err = fi.subsetCFF(f.gids, &w.sc)
		} else {
			if w.sc.newID == nil {
				w.sc.newID = make(map[uint16]uint16)
			}
			raw, err = fi.subsetTrueType(f.gids, &w.sc)
		}
		if err != nil {
			return err
		}
		program = appendDeflate(nil, raw, w.level)
		rawLen = len(raw)
		fi.subsets.put(h, w.level, f.gids, program, rawLen)
	}
	ff, fd, cf, tu := w.alloc(), w.alloc(), w.alloc(), w.alloc()

	d := w.tmp[:0]
	if fi.cff {
		d = append(d, "/Subtype/CIDFontType0C"...)
	} else {
		d = append(d, "/Length1 "...)
		d = appendInt(d, rawLen)
	}
	d = append(d, "/Filter/FlateDecode"...)
	w.tmp = d
	w.putStream(ff, d, program)

	// FontDescriptor (9.8).
	b := append(w.tmp[:0], "<</Type/FontDescriptor/FontName"...)
	b = appendBaseFont(b, tag, fi.psName)
	b = append(b, "/FontFamily"...)
	b = appendTextString(b, fi.family)
	b = append(b, "/Flags "...)
	b = appendInt(b, fi.flags())
	b = append(b, "/FontBBox["...)
	for k, v := range fi.bbox {
		if k > 0 {
			b = append(b, ' ')
		}
		b = appendNum(b, v, 0)
	}
	// Ascent and descent unrounded, as Skia writes them: pdftotext takes a
	// word box's top and bottom from them.
	b = append(b, "]/ItalicAngle "...)
	b = appendNum(b, fi.italic, 2)
	b = append(b, "/Ascent "...)
	b = appendNum(b, fi.ascent, 3)
	b = append(b, "/Descent "...)
	b = appendNum(b, fi.descent, 3)
	b = append(b, "/CapHeight "...)
	b = appendNum(b, fi.capH, 3)
	b = append(b, "/StemV "...)
	b = appendInt(b, fi.stemV())
	if fi.cff {
		b = append(b, "/FontFile3 "...)
	} else {
		b = append(b, "/FontFile2 "...)
	}
	b = appendRef(b, ff)
	b = append(b, ">>"...)
	w.tmp = b
	w.putObj(fd, b)

	// CIDFont (9.7.4), widths for every CID in one run.
	b = append(w.tmp[:0], "<</Type/Font/Subtype/"...)
	if fi.cff {
		b = append(b, "CIDFontType0/BaseFont"...)
	} else {
		b = append(b, "CIDFontType2/BaseFont"...)
	}
	b = appendBaseFont(b, tag, fi.psName)
	b = append(b, "/CIDSystemInfo<</Registry(Adobe)/Ordering(Identity)/Supplement 0>>/FontDescriptor "...)
	b = appendRef(b, fd)
	b = append(b, "/W[0["...)
	for k, v := range f.widths {
		if k > 0 {
			b = append(b, ' ')
		}
		b = appendNum(b, v, widthDecimals)
	}
	b = append(b, "]]"...)
	if !fi.cff {
		b = append(b, "/CIDToGIDMap/Identity"...)
	}
	b = append(b, ">>"...)
	w.tmp = b
	w.putObj(cf, b)

	th := hashTexts(f.texts)
	cmap, ok := fi.cmaps.get(th, w.level, f.texts)
	if !ok || noSubsetCache {
		w.raw = appendToUnicode(w.raw[:0], f.texts)
		cmap = appendDeflate(nil, w.raw, w.level)
		fi.cmaps.put(th, w.level, f.texts, cmap)
	}
	w.putStream(tu, append(w.tmp[:0], "/Filter/FlateDecode"...), cmap)

	b = append(w.tmp[:0], "<</Type/Font/Subtype/Type0/BaseFont"...)
	b = appendBaseFont(b, tag, fi.psName)
	if fi.cff {
		// Over a CIDFontType0 the name is the CIDFont's and the CMap's (9.7.6.1).
		b = append(b, "-Identity-H"...)
	}
	b = append(b, "/Encoding/Identity-H/DescendantFonts["...)
	b = appendRef(b, cf)
	b = append(b, "]/ToUnicode "...)
	b = appendRef(b, tu)
	b = append(b, ">>"...)
	w.tmp = b
	w.putObj(f.ref, b)
	return nil
}

// appendBaseFont appends the subset's name, TAG+PostScriptName (9.6.4).
func appendBaseFont(b []byte, tag [6]byte, ps string) []byte {
	b = append(b, '/')
	b = append(b, tag[:]...)
	b = append(b, '+')
	return appendNameBody(b, ps)
}

const toUnicodeHead = "/CIDInit/ProcSet findresource begin\n12 dict begin\nbegincmap\n" +
	"/CIDSystemInfo<</Registry(Adobe)/Ordering(UCS)/Supplement 0>>def\n" +
	"/CMapName/Adobe-Identity-UCS def\n/CMapType 2 def\n" +
	"1 begincodespacerange\n<0000><FFFF>\nendcodespacerange\n"

const toUnicodeTail = "endcmap\nCMapName currentdict/CMap defineresource pop\nend\nend\n"

// appendToUnicode appends the ToUnicode CMap (9.10.3): each CID with text
// maps to it (several code points for a ligature); the others map nowhere.
// Runs of CIDs mapping to consecutive single characters (digits, letters:
// CIDs follow glyph ids, which fonts order by code point) become ranges.
func appendToUnicode(b []byte, texts []string) []byte {
	b = append(b, toUnicodeHead...)
	// Count the ranges and the single mappings first: each block says its size.
	nr, nc := 0, 0
	for c := 0; c < len(texts); {
		if texts[c] == "" {
			c++
			continue
		}
		if k := rangeLen(texts, c); k > 1 {
			nr++
			c += k
			continue
		}
		nc++
		c++
	}
	b = appendCMapBlocks(b, texts, nc, false)
	b = appendCMapBlocks(b, texts, nr, true)
	return append(b, toUnicodeTail...)
}

// appendCMapBlocks appends the n bfrange (ranges) or bfchar entries, in
// blocks of at most 100 (the CMap format's limit).
func appendCMapBlocks(b []byte, texts []string, n int, ranges bool) []byte {
	left := 0
	for c := 0; c < len(texts); {
		if texts[c] == "" {
			c++
			continue
		}
		k := rangeLen(texts, c)
		if (k > 1) != ranges {
			c += max(k, 1)
			continue
		}
		if left == 0 {
			left = min(n, 100)
			n -= left
			b = appendInt(b, left)
			if ranges {
				b = append(b, " beginbfrange\n"...)
			} else {
				b = append(b, " beginbfchar\n"...)
			}
		}
		b = append(b, '<')
		b = appendHex16(b, uint16(c))
		if ranges {
			b = append(b, "><"...)
			b = appendHex16(b, uint16(c+k-1))
		}
		b = append(b, "><"...)
		t, runes := texts[c], 0
		for len(t) > 0 && runes < maxToUnicodeRunes {
			r, size := utf8.DecodeRuneInString(t)
			t = t[size:]
			b = appendUTF16Hex(b, r)
			runes++
		}
		b = append(b, ">\n"...)
		c += max(k, 1)
		if left--; left == 0 {
			if ranges {
				b = append(b, "endbfrange\n"...)
			} else {
				b = append(b, "endbfchar\n"...)
			}
		}
	}
	return b
}

// rangeLen is how many CIDs from c map to consecutive single BMP characters
// that a bfrange can hold: neither the CIDs nor the characters may cross a
// change of their high byte.
func rangeLen(texts []string, c int) int {
	r0, ok := singleBMP(texts[c])
	if !ok {
		return 1
	}
	k := 1
	for c+k < len(texts) && (c+k)&0xff != 0 && (int(r0)+k)&0xff != 0 {
		r, ok := singleBMP(texts[c+k])
		if !ok || r != r0+rune(k) {
			break
		}
		k++
	}
	return k
}

// singleBMP reports whether s is one character of the Basic Multilingual
// Plane (not a surrogate), and which.
func singleBMP(s string) (rune, bool) {
	r, size := utf8.DecodeRuneInString(s)
	if size != len(s) || r == utf8.RuneError || r > 0xffff || (r >= 0xd800 && r < 0xe000) {
		return 0, false
	}
	return r, true
}
