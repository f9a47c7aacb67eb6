package layout

import (
	"unicode/utf8"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/fonts"
	"github.com/platen/platen/render/phantom/style"
)

// A paragraph is a block container's inline content as LayoutNG collects
// it (NGInlineItemsBuilder): one string of text with white space already
// collapsed, and a flat list of items over it — text runs of one style,
// inline box open and close tags, atomic inlines (U+FFFC in the text),
// forced breaks ('\n') and out-of-flow placeholders.
//
// Text items are cut into segments at break opportunities (UAX #14 through
// go-text's segmenter): a segment is a word with its trailing spaces, the
// unit line breaking places. Each segment is shaped on its own through the
// shaper's cache; the kerning HarfBuzz would apply across a segment boundary
// inside one font (space then "A", for example: Chromium shapes a whole
// item at once) is added back as a pair correction, measured by shaping the
// pair.
type paragraph struct {
	text  []byte
	items []item
	segs  []seg
	// brk[i] is the break opportunity before byte i.
	brk []brkKind
	// bidi is set when the paragraph needs reordering (RTL text or an RTL
	// base direction); levels then holds each byte's embedding level.
	bidi   bool
	levels []uint8
	// cursive marks the bytes in a run of a cursive script (cursive.go);
	// nil when the text has none.
	cursive []bool
	// min and max content widths, computed on demand.
	minW, maxW float64
	haveMinMax bool
}

type itemKind uint8

const (
	itText itemKind = iota
	itOpen
	itClose
	itAtomic
	itBreak
	itAbs
	// itFloat is a float in the paragraph: placed when the line it
	// stands in is laid out, it takes no room in the line itself.
	itFloat
)

// item is one piece of a paragraph.
type item struct {
	kind       itemKind
	box        *Box
	s          *style.Computed
	start, end int // byte range in paragraph.text
	// seg0, seg1 are a text item's segments.
	seg0, seg1 int
	// edge is an open tag's inline-start (or a close tag's inline-end)
	// margin + border + padding.
	edge float64
	// q is the font of a text item.
	q fonts.Query
}

// seg is a text segment: a word and its trailing spaces.
type seg struct {
	item       int
	start, end int // byte range
	runs       []fonts.Run
	// w is the advance width with letter-spacing and word-spacing and the
	// pair correction (corr, already added to the last glyph when drawn).
	w, corr float64
	// trailStart is where the trailing spaces begin; trailW their width.
	trailStart int
	trailW     float64
	// spaces counts justification opportunities before the trailing
	// spaces.
	spaces int
	// brk is the break opportunity after the segment.
	brk brkKind
	// shy: the segment ends with a soft hyphen; a break there shows a
	// hyphen of width shyW.
	shy  bool
	shyW float64
	// tab: the segment is one preserved tab, its width set when placed.
	tab bool
	// rtl: shaped right to left (glyphs in visual order).
	rtl bool
}

type brkKind uint8

const (
	brkNone brkKind = iota
	brkSoft
	brkForced
)

// collectState carries white-space collapsing across items.
type collectState struct {
	p *paragraph
	// spaceBefore: the last character is a collapsible space (or the line
	// start), so a following collapsible space disappears.
	spaceBefore bool
	lastSpaceAt int // index in text of that space, -1 at a line start
}

// collect builds the paragraph of block container b.
func (l *layouter) collect(b *Box) *paragraph {
	p := &paragraph{}
	cs := &collectState{p: p, spaceBefore: true, lastSpaceAt: -1}
	if b.Style.Direction == "rtl" {
		p.bidi = true
	}
	for _, c := range b.Children {
		l.collectBox(cs, c, b.Style, 0)
	}
	// Trailing collapsible space of the paragraph goes (it would hang).
	if cs.lastSpaceAt >= 0 && cs.lastSpaceAt == len(p.text)-1 {
		l.dropLastSpace(cs)
	}
	if p.bidi || hasRTL(p.text) {
		p.bidi = true
		l.resolveBidi(p, b.Style.Direction == "rtl")
		p.cursive = cursiveRuns(p)
	}
	l.segment(p)
	return p
}

func (l *layouter) collectBox(cs *collectState, c *Box, ps *style.Computed, depth int) {
	p := cs.p
	if depth > l.opt.MaxDepth {
		return
	}
	switch {
	case c.IsOutOfFlow():
		p.items = append(p.items, item{kind: itAbs, box: c, s: c.Style, start: len(p.text), end: len(p.text)})
	case c.isFloat():
		p.items = append(p.items, item{kind: itFloat, box: c, s: c.Style, start: len(p.text), end: len(p.text)})
	case c.Kind == KindText:
		l.collectText(cs, c, c.Text, c.Style)
	case c.Kind == KindBreak:
		if cs.lastSpaceAt >= 0 && cs.lastSpaceAt == len(p.text)-1 {
			l.dropLastSpace(cs)
		}
		p.items = append(p.items, item{kind: itBreak, box: c, s: c.Style, start: len(p.text), end: len(p.text) + 1})
		p.text = append(p.text, '\n')
		cs.spaceBefore, cs.lastSpaceAt = true, -1
	case c.Kind == KindInline && c.Pseudo == PseudoMarker && isInsideSymbol(c):
		// An inside disc, circle or square: a fixed-size box Blink paints
		// the symbol in.
		p.items = append(p.items, item{kind: itAtomic, box: c, s: c.Style, start: len(p.text), end: len(p.text) + 3})
		p.text = append(p.text, "\uFFFC"...)
		cs.spaceBefore, cs.lastSpaceAt = false, -1
	case c.Kind == KindInline:
		s := c.Style
		// unicode-bidi goes into the text as the bidi controls it stands
		// for, as Blink's NGInlineItemsBuilder puts them: the open and
		// close tags hold them, so they are neither shaped nor drawn.
		open, end := bidiControls(s)
		it := item{kind: itOpen, box: c, s: s, start: len(p.text)}
		p.text = append(p.text, open...)
		it.end = len(p.text)
		if !c.noStart {
			it.edge = inlineEdge(s, style.Left)
		}
		p.items = append(p.items, it)
		for _, cc := range c.Children {
			l.collectBox(cs, cc, s, depth+1)
		}
		ct := item{kind: itClose, box: c, s: s, start: len(p.text)}
		p.text = append(p.text, end...)
		ct.end = len(p.text)
		if !c.noEnd {
			ct.edge = inlineEdge(s, style.Right)
		}
		p.items = append(p.items, ct)
	default: // atomic inline
		p.items = append(p.items, item{kind: itAtomic, box: c, s: c.Style, start: len(p.text), end: len(p.text) + 3})
		p.text = append(p.text, "\uFFFC"...)
		cs.spaceBefore, cs.lastSpaceAt = false, -1
	}
}

// inlineEdge is an inline box's margin, border and padding on one side
// (percentages against 0: the containing block is not known yet, and
// LayoutNG resolves them against the available width; rare in practice).
// bidiControls are the characters an inline box's unicode-bidi opens and
// closes its content with (CSS Writing Modes 3 §2.4.2).
func bidiControls(s *style.Computed) (open, end string) {
	rtl := s.Direction == "rtl"
	pick := func(ltr, r string) string {
		if rtl {
			return r
		}
		return ltr
	}
	switch s.UnicodeBidi {
	case "embed":
		return pick("\u202a", "\u202b"), "\u202c"
	case "isolate":
		return pick("\u2066", "\u2067"), "\u2069"
	case "bidi-override":
		return pick("\u202d", "\u202e"), "\u202c"
	case "isolate-override":
		return pick("\u2066\u202d", "\u2067\u202e"), "\u202c\u2069"
	case "plaintext":
		return "\u2068", "\u2069"
	}
	return "", ""
}

func inlineEdge(s *style.Computed, side int) float64 {
	return length(s.Margin[side], 0, 0) + borderWidth(s.Border[side]) + length(s.Padding[side], 0, 0)
}

func (l *layouter) dropLastSpace(cs *collectState) {
	p := cs.p
	i := cs.lastSpaceAt
	p.text = append(p.text[:i], p.text[i+1:]...)
	// Items ending after i shrink by one.
	for k := len(p.items) - 1; k >= 0; k-- {
		it := &p.items[k]
		if it.end <= i {
			break
		}
		if it.start > i {
			it.start--
		}
		it.end--
	}
	// A text item left empty is removed.
	for k := len(p.items) - 1; k >= 0; k-- {
		it := &p.items[k]
		if it.kind == itText && it.start == it.end {
			p.items = append(p.items[:k], p.items[k+1:]...)
			break
		}
		if it.kind == itText {
			break
		}
	}
	cs.lastSpaceAt = -1
}

// collectText appends text of style s with white space processed (CSS
// Text 3 §4.1): collapsed in normal, nowrap and pre-line (where newlines
// become forced breaks), kept in pre, pre-wrap and break-spaces (newlines
// forced breaks, tabs kept).
func (l *layouter) collectText(cs *collectState, c *Box, text string, s *style.Computed) {
	p := cs.p
	ws := s.WhiteSpace
	collapse := ws == style.WSNormal || ws == style.WSNowrap || ws == style.WSPreLine
	start := len(p.text)
	flush := func() {
		if len(p.text) > start {
			p.items = append(p.items, item{kind: itText, box: c, s: s, start: start, end: len(p.text)})
		}
	}
	for i := 0; i < len(text); {
		ch := text[i]
		switch {
		case ch == '\n' && ws != style.WSNormal && ws != style.WSNowrap:
			// A preserved segment break: a forced break.
			if collapse && cs.lastSpaceAt >= 0 && cs.lastSpaceAt == len(p.text)-1 {
				flush()
				l.dropLastSpace(cs)
				start = len(p.text)
			}
			flush()
			p.items = append(p.items, item{kind: itBreak, box: c, s: s, start: len(p.text), end: len(p.text) + 1})
			p.text = append(p.text, '\n')
			start = len(p.text)
			cs.spaceBefore, cs.lastSpaceAt = true, -1
			i++
		case collapse && (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f'):
			if !cs.spaceBefore {
				cs.lastSpaceAt = len(p.text)
				p.text = append(p.text, ' ')
				cs.spaceBefore = true
			}
			i++
		case ch == '\r' || ch == '\f':
			i++ // not rendered
		default:
			_, n := utf8.DecodeRuneInString(text[i:])
			p.text = append(p.text, text[i:i+n]...)
			i += n
			if ch == ' ' || ch == '\t' {
				cs.spaceBefore, cs.lastSpaceAt = false, -1 // preserved: not collapsible
			} else {
				cs.spaceBefore, cs.lastSpaceAt = false, -1
			}
		}
	}
	flush()
}

// fontQuery is the fonts.Query of a style.
func fontQuery(s *style.Computed) fonts.Query {
	return fonts.Query{Families: s.FontFamily, Weight: s.FontWeight, Style: s.FontStyle, Stretch: s.FontStretch}
}

// segment finds the break opportunities, cuts the text items into
// segments and shapes them.
func (l *layouter) segment(p *paragraph) {
	if len(p.text) == 0 {
		return
	}
	// Break opportunities of the whole paragraph: brk[i] is the kind of
	// break before byte i.
	brk := l.breaks(p)
	for ii := range p.items {
		it := &p.items[ii]
		if it.kind != itText {
			continue
		}
		it.q = fontQuery(it.s)
		it.seg0 = len(p.segs)
		ws := it.s.WhiteSpace
		wrap := ws != style.WSNowrap && ws != style.WSPre
		breakAll := it.s.WordBreak == "break-all"
		keepAll := it.s.WordBreak == "keep-all"
		segStart := it.start
		for i := it.start; i < it.end; {
			_, n := utf8.DecodeRune(p.text[i:])
			next := i + n
			isTab := p.text[i] == '\t'
			cut := false
			kind := brkNone
			if next < it.end || next == len(p.text) {
				if brk[next] == brkSoft && wrap {
					cut, kind = true, brkSoft
					if keepAll && !isSpaceByte(p.text[i]) && next < len(p.text) && !isSpaceByte(p.text[next]) {
						cut, kind = false, brkNone
					}
				}
				if breakAll && wrap && next < it.end && !cut && isBreakAllPair(p.text, i, next) {
					cut, kind = true, brkSoft
				}
			}
			if isTab || (next < it.end && p.text[next] == '\t') {
				cut = true
			}
			if p.levels != nil && next < it.end && p.levels[next] != p.levels[i] {
				cut = true
			}
			// In a bidi paragraph, a word's trailing spaces are a segment of
			// their own when the word is not at the paragraph's level: at a
			// line's end they go back to that level (UAX #9 L1).
			if p.levels != nil && next < it.end && p.text[next] == ' ' && p.text[i] != ' ' && p.levels[i] != p.levels[len(p.levels)-1] {
				cut = true
			}
			if next == it.end {
				cut = true
				if next < len(p.text) && brk[next] == brkSoft && wrap {
					kind = brkSoft
				}
				if next == len(p.text) {
					kind = brkSoft
				}
			}
			if cut {
				sg := seg{item: ii, start: segStart, end: next, brk: kind, tab: isTab && next-segStart == 1}
				p.segs = append(p.segs, sg)
				segStart = next
			}
			i = next
		}
		it.seg1 = len(p.segs)
	}
	// Preserved text may put a break opportunity after a tab even when the
	// style wraps; pre keeps none.
	for i := range p.segs {
		l.shapeSeg(p, i)
	}
	l.pairCorrections(p)
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' }

// isBreakAllPair reports whether word-break: break-all allows a break
// between the characters at i and j (letters and numbers of any script).
func isBreakAllPair(text []byte, i, j int) bool {
	a, _ := utf8.DecodeRune(text[i:])
	b, _ := utf8.DecodeRune(text[j:])
	return isWordChar(a) && isWordChar(b)
}

func isWordChar(r rune) bool {
	return r > ' ' && r != 0xA0 && r != 0xAD && r != 0x2011 && !(r >= 0x300 && r < 0x370)
}

// breaks returns, for each byte offset of the text, whether a soft or
// forced break is allowed before it.
func (l *layouter) breaks(p *paragraph) []brkKind {
	n := len(p.text)
	brk := make([]brkKind, n+1)
	p.brk = brk
	// UAX #14 (ICU in Chromium) for what involves non-ASCII characters.
	ascii := true
	for _, c := range p.text {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if !ascii {
		// ICU's answers matter only beside non-ASCII characters: run the
		// segmenter on windows around them, each stretching to the spaces
		// on either side (included), which is context enough.
		for i := 0; i < n; {
			if p.text[i] < 0x80 {
				i++
				continue
			}
			ws := i
			for ws > 0 && p.text[ws-1] != ' ' && p.text[ws-1] != '\n' {
				ws--
			}
			if ws > 0 {
				ws--
			}
			we := i
			for we < n && !(p.text[we] == ' ' && we > i) && p.text[we] != '\n' {
				we++
			}
			if we < n {
				we++
			}
			l.icuBreaks(p.text[ws:we], brk[ws:we+1], ws > 0, we < n)
			i = we
		}
	}
	// Blink's LazyLineBreakIterator decides the rest itself: after a run
	// of spaces, then its own table for pairs of ASCII characters, ICU
	// only where a character is beyond ASCII (NBSP excepted, which never
	// breaks).
	var pp, pr rune = -1, -1
	for i := 0; i < n; {
		r, size := utf8.DecodeRune(p.text[i:])
		if i > 0 && brk[i] != brkForced {
			switch {
			case isBreakableSpace(pr):
				if isBreakableSpace(r) {
					brk[i] = brkNone
				} else {
					brk[i] = brkSoft
				}
			case pr == '-' && r >= '0' && r <= '9':
				brk[i] = brkNone
				if isASCIIAlnum(pp) {
					brk[i] = brkSoft
				}
			case pr >= '!' && pr <= 0x7F && r >= '!' && r <= 0x7F:
				brk[i] = brkNone
				if asciiBreak(byte(pr), byte(r)) {
					brk[i] = brkSoft
				}
			case needsICU(pr) || needsICU(r):
				// keep UAX #14's answer
			default:
				brk[i] = brkNone
			}
		}
		pp, pr = pr, r
		i += size
	}
	if n > 0 {
		brk[n] = brkSoft // the paragraph's end
	}
	return brk
}

// icuBreaks fills brk (one longer than text) with UAX #14's opportunities
// inside text; the window's own start and end are left alone when the
// window does not start or end the paragraph.
func (l *layouter) icuBreaks(text []byte, brk []brkKind, cutStart, cutEnd bool) {
	if err := l.seg.InitWithBytes(text); err != nil {
		return
	}
	n := len(text)
	it := l.seg.LineIterator()
	for it.Next() {
		ln := it.Line()
		end := min(ln.OffsetInBytes+ln.LengthInBytes, n)
		if (end == 0 && cutStart) || (end == n && cutEnd) {
			continue
		}
		if ln.IsMandatoryBreak {
			brk[end] = brkForced
		} else {
			brk[end] = brkSoft
		}
	}
}

func isBreakableSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' }

func isASCIIAlnum(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// needsICU is Blink's NeedsLineBreakIterator: beyond ASCII, NBSP aside.
func needsICU(r rune) bool { return r > 0x7F && r != 0xA0 }

// asciiBreak is Blink's kAsciiLineBreakTable (text_break_iterator.cc): a
// break between two printable ASCII characters only before an opening
// bracket after most punctuation, and after '-' and '?' before most
// characters.
func asciiBreak(a, b byte) bool {
	switch a {
	case '!', '"', '#', '%', '&', ')', '*', '+', ',', '.', ':', ';', '=', '>', '\\', ']', '|', '}', '~':
		return b == '(' || b == '<' || b == '[' || b == '{'
	case '-':
		switch {
		case b >= '1' && b <= '8', b >= 'A' && b <= 'X', b >= 'a' && b <= 'x':
			return true
		}
		switch b {
		case '"', '#', '%', '&', '\'', '(', '*', '+', '-', '<', '=', '>', '@',
			'Y', 'Z', '[', '\\', '^', '_', '`', 'y', 'z', '{', '|', '~', 0x7F:
			return true
		}
	case '?':
		switch {
		case b >= '1' && b <= '8', b >= 'A' && b <= 'X', b >= 'a' && b <= 'x':
			return true
		}
		switch b {
		case '#', '$', '%', '&', '(', '*', '+', '-', '0', '9', '<', '=', '>', '@',
			'Y', 'Z', '[', '\\', '^', '_', '`', 'y', 'z', '{', '|', '~':
			return true
		}
	}
	return false
}

// isSpaceRune reports whether r is a space for word-spacing and
// justification (Blink's Character::TreatAsSpace).
func isSpaceRune(r rune) bool {
	return r == ' ' || r == 0xA0 || r == '\t' || r == '\n'
}

// shapeSeg shapes segment i and measures it.
func (l *layouter) shapeSeg(p *paragraph, i int) {
	sg := &p.segs[i]
	it := &p.items[sg.item]
	s := it.s
	text := p.text[sg.start:sg.end]
	// Trailing spaces (collapsible or preserved) hang at a line's end.
	ts := len(text)
	for ts > 0 && (text[ts-1] == ' ') {
		ts--
	}
	sg.trailStart = sg.start + ts
	hasShy := len(text) >= 2 && text[len(text)-2] == 0xC2 && text[len(text)-1] == 0xAD
	sg.shy = hasShy
	if sg.tab {
		sg.runs = nil
		sg.w = 0
		return
	}
	str := l.str(text)
	rtl := p.levels != nil && p.levels[sg.start]&1 == 1
	sg.rtl = rtl
	runs := l.sh.Shape(it.q, s.FontSize, str, shapeOpt(s, rtl))
	sg.runs = runs
	w := 0.0
	for _, r := range runs {
		w += r.Width
	}
	// Letter-spacing after every character (cluster), word-spacing after
	// every space; a soft hyphen draws nothing. Trailing spaces are
	// measured cluster by cluster (logical order: runs are LTR here).
	ls, wsp := s.LetterSpacing, s.WordSpacing
	trailW := 0.0
	spaces := 0
	for _, r := range runs {
		off := r.Start
		if rtl {
			off = r.End
		}
		for gi := range r.Glyphs {
			g := &r.Glyphs[gi]
			if g.Text == "" {
				continue
			}
			cstart := off
			if rtl {
				off -= len(g.Text)
				cstart = off
			} else {
				off += len(g.Text)
			}
			rr, _ := utf8.DecodeRuneInString(g.Text)
			adv := clusterAdvance(r.Glyphs, gi)
			if rr == 0xAD {
				w -= adv
				continue
			}
			extra := ls
			if p.cursive != nil && p.cursive[sg.start+cstart] && !isSpaceRune(rr) {
				extra = 0
			}
			if isSpaceRune(rr) {
				extra += wsp
			}
			w += extra
			if cstart >= ts {
				trailW += adv + extra
			}
		}
	}
	for j := 0; j < ts; j++ {
		if text[j] == ' ' {
			spaces++
		} else if text[j] == 0xC2 && j+1 < ts && text[j+1] == 0xA0 {
			spaces++
		}
	}
	sg.w, sg.trailW, sg.spaces = w, trailW, spaces
	if hasShy {
		hr := l.sh.Shape(it.q, s.FontSize, hyphenString, shapeOpt(s, false))
		for _, r := range hr {
			sg.shyW += r.Width
		}
		sg.shyW += ls
	}
}

// hyphenString is what a soft hyphen shows when a line breaks there: the
// hyphen (U+2010), as Blink uses when the font has it.
const hyphenString = "\u2010"

// clusterAdvance is the advance of the cluster starting at glyph gi.
func clusterAdvance(gs []draw.Glyph, gi int) float64 {
	a := gs[gi].Advance
	for j := gi + 1; j < len(gs) && gs[j].Text == ""; j++ {
		a += gs[j].Advance
	}
	return a
}

// spaceWidth is the advance of a space in a text item's font.
func (l *layouter) spaceWidth(it *item) float64 {
	runs := l.sh.Shape(it.q, it.s.FontSize, " ", fonts.ShapeOptions{})
	w := 0.0
	for _, r := range runs {
		w += r.Width
	}
	return w
}

// pairCorrections adds the kerning HarfBuzz applies across segment
// boundaries within one font (Chromium shapes whole items): for each
// boundary, shape the pair of characters around it and compare with the
// characters alone.
func (l *layouter) pairCorrections(p *paragraph) {
	for i := 0; i+1 < len(p.segs); i++ {
		a, b := &p.segs[i], &p.segs[i+1]
		if a.tab || b.tab || a.end != b.start || a.rtl || b.rtl {
			continue
		}
		ia, ib := &p.items[a.item], &p.items[b.item]
		if a.item != b.item {
			if !sameFont(ia, ib) || !adjacentItems(p, a.item, b.item) {
				continue
			}
		}
		r1, n1 := utf8.DecodeLastRune(p.text[a.start:a.end])
		r2, n2 := utf8.DecodeRune(p.text[b.start:b.end])
		if r1 == utf8.RuneError || r2 == utf8.RuneError || r1 == 0xAD || r2 == '\n' || isMarkRune(r2) {
			continue
		}
		d := l.pairKern(ia, r1, r2, p.text[a.end-n1:b.start+n2], n1)
		if d > 1e-9 || d < -1e-9 {
			a.corr = d
			a.w += d
			if a.trailStart < a.end {
				a.trailW += d
			}
		}
	}
}

// pairKey identifies a kerning pair in one font: the style's family list
// (by its backing array: styles inherit the same slice), the other font
// properties and the two characters.
type pairKey struct {
	fam     *string
	nfam    int
	weight  int
	style   style.FontStyle
	stretch float64
	size    float64
	small   bool
	num     style.NumericVariant
	r1, r2  rune
}

// pairKern is the kerning HarfBuzz applies between r1 and r2 (pair holds
// both, the first n1 bytes being r1): the pair's advance less the
// characters' own. Cached per layout: a document has few distinct pairs.
func (l *layouter) pairKern(it *item, r1, r2 rune, pair []byte, n1 int) float64 {
	s := it.s
	k := pairKey{nfam: len(s.FontFamily), weight: s.FontWeight, style: s.FontStyle, stretch: s.FontStretch, size: s.FontSize, small: s.SmallCaps, num: s.Numeric, r1: r1, r2: r2}
	if len(s.FontFamily) > 0 {
		k.fam = &s.FontFamily[0]
	}
	if d, ok := l.pairs[k]; ok {
		return d
	}
	str := string(pair)
	opt := shapeOpt(s, false)
	pw := runsWidth(l.sh.Shape(it.q, s.FontSize, str, opt))
	w1 := runsWidth(l.sh.Shape(it.q, s.FontSize, str[:n1], opt))
	w2 := runsWidth(l.sh.Shape(it.q, s.FontSize, str[n1:], opt))
	d := pw - w1 - w2
	if l.pairs == nil {
		l.pairs = make(map[pairKey]float64, 64)
	}
	l.pairs[k] = d
	return d
}

func isMarkRune(r rune) bool { return r >= 0x300 && r <= 0x36F }

func runsWidth(rs []fonts.Run) float64 {
	w := 0.0
	for _, r := range rs {
		w += r.Width
	}
	return w
}

func sameFont(a, b *item) bool {
	if a.s == b.s {
		return true
	}
	if a.s.FontSize != b.s.FontSize || a.s.FontWeight != b.s.FontWeight || a.s.FontStyle != b.s.FontStyle ||
		a.s.SmallCaps != b.s.SmallCaps || a.s.FontStretch != b.s.FontStretch || len(a.s.FontFamily) != len(b.s.FontFamily) {
		return false
	}
	for i := range a.s.FontFamily {
		if a.s.FontFamily[i] != b.s.FontFamily[i] {
			return false
		}
	}
	return true
}

// adjacentItems reports whether only open and close tags without edges lie
// between text items i and j.
func adjacentItems(p *paragraph, i, j int) bool {
	for k := i + 1; k < j; k++ {
		it := &p.items[k]
		if (it.kind != itOpen && it.kind != itClose) || it.edge != 0 {
			return false
		}
	}
	return true
}

// str returns b as a string without copying when the shaper keeps no
// reference: the shaper's cache keys need their own copy, so copy.
func (l *layouter) str(b []byte) string { return string(b) }

// shapeOpt are the shaping options of text in style s.
func shapeOpt(s *style.Computed, rtl bool) fonts.ShapeOptions {
	return fonts.ShapeOptions{SmallCaps: s.SmallCaps, Numeric: uint8(s.Numeric | s.FeatureNumeric), RTL: rtl}
}
