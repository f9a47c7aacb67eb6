package fonts

import (
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"sort"

	"github.com/andybalholm/brotli"

	tdfont "github.com/tdewolff/font"

	"github.com/platen/platen/render/phantom/style"
)

// WebFace is an @font-face rule's font, given as bytes (a template's
// data: URI): what the rule's descriptors say of it.
type WebFace struct {
	Family string
	// Data is the font file: TrueType or OpenType (SFNT), WOFF or WOFF2.
	Data []byte
	// WeightMin and WeightMax are the rule's font-weight range.
	WeightMin, WeightMax int
	Style                style.FontStyle
	// Ranges is the rule's unicode-range, nil for every character.
	Ranges [][2]rune
}

// maxWebFontBytes bounds one web font as decoded to SFNT: a font's
// declared size is checked before it is decompressed.
const maxWebFontBytes = 24 << 20

// maxWebFaces bounds the web faces of one document, and
// maxWebFontsBytes their decoded fonts together (a face that repeats
// another's font shares its bytes).
const (
	maxWebFaces      = 64
	maxWebFontsBytes = 32 << 20
)

// ErrWebFont is a web font phantom cannot read.
var ErrWebFont = errors.New("fonts: not a font phantom can read")

// WithWebFaces returns a library that resolves the web faces' families to
// them (hiding installed fonts of the same family, as a browser does) and
// everything else as l does. Faces that cannot be read are left out (a
// browser leaves out a font that fails to load too), their families in
// bad.
func (l *Library) WithWebFaces(faces []WebFace) (ol *Library, bad []string) {
	ol = &Library{
		faces:    l.faces,
		byFamily: l.byFamily,
		cfg:      l.cfg,
		resolved: make(map[queryKey]resolution),
		fallback: make(map[rune]*face),
		families: make(map[familyKey]*face),
		interned: make(map[internKey]*Resolved),
		web:      make(map[string][]*face),
	}
	decoded := map[[32]byte][]byte{}
	total := 0
	for i, wf := range faces {
		if i >= maxWebFaces {
			bad = append(bad, wf.Family)
			continue
		}
		sum := sha256.Sum256(wf.Data)
		data, ok := decoded[sum]
		if !ok {
			var err error
			if data, err = toSFNTSafe(wf.Data); err != nil || total+len(data) > maxWebFontsBytes {
				bad = append(bad, wf.Family)
				continue
			}
			decoded[sum] = data
			total += len(data)
		}
		fc, err := ol.webFace(wf, data, i)
		if err != nil {
			bad = append(bad, wf.Family)
			continue
		}
		k := foldFamily(wf.Family)
		ol.web[k] = append(ol.web[k], fc)
	}
	return ol, bad
}

// toSFNTSafe is toSFNT that turns a fault in the decoders (tdewolff/font
// trusts some offsets) into a refusal.
func toSFNTSafe(b []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, ErrWebFont
		}
	}()
	return toSFNT(b)
}

// webFace reads one web font, decoded to SFNT, into a face held in
// memory. A variable font (an fvar table) is refused: phantom sets no
// instance of its axes, where Chromium takes the weight from them.
func (l *Library) webFace(wf WebFace, data []byte, order int) (fc *face, err error) {
	defer func() {
		// A corrupt font fails its face, never the document.
		if r := recover(); r != nil {
			fc, err = nil, ErrWebFont
		}
	}()
	r := bytes.NewReader(data)
	offs, err := readSFNTOffsets(r)
	if err != nil || len(offs) == 0 || hasTable(data, offs[0], "fvar") {
		return nil, ErrWebFont
	}
	info, err := readSFNTInfo(r, offs[0])
	if err != nil || len(info.families) == 0 {
		return nil, ErrWebFont
	}
	cov, err := readCoverage(r, offs[0])
	if err != nil {
		return nil, ErrWebFont
	}
	if wf.Ranges != nil {
		cov = cov.within(wf.Ranges)
	}
	lo, hi := wf.WeightMin, wf.WeightMax
	if lo <= 0 || hi < lo {
		lo, hi = 400, 400
	}
	sum := sha256.Sum256(data)
	fc = &face{lib: l, order: -1 - order, data: data, key: "web:" + hex.EncodeToString(sum[:12]), info: info,
		web: &webDesc{family: wf.Family, weightMin: lo, weightMax: hi, style: wf.Style, order: order, ranged: wf.Ranges != nil}}
	fc.classify()
	// The rule's descriptors are the face's for matching and synthesis.
	fc.weight = lo
	fc.slant = 0
	if wf.Style != style.FontNormal {
		fc.slant = 100
	}
	fc.covOnce.Do(func() { fc.cov = cov })
	if err := fc.load(); err != nil {
		return nil, ErrWebFont
	}
	return fc, nil
}

// toSFNT returns a font file as SFNT: WOFF and WOFF2 are decoded once
// their tables are known to decompress to no more than they declare, and
// that within bounds (a few bytes must not unpack to gigabytes).
func toSFNT(b []byte) ([]byte, error) {
	if len(b) < 12 {
		return nil, ErrWebFont
	}
	var err error
	switch string(b[:4]) {
	case "wOFF":
		err = checkWOFF(b)
	case "wOF2":
		err = checkWOFF2(b)
	case "\x00\x01\x00\x00", "OTTO", "true":
		if len(b) > maxWebFontBytes {
			return nil, ErrWebFont
		}
		return b, nil
	default:
		return nil, ErrWebFont
	}
	if err != nil {
		return nil, err
	}
	out, err := tdfont.ToSFNT(b)
	if err != nil || len(out) > maxWebFontBytes {
		return nil, ErrWebFont
	}
	return out, nil
}

// checkWOFF checks a WOFF 1.0 file's tables: each within the file, the
// declared sizes within bounds, and each compressed table inflating to
// exactly its declared size.
func checkWOFF(b []byte) error {
	if len(b) < 44 {
		return ErrWebFont
	}
	n := int(binary.BigEndian.Uint16(b[12:]))
	if n == 0 || 44+20*n > len(b) {
		return ErrWebFont
	}
	total := 0
	for i := 0; i < n; i++ {
		e := b[44+20*i:]
		off, comp, orig := binary.BigEndian.Uint32(e[4:]), binary.BigEndian.Uint32(e[8:]), binary.BigEndian.Uint32(e[12:])
		if uint64(off)+uint64(comp) > uint64(len(b)) || comp > orig {
			return ErrWebFont
		}
		if total += int(orig); total > maxWebFontBytes {
			return ErrWebFont
		}
		if comp == orig {
			continue
		}
		zr, err := zlib.NewReader(bytes.NewReader(b[off : off+comp]))
		if err != nil {
			return ErrWebFont
		}
		got, err := io.Copy(io.Discard, io.LimitReader(zr, int64(orig)+1))
		if err != nil || got != int64(orig) {
			return ErrWebFont
		}
	}
	return nil
}

// checkWOFF2 checks a WOFF 2.0 file: a single font (no collection) whose
// tables' declared sizes are within bounds, and whose Brotli stream
// decompresses to no more than the sum of the sizes its table directory
// gives.
func checkWOFF2(b []byte) error {
	if len(b) < 48 || string(b[4:8]) == "ttcf" {
		return ErrWebFont
	}
	n := int(binary.BigEndian.Uint16(b[12:]))
	if n == 0 || binary.BigEndian.Uint32(b[16:]) > maxWebFontBytes {
		return ErrWebFont
	}
	comp := binary.BigEndian.Uint32(b[20:])
	pos := 48
	base128 := func() (uint32, bool) {
		var v uint32
		for i := 0; i < 5 && pos < len(b); i++ {
			c := b[pos]
			pos++
			if v&0xFE000000 != 0 {
				return 0, false
			}
			v = v<<7 | uint32(c&0x7f)
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	var stream uint64
	for i := 0; i < n; i++ {
		if pos >= len(b) {
			return ErrWebFont
		}
		flags := b[pos]
		pos++
		tag := ""
		if flags&0x3f == 63 {
			if pos+4 > len(b) {
				return ErrWebFont
			}
			tag = string(b[pos : pos+4])
			pos += 4
		} else if int(flags&0x3f) < len(woff2Tags) {
			tag = woff2Tags[flags&0x3f]
		}
		orig, ok := base128()
		if !ok {
			return ErrWebFont
		}
		length := orig
		version := flags >> 6
		if (tag == "glyf" || tag == "loca") && version == 0 || tag == "hmtx" && version == 1 {
			if length, ok = base128(); !ok {
				return ErrWebFont
			}
		}
		if stream += uint64(length); stream > maxWebFontBytes {
			return ErrWebFont
		}
	}
	if uint64(pos)+uint64(comp) > uint64(len(b)) {
		return ErrWebFont
	}
	got, err := io.Copy(io.Discard, io.LimitReader(brotli.NewReader(bytes.NewReader(b[pos:pos+int(comp)])), int64(stream)+1))
	if err != nil || uint64(got) > stream {
		return ErrWebFont
	}
	return nil
}

// woff2Tags are the WOFF 2.0 known table tags by index (WOFF 2.0 §5.1).
var woff2Tags = []string{"cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post", "cvt ", "fpgm", "glyf", "loca",
	"prep", "CFF ", "VORG", "EBDT", "EBLC", "gasp", "hdmx", "kern", "LTSH", "PCLT", "VDMX", "vhea", "vmtx", "BASE", "GDEF",
	"GPOS", "GSUB", "EBSC", "JSTF", "MATH", "CBDT", "CBLC", "COLR", "CPAL", "SVG ", "sbix", "acnt", "avar", "bdat", "bloc",
	"bsln", "cvar", "fdsc", "feat", "fmtx", "fvar", "gvar", "hsty", "just", "lcar", "mort", "morx", "opbd", "prop", "trak",
	"Zapf", "Silf", "Glat", "Gloc", "Feat", "Sill"}

// webDesc is a web face's @font-face descriptors.
type webDesc struct {
	family               string
	weightMin, weightMax int
	style                style.FontStyle
	order                int
	// ranged is set when a unicode-range limits the face.
	ranged bool
}

// splitCovered appends the parts of h whose characters fc sets to in,
// the others to out.
func splitCovered(fc *face, text string, h span, in, out []span) ([]span, []span) {
	start, cur := h.start, false
	for i, r := range text[h.start:h.end] {
		c := fc.covers(r)
		if i == 0 {
			cur = c
			continue
		}
		if c != cur {
			if cur {
				in = append(in, span{start, h.start + i})
			} else {
				out = append(out, span{start, h.start + i})
			}
			start, cur = h.start+i, c
		}
	}
	if cur {
		in = append(in, span{start, h.end})
	} else {
		out = append(out, span{start, h.end})
	}
	return in, out
}

// within is the part of c inside the ranges.
func (c coverage) within(ranges [][2]rune) coverage {
	var out coverage
	for _, rr := range c {
		for _, u := range ranges {
			lo, hi := max(rr.lo, u[0]), min(rr.hi, u[1])
			if lo <= hi {
				out = append(out, runeRange{lo, hi})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].lo < out[j].lo })
	return out
}

// webFamily resolves a family that web faces declare, by CSS font matching
// (CSS Fonts 4 §5.2): the faces of the closest style, then of the closest
// weight; those of the same descriptors (a family split by unicode-range)
// all, the last declared first. Blink synthesises bold when bold is asked
// of faces lighter than 600, and italic of upright faces.
func (l *Library) webFamily(fam string, q Query) []*Resolved {
	ws := l.web[foldFamily(fam)]
	if len(ws) == 0 {
		return nil
	}
	// Style: italic asks for italic, then oblique, then normal; oblique
	// for oblique, italic, normal; normal for normal, oblique, italic.
	order := map[style.FontStyle][]style.FontStyle{
		style.FontItalic:  {style.FontItalic, style.FontOblique, style.FontNormal},
		style.FontOblique: {style.FontOblique, style.FontItalic, style.FontNormal},
		style.FontNormal:  {style.FontNormal, style.FontOblique, style.FontItalic},
	}[q.Style]
	var cands []*face
	for _, st := range order {
		for _, fc := range ws {
			if fc.web.style == st {
				cands = append(cands, fc)
			}
		}
		if len(cands) > 0 {
			break
		}
	}
	if len(cands) == 0 {
		cands = ws
	}
	best := -1
	bestScore := 0.0
	for i, fc := range cands {
		s := weightScore(q.Weight, fc.web.weightMin, fc.web.weightMax)
		if best < 0 || s < bestScore {
			best, bestScore = i, s
		}
	}
	pick := cands[best].web
	var out []*Resolved
	for i := len(cands) - 1; i >= 0; i-- {
		fc := cands[i]
		if fc.web.weightMin != pick.weightMin || fc.web.weightMax != pick.weightMax || fc.web.style != pick.style {
			continue
		}
		out = append(out, l.intern(Resolved{
			Font:       fc.font,
			Family:     fc.web.family,
			FakeBold:   q.Weight >= boldThreshold && fc.web.weightMax < boldThreshold,
			FakeItalic: q.Style != style.FontNormal && fc.web.style == style.FontNormal,
			face:       fc,
		}))
	}
	return out
}

// weightScore ranks a face's weight range for a desired weight as CSS
// Fonts 4 §5.2 orders them (lower is better): inside the range first;
// then, for 400 to 500, heavier up to 500, lighter, heavier beyond; for
// less than 400, lighter then heavier; for more than 500, heavier then
// lighter; nearer before farther.
func weightScore(want, lo, hi int) float64 {
	if want >= lo && want <= hi {
		return 0
	}
	w := float64(want)
	switch {
	case want >= 400 && want <= 500:
		switch {
		case lo > want && lo <= 500:
			return 1 + float64(lo) - w
		case hi < want:
			return 2000 + w - float64(hi)
		default:
			return 4000 + float64(lo) - w
		}
	case want < 400:
		if hi < want {
			return 1 + w - float64(hi)
		}
		return 2000 + float64(lo) - w
	default:
		if lo > want {
			return 1 + float64(lo) - w
		}
		return 2000 + w - float64(hi)
	}
}

// hasTable reports whether the SFNT table directory at off lists tag.
func hasTable(b []byte, off uint32, tag string) bool {
	if uint64(off)+12 > uint64(len(b)) {
		return false
	}
	n := int(binary.BigEndian.Uint16(b[off+4:]))
	for i := 0; i < n; i++ {
		e := int(off) + 12 + 16*i
		if e+4 > len(b) {
			return false
		}
		if string(b[e:e+4]) == tag {
			return true
		}
	}
	return false
}
