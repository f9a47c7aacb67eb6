package style

import (
	"golang.org/x/net/html"
)

// Options are what computing a document's style needs from outside it.
type Options struct {
	// PageWidth and PageHeight are the page area in px, for media queries
	// (and for vw and vh when no @page rule gives the first page's area).
	PageWidth, PageHeight float64
	// ViewportWidth and ViewportHeight, when set, are what vw and vh
	// measure instead of the first page's area: the viewport of a document
	// laid out again wider to be shrunk onto its pages.
	ViewportWidth, ViewportHeight float64
	// FontMetrics gives the x-height and the width of "0" for ex and ch; nil
	// means 0.5em for both.
	FontMetrics func(families []string, weight int, style FontStyle, size float64) (xHeight, zeroWidth float64)
	// LocalFont reports whether the machine has the font an @font-face
	// local() names (by its full or PostScript name); nil to assume it
	// may.
	LocalFont func(name string) bool
}

// Pseudo names a pseudo-element that generates a box of its own.
type Pseudo uint8

const (
	Before Pseudo = iota
	After
	Marker
)

// Feature is one thing the document uses that phantom does not lay out.
// Name is stable ("columns", "filter", "css:text-shadow", ...) so the
// support check and the document's record can name it; Where says where it
// applies (a selector or an element's description).
type Feature struct{ Name, Where string }

// PageStyle is one printed page's box, from @page rules.
type PageStyle struct {
	Width, Height float64    // px
	Margin        [4]float64 // px, top right bottom left
	// Boxes are the margin boxes by at-rule name without the @ ("top-left",
	// "bottom-center", ...), each with its Content set; only boxes whose
	// content is not none are present.
	Boxes      map[string]*Computed
	Background Background
	// Name is the named page this style was computed for ("" for the
	// default page).
	Name string
}

// Result is a document's computed style. It is read-only once Compute
// returns and safe for concurrent readers.
type Result struct {
	elems map[*html.Node]*elemStyle
	feats []Feature
	pages *pageSet
	// viewport is set when a value used a viewport unit.
	viewport bool
	// webFonts are the @font-face fonts given as data: URIs, in the
	// order of their rules.
	webFonts []WebFont
}

// WebFonts lists the @font-face rules whose font is a data: URI, in the
// order of their rules (a later rule wins a tie).
func (r *Result) WebFonts() []WebFont {
	if r == nil {
		return nil
	}
	return r.webFonts
}

// ViewportUnits reports whether the style used vw, vh, vmin or vmax: a
// document laid out at another viewport needs its style computed again.
func (r *Result) ViewportUnits() bool { return r != nil && r.viewport }

// elemStyle is an element's style and its pseudo-elements' (nil when they
// generate no box).
type elemStyle struct {
	c                     Computed
	info                  elemInfo
	before, after, marker *Computed
}

// Style returns the computed style of element n, nil for anything that is
// not an element of the styled document (and for the inert contents of
// <template>). Elements styled alike may share one Computed: never
// modify it.
func (r *Result) Style(n *html.Node) *Computed {
	if r == nil || n == nil {
		return nil
	}
	if e := r.elems[n]; e != nil {
		return &e.c
	}
	return nil
}

// Pseudo returns the computed style of n's ::before, ::after or ::marker,
// nil when it generates no box (content none or normal, display none, or
// for ::marker an element that is not a list item or has no marker). A
// ::marker with ContentNone set takes its text from ListStyleType (or
// ListStyleImage); attr() in content is already replaced by the text.
func (r *Result) Pseudo(n *html.Node, p Pseudo) *Computed {
	if r == nil || n == nil {
		return nil
	}
	e := r.elems[n]
	if e == nil {
		return nil
	}
	switch p {
	case Before:
		return e.before
	case After:
		return e.after
	case Marker:
		return e.marker
	}
	return nil
}

// Unsupported returns every feature the document uses that phantom does
// not lay out, each Name and Where once: first those of the style sheets
// themselves (@import, selectors phantom cannot parse, @layer), then the
// elements' in document order. Names: "display:-webkit-box",
// "grid-template:subgrid", "grid-template:masonry", "grid-template:tracks"
// (more than MaxGridTracks), "transform",
// "position:sticky", "@font-face", "@import", "@supports", "@layer",
// "columns", "writing-mode", "background-image:gradient", "filter",
// "clip-path", "mask", "::first-line", "::first-letter", "form-control",
// "script", "element:<tag>", "mathml", "display:ruby", "calc", "selector",
// "quirks-mode", "depth", "link-stylesheet", and "css:<property>" for any
// other property phantom does not implement set to a value with an effect.
func (r *Result) Unsupported() []Feature {
	if r == nil {
		return nil
	}
	return r.feats
}
