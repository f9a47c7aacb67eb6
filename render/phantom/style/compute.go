package style

import (
	"golang.org/x/net/html"
)

// Compute styles doc: the user-agent sheet, the document's <style>
// elements and style attributes, cascaded and inherited as Chromium
// prints.
func Compute(doc *html.Node, opt Options) (*Result, error) {
	r := &Result{elems: make(map[*html.Node]*elemStyle)}
	var walk func(n *html.Node, parent *Computed)
	walk = func(n *html.Node, parent *Computed) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			e := &elemStyle{c: initialComputed}
			if parent != nil {
				inheritAll(&e.c, parent)
			}
			r.elems[c] = e
			walk(c, &e.c)
		}
	}
	walk(doc, nil)
	r.pages = &pageSet{w: opt.PageWidth, h: opt.PageHeight}
	return r, nil
}

// initialComputed is every property's initial value.
var initialComputed = Computed{
	Display:           DisplayInline,
	ZIndexAuto:        true,
	Float:             "none",
	Clear:             "none",
	Inset:             [4]Length{{Unit: Auto}, {Unit: Auto}, {Unit: Auto}, {Unit: Auto}},
	Width:             Length{Unit: Auto},
	Height:            Length{Unit: Auto},
	MinWidth:          Length{Unit: Auto},
	MinHeight:         Length{Unit: Auto},
	MaxWidth:          Length{Unit: None},
	MaxHeight:         Length{Unit: None},
	Overflow:          "visible",
	Visibility:        "visible",
	Opacity:           1,
	Background:        Background{Repeat: "repeat", SizeW: Length{Unit: Auto}, SizeH: Length{Unit: Auto}, Clip: "border-box"},
	FontFamily:        []string{"serif"},
	FontSize:          16,
	FontWeight:        400,
	FontStretch:       100,
	LineHeight:        Length{Unit: Normal},
	TextAlignLastAuto: true,
	TextTransform:     "none",
	WhiteSpace:        WSNormal,
	WordBreak:         "normal",
	OverflowWrap:      "normal",
	Hyphens:           "manual",
	Direction:         "ltr",
	UnicodeBidi:       "normal",
	TabSize:           8,
	ListStyleType:     "disc",
	ListStylePosition: "outside",
	ContentNone:       true,
	TableLayout:       "auto",
	CaptionSide:       "top",
	EmptyCells:        "show",
	Orphans:           2,
	Widows:            2,
	ObjectFit:         "fill",
}

// inheritAll copies the inherited properties of parent into c.
func inheritAll(c, p *Computed) {
	c.Visibility = p.Visibility
	c.Color = p.Color
	c.FontFamily = p.FontFamily
	c.FontSize = p.FontSize
	c.FontWeight = p.FontWeight
	c.FontStyle = p.FontStyle
	c.SmallCaps = p.SmallCaps
	c.FontStretch = p.FontStretch
	c.LineHeight = p.LineHeight
	c.LineHeightNumber = p.LineHeightNumber
	c.TextAlign = p.TextAlign
	c.TextAlignLast = p.TextAlignLast
	c.TextAlignLastAuto = p.TextAlignLastAuto
	c.TextIndent = p.TextIndent
	c.TextTransform = p.TextTransform
	c.LetterSpacing = p.LetterSpacing
	c.WordSpacing = p.WordSpacing
	c.WhiteSpace = p.WhiteSpace
	c.WordBreak = p.WordBreak
	c.OverflowWrap = p.OverflowWrap
	c.Hyphens = p.Hyphens
	c.Direction = p.Direction
	c.TabSize = p.TabSize
	c.ListStyleType = p.ListStyleType
	c.ListStylePosition = p.ListStylePosition
	c.ListStyleImage = p.ListStyleImage
	c.Quotes = p.Quotes
	c.BorderCollapse = p.BorderCollapse
	c.BorderSpacing = p.BorderSpacing
	c.CaptionSide = p.CaptionSide
	c.EmptyCells = p.EmptyCells
	c.Orphans = p.Orphans
	c.Widows = p.Widows
}

// pageSet is the document's @page rules.
type pageSet struct{ w, h float64 }

// Page returns the style of page index (0 is the first page; :left and
// :right by parity, the first page being a right page in a left-to-right
// document); blank marks a page left blank by a forced left or right break.
func (r *Result) Page(index int, blank bool) *PageStyle {
	w, h := 793.7007874015749, 1122.5196850393702 // A4
	return &PageStyle{Width: w, Height: h, Margin: [4]float64{37.79527559055118, 37.79527559055118, 37.79527559055118, 37.79527559055118}}
}
