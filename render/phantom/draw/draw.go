// Package draw is phantom's display list: what layout produces and the PDF
// writer consumes. It is the one contract between the two, so it holds data
// only, no behaviour.
//
// Coordinates are CSS pixels (1/96 in; 1 px = 0.75 pt), with the origin at a
// page's top-left corner and y growing downwards, as layout computes them.
// The writer maps them onto PDF user space. A text origin is the pen position
// on the baseline.
package draw

// Document is a laid-out document: its pages in order, and what the writer
// turns into the PDF's outline and metadata.
type Document struct {
	Pages []*Page
	// Outline is the document's headings in order, for the PDF's bookmarks.
	Outline []OutlineItem
	// Title and Lang are the document's <title> and <html lang>, when set.
	Title, Lang string
	// Struct is a tagged document's structure tree (PDF 14.7), its root
	// the Document element; nil for an untagged document. Content that
	// belongs to an element is between BeginMark and EndMark; everything
	// else the writer marks as an artifact.
	Struct *StructElem
}

// StructElem is an element of the structure tree: a standard role (PDF
// 14.8.4) and what the role carries. Its kids and its own content are read
// in the order of their Order, the document order of what made them.
type StructElem struct {
	// Role is a standard structure type: Document, Sect, Art, Div, P,
	// H1-H6, BlockQuote, L, LI, Lbl, LBody, Table, THead, TBody, TFoot,
	// TR, TH, TD, Caption, Figure, Link, Span.
	Role string
	// Alt is a Figure's alternate text; Lang a language that differs from
	// its parent's; Title the element's title attribute.
	Alt, Lang, Title string
	// Scope is a TH's: Row, Column or Both. ID is a cell's id, and Headers
	// the ids of the TH cells a TD's headers attribute names.
	Scope   string
	ID      string
	Headers []string
	// ColSpan and RowSpan are a cell's spans when over 1.
	ColSpan, RowSpan int
	Order            int
	Parent           *StructElem
	Kids             []*StructElem
}

// BeginMark starts content that belongs to Elem, read at Order among
// Elem's kids; EndMark ends it. Marks do not nest.
type BeginMark struct {
	Elem  *StructElem
	Order int
}

// EndMark ends the content BeginMark started.
type EndMark struct{}

// Page is one printed page: its size and what is painted on it, back to front.
type Page struct {
	Width, Height float64
	Ops           []Op
	Links         []Link
	// Anchors are the targets of internal links (#id) on this page.
	Anchors []Anchor
}

// OutlineItem is one heading: Level 1 for h1 to 6 for h6.
type OutlineItem struct {
	Title string
	Level int
	Page  int // index into Document.Pages
	Y     float64
}

// Anchor is an element with an id that a link may point to.
type Anchor struct {
	Name string
	Y    float64
}

// Link is a clickable area. URI is an external target (http, https,
// mailto); Dest, when URI is empty, names an Anchor of the document.
type Link struct {
	Rect Rect
	URI  string
	Dest string
	// Elem is the Link element of a tagged document the annotation
	// belongs to.
	Elem *StructElem
}

// Rect is an axis-aligned rectangle.
type Rect struct{ X, Y, W, H float64 }

// Color is straight (not premultiplied) sRGB with alpha, each in [0, 1].
type Color struct{ R, G, B, A float64 }

// Op is one painting operation.
type Op interface{ isOp() }

// Path is a sequence of segments. A path with no segments paints nothing.
type Path []Segment

// SegmentKind says what a Segment does.
type SegmentKind uint8

const (
	MoveTo  SegmentKind = iota // P[0]
	LineTo                     // P[0]
	CubicTo                    // control points P[0], P[1], end P[2]
	Close
)

// Segment is one step of a Path.
type Segment struct {
	Kind SegmentKind
	P    [3]Point
}

// Point is a position on the page.
type Point struct{ X, Y float64 }

// Fill paints the inside of Path.
type Fill struct {
	Path    Path
	Color   Color
	EvenOdd bool
}

// LineCap and LineJoin are PDF's (0 butt/miter, 1 round, 2 square/bevel).
type (
	LineCap  uint8
	LineJoin uint8
)

// Stroke paints along Path. Dash is the on-off pattern in pixels (empty for
// solid), beginning at DashPhase.
type Stroke struct {
	Path      Path
	Color     Color
	Width     float64
	Dash      []float64
	DashPhase float64
	Cap       LineCap
	Join      LineJoin
	// MiterLimit is SVG's stroke-miterlimit (Illustrator writes 10); 0 means
	// 4, the default of SVG and of Skia, which Chromium strokes with.
	MiterLimit float64
}

// Font is one font file as the writer embeds it. Fonts are compared by
// pointer: one *Font per face for the life of the process, shared read-only
// by every goroutine.
type Font struct {
	// Key is stable across runs (path and index), and orders fonts in the output.
	Key   string
	Data  []byte // the whole file: TrueType or OpenType (glyf or CFF), or a collection
	Index int    // the face in a collection
	// PostScriptName names the font in the PDF (after the subset tag).
	PostScriptName string
	// Family is the face's family name, for a document's report.
	Family     string
	UnitsPerEm int
	// Ascent and Descent (negative), CapHeight, and BBox (xMin, yMin, xMax,
	// yMax) are in font units, for the font descriptor.
	Ascent, Descent, CapHeight int
	BBox                       [4]int
	ItalicAngle                float64
	FixedPitch, Serif, Italic  bool
}

// Glyph is one shaped glyph. Advance is the pen movement layout used after
// it, in pixels (letter-spacing, word-spacing and justification included);
// XOffset and YOffset move this glyph only (YOffset up is negative, as y
// grows downwards). Text is the source text of the glyph's cluster, set on
// the first glyph of a cluster and empty on the others, for the ToUnicode
// map and for copying text out of the PDF.
type Glyph struct {
	ID               uint16
	Advance          float64
	XOffset, YOffset float64
	Text             string
}

// Text paints a run of glyphs of one font, size and colour from the pen
// position (X, Y) on the baseline, left to right in visual order.
type Text struct {
	Font   *Font
	Size   float64 // font size in pixels
	X, Y   float64
	Glyphs []Glyph
	Color  Color
	// FakeBold thickens the glyphs with a stroke of this width in pixels, as
	// browsers do when a family has no bold face; FakeItalic slants them.
	FakeBold   float64
	FakeItalic bool
	// Reversed marks a run shaped right to left: its glyphs, in visual
	// order, show its text backwards. The writer marks such a run of more
	// than one cluster /ReversedChars (PDF 14.8.2.5.3), as Chromium's Skia
	// does.
	Reversed bool
}

// ImageKind says how Image data is held.
type ImageKind uint8

const (
	// JPEG is a JPEG file passed through as it is (DCTDecode).
	JPEG ImageKind = iota
	// Raster is decoded 8-bit pixels: RGB (3 bytes a pixel) or Gray (1), and
	// an optional Alpha plane (1 byte a pixel).
	Raster
)

// Image is one decoded image, shared by every place it is painted.
// Compared by pointer: the writer embeds it once.
type Image struct {
	Kind          ImageKind
	Width, Height int // pixels
	// Data is the JPEG file, or the colour samples of a Raster.
	Data []byte
	// Components is 1 (gray), 3 (RGB) or 4 (CMYK, JPEG only).
	Components int
	Alpha      []byte
	// InvertCMYK marks an Adobe CMYK JPEG, stored inverted.
	InvertCMYK bool
}

// DrawImage paints Image into Rect, scaled to fill it.
type DrawImage struct {
	Image *Image
	Rect  Rect
}

// PushClip restricts painting to the inside of Path until the matching
// PopClip: by the non-zero winding rule, or the even-odd rule when EvenOdd
// is set (a rectangle around a shape clips to outside the shape).
type PushClip struct {
	Path    Path
	EvenOdd bool
}

// PopClip ends the innermost PushClip or PushOpacity.
type PopClip struct{}

// PushOpacity paints what follows, until the matching PopClip, with this
// constant alpha multiplied in.
type PushOpacity struct{ Alpha float64 }

// PushTransform applies an affine matrix [a b c d e f] (as in PDF and SVG,
// in pixels) to what follows, until the matching PopClip. Used for SVG.
type PushTransform struct{ M [6]float64 }

// LinearGradient fills Path with colours that vary along the line from
// (X0, Y0) to (X1, Y1): Stops at offsets from 0 to 1 in order, the end
// colours extended past both ends, or, with Repeat, the whole period
// from (X0, Y0) to (X1, Y1) repeated both ways along the line. Colours
// are opaque.
type LinearGradient struct {
	Path           Path
	X0, Y0, X1, Y1 float64
	Stops          []GradientStop
	Repeat         bool
}

// GradientStop is a colour at an offset along a gradient's line.
type GradientStop struct {
	Offset float64
	Color  Color
}

func (BeginMark) isOp()      {}
func (EndMark) isOp()        {}
func (LinearGradient) isOp() {}
func (Fill) isOp()           {}
func (Stroke) isOp()         {}
func (Text) isOp()           {}
func (DrawImage) isOp()      {}
func (PushClip) isOp()       {}
func (PopClip) isOp()        {}
func (PushOpacity) isOp()    {}
func (PushTransform) isOp()  {}
