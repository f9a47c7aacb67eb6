package chromium

import (
	"context"
	"fmt"
	"math"
	"regexp"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/platen/platen/render"
)

// pxPerMM is CSS pixels in a millimetre: 96 to the inch.
const pxPerMM = 96 / mmPerInch

// Measuring a document before it prints.
//
// Chromium's print is paginated layout, and it costs far more than the
// layout a page makes to show the document: on a two-core node, 10,000
// sheets lay out in under a second and print in more than two minutes
// (a print of only their first 100 pages takes 18 s, so Page.printToPDF's
// pageRanges bounds nothing: the whole document is paginated whatever is
// printed of it); a 1e12 px box, which Blink clamps to 33,554,428 px (its
// LayoutUnit's limit, 8.9 km), lays out in milliseconds and its print never
// ends within the render timeout. The engine therefore measures the laid-out
// document first and refuses, before printToPDF, what would print more
// than the page cap: by its length against the manifest's sheet, and by
// the forced page breaks it holds. Both estimates are low, never high, for
// a document whose own @page is no taller than its manifest's: what they
// refuse cannot print within the cap, and what passes them is still
// counted after the print.

// measureJS measures the laid-out document: how many sheets its length
// fills (sheetPx a sheet's height in CSS pixels), and the forced page
// breaks between blocks in its flow, stopping past cap. Its walk recurses
// as deep as the tree, which Blink's HTML parser holds to 512. When the length
// passes the cap it names the innermost element taller than cap sheets, if
// one is (a box of absurd height), rather than counting breaks.
const measureJS = `(sheetPx, cap) => {
	const root = document.documentElement, body = document.body;
	if (!body) return {pages: 1, breaks: 0, tall: "", tallPx: 0};
	const height = Math.max(root.scrollHeight, body.scrollHeight);
	const pages = Math.floor(Math.max(height - 1, 0) / sheetPx) + 1;
	if (pages > cap) {
		const limit = cap * sheetPx;
		let tall = "", tallPx = 0;
		const w = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT);
		for (let e = w.nextNode(); e; e = w.nextNode()) {
			const h = e.getBoundingClientRect().height;
			if (h > limit) {
				tall = e.localName + (e.id ? "#" + e.id : e.classList.length ? "." + e.classList[0] : "");
				tallPx = h;
			}
		}
		return {pages, breaks: 0, tall, tallPx};
	}
	// A forced break before a block's first child, or after its last, is
	// a break at the block's own edge: walk returns the breaks at the
	// edges of parent's content, and counts those between its children.
	const forced = new Set(["page", "left", "right", "recto", "verso", "always"]);
	let breaks = 0;
	const walk = parent => {
		let first = true, start = false, prevAfter = false;
		for (let e = parent.firstElementChild; e && breaks <= cap; e = e.nextElementSibling) {
			const s = getComputedStyle(e);
			if (s.display === "none" || s.position === "absolute" || s.position === "fixed") continue;
			if (s.display === "contents" || s.display.startsWith("inline")) { walk(e); continue; }
			const [childStart, childEnd] = e.firstElementChild ? walk(e) : [false, false];
			const before = forced.has(s.breakBefore) || childStart, after = forced.has(s.breakAfter) || childEnd;
			if (first) start = before; else if (prevAfter || before) breaks++;
			prevAfter = after;
			first = false;
		}
		return [start, prevAfter];
	};
	walk(body);
	return {pages, breaks, tall: "", tallPx: 0};
}`

// measured is what measureJS finds.
type measured struct {
	Pages  int     `json:"pages"`
	Breaks int     `json:"breaks"`
	Tall   string  `json:"tall"`
	TallPx float64 `json:"tallPx"`
}

// labelRE is what a refusal may quote of an element's name: the author's
// tag, id or class, nothing else.
var labelRE = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}([#.][A-Za-z0-9_-]{1,40})?$`)

// fitViewport lays the page out as wide as the job's sheet before its
// content is set, so that its length, measured before the print, is the
// length the sheet's width gives.
func fitViewport(p *rod.Page, g render.Geometry) error {
	w := int(math.Round(g.SheetWidthMM() * pxPerMM))
	h := int(math.Round(g.SheetHeightMM() * pxPerMM))
	return proto.EmulationSetDeviceMetricsOverride{Width: max(w, 1), Height: max(h, 1), DeviceScaleFactor: 1}.Call(p)
}

// checkPages measures the laid-out document and refuses, with
// render.ErrTooManyPages and words its author can act on, one that would
// print more than maxPages; maxPages 0 checks nothing.
func checkPages(ctx context.Context, p *rod.Page, g render.Geometry, maxPages int) error {
	if maxPages <= 0 {
		return nil
	}
	sheetPx := g.SheetHeightMM() * pxPerMM
	if sheetPx <= 0 {
		return nil
	}
	res, err := p.Context(ctx).Evaluate(rod.Eval(measureJS, sheetPx, maxPages))
	if err != nil {
		return fmt.Errorf("%w: measure the document: %v", render.ErrRender, err)
	}
	var m measured
	if err := res.Value.Unmarshal(&m); err != nil {
		return fmt.Errorf("%w: measure the document: %v", render.ErrRender, err)
	}
	return m.refusal(maxPages, g)
}

// refusal is the refusal of a document measured as m, or nil when it fits
// within maxPages by both estimates.
func (m measured) refusal(maxPages int, g render.Geometry) error {
	over := fmt.Sprintf("the document would print more than %s pages", render.Grouped(maxPages))
	switch {
	case m.Pages > maxPages && m.Tall != "" && labelRE.MatchString(m.Tall):
		return fmt.Errorf("%w: %s: an element (%s) is %s tall, longer than %s pages of %s mm; make it smaller",
			render.ErrTooManyPages, over, m.Tall, metres(m.TallPx), render.Grouped(maxPages), render.Grouped(int(math.Round(g.SheetHeightMM()))))
	case m.Pages > maxPages:
		return fmt.Errorf("%w: %s: its content is about %s pages long; send less data or split it into several documents",
			render.ErrTooManyPages, over, render.Grouped(m.Pages))
	case m.Breaks >= maxPages:
		return fmt.Errorf("%w: %s: it breaks to a new page at least %s times; send less data or split it into several documents",
			render.ErrTooManyPages, over, render.Grouped(m.Breaks))
	}
	return nil
}

// metres writes a length in CSS pixels as a person reads it: "8,877 m",
// "12 mm".
func metres(px float64) string {
	mm := px / pxPerMM
	if mm >= 1000 {
		return render.Grouped(int(math.Round(mm/1000))) + " m"
	}
	return render.Grouped(int(math.Round(mm))) + " mm"
}
