package layout

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/platen/platen/render"
	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/style"
)

// tblDocs are table documents printed by both engines: what business
// documents do with tables.
var tblDocs = []struct {
	name, html string
}{
	{"simple", `<table><tr><td>Alpha</td><td>Beta gamma</td></tr><tr><td>Delta epsilon zeta</td><td>Eta</td></tr></table>`},
	{"invoice", `<style>body{font:13px/1.4 'DejaVu Sans'} table{width:100%;border-collapse:collapse} th,td{padding:6px 8px;border-bottom:1px solid #999;text-align:left} th{background:#eee} .n{text-align:right;width:15%} tfoot td{font-weight:bold;border-top:2px solid #000}</style>
<h1>Invoice 2024-117</h1>
<table><thead><tr><th>Description</th><th class=n>Qty</th><th class=n>Price</th><th class=n>Total</th></tr></thead>
<tbody>` + strings.Repeat(`<tr><td>Consulting services, on-site workshop and follow-up report</td><td class=n>3</td><td class=n>1,200.00</td><td class=n>3,600.00</td></tr><tr><td>Travel</td><td class=n>1</td><td class=n>340.50</td><td class=n>340.50</td></tr>`, 3) + `</tbody>
<tfoot><tr><td colspan=3>Total due</td><td class=n>11,822.50</td></tr></tfoot></table>`},
	{"separated borders", `<style>table{border:2px solid #333;border-spacing:4px 6px} td{border:1px solid #888;padding:3px 5px;font:12px 'Liberation Serif'}</style>
<table><caption>Quarterly figures</caption><tr><td rowspan=2>Region north with a longer label</td><td>Q1</td><td>Q2</td></tr><tr><td colspan=2>both quarters merged</td></tr><tr><td style="vertical-align:bottom;height:50px">bottom</td><td style="vertical-align:top">top</td><td>middle</td></tr></table>`},
	{"nested", `<style>td{border:1px solid #aaa;font:12px 'Liberation Sans'}</style>
<table width="80%"><tr><td>Outer one</td><td><table style="width:100%"><tr><td>Inner A</td><td>Inner B text</td></tr></table></td></tr><tr><td colspan=2 style="text-align:center">Footer cell spanning</td></tr></table>`},
	{"fixed layout", `<style>table{table-layout:fixed;width:500px;border-collapse:collapse} td{border:1px solid;font:12px 'DejaVu Serif';padding:2px}</style>
<table><col style="width:100px"><col><col style="width:20%"><tr><td>Name</td><td>A long description that wraps within its fixed column</td><td>Amount</td></tr><tr><td>Second</td><td>Short</td><td>12.00</td></tr></table>`},
	{"vertical-align", `<style>td{border:1px solid #ccc;font:12px/16px 'DejaVu Sans';padding:4px}</style>
<table><tr><td style="height:80px">tall cell with a fixed height</td><td style="vertical-align:middle">middle</td><td style="vertical-align:bottom">bottom</td><td style="vertical-align:top">top</td><td style="vertical-align:baseline;font-size:20px">big</td><td style="vertical-align:baseline">small</td></tr>
<tr><td rowspan=2>spanning two rows with<br>three<br>lines</td><td colspan=5>wide cell</td></tr><tr><td>a</td><td>b</td><td>c</td><td>d</td><td>e</td></tr></table>`},
	{"sheet and inline-table", `<style>body{font:12px 'Liberation Sans'}</style>
<p>Inline <span style="display:inline-table;border:1px solid"><span style="display:table-cell;padding:2px;vertical-align:baseline;font-size:18px">cell one</span><span style="display:table-cell;vertical-align:baseline">cell two</span></span> after.</p>
<div class="sheet" style="padding:20px"><table><tr><td style="vertical-align:baseline;font-size:20px">Big</td><td style="vertical-align:baseline">small</td><td style="vertical-align:baseline"><div style="height:30px;border:1px solid">block</div></td></tr></table></div>`},
	{"right to left", `<style>body{font:12px 'DejaVu Sans'} td{padding:2px 9px 2px 1px}</style>
<table dir=rtl style="border-collapse:collapse;border:3px solid;border-left-width:6px"><tr><td style="border-right:5px solid">one</td><td>two words</td><td style="border:1px solid">three</td></tr><tr><td colspan=2 style="border-left:4px double">spanning</td><td>end</td></tr></table>
<table dir=rtl style="border:2px solid;border-right-width:7px;margin-top:8px"><tr><td style="border-right:5px solid">alpha</td><td style="border-left:3px solid">beta</td></tr></table>`},
	{"widths", `<style>td{border:1px solid;font:12px 'DejaVu Sans'}</style>
<table style="width:600px"><tr><td style="width:30%">thirty percent</td><td style="width:120px">fixed 120</td><td>auto with some longer text that must wrap somewhere</td></tr></table>
<table style="width:100%;margin-top:10px"><tr><td style="white-space:nowrap;width:1%">Date</td><td>Description of the item that takes the remaining space</td><td style="width:20%">Amount</td></tr></table>`},
}

func tblRows(n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "<tr><td>row%d</td><td>value %d</td></tr>", i, i*7)
	}
	return sb.String()
}

// TestTableRepeatedGroups checks which row groups a table offers
// pagination for repeating: a header or footer group of at most a quarter
// of the page with break-inside: avoid (thead's and tfoot's default), as
// Chromium repeats them.
func TestTableRepeatedGroups(t *testing.T) {
	for _, c := range []struct {
		name         string
		html         string
		header, foot bool
	}{
		{"thead and tfoot", `<table><thead><tr><td>h</td></tr></thead><tbody>` + tblRows(3) + `</tbody><tfoot><tr><td>f</td></tr></tfoot></table>`, true, true},
		{"break-inside auto", `<table><thead style="break-inside:auto"><tr><td>h</td></tr></thead><tbody>` + tblRows(3) + `</tbody></table>`, false, false},
		{"too tall", `<table><thead><tr><td style="height:400px">h</td></tr></thead><tbody>` + tblRows(3) + `</tbody></table>`, false, false},
		{"no header", `<table><tbody>` + tblRows(3) + `</tbody></table>`, false, false},
	} {
		w := tblLayoutWrapper(t, c.html)
		if (w.repeatHeader != nil) != c.header || (w.repeatFooter != nil) != c.foot {
			t.Errorf("%s: repeatHeader %v, repeatFooter %v; want %v, %v", c.name, w.repeatHeader != nil, w.repeatFooter != nil, c.header, c.foot)
		}
		if w.repeatHeader != nil && w.repeatHeader.Box.Style.Display != style.DisplayTableHeaderGroup {
			t.Errorf("%s: repeatHeader is not the header group", c.name)
		}
	}
}

// tblLayoutWrapper lays markup out (without paginating) and returns the
// fragment of its first table wrapper.
func tblLayoutWrapper(t *testing.T, markup string) *Frag {
	t.Helper()
	var find func(f *Frag) *Frag
	find = func(f *Frag) *Frag {
		if f.Box != nil && f.Box.Kind == KindTableWrapper {
			return f
		}
		for _, c := range f.Children {
			if w := find(c); w != nil {
				return w
			}
		}
		return nil
	}
	w := find(tblLayoutRoot(t, markup))
	if w == nil {
		t.Fatal("no table")
	}
	return w
}

// tblLayoutRoot lays markup out (without paginating) and returns the root
// fragment.
func tblLayoutRoot(t *testing.T, markup string) *Frag {
	t.Helper()
	g := ltGeometry("")
	sh := ltShaper(t)
	doc, err := html.Parse(strings.NewReader(render.Document(markup, g, "")))
	if err != nil {
		t.Fatal(err)
	}
	st, err := style.Compute(doc, style.Options{PageWidth: 794, PageHeight: 1122})
	if err != nil {
		t.Fatal(err)
	}
	ltShMu.Lock()
	defer ltShMu.Unlock()
	l := &layouter{ctx: context.Background(), st: st, sh: sh, opt: Options{MaxDepth: DefaultMaxDepth, MaxBoxes: DefaultMaxBoxes, MaxPages: DefaultMaxPages}}
	root, err := l.buildTree(doc)
	if err != nil {
		t.Fatal(err)
	}
	first := pageGeometry(st.Page(0, false))
	l.icbW, l.icbH = first.areaW, first.areaH
	return l.layoutRoot(root)
}

// TestTablesPrintLikeChromium prints table documents with both engines
// and expects every word where Chromium puts it (the same pages, median
// within 0.5 pt, worst within 0.5 pt). The documents fit on one page
// (repeated headers are pagination's, paginate.go).
func TestTablesPrintLikeChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("prints with Chromium")
	}
	for _, d := range tblDocs {
		t.Run(d.name, func(t *testing.T) {
			tblExpectClose(t, d.html, 0.5)
		})
	}
}

// tblExpectClose fails when phantom's words are not where Chromium puts
// them: every word matched, as many pages, median and worst within tol
// points. (Page sizes are pdfw's to get right to the last digit.)
func tblExpectClose(t *testing.T, markup string, tol float64) {
	t.Helper()
	c := ltCompareHTML(t, markup, "")
	if c.missing > 0 || c.extra > 0 || c.median > tol || c.worst > tol || len(c.pagesA) != len(c.pagesB) {
		t.Errorf("pages %d vs %d; words %d matched %d (missing %d extra %d) median %.3f pt worst %.3f pt (%q)", len(c.pagesA), len(c.pagesB), c.total, c.matched, c.missing, c.extra, c.median, c.worst, c.worstWord)
		for _, r := range c.report {
			t.Log(r)
		}
		return
	}
	t.Logf("%d words, median %.3f pt, worst %.3f pt", c.matched, c.median, c.worst)
}

// tblPaintDocs are tables without text whose pixels must match Chromium's:
// table, column, row group, row and cell backgrounds, separated and
// collapsed borders, empty-cells. Where separated borders paint (paint.go's
// box borders, antialiased at their edges a little differently from
// Skia's), pixels are compared blurred (soft).
var tblPaintDocs = []struct {
	name, html string
	soft       bool
}{
	{"backgrounds", `<style>table{border-spacing:5px 4px;background:#f0e0c0} td{width:40px;height:20px;padding:0} i{display:block;width:10px;height:6px;background:#000}</style>
<table><colgroup style="background:#c0f0c0"><col><col style="background:#c0c0f0"></colgroup><col>
<tbody style="background:#f0c0f0"><tr><td></td><td></td><td style="background:#ffff80"></td></tr>
<tr style="background:#80ffff"><td></td><td></td><td><i></i></td></tr></tbody>
<tbody><tr><td rowspan=2 style="background:#ff8080"></td><td colspan=2></td></tr><tr><td></td><td style="background:#808080"></td></tr></tbody></table>`, false},
	{"separated parts", `<style>table{border:3px solid #204080;border-spacing:5px 4px;background:#f0e0c0} td{width:40px;height:20px;padding:0} .b{border:2px solid #a02020} i{display:block;width:10px;height:6px;background:#000}</style>
<table><colgroup style="background:#c0f0c0"><col><col style="background:#c0c0f0"></colgroup><col>
<tbody style="background:#f0c0f0"><tr><td></td><td class=b></td><td style="background:#ffff80"></td></tr>
<tr style="background:#80ffff"><td class=b></td><td></td><td><i></i></td></tr></tbody>
<tbody><tr><td rowspan=2 style="background:#ff8080"></td><td colspan=2 class=b></td></tr><tr><td></td><td style="background:#808080"></td></tr></tbody></table>`, true},
	{"collapsed parts", `<style>table{border-collapse:collapse;border:4px solid #204080;background:#f0e0c0} td{width:37px;height:21px;padding:0;border:1px solid #606060}</style>
<table><col style="background:#c0c0f0"><tr><td></td><td style="background:#ffff80;border:3px solid #a02020"></td><td></td></tr>
<tr style="background:#80ffff"><td style="border-bottom:5px solid #208020"></td><td></td><td style="background:#ff80ff"></td></tr>
<tr><td colspan=2 style="background:#ffc080"></td><td style="border:2px solid #000"></td></tr></table>`, false},
	{"empty cells", `<style>table{empty-cells:hide;border-spacing:6px} td{width:30px;height:15px;border:2px solid #800000;background:#e0e0ff}</style>
<table><tr><td></td><td><i style="display:block;height:5px"></i></td></tr></table>`, true},
}

// TestTablesPaintLikeChromium compares the pixels (96 dpi) of tables
// printed by both engines.
func TestTablesPaintLikeChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("prints with Chromium")
	}
	for _, d := range tblPaintDocs {
		t.Run(d.name, func(t *testing.T) {
			g := ltGeometry("")
			ca, pb := ltChromiumPDF(t, d.html, g), ltPhantomPDF(t, d.html, g)
			if dir := os.Getenv("TABLE_KEEP"); dir != "" {
				name := strings.ReplaceAll(d.name, " ", "_")
				_ = os.WriteFile(filepath.Join(dir, name+".chromium.pdf"), ca, 0o644)
				_ = os.WriteFile(filepath.Join(dir, name+".phantom.pdf"), pb, 0o644)
			}
			a, b := tblRaster(t, ca), tblRaster(t, pb)
			if a.Bounds() != b.Bounds() {
				t.Fatalf("page sizes differ: %v vs %v", a.Bounds(), b.Bounds())
			}
			tol := uint32(0x1800)
			if d.soft {
				a, b, tol = tblBlur(a), tblBlur(b), 0x3000
			}
			bad, ink, first := tblDiff(a, b, tol)
			if ink == 0 {
				t.Fatal("Chromium painted nothing")
			}
			if bad > 0 {
				t.Errorf("%d of %d inked pixels differ; first at %s", bad, ink, first)
			}
		})
	}
}

// tblRaster renders the top 300 px of a PDF's first page at 96 dpi.
func tblRaster(t *testing.T, pdf []byte) image.Image {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("pdftoppm", "-r", "96", "-f", "1", "-l", "1", "-x", "0", "-y", "0", "-W", "794", "-H", "300", "-png", in, filepath.Join(dir, "p")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	f, err := os.Open(filepath.Join(dir, "p-1.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// tblDiff counts the pixels of a that are not white (ink) and those that
// differ from b's by more than tol in a channel.
//
//go:norace
func tblDiff(a, b image.Image, tol uint32) (bad, ink int, first string) {
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			br, bg, bb, _ := b.At(x, y).RGBA()
			if ar != 0xffff || ag != 0xffff || ab != 0xffff {
				ink++
			}
			if absDiff(ar, br) > tol || absDiff(ag, bg) > tol || absDiff(ab, bb) > tol {
				if bad == 0 {
					first = fmt.Sprintf("(%d,%d) Chromium %02x%02x%02x phantom %02x%02x%02x", x, y, ar>>8, ag>>8, ab>>8, br>>8, bg>>8, bb>>8)
				}
				bad++
			}
		}
	}
	return bad, ink, first
}

// tblBlur is a 3×3 binomial blur, which forgives antialiasing.
//
//go:norace
func tblBlur(img image.Image) image.Image {
	r := img.Bounds()
	out := image.NewRGBA64(r)
	k := [3]uint32{1, 2, 1}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			var sr, sg, sb, sw uint32
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					px, py := x+dx, y+dy
					if px < r.Min.X || py < r.Min.Y || px >= r.Max.X || py >= r.Max.Y {
						continue
					}
					w := k[dx+1] * k[dy+1]
					cr, cg, cb, _ := img.At(px, py).RGBA()
					sr, sg, sb, sw = sr+cr*w, sg+cg*w, sb+cb*w, sw+w
				}
			}
			out.SetRGBA64(x, y, color.RGBA64{uint16(sr / sw), uint16(sg / sw), uint16(sb / sw), 0xffff})
		}
	}
	return out
}

// tblInvoice is a 30-row invoice table, and the same text without the
// table, for BenchmarkTableInvoice30.
func tblInvoice(table bool) string {
	var sb strings.Builder
	sb.WriteString(`<style>body{font:12px 'DejaVu Sans'} table{width:100%;border-collapse:collapse} td,th{padding:4px 6px;border-bottom:1px solid #ccc} .n{width:15%}</style>`)
	if table {
		sb.WriteString(`<table><thead><tr><th>Item</th><th class=n>Qty</th><th class=n>Price</th><th class=n>Total</th></tr></thead><tbody>`)
	}
	for i := 0; i < 30; i++ {
		if table {
			fmt.Fprintf(&sb, `<tr><td>Service line %d with a short description</td><td class=n>%d</td><td class=n>%d.00</td><td class=n>%d.00</td></tr>`, i, i%7+1, 40+i, (i%7+1)*(40+i))
		} else {
			fmt.Fprintf(&sb, `<div>Service line %d with a short description</div><div>%d</div><div>%d.00</div><div>%d.00</div>`, i, i%7+1, 40+i, (i%7+1)*(40+i))
		}
	}
	if table {
		sb.WriteString(`</tbody></table>`)
	}
	return sb.String()
}

// BenchmarkTableInvoice30 lays out (without painting) a 30-row invoice
// table and the same text in blocks; the difference is the table's cost.
func BenchmarkTableInvoice30(b *testing.B) {
	for _, table := range []bool{true, false} {
		name := "blocks"
		if table {
			name = "table"
		}
		b.Run(name, func(b *testing.B) {
			g := ltGeometry("")
			sh := ltShaper(b)
			doc, err := html.Parse(strings.NewReader(render.Document(tblInvoice(table), g, "")))
			if err != nil {
				b.Fatal(err)
			}
			st, err := style.Compute(doc, style.Options{PageWidth: 794, PageHeight: 1122})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				l := &layouter{ctx: context.Background(), st: st, sh: sh, opt: Options{MaxDepth: DefaultMaxDepth, MaxBoxes: DefaultMaxBoxes, MaxPages: DefaultMaxPages}}
				root, err := l.buildTree(doc)
				if err != nil {
					b.Fatal(err)
				}
				l.icbW, l.icbH = 794, 1122
				l.layoutRoot(root)
			}
		})
	}
}

// FuzzTableLayout lays out arbitrary table markup: it must not panic.
func FuzzTableLayout(f *testing.F) {
	for _, s := range []string{
		`<table><tr><td colspan=0 rowspan=0>a</td><td colspan=999999>b</td></tr><tr><td rowspan=65535>c</td></tr></table>`,
		`<table style="border-collapse:collapse;width:-5px;height:1e9px"><col span=1000><col span=1000><tr><td style="border:1e6px solid">x</td></tr></table>`,
		`<table style="table-layout:fixed;width:1%"><tr><td style="width:200%;padding:50%">a</td><td style="width:-10px">b</td></tr></table>`,
		`<table><caption>c</caption><thead></thead><tfoot><tr></tr></tfoot><tbody><tr><td><table><tr><td rowspan=3>n</td></tr></table></td></tr></tbody></table>`,
		`<div style="display:table-cell">lonely</div><span style="display:table-row">row</span>`,
		`<table style="border-spacing:-4px 1e7px"><tr><td style="height:50%;vertical-align:baseline">a</td><td style="vertical-align:bottom;height:-4px">b</td></tr></table>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, markup string) {
		if len(markup) > 4000 {
			return
		}
		g := ltGeometry("")
		sh := ltShaper(t)
		doc, err := html.Parse(strings.NewReader(render.Document(markup, g, "")))
		if err != nil {
			return
		}
		st, err := style.Compute(doc, style.Options{PageWidth: 794, PageHeight: 1122})
		if err != nil {
			return
		}
		ltShMu.Lock()
		defer ltShMu.Unlock()
		_, _ = Layout(context.Background(), doc, st, sh, Options{MaxPages: 50})
	})
}

// TestTableBaselineOutsideFragmentation checks where cells align on their
// row's baseline when printing (measured against Chromium 156): not in the
// page's flow, but in an absolutely positioned box whose containing block,
// or an ancestor of it, clips and stays on one page (a footer pinned to the
// bottom of a .sheet), as Chromium lays such a box out outside
// fragmentation.
func TestTableBaselineOutsideFragmentation(t *testing.T) {
	const row = `<table><tr><td style="vertical-align:baseline;font-size:7pt">small</td><td style="vertical-align:baseline;font-size:20pt">BIG</td></tr></table>`
	abs := `<div style="position:absolute;bottom:100px;left:0">` + row + `</div>`
	for _, c := range []struct {
		name    string
		html    string
		aligned bool
	}{
		{"in flow", row, false},
		{"in flow in a sheet", `<div class="sheet">` + row + `</div>`, false},
		{"absolute in the page", abs, false},
		{"absolute in a positioned box", `<div style="position:relative;height:300px">` + abs + `</div>`, false},
		{"absolute in a sheet", `<div class="sheet">` + abs + `</div>`, true},
		{"absolute in a positioned box in a clipping one", `<div style="height:300px;overflow:hidden"><div style="position:relative">` + abs + `</div></div>`, true},
		{"clipping box between the box and its containing block", `<div style="position:relative"><div style="height:300px;overflow:hidden">` + abs + `</div></div>`, false},
		{"clipping box taller than a page", `<div style="position:relative;height:1200px;overflow:hidden">` + abs + `</div>`, false},
	} {
		w := tblLayoutWrapper(t, c.html)
		var lines []*Frag
		var walk func(f *Frag)
		walk = func(f *Frag) {
			if f.Kind == FragLine {
				lines = append(lines, f)
				return
			}
			for _, ch := range f.Children {
				walk(ch)
			}
		}
		walk(w)
		if len(lines) != 2 {
			t.Fatalf("%s: %d lines, want 2", c.name, len(lines))
		}
		small, big := lines[0], lines[1]
		if aligned := math.Abs(small.Baseline-big.Baseline) < 0.5; aligned != c.aligned {
			t.Errorf("%s: baselines at %.2f and %.2f, aligned %v; want %v", c.name, small.Baseline, big.Baseline, aligned, c.aligned)
		}
		if !c.aligned && math.Abs(small.Y-big.Y) > 0.5 {
			t.Errorf("%s: unaligned cells' lines start at %.2f and %.2f; want both at the top", c.name, small.Y, big.Y)
		}
	}
}

// TestTableEdgesAtPageBreaks checks the collapsed row rules where a table
// breaks across pages, against the rectangles Chromium 156 paints (in CSS
// px, the header's bottom edge at y 22 on the second page): a 2px rule
// between two rows on one page is one 2px rectangle; on the page that
// ends with the row above it, its upper pixel; on the next page, after
// the repeated header's 6px rule, the whole rule again over it.
func TestTableEdgesAtPageBreaks(t *testing.T) {
	var rows strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&rows, "<tr><td>row %d</td><td>value</td></tr>", i)
	}
	markup := `<style>*{margin:0;padding:0} body{font:12px 'Liberation Sans'} table{border-collapse:collapse;width:300px} td,th{padding:4px}
th{border-bottom:6px solid #000} td{border-bottom:2px solid #f00}</style>
<table><thead><tr><th>H1</th><th>H2</th></tr></thead><tbody>` + rows.String() + `</tbody></table>`
	doc, st, _, _ := ltLayoutDoc(t, markup, ltGeometry(""), Options{})
	ltShMu.Lock()
	d, err := Layout(context.Background(), doc, st, ltShaper(t), Options{})
	ltShMu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pages) < 2 {
		t.Fatalf("%d pages, want at least 2", len(d.Pages))
	}
	// The first column's rules (x 0), top to bottom in paint order.
	type rule struct {
		y, h float64
		red  bool
	}
	rules := func(p *draw.Page) []rule {
		var out []rule
		for _, op := range p.Ops {
			f, ok := op.(draw.Fill)
			if !ok || len(f.Path) != 5 || f.Path[0].P[0].X != 0 {
				continue
			}
			y0, y1 := f.Path[0].P[0].Y, f.Path[2].P[0].Y
			out = append(out, rule{y0, y1 - y0, f.Color.R == 1})
		}
		return out
	}
	one, two := rules(d.Pages[0]), rules(d.Pages[1])
	// Rules drawn again in part start where they do whole: the tallest
	// rectangle at each y is the rule.
	tallest := map[float64]float64{}
	var ys []float64
	for _, r := range one {
		if !r.red {
			continue
		}
		if _, ok := tallest[r.y]; !ok {
			ys = append(ys, r.y)
		}
		tallest[r.y] = math.Max(tallest[r.y], r.h)
	}
	if len(ys) < 3 {
		t.Fatalf("page 1: %d red rules", len(ys))
	}
	for _, y := range ys[:len(ys)-1] {
		if h := tallest[y]; h != 2 {
			t.Errorf("page 1: rule at %g is %gpx; want one 2px rectangle", y, h)
		}
	}
	if y := ys[len(ys)-1]; tallest[y] != 1 {
		t.Errorf("page 1: last rule %gpx at %g; want its upper pixel", tallest[y], y)
	}
	// On page 2: the header's rule, then the row rule whole over it.
	hdr := -1
	for i, r := range two {
		if !r.red && r.h == 6 {
			hdr = i
		}
	}
	if hdr < 0 || hdr+1 >= len(two) {
		t.Fatalf("page 2: no header rule followed by another: %v", two)
	}
	if r := two[hdr+1]; !r.red || r.y != two[hdr].y+2 || r.h != 2 {
		t.Errorf("page 2: after the header's rule at %g, %+v; want the red 2px rule at %g", two[hdr].y, r, two[hdr].y+2)
	}
}

// TestInlineBlockBaselinePassesTables checks where a line puts an
// inline-block that holds a block-level table, as Chromium 156 does: on
// the last line box outside tables, else on its bottom margin edge.
func TestInlineBlockBaselinePassesTables(t *testing.T) {
	const table = `<table><tr><td>cell</td></tr><tr><td>cell</td></tr></table>`
	for _, c := range []struct {
		name, inside, style string
		// onLine: the baseline is the inline-block's first line's;
		// else its bottom margin edge.
		onLine bool
	}{
		{"only a table", table, "", false},
		{"a table with a bottom margin", table, "margin-bottom:10px;padding-bottom:7px;border:2px solid", false},
		{"a table in a block", `<div>` + table + `</div>`, "", false},
		{"text before a table", `<div>text</div>` + table, "", true},
		{"text before a table in a block", `<div>text</div><div>` + table + `</div>`, "", true},
	} {
		root := tblLayoutRoot(t, `<div>a <span style="display:inline-block;width:100px;`+c.style+`">`+c.inside+`</span> b</div>`)
		var line, ib *Frag
		var walk func(f *Frag)
		walk = func(f *Frag) {
			if line != nil {
				return
			}
			if f.Kind == FragLine {
				for _, ch := range f.Children {
					if ch.Kind == FragBox && ch.Box != nil && ch.Box.Inline && ch.Box.Kind == KindBlock {
						line, ib = f, ch
						return
					}
				}
			}
			for _, ch := range f.Children {
				walk(ch)
			}
		}
		walk(root)
		if line == nil {
			t.Fatalf("%s: no line with the inline-block", c.name)
		}
		want := ib.Y + ib.H + marginOf(ib.Box.Style, style.Bottom, 0)
		if c.onLine {
			var first *Frag
			var find func(f *Frag)
			find = func(f *Frag) {
				if first != nil {
					return
				}
				if f.Kind == FragLine {
					first = f
					return
				}
				for _, ch := range f.Children {
					find(ch)
				}
			}
			find(ib)
			want = first.Baseline
		}
		if math.Abs(line.Baseline-want) > 0.01 {
			t.Errorf("%s: line's baseline at %.2f; want %.2f", c.name, line.Baseline, want)
		}
	}
}

// TestTableThinEdgeAtPageBreak checks a 1px collapsed rule that a page
// break splits in two halves of half a pixel: Chromium 156 paints a pixel
// of it on both pages (at the bottom of the last row of the first, at the
// top of the second), as Blink snaps no painted length to nothing.
func TestTableThinEdgeAtPageBreak(t *testing.T) {
	var rows strings.Builder
	for i := 0; i < 90; i++ {
		fmt.Fprintf(&rows, "<tr><td>row %d</td><td>value</td></tr>", i)
	}
	markup := `<style>*{margin:0;padding:0} body{font:13px 'Liberation Sans'} table{border-collapse:collapse;width:300px} td{padding:4px;border:1px solid #888}</style>
<table><tbody>` + rows.String() + `</tbody></table>`
	doc, st, _, _ := ltLayoutDoc(t, markup, ltGeometry(""), Options{})
	ltShMu.Lock()
	d, err := Layout(context.Background(), doc, st, ltShaper(t), Options{})
	ltShMu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pages) < 2 {
		t.Fatalf("%d pages, want at least 2", len(d.Pages))
	}
	// The horizontal rules of the first column (x 0, wider than tall).
	rules := func(p *draw.Page) (ys []float64) {
		for _, op := range p.Ops {
			f, ok := op.(draw.Fill)
			if !ok || len(f.Path) != 5 || f.Path[0].P[0].X != 0 || f.Color.R == 1 {
				continue
			}
			x1, y0, y1 := f.Path[1].P[0].X, f.Path[0].P[0].Y, f.Path[2].P[0].Y
			if x1-f.Path[0].P[0].X > y1-y0 && y1-y0 == 1 {
				ys = append(ys, y0)
			}
		}
		return ys
	}
	one, two := rules(d.Pages[0]), rules(d.Pages[1])
	if len(one) == 0 || len(two) == 0 {
		t.Fatalf("rules: %v on page 1, %v on page 2", one, two)
	}
	slices.Sort(two)
	if two[0] != 0 {
		t.Errorf("page 2's first rule at %g; want a pixel at the page's top (0)", two[0])
	}
	slices.Sort(one)
	gap := one[len(one)-1] - one[len(one)-2]
	if gap < 20 || gap > 30 {
		t.Errorf("page 1's last rule %gpx below the one before; want a row's height (the last row's bottom)", gap)
	}
}
