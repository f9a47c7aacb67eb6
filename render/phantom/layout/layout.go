package layout

import (
	"context"
	"errors"
	"math"

	"github.com/go-text/typesetting/bidi"
	"github.com/go-text/typesetting/segmenter"
	"golang.org/x/net/html"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/fonts"
	"github.com/platen/platen/render/phantom/images"
	"github.com/platen/platen/render/phantom/style"
)

// ErrTooManyPages is returned when the document would print more than
// Options.MaxPages pages; the engine maps it onto render's page cap error.
var ErrTooManyPages = errors.New("layout: the document has more pages than allowed")

// ErrTooDeep is returned for a document nested deeper than Options.MaxDepth
// elements: no business document comes near, and a bound keeps recursion
// safe.
var ErrTooDeep = errors.New("layout: the document is nested too deeply")

// ErrTooManyShadowPixels is returned for a document whose blurred shadows
// would need images of more than maxShadowPixelsDoc pixels in all.
var ErrTooManyShadowPixels = errors.New("layout: the document's blurred shadows are too many or too large (more than 16 million pixels of shadow); use fewer, smaller or sharper shadows")

// ErrTooManyBoxes is returned for a document that would make more than
// Options.MaxBoxes boxes.
var ErrTooManyBoxes = errors.New("layout: the document has too many boxes")

var errNoSource = errors.New("layout: <img> without src")

// Options are what a layout needs besides the document.
type Options struct {
	// MaxPages stops the layout with ErrTooManyPages beyond this many
	// pages; 0 means DefaultMaxPages.
	MaxPages int
	// MaxDepth bounds element nesting (ErrTooDeep); 0 means DefaultMaxDepth.
	MaxDepth int
	// MaxBoxes bounds the box tree (ErrTooManyBoxes); 0 means
	// BoxesPerPage for each page MaxPages allows (at least
	// DefaultMaxBoxes), so that the box cap follows the page cap.
	MaxBoxes int
	// Header and Footer are Chromium's displayHeaderFooter templates:
	// markup printed in every page's top and bottom margin, in which
	// elements of class pageNumber and totalPages get the page number and
	// count (and title, url and date their values). Empty means none.
	Header, Footer string
	// LoadImage loads an <img src> or CSS url(); nil means images.Load.
	LoadImage func(src string) (*images.Image, error)
	// OnImageError, when set, is told of each image that failed to load
	// (it is then drawn as nothing, as Chromium draws a broken image).
	OnImageError func(src string, err error)
	// Restyle, when set, computes the document's style again for a
	// viewport of w × h px: a document wider than its page is laid out
	// again at a wider viewport, and its viewport units grow with it (as
	// in Chromium). Nil keeps the first style.
	Restyle func(w, h float64) (*style.Result, error)
	// Tagged makes a tagged document: the structure tree from the box tree
	// (tags.go), its content marked, the rest left to be artifacts.
	Tagged bool
}

// Default limits: far beyond business documents, well within a worker's
// memory and time budget.
const (
	DefaultMaxPages = 1000
	DefaultMaxDepth = 256
	DefaultMaxBoxes = 500000
	// BoxesPerPage is the box allowance of each page of the page cap: a
	// dense statement page (45 rows of 6 cells) makes about 600.
	BoxesPerPage = 1000
)

// maxShrink is the most Chromium's print shrinks content wider than the
// page (measured: 1.50; it was 2 in older versions).
const maxShrink = 1.5

// layouter is one layout's state. Not shared between goroutines.
type layouter struct {
	// tags is a tagged document's structure tree; nil when untagged.
	tags *tags
	ctx  context.Context
	st   *style.Result
	sh   *fonts.Shaper
	opt  Options
	// shadows are the blurred shadows' images, by shape, so that the
	// same shadow on many boxes is one image in the PDF.
	shadows map[shadowKey]shadowImage
	// shadowPixels counts the pixels of the blurred shadows' images made
	// (maxShadowPixelsDoc bounds them).
	shadowPixels int

	quirks bool
	// lineQuirk is the line height calculation quirk of quirks and
	// limited-quirks modes: a box's strut counts only once it holds text.
	lineQuirk bool
	// flexNest counts the flex containers being laid out, one inside
	// another.
	flexNest int
	// paras are the boxes whose paragraphs were collected: dropped once
	// the document is laid out, as are the tables' grids (tables), which
	// only layout needs, so that painting a long document holds less.
	paras []*Box
	// scale is the print shrink factor (1 unless the content is wider than
	// the page): layout coordinates times scale are page coordinates.
	scale float64
	// icb is the initial containing block: the first page's page area, at
	// the origin of the flow.
	icbW, icbH float64
	// viewW and viewH are the viewport's size, the containing block of
	// positioned boxes with no positioned ancestor: Chromium's frame size,
	// the page area rounded down (measured), where blocks lay out in the
	// area rounded up.
	viewW, viewH float64

	frags  fragArena
	glyphs []draw.Glyph

	// work counts units of layout work between context checks.
	work int
	err  error

	// abspos collects out-of-flow boxes waiting for their containing block.
	positioned []*posContainer
	fixed      []*pendingAbs
	// doc is the result being built.
	doc *draw.Document
	// tables lets the table code keep state per layout.
	tables any
	// fixedFrags are the position: fixed boxes, painted on every page.
	fixedFrags []*Frag
	// colHints are where multi-column containers that run past their
	// page's end break (multicol.go); multicols the containers laid out.
	colHints  map[*Box]colHint
	multicols []*multicolRec
	// pager is the last pagination's, for the multi-column check.
	pager *pager
	// markers are outside list markers waiting for their first line box
	// (innermost last).
	markers []*Box

	// header and footer are the displayHeaderFooter templates.
	header, footer *hfTemplate
	// bgImages caches the CSS images of this layout by url.
	bgImages map[string]*images.Image

	// pairs caches kerning across segment boundaries.
	pairs map[pairKey]float64

	// Scratch reused across paragraphs.
	seg       segmenter.Segmenter
	bidi      bidi.Paragraph
	lineBoxes []lineBox
	openIdx   map[int]int
}

// Layout lays out an HTML document for print as Chromium (LayoutNG) does,
// page by page, and paints it into a display list. doc is the parsed
// document, st its computed style, sh the worker's shaper.
func Layout(ctx context.Context, doc *html.Node, st *style.Result, sh *fonts.Shaper, opt Options) (*draw.Document, error) {
	if opt.MaxPages <= 0 {
		opt.MaxPages = DefaultMaxPages
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultMaxDepth
	}
	if opt.MaxBoxes <= 0 {
		opt.MaxBoxes = max(DefaultMaxBoxes, BoxesPerPage*opt.MaxPages)
	}
	if opt.LoadImage == nil {
		opt.LoadImage = images.Load
	}
	l := &layouter{ctx: ctx, st: st, sh: sh, opt: opt, doc: &draw.Document{}, openIdx: map[int]int{}}
	l.quirks = doc != nil && style.QuirksMode(doc)
	l.lineQuirk = l.quirks || doc != nil && style.LimitedQuirksMode(doc)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	root, err := l.buildTree(doc)
	if err != nil {
		return nil, err
	}
	first := pageGeometry(st.Page(0, false))
	l.icbW, l.icbH = first.areaW, first.areaH
	l.viewW, l.viewH = first.viewW, first.viewH
	l.scale = 1
	l.docInfo(doc)
	if opt.Tagged && root != nil {
		l.tags = buildTags(root, l.doc.Lang)
		l.doc.Struct = l.tags.root
	}
	var rootFrag *Frag
	if root != nil {
		rootFrag = l.layoutRoot(root)
		if l.err != nil {
			return nil, l.err
		}
		// Chromium shrinks a document wider than the page to fit: laid out
		// again as wide as its content, but at most one and a half times
		// the page area (measured: content 1.15 to 1.50 times as wide is
		// shrunk to fit exactly, anything wider by 1.50 and cut off at the
		// page area's right edge), the pages keep their proportions and
		// are scaled down when printed
		// (LocalFrameView::ForceLayoutForPagination).
		if w := docWidth(rootFrag, 0); w > l.icbW+1.0/64 {
			nw := math.Min(math.Ceil(w-1e-6), math.Round(maxShrink*first.areaW))
			// The scale is the content's own width's (measured: it moves
			// with fractions of a pixel), the layout width whole pixels
			// rounded up (measured).
			l.scale = first.areaW / math.Min(w, maxShrink*first.areaW)
			l.icbW, l.icbH = nw, first.areaH/l.scale
			l.viewW, l.viewH = nw, math.Floor(first.trueH/l.scale)
			l.positioned, l.fixed, l.fixedFrags, l.markers, l.multicols = nil, nil, nil, nil, nil
			if l.opt.Restyle != nil && l.st.ViewportUnits() {
				st, err := l.opt.Restyle(l.viewW, l.viewH)
				if err != nil {
					return nil, err
				}
				l.st = st
				if root, err = l.buildTree(doc); err != nil {
					return nil, err
				}
			}
			rootFrag = l.layoutRoot(root)
			if l.err != nil {
				return nil, l.err
			}
		}
	}
	pages, err := l.paginate(rootFrag)
	if err != nil {
		return nil, err
	}
	// A multi-column container that runs past its page's end is laid out
	// again in rows of columns that end where the pages do, one container
	// a pass, in document order (each moves what follows it).
	for pass := 0; pass < maxColumnPasses && root != nil; pass++ {
		b, hint, ok := l.columnsPastPage(pages)
		if !ok {
			break
		}
		if l.colHints == nil {
			l.colHints = map[*Box]colHint{}
		}
		l.colHints[b] = hint
		l.positioned, l.fixed, l.fixedFrags, l.markers, l.multicols = nil, nil, nil, nil, nil
		rootFrag = l.layoutRoot(root)
		if l.err != nil {
			return nil, l.err
		}
		if pages, err = l.paginate(rootFrag); err != nil {
			return nil, err
		}
	}
	for _, b := range l.paras {
		b.para = nil
	}
	l.paras, l.tables = nil, nil
	if err := l.paint(rootFrag, pages); err != nil {
		return nil, err
	}
	if testHookWork != nil {
		testHookWork(l.work)
	}
	return l.doc, nil
}

// testHookWork, set by tests, is told each finished layout's count of work
// units: it shows how work grows with a document's size.
var testHookWork func(work int)

// check returns the layout's error once the context is done; called every
// few hundred boxes and at each page.
func (l *layouter) check() bool {
	if l.err != nil {
		return false
	}
	l.work++
	if l.work&255 == 0 {
		if err := l.ctx.Err(); err != nil {
			l.err = err
			return false
		}
	}
	return true
}

// pageGeom is one page's geometry as Chromium prints it: the page area is
// placed at whole pixels, its width and height rounded up (measured), and
// the PDF page size is whole points rounded to 1/300 inch (measured: A4 is
// 594.96 × 841.92 pt).
type pageGeom struct {
	w, h         float64 // PDF page size in px
	areaX, areaY float64
	areaW, areaH float64
	// trueW and trueH are the page area's size before rounding; viewW
	// and viewH the viewport's (rounded down).
	trueW, trueH float64
	viewW, viewH float64
	// flowH is the page area's height in layout coordinates (areaH
	// divided by the print shrink factor).
	flowH float64
	style *style.PageStyle
}

func pageGeometry(ps *style.PageStyle) pageGeom {
	var g pageGeom
	g.style = ps
	if ps == nil {
		ps = &style.PageStyle{Width: 793.7007874015749, Height: 1122.5196850393702}
		g.style = ps
	}
	g.w, g.h = pdfPageSide(ps.Width, false), pdfPageSide(ps.Height, true)
	g.areaX, g.areaY = math.Round(ps.Margin[style.Left]), math.Round(ps.Margin[style.Top])
	g.trueW = ps.Width - ps.Margin[style.Left] - ps.Margin[style.Right]
	g.trueH = ps.Height - ps.Margin[style.Top] - ps.Margin[style.Bottom]
	g.areaW = math.Ceil(g.trueW - 1e-6)
	g.viewW, g.viewH = math.Max(1, math.Floor(g.trueW+1e-6)), math.Max(1, math.Floor(g.trueH+1e-6))
	g.areaH = math.Ceil(ps.Height - ps.Margin[style.Top] - ps.Margin[style.Bottom] - 1e-6)
	if g.areaW < 1 {
		g.areaW = 1
	}
	if g.areaH < 1 {
		g.areaH = 1
	}
	g.flowH = g.areaH
	return g
}

// pdfPageSide is the PDF page side (in px) for a CSS page side of px: whole
// points, then whole 1/300 inch.
func pdfPageSide(px float64, height bool) float64 {
	pt := math.Round(px * 0.75)
	u := pt * 300 / 72
	if height {
		u = math.Floor(u + 0.5)
	} else {
		u = math.Ceil(u - 0.5)
	}
	return u * 72 / 300 / 0.75
}

// docInfo fills the document's title and language.
func (l *layouter) docInfo(doc *html.Node) {
	root := rootElement(doc)
	if root == nil {
		return
	}
	l.doc.Lang = attr(root, "lang")
	var find func(n *html.Node) *html.Node
	find = func(n *html.Node) *html.Node {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c.Data == "title" {
				return c
			}
			if c.Data == "head" {
				if t := find(c); t != nil {
					return t
				}
			}
		}
		return nil
	}
	if t := find(root); t != nil {
		l.doc.Title = collapseWhite(textContent(t))
	}
}

func textContent(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	s := ""
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		s += textContent(c)
	}
	return s
}

// collapseWhite strips and collapses ASCII white space, as the title and
// the outline show text.
func collapseWhite(s string) string {
	out := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, c)
	}
	return string(out)
}

// docWidth is how far right the document's content reaches (its
// scrollable overflow): boxes' border boxes and lines' content, not what
// a box that clips its overflow hides.
func docWidth(f *Frag, depth int) float64 {
	w := f.X + f.W
	switch f.Kind {
	case FragLine:
		w = f.contentRight
	case FragText, FragInline:
		return 0 // the line's content edge counts
	}
	if depth > 1024 {
		return w
	}
	if f.Kind == FragBox && f.Box != nil && f.Box.Style.Overflow != "visible" && f.Box.Style.Overflow != "" && f.Box.Parent != nil {
		return w
	}
	for _, c := range f.Children {
		w = math.Max(w, docWidth(c, depth+1))
	}
	if f.Kind == FragBox && f.Box != nil && len(f.Box.Style.Transform) > 0 && f.Box.Parent != nil {
		// A transform moves the box's overflow, and Chromium's print
		// shrinks to what the transformed boxes reach.
		m := fragTransform(f, 0, 0)
		t := math.Inf(-1)
		for _, x := range [2]float64{f.X, w} {
			for _, y := range [2]float64{f.Y, f.Y + f.H} {
				t = math.Max(t, m[0]*x+m[2]*y+m[4])
			}
		}
		return t
	}
	return w
}
