package layout

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/style"
)

func TestFormatCounter(t *testing.T) {
	cases := []struct {
		v    int
		cs   string
		want string
	}{
		{1, "decimal", "1"}, {-3, "decimal", "-3"}, {7, "decimal-leading-zero", "07"}, {12, "decimal-leading-zero", "12"},
		{1, "lower-alpha", "a"}, {26, "lower-alpha", "z"}, {27, "lower-alpha", "aa"}, {28, "upper-alpha", "AB"},
		{0, "lower-alpha", "0"}, {4, "lower-roman", "iv"}, {1994, "upper-roman", "MCMXCIV"}, {4000, "upper-roman", "4000"},
		{3, "lower-greek", "γ"}, {5, "disc", "•"}, {5, "none", ""},
	}
	for _, c := range cases {
		if got := formatCounter(c.v, counterStyle(c.cs)); got != c.want {
			t.Errorf("formatCounter(%d, %s) = %q, want %q", c.v, c.cs, got, c.want)
		}
	}
	if got := markerText("decimal", 3); got != "3. " {
		t.Errorf("decimal marker %q", got)
	}
	if got := markerText("square", 3); got != "\u25aa " {
		t.Errorf("square marker %q", got)
	}
	if got := markerText(`"→ "`, 3); got != "→ " {
		t.Errorf("string marker %q", got)
	}
}

// TestBlinkBreaks checks the break opportunities Blink's own table gives
// between ASCII characters.
func TestBlinkBreaks(t *testing.T) {
	l := &layouter{}
	cases := []struct {
		text string
		at   []int // byte offsets with a soft break before them
	}{
		{"a b", []int{2, 3}},
		{"a  b", []int{3, 4}},
		{"https://example.com/x", []int{21}},
		{"INV-2026", []int{4, 8}},
		{"-2026", []int{5}},
		{"well-known", []int{5, 10}},
		{"why?not", []int{4, 7}},
		{"a(b)", []int{4}},
		{"x)(y", []int{2, 4}},
		{"a\u00a0b", []int{4}},
	}
	for _, c := range cases {
		p := &paragraph{text: []byte(c.text)}
		brk := l.breaks(p)
		var got []int
		for i, k := range brk {
			if k == brkSoft {
				got = append(got, i)
			}
		}
		if len(got) != len(c.at) {
			t.Errorf("%q: breaks at %v, want %v", c.text, got, c.at)
			continue
		}
		for i := range got {
			if got[i] != c.at[i] {
				t.Errorf("%q: breaks at %v, want %v", c.text, got, c.at)
				break
			}
		}
	}
}

func TestPDFPageSize(t *testing.T) {
	cases := []struct{ px, wantPt float64 }{
		{793.7007874015749, 594.96}, // A4 width
		{1122.5196850393702, 841.92},
		{816, 612}, // Letter width
		{377.95275590551176, 282.96},
	}
	for _, c := range cases {
		if got := pdfPageSide(c.px, c.px > 1000) * 0.75; math.Abs(got-c.wantPt) > 0.005 {
			t.Errorf("page side %v px: %.3f pt, want %.2f", c.px, got, c.wantPt)
		}
	}
}

// layoutString lays out markup as the engine does.
func layoutString(t testing.TB, markup string, opt Options) (*draw.Document, error) {
	t.Helper()
	doc, st, _, _ := ltLayoutDoc(t, markup, ltGeometry(""), opt)
	ltShMu.Lock()
	defer ltShMu.Unlock()
	return Layout(context.Background(), doc, st, ltShaper(t), opt)
}

func TestLimits(t *testing.T) {
	deep := strings.Repeat("<div>", 400) + "deep" + strings.Repeat("</div>", 400)
	if _, err := layoutString(t, deep, Options{MaxDepth: 64}); !errors.Is(err, ErrTooDeep) {
		t.Errorf("deep nesting: %v, want ErrTooDeep", err)
	}
	long := strings.Repeat(`<div style="break-after:page">page</div>`, 30)
	if _, err := layoutString(t, long, Options{MaxPages: 10}); !errors.Is(err, ErrTooManyPages) {
		t.Errorf("30 pages with a cap of 10: %v, want ErrTooManyPages", err)
	}
	many := strings.Repeat("<span>x</span>", 3000)
	if _, err := layoutString(t, many, Options{MaxBoxes: 1000}); !errors.Is(err, ErrTooManyBoxes) {
		t.Errorf("3000 spans with a cap of 1000 boxes: %v, want ErrTooManyBoxes", err)
	}
	d, err := layoutString(t, long, Options{})
	if err != nil || len(d.Pages) != 30 {
		t.Fatalf("30 forced pages: %v pages, %v", len(d.Pages), err)
	}
	doc, st, _, _ := ltLayoutDoc(t, long, ltGeometry(""), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ltShMu.Lock()
	_, err = Layout(ctx, doc, st, ltShaper(t), Options{})
	ltShMu.Unlock()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

// TestDocumentInfo checks the title, language, outline, anchors and links.
func TestDocumentInfo(t *testing.T) {
	d, err := layoutString(t, `<html lang="de"><head><title> The  title </title></head><body>
<h1 id="top">Heading one</h1><p><a href="https://example.com/">a link</a> and <a href="#top">back</a></p>
<h2>Second <b>level</b></h2><div style="break-before:page" id="p2"><h3>Third</h3></div></body></html>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Title != "The title" || d.Lang != "de" {
		t.Errorf("title %q lang %q", d.Title, d.Lang)
	}
	want := []draw.OutlineItem{{Title: "Heading one", Level: 1, Page: 0}, {Title: "Second level", Level: 2, Page: 0}, {Title: "Third", Level: 3, Page: 1}}
	if len(d.Outline) != len(want) {
		t.Fatalf("outline %+v", d.Outline)
	}
	for i, o := range d.Outline {
		if o.Title != want[i].Title || o.Level != want[i].Level || o.Page != want[i].Page {
			t.Errorf("outline[%d] = %+v, want %+v", i, o, want[i])
		}
	}
	if len(d.Pages) != 2 {
		t.Fatalf("%d pages", len(d.Pages))
	}
	p0 := d.Pages[0]
	if len(p0.Links) != 2 || p0.Links[0].URI != "https://example.com/" || p0.Links[1].Dest != "top" {
		t.Errorf("links %+v", p0.Links)
	}
	if len(p0.Anchors) != 1 || p0.Anchors[0].Name != "top" || len(d.Pages[1].Anchors) != 1 || d.Pages[1].Anchors[0].Name != "p2" {
		t.Errorf("anchors %+v / %+v", p0.Anchors, d.Pages[1].Anchors)
	}
}

// TestBalancedOps checks that every page closes what it opens (clips,
// opacity groups, transforms), whatever the document does.
func TestBalancedOps(t *testing.T) {
	d, err := layoutString(t, `<div style="overflow:hidden;border-radius:8px;height:50px;opacity:.5"><p style="position:relative;z-index:2">a</p>
<div style="position:absolute;z-index:-1;overflow:hidden;width:10px">b</div></div><div style="width:2000px">wide</div>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range d.Pages {
		if n := balance(p.Ops); n != 0 {
			t.Errorf("page %d: %d unclosed pushes", i, n)
		}
	}
}

func balance(ops []draw.Op) int {
	n := 0
	for _, o := range ops {
		switch o.(type) {
		case draw.PushClip, draw.PushOpacity, draw.PushTransform:
			n++
		case draw.PopClip:
			n--
			if n < 0 {
				return n
			}
		}
	}
	return n
}

// FuzzLayout lays out random markup and CSS: never a panic, pushes and
// pops balanced, and within its budget.
func FuzzLayout(f *testing.F) {
	seeds := []string{
		`<p>hello <b>world</b></p>`,
		`<table><tr><td rowspan=3>a<td>b</table>`,
		`<div style="position:absolute;right:-10px;bottom:-5%">x</div>`,
		`<ol reversed start=-2><li value=9>x<li>y</ol>`,
		`<p style="white-space:pre-wrap;tab-size:0">a	b  c</p>`,
		`<span style="display:inline-block;width:-5px;padding:-3px">z</span>`,
		`<div style="height:100%;min-height:200vh;break-inside:avoid">tall</div>`,
		`<p dir=rtl>שלום <bdo dir=ltr>abc</bdo> عربى</p>`,
		`<style>p::before{content:counter(x) attr(id) open-quote;counter-increment:x 5}</style><p id=q>p</p>`,
		`<div style="columns:2;float:left;display:flex">f</div><img src="data:image/png;base64,AAAA" alt="broken">`,
		`<style>@page{margin:50%;@top-center{content:counter(pages)}}</style>x`,
		`<li style="list-style:square inside;letter-spacing:-20px;word-spacing:1e6px">w w</li>`,
		`<div style="display:flex;flex-flow:column wrap-reverse;height:-5px;gap:1e9px"><b style="flex:1e300 1e300 1e300px;order:-999999999">a</b><i style="margin:auto;min-width:1e9px;max-width:-1px">b</i>c</div>`,
		`<div style="float:right;width:200%;clear:both"><p style="float:left;overflow:hidden">a<span style="float:right;margin:-1e9px">b</span>c</p></div><table style="float:left"><tr><td style="float:right">t</table><img style="float:left;width:-1px" src="data:image/png;base64,AAAA"><p style="clear:left">x</p>`,
		`<div style="columns:3 1px;column-gap:-5px;column-rule:1e9px solid;height:5px"><p style="break-before:column;margin:1e9px 0">a</p><div style="columns:1000;break-inside:avoid">b<img style="height:300vh" src="data:image/png;base64,AAAA"></div><table><tr><td style="column-count:2">c</table></div>`,
		`<div style="display:inline-flex;align-items:last baseline;justify-content:space-evenly"><img src="data:image/png;base64,AAAA" style="flex:0 0 150%"><table><tr><td>t</table><div style="display:flex;flex-direction:row-reverse"><p>x</p></div></div>`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, markup string) {
		if len(markup) > 20000 {
			return
		}
		doc, st, _, _ := ltLayoutDoc(t, markup, ltGeometry(""), Options{})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ltShMu.Lock()
		d, err := Layout(ctx, doc, st, ltShaper(t), Options{MaxPages: 50, Header: "<span class=pageNumber></span>"})
		ltShMu.Unlock()
		if err != nil {
			if errors.Is(err, ErrTooManyPages) || errors.Is(err, ErrTooDeep) || errors.Is(err, ErrTooManyBoxes) {
				return
			}
			t.Fatalf("layout: %v", err)
		}
		for i, p := range d.Pages {
			if n := balance(p.Ops); n != 0 {
				t.Fatalf("page %d: pushes and pops unbalanced (%d)", i, n)
			}
		}
	})
}

var _ = style.Top

// TestRightToLeftRunsAreReversed: the text of a right-to-left run reaches
// the writer marked Reversed (it writes /ReversedChars, as Chromium does),
// and a left-to-right run inside it of the same font is a run of its own.
func TestRightToLeftRunsAreReversed(t *testing.T) {
	doc, err := layoutString(t, `<p dir=rtl style="font-family:'DejaVu Sans'">مرحبا بالعالم 12345 SAR</p>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var rtl, ltr string
	for _, op := range doc.Pages[0].Ops {
		tx, ok := op.(draw.Text)
		if !ok {
			continue
		}
		for _, g := range tx.Glyphs {
			if tx.Reversed {
				rtl += g.Text
			} else {
				ltr += g.Text
			}
		}
	}
	// Glyphs come in visual order: a right-to-left word's text backwards.
	if !strings.Contains(rtl, "ابحرم") || !strings.Contains(ltr, "12345") || !strings.Contains(ltr, "SAR") || strings.ContainsAny(ltr, "مرحبا") || strings.ContainsAny(rtl, "0123456789SAR") {
		t.Errorf("right to left %q, left to right %q", rtl, ltr)
	}
}

// TestWbrDrawsNothing checks that a <wbr> is only a break opportunity: no
// glyph for it (Chromium draws none, and one in the text layer joins or
// splits the words around it), while a zero-width space in the text keeps
// its glyph, which the PDF marks with its text as Chromium's does.
func TestWbrDrawsNothing(t *testing.T) {
	doc, err := layoutString(t, `<p style="width: 60px">super<wbr>cali<wbr>fragilistic<wbr>expiali&#8203;docious</p>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, op := range doc.Pages[0].Ops {
		if tx, ok := op.(draw.Text); ok {
			for _, g := range tx.Glyphs {
				text.WriteString(g.Text)
			}
		}
	}
	if got, want := text.String(), "supercalifragilisticexpiali\u200bdocious"; got != want {
		t.Errorf("glyph texts %q, want %q", got, want)
	}
}

// TestLetterSpacingFollowsGraphemes: letter-spacing goes once after a base
// and its marks, as Chromium spaces them: on the last mark left to right,
// on the base (which holds the text, its marks before it) right to left.
func TestLetterSpacingFollowsGraphemes(t *testing.T) {
	for _, c := range []struct {
		markup string
		rtl    bool
	}{
		{`<p style="letter-spacing:6px;font-family:'DejaVu Sans'">ax&#x301;b</p>`, false},
		{`<p dir=rtl style="letter-spacing:6px;font-family:'DejaVu Sans'">&#x5e9;&#x5b8;&#x5c1;&#x5dc;</p>`, true},
	} {
		doc, err := layoutString(t, c.markup, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var gs []draw.Glyph
		for _, op := range doc.Pages[0].Ops {
			if tx, ok := op.(draw.Text); ok {
				gs = append(gs, tx.Glyphs...)
			}
		}
		spaced := 0
		for i, g := range gs {
			// A mark's advance is 0 but for the spacing; a base's has its own.
			if g.Text == "" && g.Advance != 0 {
				spaced++
				if c.rtl || i+1 < len(gs) && gs[i+1].Text == "" {
					t.Errorf("%s: spacing on glyph %d of %+v", c.markup, i, gs)
				}
			}
		}
		if !c.rtl && spaced != 1 {
			t.Errorf("%s: %d marks spaced, want the last of x's: %+v", c.markup, spaced, gs)
		}
	}
}

// TestRightToLeftInlineBoxEdges: on a right-to-left line an inline box's
// start edge is its right side: a box broken over lines has its right
// border on its first line only (and its left one on its last).
func TestRightToLeftInlineBoxEdges(t *testing.T) {
	doc, err := layoutString(t, `<p dir=rtl style="width:100px;font:16px 'DejaVu Sans'">א <span style="border-right:5px solid #f00;border-left:3px solid #00f">שלום עולם יפה מאוד ארוך</span> ב</p>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type side struct{ x0, x1, y float64 }
	var red, blue []side
	var lines []float64
	for _, op := range doc.Pages[0].Ops {
		switch o := op.(type) {
		case draw.Fill:
			x0, x1, y0 := math.Inf(1), math.Inf(-1), math.Inf(1)
			for _, sg := range o.Path {
				if p := sg.P[0]; sg.Kind == draw.MoveTo || sg.Kind == draw.LineTo {
					x0, x1, y0 = math.Min(x0, p.X), math.Max(x1, p.X), math.Min(y0, p.Y)
				}
			}
			if o.Color.R == 1 && o.Color.B == 0 {
				red = append(red, side{x0, x1, y0})
			} else if o.Color.B == 1 && o.Color.R == 0 {
				blue = append(blue, side{x0, x1, y0})
			}
		case draw.Text:
			if len(lines) == 0 || o.Y != lines[len(lines)-1] {
				lines = append(lines, o.Y)
			}
		}
	}
	if len(lines) < 3 || len(red) != 1 || len(blue) != 1 {
		t.Fatalf("lines at %v; right (start) borders %v, left (end) borders %v: want one of each", lines, red, blue)
	}
	if red[0].y > lines[0] || red[0].x0 < 50 {
		t.Errorf("start border %v: want it in the right half of the first line (baseline %v)", red[0], lines[0])
	}
	if blue[0].y < lines[len(lines)-2] {
		t.Errorf("end border %v: want it on the last line (baselines %v)", blue[0], lines)
	}
}

// TestRightToLeftSymbolMarker: right to left, an outside disc hangs right
// of the content box, its left edge ascent×2/3 + 2 px past the content's
// right edge (12 px at 16 px DejaVu Sans, as Chromium draws it), and a
// text marker begins at the content's right edge.
func TestRightToLeftSymbolMarker(t *testing.T) {
	doc, err := layoutString(t, `<ul dir=rtl style="font:16px 'DejaVu Sans'"><li>שלום</li></ul><ol dir=rtl style="font:16px 'DejaVu Sans'"><li>שלום</li></ol>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ends []float64 // right ends of the runs, in paint order
	var starts []float64
	disc := math.Inf(1)
	for _, op := range doc.Pages[0].Ops {
		switch o := op.(type) {
		case draw.Fill:
			for _, sg := range o.Path {
				if sg.Kind != draw.Close {
					disc = math.Min(disc, sg.P[0].X)
				}
			}
		case draw.Text:
			w := 0.0
			for _, g := range o.Glyphs {
				w += g.Advance
			}
			starts, ends = append(starts, o.X), append(ends, o.X+w)
		}
	}
	if len(ends) < 3 {
		t.Fatalf("runs starting at %v", starts)
	}
	if d := disc - ends[0]; math.Abs(d-12) > 0.01 {
		t.Errorf("disc %.2f px right of the content, want 12", d)
	}
	// The ordered item: its text, then its marker ". 1" from the content's edge.
	if d := starts[2] - ends[1]; math.Abs(d) > 0.01 {
		t.Errorf("marker starts %.2f px from the content's right edge, want 0 (runs %v to %v)", d, starts, ends)
	}
}

// TestBidiLevelsPerCharacter: a number after right-to-left text is at
// level 2 and the left-to-right words after it at level 0, so the words
// stay after the right-to-left text ("plain 123 םולש text", as Chromium
// prints it); go-text's runs join them at one level.
func TestBidiLevelsPerCharacter(t *testing.T) {
	doc, err := layoutString(t, `<p style="font-family:'DejaVu Sans'">plain שלום 123 text</p>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	x := map[string]float64{}
	for _, op := range doc.Pages[0].Ops {
		if tx, ok := op.(draw.Text); ok {
			s := ""
			for _, g := range tx.Glyphs {
				s += g.Text
			}
			x[strings.TrimSpace(s)] = tx.X
		}
	}
	if !(x["plain"] < x["123"] && x["123"] < x["םולש"] && x["םולש"] < x["text"]) {
		t.Errorf("runs at %v: want plain, 123, םולש, text from left to right", x)
	}
}

// TestBidiAfterForcedBreak: the text after a <br> is resolved as a bidi
// paragraph of its own, so a number on the second line of a right-to-left
// block reads left to right (it came out reversed at the base level).
func TestBidiAfterForcedBreak(t *testing.T) {
	doc, err := layoutString(t, `<div dir=rtl style="font-family:'DejaVu Sans'">א<br>רקם: 12345</div>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range doc.Pages[0].Ops {
		if tx, ok := op.(draw.Text); ok && len(tx.Glyphs) > 0 && tx.Glyphs[0].Text >= "0" && tx.Glyphs[0].Text <= "9" {
			if tx.Reversed || tx.Glyphs[0].Text != "1" {
				t.Errorf("the number's run starts with %q, reversed %v: want 12345 left to right", tx.Glyphs[0].Text, tx.Reversed)
			}
			return
		}
	}
	t.Error("no run of digits")
}
