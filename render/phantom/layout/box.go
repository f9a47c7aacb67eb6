package layout

import (
	"github.com/platen/platen/render/phantom/draw"
	"golang.org/x/net/html"

	"github.com/platen/platen/render/phantom/images"
	"github.com/platen/platen/render/phantom/style"
)

// Kind is what a Box is: its inner display, with table parts spelled out
// (CSS 2.1 §17.2). Whether the box is block-level or inline-level is
// Box.Inline.
type Kind uint8

const (
	// KindBlock is a block container: display block, list-item, flow-root,
	// inline-block (Inline set), and flex and grid laid out as block.
	KindBlock Kind = iota
	// KindInline is a non-atomic inline box (display inline).
	KindInline
	// KindText is a run of text of its parent's style. Text holds it as the
	// document wrote it (text-transform applied; white space is processed
	// when the paragraph is collected, since collapsing crosses elements).
	KindText
	// KindReplaced is an image: Image is set, or nil when it failed to load
	// (then it paints nothing and takes its specified size, as Chromium
	// does for a broken image).
	KindReplaced
	// KindBreak is <br>: a forced line break.
	KindBreak
	// KindTableWrapper is the box around a table and its captions (CSS 2.1
	// §17.4): it takes the table's margins and position; its children are
	// the captions and the KindTable box. Inline set for inline-table.
	KindTableWrapper
	// KindTable is the table grid box: its children are row groups (after
	// fix-up, rows always sit in a row group) and column groups.
	KindTable
	// KindCaption is a table caption, a block container.
	KindCaption
	// KindRowGroup is thead, tbody or tfoot (Style.Display says which; an
	// anonymous row group is a tbody).
	KindRowGroup
	// KindRow is a table row; its children are cells.
	KindRow
	// KindCell is a table cell, a block container; ColSpan and RowSpan set.
	KindCell
	// KindColumnGroup holds KindColumn children (or stands for Span columns
	// when it has none).
	KindColumnGroup
	// KindColumn is one column element standing for Span columns.
	KindColumn
)

// Pseudo says which generated box a Box is.
type Pseudo uint8

const (
	PseudoNone Pseudo = iota
	PseudoBefore
	PseudoAfter
	PseudoMarker
)

// Box is a node of the box tree, built from the DOM and the computed style
// (build.go). Boxes are made once per layout and read-only afterwards.
//
// Invariants after building:
//   - a block container's children are either all block-level or all
//     inline-level (anonymous block boxes wrap inline runs; an inline box
//     holding a block is split around it, CSS 2.1 §9.2.1.1) — InlineContent
//     says which;
//   - table parts are complete (anonymous table boxes, CSS 2.1 §17.2.1): a
//     KindTableWrapper holds captions then exactly one KindTable; a
//     KindTable holds column groups and row groups; row groups hold rows;
//     rows hold cells;
//   - display:none elements have no box, display:contents elements have
//     none but their children do;
//   - abspos and fixed boxes stay where they are in the tree (Style.Position
//     says so); layout takes them out of flow.
type Box struct {
	Kind Kind
	// Inline is true for an inline-level box: inline, inline-block,
	// inline-table, an inline image, text and <br>.
	Inline bool
	// InlineContent is true for a block container whose children are
	// inline-level: it establishes an inline formatting context.
	InlineContent bool
	// Anonymous marks boxes that CSS makes up: anonymous blocks, table
	// fix-up boxes, and split parts of an inline box.
	Anonymous bool

	Style *style.Computed
	// Node is the element (or text node) that generated the box; nil for
	// anonymous boxes; the originating element for ::before, ::after and
	// ::marker boxes.
	Node   *html.Node
	Pseudo Pseudo

	Parent   *Box
	Children []*Box

	// Text is a KindText box's text.
	Text string
	// Image is a KindReplaced box's image; nil when it failed to load.
	Image *images.Image

	// ColSpan and RowSpan are a cell's spans (≥ 1); Span is a column's or
	// an empty column group's span (≥ 1).
	ColSpan, RowSpan, Span int

	// splitStart and splitEnd mark a part of an inline box split around a
	// block (CSS 2.1 §9.2.1.1): a part that is not the first has no start
	// edge (margin, border, padding) and one that is not the last no end
	// edge.
	noStart, noEnd bool

	// Marker is a list item's outside ::marker (an inline box of its
	// text): it hangs beside the item's first line box instead of sitting
	// in it. Inside markers are ordinary first children.
	Marker *Box

	// para is the collected paragraph of a block container with inline
	// content; minW and maxW its intrinsic widths once intrinsicDone.
	para          *paragraph
	minW, maxW    float64
	intrinsicDone bool

	// id is the element's id attribute, href its link (for <a>), both
	// empty when absent.
	id, href string

	// In a tagged document (tags.go): the structure element the box's
	// content belongs to, the one it made, and its document order.
	tagContent, tagOwn *draw.StructElem
	tagOrder           int
}

// IsBlockContainer reports whether the box contains blocks or lines: block
// boxes, inline-blocks, captions and cells.
func (b *Box) IsBlockContainer() bool {
	switch b.Kind {
	case KindBlock, KindCaption, KindCell:
		return true
	}
	return false
}

// IsAtomicInline reports whether the box sits in a line as one unbreakable
// piece: inline-block, inline-table, inline images.
func (b *Box) IsAtomicInline() bool {
	if !b.Inline {
		return false
	}
	switch b.Kind {
	case KindBlock, KindReplaced, KindTableWrapper:
		return true
	}
	return false
}

// IsOutOfFlow reports whether the box is absolutely or fixed positioned.
func (b *Box) IsOutOfFlow() bool {
	if b.Kind == KindText || b.Kind == KindBreak {
		return false // they share their parent's style
	}
	p := b.Style.Position
	return p == style.Absolute || p == style.Fixed
}

// isPositioned reports whether the box is positioned (a containing block
// for absolute descendants).
func (b *Box) isPositioned() bool { return b.Style.Position != style.Static }

// establishesBFC reports whether the box is a block formatting context
// root: its margins do not collapse with its children's.
func (b *Box) establishesBFC() bool {
	s := b.Style
	if b.Inline || b.Kind == KindCell || b.Kind == KindCaption || b.IsOutOfFlow() || b.isFloat() {
		return true
	}
	if s.Overflow != "visible" && s.Overflow != "" || s.FlowRoot || b.isMulticol() {
		return true
	}
	switch s.Display {
	case style.DisplayFlex, style.DisplayGrid, style.DisplayInlineFlex, style.DisplayInlineGrid:
		return true
	}
	if b.Parent != nil && b.Parent.isFlexOrGrid() {
		return true // a flex or grid item
	}
	return b.Parent == nil
}
