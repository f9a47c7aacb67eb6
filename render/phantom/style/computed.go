package style

import "github.com/platen/platen/render/phantom/draw"

// Unit says how a Length is measured once computed. Every absolute unit
// (pt, mm, cm, in, pc, q) and every font-relative one (em, rem, ex, ch) is
// resolved to Px at compute time; only percentages and keywords remain.
type Unit uint8

const (
	Px Unit = iota
	Percent
	Auto
	// None is max-width: none and the like.
	None
	// Normal is line-height: normal, letter-spacing: normal and the like.
	Normal
	// MinContent, MaxContent and FitContent are width keywords.
	MinContent
	MaxContent
	FitContent
)

// Length is a computed length: V pixels, or V percent of the containing
// block's dimension that the property refers to, or a keyword.
type Length struct {
	V    float64
	Unit Unit
	// Off is added to a percentage: calc(V% + Off px) computes to
	// {V, Percent, Off}. It is zero for every other length, so resolve
	// percentages with Resolve rather than by hand.
	Off float64
}

// Resolve returns the length in pixels against base (for percentages);
// keywords resolve to def.
func (l Length) Resolve(base, def float64) float64 {
	switch l.Unit {
	case Px:
		return l.V
	case Percent:
		return l.V*base/100 + l.Off
	}
	return def
}

// IsAuto reports whether the length is the keyword auto.
func (l Length) IsAuto() bool { return l.Unit == Auto }

// Display is the computed display, outer and inner together.
type Display uint8

const (
	DisplayInline Display = iota
	DisplayBlock
	DisplayInlineBlock
	DisplayListItem
	DisplayNone
	DisplayTable
	DisplayInlineTable
	DisplayTableRowGroup
	DisplayTableHeaderGroup
	DisplayTableFooterGroup
	DisplayTableRow
	DisplayTableCell
	DisplayTableColumnGroup
	DisplayTableColumn
	DisplayTableCaption
	// DisplayContents boxes its children without a box of its own.
	DisplayContents
	// DisplayFlex, DisplayInlineFlex, DisplayGrid and DisplayInlineGrid are
	// recorded for the support check; phantom lays them out as block (or
	// inline-block) when asked to render such a document by name.
	DisplayFlex
	DisplayInlineFlex
	DisplayGrid
	DisplayInlineGrid
)

// Position is the computed position.
type Position uint8

const (
	Static Position = iota
	Relative
	Absolute
	Fixed
	Sticky
)

// BorderStyle is a border's or an outline's line style.
type BorderStyle uint8

const (
	BorderNone BorderStyle = iota
	BorderHidden
	BorderSolid
	BorderDashed
	BorderDotted
	BorderDouble
	BorderGroove
	BorderRidge
	BorderInset
	BorderOutset
)

// Border is one side's computed border. Width is 0 when Style is none or
// hidden (as CSS computes it).
type Border struct {
	Width float64
	Style BorderStyle
	Color draw.Color
	// CurrentColor: the colour is currentColor (Color holds its value),
	// which Chromium paints differently in inset and outset borders.
	CurrentColor bool
}

// Sides are indexed top, right, bottom, left, as CSS writes them.
const (
	Top = iota
	Right
	Bottom
	Left
)

// Corners are indexed top-left, top-right, bottom-right, bottom-left.
const (
	TopLeft = iota
	TopRight
	BottomRight
	BottomLeft
)

// Shadow is one box-shadow or text-shadow, in px: offsets, blur radius
// (the Gaussian's standard deviation is half of it), spread, colour
// (currentColor resolved) and, for a box, whether it is inset.
type Shadow struct {
	X, Y, Blur, Spread float64
	Color              draw.Color
	Inset              bool
}

// TransformFn is one 2D transform function: Kind "matrix" (M), "translate"
// (X, Y, lengths or percentages of the border box), "scale" (M[0], M[3]),
// "rotate" (Angle, radians) or "skew" (Angle, Angle2, radians).
type TransformFn struct {
	Kind          string
	X, Y          Length
	M             [6]float64
	Angle, Angle2 float64
}

// NumericVariant is a set of font-variant-numeric values, each an
// OpenType feature: lnum, onum, pnum, tnum, frac, afrc, ordn, zero.
type NumericVariant uint8

const (
	NumLining NumericVariant = 1 << iota
	NumOldstyle
	NumProportional
	NumTabular
	NumDiagonalFractions
	NumStackedFractions
	NumOrdinal
	NumSlashedZero
)

// FlexDirection is flex-direction.
type FlexDirection uint8

const (
	FlexRow FlexDirection = iota
	FlexRowReverse
	FlexColumn
	FlexColumnReverse
)

// IsColumn reports whether the main axis is vertical.
func (d FlexDirection) IsColumn() bool { return d == FlexColumn || d == FlexColumnReverse }

// IsReverse reports whether items run from the main axis's end.
func (d FlexDirection) IsReverse() bool { return d == FlexRowReverse || d == FlexColumnReverse }

// FlexWrap is flex-wrap.
type FlexWrap uint8

const (
	NoWrap FlexWrap = iota
	Wrap
	WrapReverse
)

// AxisAlign is a box alignment keyword (CSS Box Alignment 3) of
// justify-content, align-content, align-items or align-self; safe and
// unsafe are parsed and dropped (Chromium's flex layout aligns unsafely by
// default and phantom always does).
type AxisAlign uint8

const (
	AxNormal AxisAlign = iota
	AxAuto
	AxStretch
	AxFlexStart
	AxFlexEnd
	AxStart
	AxEnd
	AxSelfStart
	AxSelfEnd
	AxLeft
	AxRight
	AxCenter
	AxSpaceBetween
	AxSpaceAround
	AxSpaceEvenly
	AxBaseline
	AxLastBaseline
)

// Radius is one corner's radii, horizontal and vertical.
type Radius struct{ H, V Length }

// FontStyle is normal, italic or oblique.
type FontStyle uint8

const (
	FontNormal FontStyle = iota
	FontItalic
	FontOblique
)

// TextAlign is the computed text-align (start and end resolved against
// direction; match-parent resolved).
type TextAlign uint8

const (
	AlignLeft TextAlign = iota
	AlignRight
	AlignCenter
	AlignJustify
)

// WhiteSpace is the computed white-space.
type WhiteSpace uint8

const (
	WSNormal WhiteSpace = iota
	WSNowrap
	WSPre
	WSPreWrap
	WSPreLine
	WSBreakSpaces
)

// VerticalAlign is a keyword, or Length when Keyword is VALength.
type VerticalAlign struct {
	Keyword VAKeyword
	Length  Length // VALength: a length or a percentage of line-height
}

// VAKeyword is a vertical-align keyword.
type VAKeyword uint8

const (
	VABaseline VAKeyword = iota
	VASub
	VASuper
	VATextTop
	VATextBottom
	VAMiddle
	VATop
	VABottom
	VALength
	// VABaselineMiddle is Chromium's -webkit-baseline-middle (<img
	// align="middle">): the box's middle on the parent's baseline.
	VABaselineMiddle
)

// Decoration is text-decoration: lines as bits, style and colour.
type Decoration struct {
	Underline, Overline, LineThrough bool
	Style                            BorderStyle // solid, double, dotted, dashed (wavy draws solid)
	Color                            draw.Color
	// Thickness is text-decoration-thickness, auto when the font decides.
	Thickness Length
}

// Break is a break-before, break-after or break-inside value.
type Break uint8

const (
	BreakAuto Break = iota
	BreakAvoid
	BreakPage // also always, left, right, recto, verso
	BreakAvoidPage
	// BreakLeft and BreakRight force a page break and then as many blank
	// pages as it takes to continue on a left or right page (recto is
	// right and verso left in a left-to-right document).
	BreakLeft
	BreakRight
	// BreakColumn and BreakAvoidColumn act in a multi-column container's
	// columns only.
	BreakColumn
	BreakAvoidColumn
)

// ContentItem is one part of a ::before or ::after content value (or of a
// margin box's content).
type ContentItem struct {
	Kind ContentKind
	// Text is a string; Name is a counter's or attribute's name; Style is a
	// counter's list-style-type; Sep is counters()'s separator.
	Text, Name, Style, Sep string
}

// ContentKind is what a ContentItem inserts.
type ContentKind uint8

const (
	ContentString ContentKind = iota
	ContentCounter
	ContentCounters
	ContentAttr
	ContentOpenQuote
	ContentCloseQuote
	ContentURL
	// ContentNoOpenQuote and ContentNoCloseQuote change the quote depth
	// without inserting a quote.
	ContentNoOpenQuote
	ContentNoCloseQuote
)

// Counter is one entry of counter-reset, counter-increment or counter-set.
type Counter struct {
	Name  string
	Value int
}

// Background is the computed background: colour and at most one image
// layer (more layers are reported unsupported).
type Background struct {
	Color draw.Color
	// Image is the url() of background-image, empty when none.
	Image string
	// Gradient is background-image's linear-gradient() when it is one of
	// opaque colours (nil otherwise; other gradients are reported).
	Gradient *Gradient
	// Repeat: "repeat", "repeat-x", "repeat-y", "no-repeat".
	Repeat string
	// PositionX and PositionY: percentages or pixels.
	PositionX, PositionY Length
	// Size: Auto (both), or W and H (either may be Auto); Cover and Contain.
	SizeW, SizeH   Length
	Cover, Contain bool
	// Clip is "border-box", "padding-box" or "content-box".
	Clip string
	// Origin is the box Position and Size refer to: "padding-box" (the
	// initial value), "border-box" or "content-box".
	Origin string
}

// Gradient is a linear-gradient(): Angle is the gradient line's direction
// in radians (0 up, clockwise), or Corner is set for "to <corner>" (Angle
// then waits for the box's size: CornerX is -1 left or 1 right, CornerY -1
// top or 1 bottom). Stops are in order, positions as written (HasPos false
// where omitted).
type Gradient struct {
	Angle            float64
	Corner           bool
	CornerX, CornerY int
	Stops            []GradientStop
	// Repeating is repeating-linear-gradient(): the stops repeat along the
	// gradient line with the first-to-last distance as the period.
	Repeating bool
}

// GradientStop is one colour stop.
type GradientStop struct {
	Color  draw.Color
	Pos    Length
	HasPos bool
}

// Computed is one element's computed style: what the cascade and
// inheritance leave, with lengths in pixels where CSS computes them so.
// Layout reads it and never parses CSS.
type Computed struct {
	Display Display
	// FlowRoot is set for display: flow-root (Display is then
	// DisplayBlock, or DisplayInlineBlock for inline flow-root): the box
	// establishes a block formatting context, so its margins do not
	// collapse with its children's.
	FlowRoot bool
	Position Position
	// Inset is top, right, bottom, left (auto or length or %).
	Inset      [4]Length
	ZIndex     int
	ZIndexAuto bool
	Float      string // "none", "left", "right"; not laid out, reported unsupported
	Clear      string

	Width, Height, MinWidth, MinHeight, MaxWidth, MaxHeight Length
	BorderBox                                               bool // box-sizing: border-box

	Margin  [4]Length
	Padding [4]Length
	Border  [4]Border
	Radius  [4]Radius
	// BoxShadow lists the box's shadows, the first on top.
	BoxShadow []Shadow
	Outline   Border
	// OutlineOffset is outline-offset in px.
	OutlineOffset float64

	Overflow   string // "visible" or "hidden" (clip, scroll and auto clip as hidden when printed)
	Visibility string // "visible", "hidden", "collapse"
	Opacity    float64

	Color      draw.Color
	Background Background

	FontFamily []string // as written, quotes removed, generic families lower-case
	FontSize   float64  // px
	FontWeight int      // 100..900
	FontStyle  FontStyle
	SmallCaps  bool
	// Numeric is font-variant-numeric: the OpenType features it turns on.
	Numeric NumericVariant
	// FeatureNumeric are the numeric features font-feature-settings turns
	// on ("tnum", "lnum", ...), added to Numeric's.
	FeatureNumeric NumericVariant
	FontStretch    float64 // percent, 100 normal
	// LineHeight: Normal, a Px length, or a number (Unit Px with Number set).
	LineHeight       Length
	LineHeightNumber bool

	TextAlign TextAlign
	// TextAlignBlocks is set for the legacy values -webkit-center,
	// -webkit-left and -webkit-right (<center>, align="center" on div, p
	// and table cells): block-level children with auto inline margins are
	// aligned too, as Chromium does.
	TextAlignBlocks bool
	TextAlignLast   TextAlign
	// TextAlignLastAuto is true when text-align-last is auto.
	TextAlignLastAuto bool
	TextIndent        Length
	TextTransform     string // "none", "uppercase", "lowercase", "capitalize"
	Decoration        Decoration
	LetterSpacing     float64 // px; normal is 0
	WordSpacing       float64
	WhiteSpace        WhiteSpace
	WordBreak         string // "normal", "break-all", "keep-all", "break-word"
	OverflowWrap      string // "normal", "break-word", "anywhere"
	Hyphens           string // "none", "manual", "auto"
	VerticalAlign     VerticalAlign
	Direction         string // "ltr", "rtl"
	// Lang is the element's language (the nearest lang attribute), for
	// shaping and hyphenation; empty when the document gives none.
	Lang        string
	UnicodeBidi string
	TabSize     float64 // in spaces

	ListStyleType     string // "disc", "decimal", ..., "none"; a string value is quoted
	ListStylePosition string // "outside", "inside"
	ListStyleImage    string

	CounterReset, CounterIncrement, CounterSet []Counter
	// Content is a ::before, ::after or ::marker content; ContentNone means
	// none or normal (no box).
	Content     []ContentItem
	ContentNone bool
	Quotes      []string

	TableLayout    string // "auto", "fixed"
	BorderCollapse bool
	// BorderSpacing is horizontal and vertical.
	BorderSpacing [2]float64
	CaptionSide   string // "top", "bottom"
	EmptyCells    string // "show", "hide"

	BreakBefore, BreakAfter, BreakInside Break
	Orphans, Widows                      int
	// Page is the named page (page: name), empty for auto.
	Page string

	ObjectFit string // "fill", "contain", "cover", "none", "scale-down"
	// ObjectPosition places the image in its box (x and y, percentages of
	// the space left over).
	ObjectPosition [2]Length
	// AspectRatio is width/height, 0 for auto.
	AspectRatio float64

	// Transform is the 2D transform functions, in order (nil for none);
	// TransformOrigin its origin's x and y in the border box.
	Transform       []TransformFn
	TransformOrigin [2]Length

	// Flex container properties (CSS Flexbox 1).
	FlexDirection FlexDirection
	FlexWrap      FlexWrap
	// JustifyContent and AlignContent place the items on the main axis
	// and the lines on the cross axis; AlignItems is the items' default
	// AlignSelf.
	JustifyContent, AlignContent, AlignItems AxisAlign
	// RowGap and ColumnGap are the gaps between lines and items (Normal,
	// which is 0 in flex layout and 1em between columns, or a length or
	// percentage).
	RowGap, ColumnGap Length
	// Multi-column layout: ColumnCount is 0 for auto; ColumnWidth is Auto
	// or px; ColumnRule is the rule between columns; ColumnSpanAll is
	// column-span: all; ColumnFillAuto is column-fill: auto.
	ColumnCount    int
	ColumnWidth    Length
	ColumnRule     Border
	ColumnSpanAll  bool
	ColumnFillAuto bool
	// Flex item properties: AlignSelf is AxAuto to follow the container's
	// AlignItems; FlexBasis is Auto, MaxContent for content, or a length.
	AlignSelf            AxisAlign
	FlexGrow, FlexShrink float64
	FlexBasis            Length
	Order                int

	// TextEllipsis is text-overflow: ellipsis (clip otherwise).
	TextEllipsis bool

	// OuterInline is set when the box was inline-level before
	// blockification: an absolutely positioned box's static position is
	// on its line if so, else at the start of the next line.
	OuterInline bool

	// Grid container properties (CSS Grid Layout 1): nil templates and
	// areas are none, nil auto tracks auto.
	GridTemplateColumns, GridTemplateRows *TrackList
	GridTemplateAreas                     *GridAreas
	GridAutoColumns, GridAutoRows         []TrackSize
	GridAutoFlow                          GridFlow
	// Grid item properties: the lines of the item's area.
	GridRowStart, GridRowEnd, GridColumnStart, GridColumnEnd GridLine
	// JustifyItems is the items' default JustifySelf; JustifySelf is
	// AxAuto to follow it.
	JustifyItems, JustifySelf AxisAlign
}
