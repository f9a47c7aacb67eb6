package images

import (
	"math"
	"strconv"
	"strings"

	"github.com/platen/platen/render/phantom/draw"
)

// SVG text: <text> and its <tspan>s, laid out when the drawing is painted
// (the glyphs come from the document's fonts, which the cached drawing
// does not hold). Supported: one x, y, dx and dy each on <text> and
// <tspan>, text-anchor on each chunk, font-family, font-size, font-weight,
// font-style, letter-spacing, fill, dominant-baseline (central, middle,
// hanging, text-top), textLength with either lengthAdjust, and the
// default white-space handling. Anything else a <text> uses (per-glyph x
// lists, rotate, textPath, a stroke, writing-mode) is dropped as "text".

// TextQuery asks a TextShaper for a piece of SVG text.
type TextQuery struct {
	// Families are the font families in order (nil: the default serif).
	Families []string
	Weight   int
	Italic   bool
	Size     float64 // px
	Text     string
}

// TextRun is one run of shaped glyphs of one font, left to right from the
// pen position.
type TextRun struct {
	Font                 *draw.Font
	Size                 float64
	Glyphs               []draw.Glyph
	Width                float64
	FakeBold             float64
	FakeItalic           bool
	Ascent, Descent, XHt float64 // the face's, in px at Size
}

// TextShaper shapes SVG text with the document's fonts. Nil draws no text.
type TextShaper func(q TextQuery) []TextRun

// svgText is one <text> element, drawn where the ops reach at.
type svgText struct {
	at    int
	spans []textSpan
	// length is textLength (0: none); spacingOnly is lengthAdjust=spacing.
	length      float64
	spacingOnly bool
}

// textSpan is a piece of text in one style, and the position changes
// before it.
type textSpan struct {
	text         string
	hasX, hasY   bool
	x, y, dx, dy float64
	// anchor is the text-anchor of a chunk this span starts (hasX).
	anchor uint8
	style  svgStyle
	color  draw.Color
	paint  bool
}

// text converts a <text> element: its spans are collected with their
// styles; the glyphs come when the drawing is painted.
func (c *converter) text(n *node, st svgStyle) {
	if st.hidden {
		return
	}
	t := svgText{at: len(c.ops)}
	if v, ok := n.attr("textLength"); ok {
		if l, ok := parseLength(v); ok && l.v > 0 {
			t.length = l.user(axisX, c.vw, c.vh)
		}
		if a, _ := n.attr("lengthAdjust"); a != "spacingAndGlyphs" {
			t.spacingOnly = true
		}
	}
	ok := c.spans(n, st, &t.spans, true)
	if !ok {
		c.drop(DropText)
		return
	}
	collapseSpaces(t.spans)
	if len(t.spans) == 0 {
		return
	}
	c.texts = append(c.texts, t)
}

// spans appends n's text and its <tspan>s' to out; it reports false for
// what phantom does not lay out.
func (c *converter) spans(n *node, st svgStyle, out *[]textSpan, first bool) bool {
	var pos textSpan
	read := func(name string, a axis) (float64, bool, bool) {
		v, ok := n.attr(name)
		if !ok {
			return 0, false, true
		}
		f := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
		if len(f) == 0 {
			return 0, false, true
		}
		if len(f) > 1 {
			return 0, false, false // a position per glyph
		}
		l, ok := parseLength(f[0])
		if !ok {
			return 0, false, true
		}
		return l.user(a, c.vw, c.vh), true, true
	}
	var ok bool
	if pos.x, pos.hasX, ok = read("x", axisX); !ok {
		return false
	}
	if pos.y, pos.hasY, ok = read("y", axisY); !ok {
		return false
	}
	if pos.dx, _, ok = read("dx", axisX); !ok {
		return false
	}
	if pos.dy, _, ok = read("dy", axisY); !ok {
		return false
	}
	if _, has := n.attr("rotate"); has {
		return false
	}
	if first && !pos.hasX {
		pos.hasX = true // a text element starts a chunk at x = 0
	}
	if w := st.strokeWidth.user(axisDiag, c.vw, c.vh); w > 0 && st.stroke.kind != paintNone {
		return false // stroked text
	}
	pending := true
	for _, ch := range n.children {
		switch ch.name {
		case "#text":
			sp := textSpan{text: ch.text.String(), style: st, anchor: st.anchor}
			if pending {
				sp.hasX, sp.hasY, sp.x, sp.y, sp.dx, sp.dy = pos.hasX, pos.hasY, pos.x, pos.y, pos.dx, pos.dy
				pending = false
			}
			sp.color, sp.paint = c.resolvePaint(st.fill, st, st.fillOpacity)
			*out = append(*out, sp)
		case "tspan":
			cs := c.computeStyle(ch, st)
			if cs.displayNone {
				continue
			}
			if pending {
				// The position applies before the first character, in the
				// span.
				*out = append(*out, textSpan{hasX: pos.hasX, hasY: pos.hasY, x: pos.x, y: pos.y, dx: pos.dx, dy: pos.dy, anchor: st.anchor, style: st})
				pending = false
			}
			if !c.spans(ch, cs, out, false) {
				return false
			}
		case "textPath":
			return false
		case "title", "desc", "metadata":
		default:
			if ch.name != "" {
				return false
			}
		}
	}
	if pending && (pos.hasX || pos.hasY || pos.dx != 0 || pos.dy != 0) {
		*out = append(*out, textSpan{hasX: pos.hasX, hasY: pos.hasY, x: pos.x, y: pos.y, dx: pos.dx, dy: pos.dy, anchor: st.anchor, style: st})
	}
	return true
}

// collapseSpaces applies SVG's default white-space handling across a text
// element's spans: newlines removed, tabs made spaces, runs of spaces made
// one, and the element's leading and trailing spaces removed.
func collapseSpaces(sp []textSpan) {
	prevSpace := true // at the start: leading spaces go
	for i := range sp {
		var b strings.Builder
		for _, r := range sp[i].text {
			switch r {
			case '\n', '\r':
				continue
			case '\t':
				r = ' '
			}
			if r == ' ' {
				if prevSpace {
					continue
				}
				prevSpace = true
			} else {
				prevSpace = false
			}
			b.WriteRune(r)
		}
		sp[i].text = b.String()
	}
	for i := len(sp) - 1; i >= 0; i-- {
		sp[i].text = strings.TrimRight(sp[i].text, " ")
		if sp[i].text != "" {
			break
		}
	}
}

// placed is a shaped run at its pen position.
type placed struct {
	run  TextRun
	x, y float64
	span *textSpan
}

// layoutText shapes and places a <text> element's runs and returns its
// draw ops.
func (t *svgText) ops(shape TextShaper) []draw.Op {
	var out []draw.Op
	var chunk []placed
	var all []placed
	penX, penY := 0.0, 0.0
	chunkStart := 0.0
	var anchor uint8
	chars := 0
	flush := func() {
		if len(chunk) == 0 {
			return
		}
		if anchor != 0 {
			w := penX - chunkStart
			shift := -w
			if anchor == 1 {
				shift = -w / 2
			}
			for i := range chunk {
				chunk[i].x += shift
			}
		}
		all = append(all, chunk...)
		chunk = chunk[:0]
	}
	for i := range t.spans {
		sp := &t.spans[i]
		if sp.hasX {
			flush()
			penX, chunkStart, anchor = sp.x, sp.x, sp.anchor
		}
		if sp.hasY {
			penY = sp.y
		}
		penX += sp.dx
		penY += sp.dy
		if sp.text == "" {
			continue
		}
		st := &sp.style
		runs := shape(TextQuery{Families: st.fontFamily, Weight: st.fontWeight, Italic: st.italic, Size: st.fontSize, Text: sp.text})
		for _, r := range runs {
			gs := append([]draw.Glyph(nil), r.Glyphs...)
			w := 0.0
			for gi := range gs {
				if gs[gi].Text != "" {
					chars++
					// Spacing after each cluster: on its last glyph.
					last := gi
					for last+1 < len(gs) && gs[last+1].Text == "" {
						last++
					}
					gs[last].Advance += st.letterSpacing
				}
			}
			for _, g := range gs {
				w += g.Advance
			}
			r.Glyphs, r.Width = gs, w
			y := penY + baselineShift(st.baseline, r)
			chunk = append(chunk, placed{run: r, x: penX, y: y, span: sp})
			penX += w
		}
	}
	flush()
	if len(all) == 0 {
		return nil
	}
	pushed := false
	if t.length > 0 {
		x0, x1 := math.Inf(1), math.Inf(-1)
		for _, p := range all {
			x0, x1 = math.Min(x0, p.x), math.Max(x1, p.x+p.run.Width)
		}
		if w := x1 - x0; w > 0 {
			if t.spacingOnly {
				if chars > 1 {
					extra := (t.length - w) / float64(chars-1)
					n := 0
					for i := range all {
						all[i].x += extra * float64(n)
						for _, g := range all[i].run.Glyphs {
							if g.Text != "" {
								n++
							}
						}
						// Spread within the run too.
						gs := all[i].run.Glyphs
						for gi := range gs {
							if gs[gi].Text != "" && gi+1 < len(gs) {
								gs[gi].Advance += extra
							}
						}
					}
				}
			} else {
				k := t.length / w
				out = append(out, draw.PushTransform{M: [6]float64{k, 0, 0, 1, x0 * (1 - k), 0}})
				pushed = true
			}
		}
	}
	for _, p := range all {
		if !p.span.paint {
			continue
		}
		out = append(out, draw.Text{Font: p.run.Font, Size: p.run.Size, X: p.x, Y: p.y, Glyphs: p.run.Glyphs, Color: p.span.color,
			FakeBold: p.run.FakeBold, FakeItalic: p.run.FakeItalic})
	}
	if pushed {
		out = append(out, draw.PopClip{})
	}
	return out
}

// baselineShift moves the alphabetic baseline for dominant-baseline.
func baselineShift(b string, r TextRun) float64 {
	switch b {
	case "central":
		return (r.Ascent - r.Descent) / 2
	case "middle":
		return r.XHt / 2
	case "hanging":
		return r.Ascent * 0.8
	case "text-top", "text-before-edge":
		return r.Ascent
	case "text-bottom", "text-after-edge", "ideographic":
		return -r.Descent
	}
	return 0
}

// parseFamilies reads font-family: comma-separated names, quoted or not.
func parseFamilies(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		f = strings.Trim(strings.TrimSpace(f), `"'`)
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// fontSizeOf reads font-size against the parent's size.
func fontSizeOf(v string, parent float64) (float64, bool) {
	switch v {
	case "xx-small":
		return 9, true
	case "x-small":
		return 10, true
	case "small":
		return 13, true
	case "medium":
		return 16, true
	case "large":
		return 18, true
	case "x-large":
		return 24, true
	case "xx-large":
		return 32, true
	case "smaller":
		return parent / 1.2, true
	case "larger":
		return parent * 1.2, true
	}
	l, ok := parseLength(v)
	if !ok || l.v < 0 {
		return 0, false
	}
	switch l.unit {
	case "em", "rem":
		return l.v * parent, true
	case "%":
		return l.v / 100 * parent, true
	case "ex":
		return l.v * parent / 2, true
	}
	x, ok := l.absolute()
	return x, ok
}

// fontWeightOf reads font-weight against the parent's weight.
func fontWeightOf(v string, parent int) (int, bool) {
	switch v {
	case "normal":
		return 400, true
	case "bold":
		return 700, true
	case "bolder":
		if parent < 600 {
			return 700, true
		}
		return 900, true
	case "lighter":
		if parent > 500 {
			return 400, true
		}
		return 100, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1000 {
		return 0, false
	}
	return n, true
}
