package fonts

import (
	"encoding/binary"
	"errors"
	"io"
	"sort"
	"strings"
	"unicode/utf16"
)

// This file reads just enough of an OpenType file to identify a face
// (names, weight, width, slope) and to describe it to the PDF writer and to
// Blink's metrics, without parsing glyphs: the scan of every font on the
// machine must take milliseconds.

var errNotSFNT = errors.New("fonts: not an OpenType font")

// maxTableRead bounds how much of one table the scan reads; name tables of
// real fonts are a few KiB, the CJK ones up to a few hundred.
const maxTableRead = 1 << 20

type tableRec struct {
	off, len uint32
}

// sfntInfo is what the scan learns about one face.
type sfntInfo struct {
	families       []string // typographic (16), then legacy (1) family names, English first
	subfamily      string   // typographic (17) or legacy (2) subfamily, English
	fullName       string
	postScriptName string
	cff            bool // CFF outlines (OpenType/CFF), else TrueType

	unitsPerEm             int
	revision               int64 // head.fontRevision, 16.16 (fontconfig's fontversion)
	xMin, yMin, xMax, yMax int
	macStyle               uint16

	hheaAscent, hheaDescent, hheaLineGap int

	hasOS2                        bool
	os2Version                    uint16
	weightClass, widthClass       uint16
	fsSelection                   uint16
	typoAscent, typoDescent       int
	typoLineGap                   int
	winAscent, winDescent         int
	xHeight, capHeight            int
	strikeoutSize, strikeoutPos   int
	italicAngle                   float64
	underlinePos, underlineThick  int
	fixedPitch                    bool
	familyClass                   uint16
	panoseFamily, panoseSerifType uint8
}

// readSFNTOffsets returns the offsets of the table directories in r: one
// for a single font, several for a collection.
func readSFNTOffsets(r io.ReaderAt) ([]uint32, error) {
	var hdr [12]byte
	if _, err := r.ReadAt(hdr[:], 0); err != nil {
		return nil, err
	}
	switch string(hdr[:4]) {
	case "\x00\x01\x00\x00", "OTTO", "true":
		return []uint32{0}, nil
	case "ttcf":
		n := binary.BigEndian.Uint32(hdr[8:])
		if n == 0 || n > 256 {
			return nil, errNotSFNT
		}
		buf := make([]byte, 4*n)
		if _, err := r.ReadAt(buf, 12); err != nil {
			return nil, err
		}
		offs := make([]uint32, n)
		for i := range offs {
			offs[i] = binary.BigEndian.Uint32(buf[4*i:])
		}
		return offs, nil
	}
	return nil, errNotSFNT
}

// readTables reads the table directory at off.
func readTables(r io.ReaderAt, off uint32) (map[string]tableRec, bool, error) {
	var hdr [12]byte
	if _, err := r.ReadAt(hdr[:], int64(off)); err != nil {
		return nil, false, err
	}
	cff := string(hdr[:4]) == "OTTO"
	n := int(binary.BigEndian.Uint16(hdr[4:]))
	if n == 0 || n > 512 {
		return nil, false, errNotSFNT
	}
	buf := make([]byte, 16*n)
	if _, err := r.ReadAt(buf, int64(off)+12); err != nil {
		return nil, false, err
	}
	tabs := make(map[string]tableRec, n)
	for i := 0; i < n; i++ {
		e := buf[16*i:]
		tabs[string(e[:4])] = tableRec{off: binary.BigEndian.Uint32(e[8:]), len: binary.BigEndian.Uint32(e[12:])}
	}
	return tabs, cff, nil
}

func readTable(r io.ReaderAt, t tableRec) ([]byte, error) {
	n := t.len
	if n > maxTableRead {
		n = maxTableRead
	}
	b := make([]byte, n)
	_, err := r.ReadAt(b, int64(t.off))
	if err == io.EOF && n > 0 {
		err = nil
	}
	return b, err
}

func u16(b []byte, i int) uint16 {
	if i+2 > len(b) {
		return 0
	}
	return binary.BigEndian.Uint16(b[i:])
}

func i16(b []byte, i int) int { return int(int16(u16(b, i))) }

func u32(b []byte, i int) uint32 {
	if i+4 > len(b) {
		return 0
	}
	return binary.BigEndian.Uint32(b[i:])
}

// readSFNTInfo reads the identifying tables of the face whose directory is
// at off.
func readSFNTInfo(r io.ReaderAt, off uint32) (*sfntInfo, error) {
	tabs, cff, err := readTables(r, off)
	if err != nil {
		return nil, err
	}
	if _, ok := tabs["cmap"]; !ok {
		return nil, errNotSFNT
	}
	if _, ok := tabs["glyf"]; !ok && !cff {
		if _, ok := tabs["CFF "]; !ok {
			return nil, errNotSFNT // bitmap-only (or CFF2) faces: not scalable for Skia's purposes
		}
	}
	info := &sfntInfo{cff: cff}
	head, ok := tabs["head"]
	if !ok {
		return nil, errNotSFNT
	}
	b, err := readTable(r, head)
	if err != nil {
		return nil, err
	}
	info.unitsPerEm = int(u16(b, 18))
	info.revision = int64(int32(u32(b, 4)))
	if info.unitsPerEm < 16 || info.unitsPerEm > 16384 {
		return nil, errNotSFNT
	}
	info.xMin, info.yMin, info.xMax, info.yMax = i16(b, 36), i16(b, 38), i16(b, 40), i16(b, 42)
	info.macStyle = u16(b, 44)
	if t, ok := tabs["hhea"]; ok {
		if b, err = readTable(r, t); err != nil {
			return nil, err
		}
		info.hheaAscent, info.hheaDescent, info.hheaLineGap = i16(b, 4), i16(b, 6), i16(b, 8)
	}
	if t, ok := tabs["OS/2"]; ok && t.len >= 78 {
		if b, err = readTable(r, t); err != nil {
			return nil, err
		}
		info.hasOS2 = true
		info.os2Version = u16(b, 0)
		info.weightClass = u16(b, 4)
		info.widthClass = u16(b, 6)
		info.strikeoutSize = i16(b, 26)
		info.strikeoutPos = i16(b, 28)
		info.familyClass = u16(b, 30)
		info.panoseFamily, info.panoseSerifType = b[32], b[33]
		info.fsSelection = u16(b, 62)
		info.typoAscent, info.typoDescent, info.typoLineGap = i16(b, 68), i16(b, 70), i16(b, 72)
		info.winAscent, info.winDescent = int(u16(b, 74)), int(u16(b, 76))
		if info.os2Version >= 2 && len(b) >= 90 {
			info.xHeight, info.capHeight = i16(b, 86), i16(b, 88)
		}
	}
	if t, ok := tabs["post"]; ok {
		if b, err = readTable(r, t); err != nil {
			return nil, err
		}
		info.italicAngle = float64(int32(u32(b, 4))) / 65536
		info.underlinePos, info.underlineThick = i16(b, 8), i16(b, 10)
		info.fixedPitch = u32(b, 12) != 0
	}
	t, ok := tabs["name"]
	if !ok {
		return nil, errNotSFNT
	}
	if b, err = readTable(r, t); err != nil {
		return nil, err
	}
	info.readNames(b)
	if len(info.families) == 0 {
		return nil, errNotSFNT
	}
	return info, nil
}

// readNames fills the names from a 'name' table, as fontconfig lists them:
// the typographic family (16) before the legacy one (1), English first.
func (info *sfntInfo) readNames(b []byte) {
	count := int(u16(b, 2))
	strOff := int(u16(b, 4))
	type cand struct {
		id   uint16
		rank int // lower is better: English Windows, Mac Roman English, other
		s    string
	}
	var names []cand
	for i := 0; i < count; i++ {
		rec := 6 + 12*i
		if rec+12 > len(b) {
			break
		}
		pid, eid, lang, id := u16(b, rec), u16(b, rec+2), u16(b, rec+4), u16(b, rec+6)
		switch id {
		case 1, 2, 4, 6, 16, 17:
		default:
			continue
		}
		n, o := int(u16(b, rec+8)), strOff+int(u16(b, rec+10))
		if o+n > len(b) || n == 0 {
			continue
		}
		raw := b[o : o+n]
		var s string
		rank := 2
		switch {
		case pid == 3 && (eid == 1 || eid == 0 || eid == 10):
			s = decodeUTF16(raw)
			if lang == 0x409 {
				rank = 0
			} else if lang&0xff == 0x09 {
				rank = 1
			}
		case pid == 0:
			s = decodeUTF16(raw)
			rank = 1
		case pid == 1 && eid == 0:
			s = decodeMacRoman(raw)
			if lang == 0 {
				rank = 1
			}
		default:
			continue
		}
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		names = append(names, cand{id, rank, s})
	}
	best := func(id uint16) string {
		r, s := 99, ""
		for _, c := range names {
			if c.id == id && c.rank < r {
				r, s = c.rank, c.s
			}
		}
		return s
	}
	add := func(s string) {
		if s == "" {
			return
		}
		for _, f := range info.families {
			if strings.EqualFold(f, s) {
				return
			}
		}
		info.families = append(info.families, s)
	}
	add(best(16))
	add(best(1))
	// Other languages' family names match too, as in fontconfig.
	for _, c := range names {
		if c.id == 16 || c.id == 1 {
			add(c.s)
		}
	}
	info.subfamily = best(17)
	if info.subfamily == "" {
		info.subfamily = best(2)
	}
	info.fullName = best(4)
	info.postScriptName = best(6)
}

func decodeUTF16(b []byte) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.BigEndian.Uint16(b[2*i:])
	}
	return string(utf16.Decode(u))
}

func decodeMacRoman(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if c < 0x80 {
			sb.WriteByte(c)
		} else {
			sb.WriteRune('\uFFFD')
		}
	}
	return sb.String()
}

// coverage is a face's character map as sorted, disjoint ranges [lo, hi].
type coverage []runeRange

type runeRange struct{ lo, hi rune }

func (c coverage) has(r rune) bool {
	lo, hi := 0, len(c)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case r < c[m].lo:
			hi = m
		case r > c[m].hi:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// maxCmapRanges bounds a character map's size as this package holds it.
const maxCmapRanges = 1 << 16

// readCoverage reads the Unicode character map of the face whose table
// directory is at off: the (3,10) or (0,4+) format 12 table if present,
// else the (3,1) or (0,x) format 4 table.
func readCoverage(r io.ReaderAt, off uint32) (coverage, error) {
	tabs, _, err := readTables(r, off)
	if err != nil {
		return nil, err
	}
	t, ok := tabs["cmap"]
	if !ok {
		return nil, errNotSFNT
	}
	b, err := readTable(r, t)
	if err != nil {
		return nil, err
	}
	n := int(u16(b, 2))
	best, bestRank := -1, 99
	for i := 0; i < n; i++ {
		rec := 4 + 8*i
		pid, eid, o := u16(b, rec), u16(b, rec+2), int(u32(b, rec+4))
		if o+2 > len(b) {
			continue
		}
		format := u16(b, o)
		rank := 99
		switch {
		case format == 12 && (pid == 3 && eid == 10 || pid == 0):
			rank = 0
		case format == 4 && (pid == 3 && eid == 1 || pid == 0):
			rank = 1
		case format == 4 && pid == 3 && eid == 0:
			rank = 2 // symbol fonts
		}
		if rank < bestRank {
			best, bestRank = o, rank
		}
	}
	if best < 0 {
		return nil, nil
	}
	var c coverage
	add := func(lo, hi rune) {
		if hi < lo || len(c) >= maxCmapRanges {
			return
		}
		if k := len(c); k > 0 && c[k-1].hi+1 >= lo {
			if hi > c[k-1].hi {
				c[k-1].hi = hi
			}
			return
		}
		c = append(c, runeRange{lo, hi})
	}
	sub := b[best:]
	if u16(sub, 0) == 12 {
		groups := int(u32(sub, 12))
		for i := 0; i < groups && 16+12*i+12 <= len(sub); i++ {
			g := sub[16+12*i:]
			add(rune(u32(g, 0)), rune(u32(g, 4)))
		}
		return c.normalize(), nil
	}
	segs := int(u16(sub, 6)) / 2
	ends, starts, deltas, offs := 14, 16+2*segs, 16+4*segs, 16+6*segs
	for i := 0; i < segs; i++ {
		end, start := rune(u16(sub, ends+2*i)), rune(u16(sub, starts+2*i))
		delta, ro := u16(sub, deltas+2*i), int(u16(sub, offs+2*i))
		if start == 0xFFFF {
			continue
		}
		if ro == 0 {
			// Every code in the segment maps to a glyph unless the delta
			// sends it to glyph 0.
			for ch := start; ch <= end; ch++ {
				if uint16(uint16(ch)+delta) != 0 {
					add(ch, ch)
				}
			}
			continue
		}
		for ch := start; ch <= end; ch++ {
			gi := offs + 2*i + ro + 2*int(ch-start)
			if g := u16(sub, gi); g != 0 {
				add(ch, ch)
			}
		}
	}
	return c.normalize(), nil
}

// normalize sorts and merges ranges (format 12 groups need not be sorted).
func (c coverage) normalize() coverage {
	sort.Slice(c, func(i, j int) bool { return c[i].lo < c[j].lo })
	out := c[:0]
	for _, r := range c {
		if k := len(out); k > 0 && out[k-1].hi+1 >= r.lo {
			if r.hi > out[k-1].hi {
				out[k-1].hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}
