package style

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 0.01 }

// TestPageSize checks @page size: paper names, orientation, lengths.
func TestPageSize(t *testing.T) {
	mm := func(v float64) float64 { return v * 96 / 25.4 }
	for _, tc := range []struct {
		css  string
		w, h float64
	}{
		{``, mm(210), mm(297)},
		{`@page { size: A4 }`, mm(210), mm(297)},
		{`@page { size: a4 landscape }`, mm(297), mm(210)},
		{`@page { size: landscape A5 }`, mm(210), mm(148)},
		{`@page { size: A3 }`, mm(297), mm(420)},
		{`@page { size: B4 }`, mm(250), mm(353)},
		{`@page { size: B5 portrait }`, mm(176), mm(250)},
		{`@page { size: letter }`, 816, 1056},
		{`@page { size: legal }`, 816, 1344},
		{`@page { size: ledger landscape }`, 1632, 1056},
		{`@page { size: 100mm 50mm }`, mm(100), mm(50)},
		{`@page { size: 4in }`, 384, 384},
		{`@page { size: landscape }`, mm(297), mm(210)},
		{`@page { size: auto }`, mm(210), mm(297)},
		{`@page { size: A4 } @page { size: bogus }`, mm(210), mm(297)},
		{`@page { size: 210.00mm 297.00mm; margin: 0 } @page { size: letter }`, 816, 1056},
		{`@media screen { @page { size: letter } }`, mm(210), mm(297)},
		{`@media print { @page { size: letter } }`, 816, 1056},
		// Chromium resolves var() in @page against the root element's custom
		// properties (checked by printing: 282.96 × 142.08 pt).
		{`:root { --w: 100mm } @page { size: var(--w) 50mm }`, mm(100), mm(50)},
	} {
		r, _ := compute(t, "<!DOCTYPE html><html><head><style>"+tc.css+"</style></head><body>x</body></html>")
		p := r.Page(0, false)
		if !near(p.Width, tc.w) || !near(p.Height, tc.h) {
			t.Errorf("%s: %v × %v, want %v × %v", tc.css, p.Width, p.Height, tc.w, tc.h)
		}
	}
}

// TestPageMarginsAndSelectors checks margins and :first, :left, :right,
// :blank and named pages, with their specificity.
func TestPageMarginsAndSelectors(t *testing.T) {
	css := `@page { size: 200px 400px; margin: 10px 20px 30px 40px }
@page :first { margin-top: 50px }
@page :left { margin-left: 5px; margin-right: 6px }
@page :right { margin-left: 7px }
@page :blank { margin-bottom: 1px }
@page wide { size: 400px 200px; margin: 5%; }
@page wide:first { margin-top: 11px }
@page :first { margin-right: 1in !important } @page :first { margin-right: 3px }`
	r, _ := compute(t, "<!DOCTYPE html><html><head><style>"+css+"</style></head><body>x</body></html>")
	check := func(name string, p *PageStyle, w, h float64, m [4]float64) {
		t.Helper()
		if !near(p.Width, w) || !near(p.Height, h) {
			t.Errorf("%s: size %v × %v, want %v × %v", name, p.Width, p.Height, w, h)
		}
		for i := range m {
			if !near(p.Margin[i], m[i]) {
				t.Errorf("%s: margins %v, want %v", name, p.Margin, m)
				break
			}
		}
	}
	check("first", r.Page(0, false), 200, 400, [4]float64{50, 96, 30, 7})
	check("second (left)", r.Page(1, false), 200, 400, [4]float64{10, 6, 30, 5})
	check("third (right)", r.Page(2, false), 200, 400, [4]float64{10, 20, 30, 7})
	check("blank left", r.Page(3, true), 200, 400, [4]float64{10, 6, 1, 5})
	// The named rule's margin (specificity 1,0,0) beats :right's (0,0,1).
	check("named first", r.PageNamed(0, false, "wide"), 400, 200, [4]float64{11, 96, 10, 20})
	check("named", r.PageNamed(4, false, "wide"), 400, 200, [4]float64{10, 20, 10, 20})
	if p1, p2 := r.Page(2, false), r.Page(2, false); p1 != p2 {
		t.Error("page styles are not cached")
	}
}

// TestPageDocumentSheet checks the @page rule render.Document writes into
// every document, overridden by a template's own.
func TestPageDocumentSheet(t *testing.T) {
	doc := `<!DOCTYPE html><html><head><style data-platen="sheets">
@page { size: 210.00mm 297.00mm; margin: 15mm 10mm; }
html, body { margin: 0; padding: 0; }
</style><style>@page { margin-bottom: 25mm }</style></head><body>x</body></html>`
	r, _ := compute(t, doc)
	p := r.Page(0, false)
	mm := func(v float64) float64 { return v * 96 / 25.4 }
	want := [4]float64{mm(15), mm(10), mm(25), mm(10)}
	for i := range want {
		if !near(p.Margin[i], want[i]) {
			t.Fatalf("margins %v, want %v", p.Margin, want)
		}
	}
}

// TestMarginBoxes checks the 16 margin boxes: content with page counters,
// the UA alignment, inheritance from the page context and the root.
func TestMarginBoxes(t *testing.T) {
	css := `html { font-family: Liberation Sans; color: #333 }
@page { margin: 20mm; font-size: 10pt;
  @top-left-corner { content: "TL" }
  @top-center { content: "Invoice " counter(page) " of " counter(pages); color: red; font-weight: bold }
  @bottom-right { content: counter(page, upper-roman); vertical-align: top; text-align: center }
  @left-middle { content: none }
  @right-top { content: "R" }
}
@page :first { @top-center { content: "First" } @bottom-left { content: "only first" } }`
	r, _ := compute(t, "<!DOCTYPE html><html><head><style>"+css+"</style></head><body>x</body></html>")
	p1, p2 := r.Page(0, false), r.Page(1, false)
	if len(p1.Boxes) != 5 || len(p2.Boxes) != 4 {
		t.Fatalf("boxes: first page %d, second %d", len(p1.Boxes), len(p2.Boxes))
	}
	tc := p2.Boxes["top-center"]
	want := []ContentItem{{Kind: ContentString, Text: "Invoice "}, {Kind: ContentCounter, Name: "page", Style: "decimal"},
		{Kind: ContentString, Text: " of "}, {Kind: ContentCounter, Name: "pages", Style: "decimal"}}
	if len(tc.Content) != len(want) {
		t.Fatalf("top-center content %+v", tc.Content)
	}
	for i := range want {
		if tc.Content[i] != want[i] {
			t.Errorf("item %d: %+v, want %+v", i, tc.Content[i], want[i])
		}
	}
	if tc.TextAlign != AlignCenter || tc.VerticalAlign.Keyword != VAMiddle || tc.FontWeight != 700 ||
		!near(tc.FontSize, 10*96/72.0) || tc.Color.R != 1 || tc.FontFamily[0] != "Liberation Sans" {
		t.Errorf("top-center style: align %v valign %v weight %v size %v color %v family %v", tc.TextAlign,
			tc.VerticalAlign, tc.FontWeight, tc.FontSize, tc.Color, tc.FontFamily)
	}
	if p1.Boxes["top-center"].Content[0].Text != "First" {
		t.Errorf(":first top-center %+v", p1.Boxes["top-center"].Content)
	}
	br := p2.Boxes["bottom-right"]
	if br.Content[0].Style != "upper-roman" || br.VerticalAlign.Keyword != VATop || br.TextAlign != AlignCenter {
		t.Errorf("bottom-right %+v", br)
	}
	if tl := p2.Boxes["top-left-corner"]; tl.TextAlign != AlignRight {
		t.Errorf("top-left-corner aligns %v, want right (html.css)", tl.TextAlign)
	}
	if rt := p2.Boxes["right-top"]; rt.VerticalAlign.Keyword != VATop || rt.TextAlign != AlignCenter {
		t.Errorf("right-top %v %v", rt.TextAlign, rt.VerticalAlign)
	}
	if p2.Boxes["left-middle"] != nil {
		t.Error("a box with content none is present")
	}
}

// TestPageBackground checks @page background.
func TestPageBackground(t *testing.T) {
	r, _ := compute(t, `<!DOCTYPE html><html><head><style>@page { background: #ff0000 url(data:image/png;base64,AA) no-repeat }</style></head><body>x</body></html>`)
	b := r.Page(0, false).Background
	if b.Color.R != 1 || b.Image != "data:image/png;base64,AA" || b.Repeat != "no-repeat" {
		t.Errorf("page background %+v", b)
	}
}
