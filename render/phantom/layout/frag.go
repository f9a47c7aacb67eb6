package layout

import (
	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/fonts"
)

// FragKind says what a Frag is.
type FragKind uint8

const (
	// FragBox is a box's border box: a block, an inline-block, an image, a
	// table part.
	FragBox FragKind = iota
	// FragLine is a line box; its children are the line's inline-level
	// fragments.
	FragLine
	// FragInline is one line's part of an inline box (its border box:
	// the font's ascent and descent plus vertical padding and borders).
	FragInline
	// FragText is a run of glyphs of one font on one line.
	FragText
)

// Frag is a laid-out fragment. Layout builds one tree in a single flow
// (one tall column as wide as the page area); pagination then cuts it into
// pages by inserting gaps (paginate.go), and painting walks it per page.
//
// Coordinates are absolute in the flow, in CSS px (multiples of 1/64, as
// Chromium's LayoutUnit), origin at the first page area's top-left.
//
// Children are in paint order within their phase: block children and line
// boxes of a block in document order; out-of-flow children (abspos) are
// children of their containing block's fragment, after the in-flow ones.
type Frag struct {
	Kind FragKind
	Box  *Box
	// X, Y, W, H is the border box (FragBox, FragInline), the line box
	// (FragLine), or the text's advance box from ascent to descent
	// (FragText).
	X, Y, W, H float64
	Children   []*Frag

	// Baseline is the absolute y of the line's baseline (FragLine) or of
	// the text (FragText); for a FragBox, the first (or, for inline-block,
	// last) line's baseline when it has one, else NaN-free 0 and
	// HasBaseline false.
	Baseline    float64
	HasBaseline bool

	// Text is a FragText's glyph run.
	Text *TextRun

	// NoStart and NoEnd: this part of an inline box has no start (end)
	// edge on this line; or, for a FragBox cut by a page, no block-start
	// (block-end) border and padding on this page (box-decoration-break:
	// slice).
	NoStart, NoEnd bool

	// fixedH marks a box whose height does not grow when pagination pushes
	// its content down (a specified height); monolithic a box pagination
	// never breaks inside (lines, images, inline-blocks).
	fixedH, monolithic bool
	// relX, relY is the relative-position offset applied to this box.
	relX, relY float64
	// inkTop and inkBottom bound what this fragment and its descendants
	// paint, for skipping whole subtrees on other pages.
	inkTop, inkBottom float64
	// lineTop is a text fragment's line box top: Blink snaps the line box
	// to whole pixels when painting and keeps the text's offset in it.
	lineTop float64
	// contentRight is a line's content's right edge, its hanging spaces
	// left out (for the document's scrollable width).
	contentRight float64
	// hangW is the width of the hanging spaces that end a text fragment
	// (the line's last), which Chromium does not decorate.
	hangW float64
	// lineIndex is a line's index in its block (orphans and widows).
	lineIndex int
	// marker is an outside list marker hanging from this line.
	marker *Frag
	// symbol is a disc, circle or square list marker that this fragment
	// (Box the ::marker) paints as a shape, as Blink does.
	symbol counterStyleKind
	// repeatHeader and repeatFooter are a table wrapper's thead and tfoot
	// row groups, repeated on each page the table spans (paginate.go).
	repeatHeader, repeatFooter *Frag
	// flex is a flex container's line structure, for pagination.
	flex *flexInfo
	// multicol is a multi-column container's columns, for its rules.
	multicol *multicolInfo
	// splitRow marks a table row of one cell that pagination breaks
	// inside (its cell's content), as a block.
	splitRow bool
	// ink is the children's ink envelope, when they are many (painting).
	ink *inkEnvelope
}

// TextRun is one FragText's glyphs: the shaper's, with letter-spacing,
// word-spacing and justification folded into copies of the advances.
type TextRun struct {
	Font       *draw.Font
	Size       float64
	Glyphs     []draw.Glyph
	FakeBold   float64
	FakeItalic bool
	// RTL: the glyphs were shaped right to left (draw.Text.Reversed).
	RTL bool
	// Metrics are the face's, for decorations.
	Metrics fonts.Metrics
}

// fragArena hands out Frags from chunks, so a layout allocates a few large
// blocks instead of one object per fragment. Chunks are never reused
// within a layout, so pointers stay valid.
type fragArena struct {
	chunk []Frag
}

func (a *fragArena) new(k FragKind, b *Box) *Frag {
	if len(a.chunk) == cap(a.chunk) {
		a.chunk = make([]Frag, 0, 256)
	}
	a.chunk = a.chunk[:len(a.chunk)+1]
	f := &a.chunk[len(a.chunk)-1]
	f.Kind, f.Box = k, b
	return f
}

// allocGlyphs returns n glyphs from the layout's glyph chunk. The slice's
// capacity runs to the chunk's end, so that appendGlyphs can extend a run
// in place when the next glyphs follow it in the chunk.
func (l *layouter) allocGlyphs(n int) []draw.Glyph {
	if n > 4096 {
		return make([]draw.Glyph, n)
	}
	if cap(l.glyphs)-len(l.glyphs) < n {
		size := 2 * cap(l.glyphs)
		size = max(size, 1024)
		size = min(size, 16384)
		size = max(size, n)
		l.glyphs = make([]draw.Glyph, 0, size)
	}
	s := l.glyphs[len(l.glyphs) : len(l.glyphs)+n]
	l.glyphs = l.glyphs[:len(l.glyphs)+n]
	return s
}

// translate moves f and its descendants by (dx, dy).
func (f *Frag) translate(dx, dy float64) {
	f.X += dx
	f.Y += dy
	f.Baseline += dy
	f.lineTop += dy
	f.inkTop += dy
	f.inkBottom += dy
	for _, c := range f.Children {
		c.translate(dx, dy)
	}
	if f.marker != nil {
		f.marker.translate(dx, dy)
	}
	if m := f.multicol; m != nil && (dx != 0 || dy != 0) {
		xs := make([]float64, len(m.xs))
		for i, x := range m.xs {
			xs[i] = x + dx
		}
		f.multicol = &multicolInfo{xs: xs, w: m.w, top: m.top + dy, h: m.h, s: m.s}
	}
}
