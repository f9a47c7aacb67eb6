package pdfw

import (
	"encoding/binary"
	"errors"
)

// cffFont is a name-keyed CFF font program (Adobe TN #5176), parsed once
// per font for subsetting: the pieces a subset copies as they are, and
// where the glyphs and subroutines lie. Everything points into the font
// file; nothing is modified.
type cffFont struct {
	header, names []byte   // copied as they are
	top           []byte   // the Top DICT without offsets and strings
	topStrings    []topSID // the Top DICT's string operators
	strings       cffIndex // custom strings: string id 391 + i
	private       []byte   // the Private DICT without Subrs
	charStrings   cffIndex
	globalSubrs   cffIndex
	localSubrs    cffIndex
	sids          []uint16 // glyph names (string ids) by glyph id
}

// topSID is a Top DICT operator whose operand is a string id.
type topSID struct {
	op  int
	sid int
}

// firstCustomSID is the first string id not among the standard strings.
const firstCustomSID = 391

// isSIDOp reports whether a Top DICT operator takes a string id: version,
// Notice, FullName, FamilyName, Weight, Copyright, PostScript, BaseFontName.
func isSIDOp(op int) bool {
	switch op {
	case 0, 1, 2, 3, 4, 1200, 1221, 1222:
		return true
	}
	return false
}

// cffIndex is an INDEX: count objects, each data[off[i]:off[i+1]].
type cffIndex struct {
	data []byte
	off  []uint32
}

func (x *cffIndex) count() int { return max(len(x.off)-1, 0) }

func (x *cffIndex) get(i int) []byte {
	if i < 0 || i >= x.count() {
		return nil
	}
	return x.data[x.off[i]:x.off[i+1]]
}

var errCFF = errors.New("unsupported or malformed CFF")

// readIndex reads the INDEX at b[p:], returning it and the offset after it.
func readIndex(b []byte, p int) (cffIndex, int, error) {
	if p < 0 || p+2 > len(b) {
		return cffIndex{}, 0, errCFF
	}
	n := int(binary.BigEndian.Uint16(b[p:]))
	if n == 0 {
		return cffIndex{}, p + 2, nil
	}
	if p+3 > len(b) {
		return cffIndex{}, 0, errCFF
	}
	size := int(b[p+2])
	if size < 1 || size > 4 || p+3+(n+1)*size > len(b) {
		return cffIndex{}, 0, errCFF
	}
	offs := make([]uint32, n+1)
	q := p + 3
	for i := range offs {
		var v uint32
		for k := 0; k < size; k++ {
			v = v<<8 | uint32(b[q])
			q++
		}
		if v == 0 {
			return cffIndex{}, 0, errCFF
		}
		offs[i] = v - 1
	}
	data := b[q:]
	end := offs[n]
	if int64(end) > int64(len(data)) {
		return cffIndex{}, 0, errCFF
	}
	for i := 0; i < n; i++ {
		if offs[i] > offs[i+1] {
			return cffIndex{}, 0, errCFF
		}
	}
	return cffIndex{data: data[:end], off: offs}, q + int(end), nil
}

// dictEntry is one operator of a DICT and its operands, as bytes.
type dictEntry struct {
	op         int // 0..21, or 1200+x for the escaped 12 x
	start, end int
	args       [4]float64
	nargs      int
}

// parseDict splits a DICT into its entries.
func parseDict(b []byte) ([]dictEntry, error) {
	var es []dictEntry
	e := dictEntry{}
	for p := 0; p < len(b); {
		c := b[p]
		switch {
		case c <= 21:
			e.op = int(c)
			p++
			if c == 12 {
				if p >= len(b) {
					return nil, errCFF
				}
				e.op = 1200 + int(b[p])
				p++
			}
			e.end = p
			es = append(es, e)
			e = dictEntry{start: p}
			continue
		case c == 28:
			if p+3 > len(b) {
				return nil, errCFF
			}
			e.push(float64(int16(binary.BigEndian.Uint16(b[p+1:]))))
			p += 3
		case c == 29:
			if p+5 > len(b) {
				return nil, errCFF
			}
			e.push(float64(int32(binary.BigEndian.Uint32(b[p+1:]))))
			p += 5
		case c == 30: // a real: nibbles up to 0xf; its value is not needed
			p++
			for p < len(b) && b[p]&0x0f != 0x0f && b[p]>>4 != 0x0f {
				p++
			}
			if p >= len(b) {
				return nil, errCFF
			}
			p++
			e.push(0)
		case c >= 32 && c <= 246:
			e.push(float64(int(c) - 139))
			p++
		case c >= 247 && c <= 250:
			if p+2 > len(b) {
				return nil, errCFF
			}
			e.push(float64((int(c)-247)*256 + int(b[p+1]) + 108))
			p += 2
		case c >= 251 && c <= 254:
			if p+2 > len(b) {
				return nil, errCFF
			}
			e.push(float64(-(int(c)-251)*256 - int(b[p+1]) - 108))
			p += 2
		default:
			return nil, errCFF
		}
	}
	return es, nil
}

func (e *dictEntry) push(v float64) {
	if e.nargs < len(e.args) {
		e.args[e.nargs] = v
	}
	e.nargs++
}

// Top and Private DICT operators the subsetter rewrites or refuses.
const (
	opCharset        = 15
	opEncoding       = 16
	opCharStrings    = 17
	opPrivate        = 18
	opSubrs          = 19
	opCharstringType = 1206
	opROS            = 1230
)

// parseCFF reads a name-keyed CFF table; a CID-keyed one (ROS) is refused.
func parseCFF(b []byte, numGlyphs int) (*cffFont, error) {
	if len(b) < 4 || b[0] != 1 {
		return nil, errCFF
	}
	hdr := int(b[2])
	f := &cffFont{header: []byte{1, 0, 4, b[3]}}
	names, p, err := readIndex(b, hdr)
	if err != nil || names.count() != 1 {
		return nil, errCFF
	}
	f.names = b[hdr:p]
	tops, p2, err := readIndex(b, p)
	if err != nil || tops.count() != 1 {
		return nil, errCFF
	}
	strs, p3, err := readIndex(b, p2)
	if err != nil {
		return nil, err
	}
	f.strings = strs
	if f.globalSubrs, _, err = readIndex(b, p3); err != nil {
		return nil, err
	}

	top := tops.get(0)
	entries, err := parseDict(top)
	if err != nil {
		return nil, err
	}
	charset, charStrings, privSize, privOff := 0, -1, -1, -1
	for _, e := range entries {
		switch e.op {
		case opROS:
			return nil, errCFF // CID-keyed
		case opCharstringType:
			if e.nargs != 1 || e.args[0] != 2 {
				return nil, errCFF
			}
		case opCharset:
			charset = int(e.args[0])
		case opCharStrings:
			charStrings = int(e.args[0])
		case opPrivate:
			if e.nargs != 2 {
				return nil, errCFF
			}
			privSize, privOff = int(e.args[0]), int(e.args[1])
		}
		switch {
		case e.op == opCharset || e.op == opEncoding || e.op == opCharStrings || e.op == opPrivate:
		case isSIDOp(e.op) && e.nargs == 1:
			f.topStrings = append(f.topStrings, topSID{e.op, int(e.args[0])})
		default:
			f.top = append(f.top, top[e.start:e.end]...)
		}
	}
	if charStrings <= 0 || privOff < 0 || privSize < 0 || privOff+privSize > len(b) {
		return nil, errCFF
	}
	if f.charStrings, _, err = readIndex(b, charStrings); err != nil {
		return nil, err
	}
	if f.charStrings.count() != numGlyphs {
		return nil, errCFF
	}
	priv := b[privOff : privOff+privSize]
	pentries, err := parseDict(priv)
	if err != nil {
		return nil, err
	}
	for _, e := range pentries {
		if e.op == opSubrs {
			if f.localSubrs, _, err = readIndex(b, privOff+int(e.args[0])); err != nil {
				return nil, err
			}
			continue
		}
		f.private = append(f.private, priv[e.start:e.end]...)
	}
	if f.sids, err = readCharset(b, charset, numGlyphs); err != nil {
		return nil, err
	}
	for _, sid := range f.sids {
		if int(sid) >= firstCustomSID+f.strings.count() {
			return nil, errCFF
		}
	}
	for _, ts := range f.topStrings {
		if ts.sid < 0 || ts.sid >= firstCustomSID+f.strings.count() {
			return nil, errCFF
		}
	}
	return f, nil
}

// readCharset returns each glyph's string id; the predefined ISOAdobe
// charset (offset 0) gives glyph i the id i.
func readCharset(b []byte, off, n int) ([]uint16, error) {
	sids := make([]uint16, n)
	if off == 0 {
		for i := range sids {
			sids[i] = uint16(i)
		}
		return sids, nil
	}
	if off < 3 || off >= len(b) {
		return nil, errCFF // Expert charsets belong to Type 1 expert fonts only
	}
	format, p := b[off], off+1
	for g := 1; g < n; {
		switch format {
		case 0:
			if p+2 > len(b) {
				return nil, errCFF
			}
			sids[g] = binary.BigEndian.Uint16(b[p:])
			p += 2
			g++
		case 1, 2:
			w := 3
			if format == 2 {
				w = 4
			}
			if p+w > len(b) {
				return nil, errCFF
			}
			first := int(binary.BigEndian.Uint16(b[p:]))
			left := int(b[p+2])
			if format == 2 {
				left = int(binary.BigEndian.Uint16(b[p+2:]))
			}
			p += w
			for k := 0; k <= left && g < n; k++ {
				sids[g] = uint16(first + k)
				g++
			}
		default:
			return nil, errCFF
		}
	}
	return sids, nil
}

func subrBias(n int) int {
	switch {
	case n < 1240:
		return 107
	case n < 33900:
		return 1131
	}
	return 32768
}

// cffUse finds the subroutines glyphs call, running their Type 2
// charstrings just far enough to know the subroutine numbers and to skip
// hint masks (whose length depends on the stems declared before them).
type cffUse struct {
	f                 *cffFont
	local, global     []bool
	stack             []int
	stems             int
	ops, depth        int
	lbias, gbias      int
	done              bool
	nLocal, nGlobal   int
	badCharstringSeen bool

	// inline, when set, writes each glyph with its subroutines inlined
	// into out (call operands and returns dropped).
	inline  bool
	out     []byte
	lastNum int // where the last number written starts in out, -1 if the last token was no number
}

const (
	maxCharstringOps = 1 << 16 // per glyph, subroutines included
	maxSubrDepth     = 10      // the Type 2 limit
	maxArgStack      = 48      // the Type 2 limit
)

func (u *cffUse) glyph(cs []byte) {
	u.stack, u.stems, u.ops, u.depth, u.done = u.stack[:0], 0, 0, 0, false
	u.run(cs)
}

func (u *cffUse) run(cs []byte) {
	if u.depth > maxSubrDepth {
		u.badCharstringSeen = true
		return
	}
	for p := 0; p < len(cs) && !u.done; {
		if u.ops++; u.ops > maxCharstringOps {
			u.badCharstringSeen = true
			u.done = true
			return
		}
		c := cs[p]
		n := 0 // the number's length, 0 for an operator
		switch {
		case c >= 32 && c <= 246:
			u.push(int(c) - 139)
			n = 1
		case c >= 247 && c <= 250:
			if p+1 < len(cs) {
				u.push((int(c)-247)*256 + int(cs[p+1]) + 108)
			}
			n = 2
		case c >= 251 && c <= 254:
			if p+1 < len(cs) {
				u.push(-(int(c)-251)*256 - int(cs[p+1]) - 108)
			}
			n = 2
		case c == 28:
			if p+2 < len(cs) {
				u.push(int(int16(binary.BigEndian.Uint16(cs[p+1:]))))
			}
			n = 3
		case c == 255: // 16.16 fixed
			if p+4 < len(cs) {
				u.push(int(int32(binary.BigEndian.Uint32(cs[p+1:])) >> 16))
			}
			n = 5
		}
		if n > 0 {
			if p+n > len(cs) {
				u.badCharstringSeen = true
				u.done = true
				return
			}
			if u.inline {
				u.lastNum = len(u.out)
				u.out = append(u.out, cs[p:p+n]...)
			}
			p += n
			continue
		}
		start := p
		p++
		switch c {
		case 1, 3, 18, 23: // hstem, vstem, hstemhm, vstemhm
			u.stems += len(u.stack) / 2
		case 19, 20: // hintmask, cntrmask: an implicit vstem first
			u.stems += len(u.stack) / 2
			p += (u.stems + 7) / 8
		case 10, 29: // callsubr, callgsubr
			if len(u.stack) == 0 || (u.inline && u.lastNum < 0) {
				u.badCharstringSeen = true
				u.done = true
				return
			}
			if u.inline {
				u.out = u.out[:u.lastNum] // the subroutine number goes
				u.lastNum = -1
			}
			i := u.stack[len(u.stack)-1]
			u.stack = u.stack[:len(u.stack)-1]
			var sub []byte
			if c == 10 {
				i += u.lbias
				if i < 0 || i >= u.nLocal {
					u.badCharstringSeen = true
					u.done = true
					return
				}
				u.local[i] = true
				sub = u.f.localSubrs.get(i)
			} else {
				i += u.gbias
				if i < 0 || i >= u.nGlobal {
					u.badCharstringSeen = true
					u.done = true
					return
				}
				u.global[i] = true
				sub = u.f.globalSubrs.get(i)
			}
			u.depth++
			u.run(sub)
			u.depth--
			continue // the subroutine's results stay on the stack
		case 11: // return
			return
		case 14: // endchar (its seac form, accents by standard code, is
			// not followed: OpenType CFF fonts do not use it)
			u.done = true
		case 12: // two-byte operators (flex and arithmetic): clear the stack
			p++
		}
		if p > len(cs) {
			u.badCharstringSeen = true
			u.done = true
			return
		}
		if u.inline {
			u.out = append(u.out, cs[start:p]...)
			u.lastNum = -1
		}
		u.stack = u.stack[:0]
	}
}

func (u *cffUse) push(v int) {
	if len(u.stack) < maxArgStack {
		u.stack = append(u.stack, v)
	}
}

// subset builds a CFF font program holding gids (gids[i] becomes glyph i).
// It builds two and keeps the smaller: one with the subroutines inlined
// into the glyphs (no subroutines left: best for a few dozen glyphs), one
// keeping the subroutines, those no kept glyph calls emptied to a bare
// return so that no charstring needs renumbering (best for hundreds of
// glyphs sharing much).
func (f *cffFont) subset(gids []uint16, sc *scratch) ([]byte, error) {
	u := &sc.cffUse
	nl, ng := f.localSubrs.count(), f.globalSubrs.count()
	*u = cffUse{f: f, stack: u.stack, local: resizeBools(u.local, nl), global: resizeBools(u.global, ng),
		lbias: subrBias(nl), gbias: subrBias(ng), nLocal: nl, nGlobal: ng, inline: true, out: u.out[:0]}
	spans := sc.spans[:0]
	for _, g := range gids {
		spans = append(spans, uint32(len(u.out)))
		u.lastNum = -1
		u.glyph(f.charStrings.get(int(g)))
	}
	spans = append(spans, uint32(len(u.out)))
	sc.spans = spans
	inlined := !u.badCharstringSeen
	if !inlined {
		// A subroutine number computed rather than written: mark the used
		// subroutines without inlining.
		u.inline, u.badCharstringSeen = false, false
		for _, g := range gids {
			u.glyph(f.charStrings.get(int(g)))
		}
		if u.badCharstringSeen {
			return nil, errCFF
		}
	}
	kept := f.write(sc.font[:0], gids, sc, false)
	sc.font = kept
	if !inlined || cffLayout == cffKeepSubrs {
		return kept, nil
	}
	flat := f.write(sc.font2[:0], gids, sc, true)
	sc.font2 = flat
	if len(flat) < len(kept) || cffLayout == cffInlineSubrs {
		return flat, nil
	}
	return kept, nil
}

// cffLayout forces one of the two subset layouts, for tests.
var cffLayout int

const (
	cffSmaller = iota
	cffKeepSubrs
	cffInlineSubrs
	cffTdewolff
)

// write appends the subset program: the glyphs inlined (from the
// interpreter's output) or as they are with the pruned subroutines.
func (f *cffFont) write(out []byte, gids []uint16, sc *scratch, inline bool) []byte {
	u := &sc.cffUse
	nl, ng := f.localSubrs.count(), f.globalSubrs.count()
	glyph := func(i int) []byte { return f.charStrings.get(int(gids[i])) }
	if inline {
		nl, ng = 0, 0
		glyph = func(i int) []byte { return u.out[sc.spans[i]:sc.spans[i+1]] }
	}

	// Only the strings the subset names are kept, renumbered in order of use.
	remap := sc.sidMap[:0]
	for range f.strings.count() {
		remap = append(remap, 0)
	}
	kept := sc.strs[:0]
	newSID := func(sid int) int {
		if sid < firstCustomSID {
			return sid
		}
		i := sid - firstCustomSID
		if remap[i] == 0 {
			kept = append(kept, uint16(i))
			remap[i] = uint16(firstCustomSID + len(kept) - 1)
		}
		return int(remap[i])
	}
	top := append(sc.top[:0], f.top...)
	for _, ts := range f.topStrings {
		top = appendDictInt(top, newSID(ts.sid))
		if ts.op >= 1200 {
			top = append(top, 12, byte(ts.op-1200))
		} else {
			top = append(top, byte(ts.op))
		}
	}
	charset := append(sc.charset[:0], 0) // format 0
	for _, g := range gids[1:] {
		charset = binary.BigEndian.AppendUint16(charset, uint16(newSID(int(f.sids[g]))))
	}
	sc.charset, sc.sidMap, sc.strs = charset, remap, kept
	strs := appendIndexOf(sc.strings[:0], len(kept), func(i int) []byte { return f.strings.get(int(kept[i])) })
	sc.strings = strs

	// The pieces after the Top DICT: strings, global subroutines, charset,
	// CharStrings, Private DICT, local subroutines.
	gsubrs := sc.gsubrs[:0]
	if ng > 0 {
		gsubrs = appendPrunedIndex(gsubrs, &f.globalSubrs, u.global)
	} else {
		gsubrs = append(gsubrs, 0, 0)
	}
	sc.gsubrs = gsubrs
	cs := appendIndexOf(sc.charStrings[:0], len(gids), glyph)
	sc.charStrings = cs
	priv := append(sc.private[:0], f.private...)
	lsubrs := sc.lsubrs[:0]
	if nl > 0 {
		priv = appendDictInt(priv, len(f.private)+6) // Subrs, right after this DICT
		priv = append(priv, opSubrs)
		lsubrs = appendPrunedIndex(lsubrs, &f.localSubrs, u.local)
	}
	sc.private, sc.lsubrs = priv, lsubrs

	// The Top DICT with fixed-size offsets, so its size is known up front.
	topLen := len(top) + 6 + 6 + 11 // charset, CharStrings, Private: 5-byte ints
	topIndexLen := 2 + 1 + 2*offSize(topLen+1) + topLen
	charsetAt := len(f.header) + len(f.names) + topIndexLen + len(strs) + len(gsubrs)
	charStringsAt := charsetAt + len(charset)
	privateAt := charStringsAt + len(cs)
	top = appendDictInt(top, charsetAt)
	top = append(top, opCharset)
	top = appendDictInt(top, charStringsAt)
	top = append(top, opCharStrings)
	top = appendDictInt(top, len(priv))
	top = appendDictInt(top, privateAt)
	top = append(top, opPrivate)
	sc.top = top

	out = append(out, f.header...)
	out = append(out, f.names...)
	out = appendIndexOf(out, 1, func(int) []byte { return top })
	out = append(out, strs...)
	out = append(out, gsubrs...)
	out = append(out, charset...)
	out = append(out, cs...)
	out = append(out, priv...)
	return append(out, lsubrs...)
}

func resizeBools(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// appendDictInt appends v as a five-byte DICT integer.
func appendDictInt(b []byte, v int) []byte {
	return binary.BigEndian.AppendUint32(append(b, 29), uint32(int32(v)))
}

// offSize is the bytes an INDEX needs for offsets up to v.
func offSize(v int) int {
	switch {
	case v <= 0xff:
		return 1
	case v <= 0xffff:
		return 2
	case v <= 0xffffff:
		return 3
	}
	return 4
}

// appendIndexOf appends an INDEX of n objects.
func appendIndexOf(b []byte, n int, get func(int) []byte) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(n))
	if n == 0 {
		return b
	}
	total := 0
	for i := 0; i < n; i++ {
		total += len(get(i))
	}
	size := offSize(total + 1)
	b = append(b, byte(size))
	off := 1
	for i := 0; i <= n; i++ {
		for k := size - 1; k >= 0; k-- {
			b = append(b, byte(off>>(8*k)))
		}
		if i < n {
			off += len(get(i))
		}
	}
	for i := 0; i < n; i++ {
		b = append(b, get(i)...)
	}
	return b
}

// cffReturn is the charstring of an emptied subroutine.
var cffReturn = []byte{11}

// appendPrunedIndex appends x with the objects not used replaced by a
// bare return.
func appendPrunedIndex(b []byte, x *cffIndex, used []bool) []byte {
	return appendIndexOf(b, x.count(), func(i int) []byte {
		if used[i] {
			return x.get(i)
		}
		return cffReturn
	})
}
