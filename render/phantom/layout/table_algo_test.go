package layout

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/style"
)

func TestTableParseSpan(t *testing.T) {
	for _, c := range []struct {
		in          string
		lo, hi, def int
		want        int
	}{
		{"3", 1, 1000, 1, 3},
		{" +7x", 1, 1000, 1, 7},
		{"0", 1, 1000, 1, 1},
		{"0", 0, 65534, 1, 0},
		{"", 1, 1000, 1, 1},
		{"-2", 1, 1000, 1, 1},
		{"5000", 1, 1000, 1, 1000},
		{"99999999999999999999", 0, 65534, 1, 65534},
		{"abc", 0, 65534, 1, 1},
	} {
		if got := tableParseSpan(c.in, c.lo, c.hi, c.def); got != c.want {
			t.Errorf("tableParseSpan(%q, %d, %d) = %d, want %d", c.in, c.lo, c.hi, got, c.want)
		}
	}
}

func TestTableUnits(t *testing.T) {
	if got := unitPx(33.3333333); got != 2133 {
		t.Errorf("unitPx(33.33) = %d raw, want 2133 (truncated)", got)
	}
	if got := unitCeil(10.001); got != 641 {
		t.Errorf("unitCeil(10.001) = %d, want 641", got)
	}
	if got := unitCeil(10 + 1e-9); got != 640 {
		t.Errorf("unitCeil(10+noise) = %d, want 640", got)
	}
	if got := tableUnit(198*64).mulDiv(80*64, 100*64); got != 10137 {
		t.Errorf("mulDiv = %d, want 10137", got)
	}
	if got := unitPx(1e12); got != tableUnitMaxRaw {
		t.Errorf("unitPx saturates: %d", got)
	}
}

func TestTableSectionOrder(t *testing.T) {
	got := tableSectionOrder([]tableSectionKind{tableBody, tableFoot, tableHead, tableHead, tableBody, tableFoot})
	want := []int{2, 0, 3, 4, 5, 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

// TestTableCollapsedPrecedence checks the conflict resolution on single
// edges: hidden wins, then width, then style, then the earlier source.
func TestTableCollapsedPrecedence(t *testing.T) {
	b := func(w float64, s style.BorderStyle) style.Border { return style.Border{Width: w, Style: s} }
	for _, c := range []struct {
		name       string
		cell, next style.Border
		want       style.BorderStyle
		wantW      float64
	}{
		{"wider wins", b(1, style.BorderDouble), b(2, style.BorderDotted), style.BorderDotted, 2},
		{"double beats solid", b(3, style.BorderSolid), b(3, style.BorderDouble), style.BorderDouble, 3},
		{"solid beats dashed", b(3, style.BorderSolid), b(3, style.BorderDashed), style.BorderSolid, 3},
		{"ridge beats outset", b(3, style.BorderOutset), b(3, style.BorderRidge), style.BorderRidge, 3},
		{"inset counts as ridge: tie keeps the first", b(3, style.BorderInset), b(3, style.BorderRidge), style.BorderInset, 3},
		{"hidden wins", b(9, style.BorderSolid), b(0, style.BorderHidden), style.BorderHidden, 0},
		{"tie keeps the first", b(2, style.BorderSolid), b(2, style.BorderSolid), style.BorderSolid, 2},
	} {
		g := &tableGrid{collapse: true}
		g.sections = []tableSection{{rowStart: 0, rowEnd: 1}}
		g.rows = []tableRow{{cellStart: 0, cellEnd: 2}}
		g.cells = []tableCell{{colspan: 1, rowspan: 1}, {colspan: 1, rowspan: 1}}
		g.cells[0].border[style.Right] = c.cell
		g.cells[1].border[style.Left] = c.next
		g.place()
		g.borders()
		e := g.edges[1*2]
		if !e.set || e.b.Style != c.want || e.b.Width != c.wantW {
			t.Errorf("%s: edge %+v, want %v %v", c.name, e.b, c.want, c.wantW)
		}
		if c.name == "tie keeps the first" && e.order != 1 {
			t.Errorf("%s: order %d, want the first cell's", c.name, e.order)
		}
	}
}

// TestTableDistributeGuesses checks tableDistributeAuto against hand
// computed values at each guess.
func TestTableDistributeGuesses(t *testing.T) {
	u := func(px float64) tableUnit { return unitPx(px) }
	auto := func(mn, mx float64) tableColumn {
		return tableColumn{min: u(mn), max: u(mx), hasMin: true, hasMax: true}
	}
	fixed := func(mn, mx float64) tableColumn {
		c := auto(mn, mx)
		c.constrained = true
		return c
	}
	pct := func(mn, mx float64, p float32) tableColumn {
		c := auto(mn, mx)
		c.percent, c.hasPercent = p, true
		return c
	}
	for _, c := range []struct {
		name   string
		target float64
		cols   []tableColumn
		want   []float64
	}{
		{"below min", 10, []tableColumn{auto(20, 40), auto(10, 100)}, []float64{20, 10}},
		{"between min and max", 70, []tableColumn{auto(20, 40), auto(10, 100)}, []float64{20 + 40*20.0/110, 10 + 40*90.0/110}},
		{"exact max", 140, []tableColumn{auto(20, 40), auto(10, 100)}, []float64{40, 100}},
		{"above max", 280, []tableColumn{auto(20, 40), auto(10, 100)}, []float64{80, 200}},
		{"fixed grows to its width first", 90, []tableColumn{fixed(20, 60), auto(10, 100)}, []float64{60 + 0, 30}},
		{"percent", 200, []tableColumn{pct(10, 20, 50), auto(10, 30)}, []float64{100, 100}},
	} {
		got := tableDistributeAuto(u(c.target), c.cols, true, nil)
		for i := range got {
			if math.Abs(got[i].px()-c.want[i]) > 1.0/32 {
				t.Errorf("%s: column %d = %.4f, want %.4f", c.name, i, got[i].px(), c.want[i])
			}
		}
		var sum tableUnit
		for _, v := range got {
			sum += v
		}
		if c.target >= 30 && sum != u(c.target) {
			t.Errorf("%s: columns sum to %v, want %v", c.name, sum.px(), c.target)
		}
	}
}

// --- Test tables, described once, printed by Chromium and laid out by
// the algorithms.

type tBorder struct {
	w     float64
	style string
	color string // #rrggbb; "" is #333
}

// tHex parses #rrggbb.
func tHex(s string) draw.Color {
	if len(s) != 7 {
		return draw.Color{R: 0x33 / 255.0, G: 0x33 / 255.0, B: 0x33 / 255.0, A: 1}
	}
	v, _ := strconv.ParseUint(s[1:], 16, 32)
	return draw.Color{R: float64(v>>16) / 255, G: float64(v>>8&255) / 255, B: float64(v&255) / 255, A: 1}
}

// tBox is an inline-block of w×h whose baseline is a from its top (0: its
// bottom). Cells hold them at font-size 0, so their intrinsic widths and
// line heights are exact and font-free.
type tBox struct{ w, h, a float64 }

type tCell struct {
	colspan, rowspan string // attributes as written ("" for none)
	width, height    string
	minWidth         string
	pad              [4]float64
	border           [4]tBorder
	valign           string // top, middle, bottom, baseline ("" middle, the UA's)
	boxes            []tBox
	nested           *tTable
	borderBox        bool
}

type tRow struct {
	height string
	border [4]tBorder
	cells  []tCell
}

type tSection struct {
	tag    string // tbody, thead, tfoot
	height string
	border [4]tBorder
	rows   []tRow
}

type tCol struct {
	group    bool
	span     string
	width    string
	border   [4]tBorder
	children []tCol
}

type tTable struct {
	width, height string
	minWidth      string
	fixed         bool
	collapse      bool
	spacing       *[2]float64
	border        [4]tBorder
	padding       float64
	contentBox    bool
	cols          []tCol
	sections      []tSection
	captions      []tCaption
	rtl           bool
}

type tCaption struct {
	bottom bool
	boxes  []tBox
}

type tCase struct {
	name      string
	container float64 // width of the block the table sits in
	// monolithic puts the table in an inline-block: no fragmentation
	// there, so cells align on the row's baseline.
	monolithic bool
	table      tTable
}

func bx(w, h float64) tBox { return tBox{w: w, h: h} }

func cell(boxes ...tBox) tCell { return tCell{boxes: boxes} }

func row(cells ...tCell) tRow { return tRow{cells: cells} }

func body(rows ...tRow) []tSection { return []tSection{{tag: "tbody", rows: rows}} }

func solid(w float64) [4]tBorder {
	b := tBorder{w, "solid", ""}
	return [4]tBorder{b, b, b, b}
}

func (c tCell) span(cs, rs string) tCell    { c.colspan, c.rowspan = cs, rs; return c }
func (c tCell) w(w string) tCell            { c.width = w; return c }
func (c tCell) h(h string) tCell            { c.height = h; return c }
func (c tCell) va(v string) tCell           { c.valign = v; return c }
func (c tCell) padded(p float64) tCell      { c.pad = [4]float64{p, p, p, p}; return c }
func (c tCell) bordered(b [4]tBorder) tCell { c.border = b; return c }
func (c tCell) withNested(n tTable) tCell   { c.nested = &n; return c }
func (c tCell) boxesAligned(a float64, b ...tBox) tCell {
	for i := range b {
		b[i].a = a
	}
	c.boxes = b
	return c
}

var tCases = []tCase{
	{name: "auto widths fit", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10), bx(30, 10)), cell(bx(20, 10)), cell(bx(120, 10), bx(40, 10), bx(40, 10))),
		row(cell(bx(10, 14)), cell(bx(60, 10), bx(60, 10)), cell(bx(5, 10))),
	)}},
	{name: "auto widths squeezed", container: 200, table: tTable{sections: body(
		row(cell(bx(50, 10), bx(30, 10), bx(30, 10)), cell(bx(20, 10)), cell(bx(40, 10), bx(40, 10), bx(40, 10), bx(40, 10))),
		row(cell(bx(10, 10)), cell(bx(60, 10), bx(60, 10)), cell(bx(5, 10))),
	)}},
	{name: "too narrow: min widths", container: 100, table: tTable{sections: body(
		row(cell(bx(50, 10), bx(30, 10)), cell(bx(70, 10), bx(30, 10))),
	)}},
	{name: "width 100%", container: 600, table: tTable{width: "100%", sections: body(
		row(cell(bx(50, 10), bx(30, 10)), cell(bx(20, 10)), cell(bx(120, 10))),
		row(cell(bx(10, 10)), cell(bx(60, 10)), cell(bx(5, 10))),
	)}},
	{name: "width in page", container: 0, table: tTable{width: "100%", sections: body(
		row(cell(bx(50, 10)), cell(bx(20, 10)), cell(bx(20, 10))),
	)}},
	{name: "fixed px width 333", container: 600, table: tTable{width: "333px", border: solid(3), padding: 4, sections: body(
		row(cell(bx(50, 10)), cell(bx(21, 10), bx(21, 10)), cell(bx(7, 10))),
	)}},
	{name: "content-box table", container: 600, table: tTable{width: "300px", contentBox: true, border: solid(5), padding: 3, sections: body(
		row(cell(bx(50, 10)), cell(bx(20, 10))),
	)}},
	{name: "percent columns", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10)).w("30%"), cell(bx(20, 10)).w("20%"), cell(bx(100, 10), bx(100, 10))),
		row(cell(bx(10, 10)), cell(bx(60, 10)), cell(bx(5, 10))),
	)}},
	{name: "percent columns in 500px", container: 600, table: tTable{width: "500px", sections: body(
		row(cell(bx(50, 10)).w("30%"), cell(bx(20, 10)).w("20%"), cell(bx(30, 10))),
	)}},
	{name: "percent over 100", container: 600, table: tTable{width: "400px", sections: body(
		row(cell(bx(50, 10)).w("70%"), cell(bx(20, 10)).w("50%"), cell(bx(30, 10))),
	)}},
	{name: "fixed cell widths", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10)).w("120px"), cell(bx(20, 10)).w("30px"), cell(bx(33, 10), bx(33, 10))),
		row(cell(bx(10, 10)), cell(bx(60, 10)), cell(bx(5, 10))),
	)}},
	{name: "fixed cell widths in 100%", container: 600, table: tTable{width: "100%", sections: body(
		row(cell(bx(50, 10)).w("120px"), cell(bx(20, 10)).w("30px").padded(3), cell(bx(33, 10)).w("10%")),
	)}},
	{name: "all fixed grow", container: 600, table: tTable{width: "500px", sections: body(
		row(cell(bx(10, 10)).w("100px"), cell(bx(20, 10)).w("50px")),
	)}},
	{name: "colspan over auto columns", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10), bx(30, 10)), cell(bx(20, 10)), cell(bx(10, 10))),
		row(cell(bx(300, 10)).span("2", ""), cell(bx(10, 10))),
		row(cell(bx(40, 10), bx(40, 10), bx(200, 10)).span("3", "")),
	)}},
	{name: "colspan squeezed", container: 250, table: tTable{sections: body(
		row(cell(bx(50, 10), bx(30, 10)), cell(bx(20, 10)), cell(bx(10, 10))),
		row(cell(bx(120, 10), bx(120, 10)).span("2", ""), cell(bx(10, 10))),
	)}},
	{name: "colspan with percent", container: 600, table: tTable{width: "500px", sections: body(
		row(cell(bx(50, 10)), cell(bx(20, 10)), cell(bx(10, 10))),
		row(cell(bx(30, 10)).span("2", "").w("60%"), cell(bx(10, 10))),
	)}},
	{name: "colspan past the columns", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10)).span("5", ""), cell(bx(20, 10))),
		row(cell(bx(30, 10)), cell(bx(40, 10)).span("0", "")),
	)}},
	{name: "colspan over the limit", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10)).span("2000", ""), cell(bx(20, 10))),
		row(cell(bx(30, 10))),
	)}},
	{name: "rowspan and heights", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10)).span("", "3").va("top"), cell(bx(20, 10)).va("top"), cell(bx(10, 30)).va("bottom")),
		row(cell(bx(20, 16)).va("baseline"), cell(bx(10, 10)).va("baseline")),
		row(cell(bx(30, 10)).va("middle"), cell(bx(10, 10)).span("", "0").va("top")),
		row(cell(bx(40, 80)).span("", "2").va("middle"), cell(bx(20, 10))),
	)}},
	{name: "tall rowspan", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 100)).span("", "3"), cell(bx(20, 10))),
		row(cell(bx(20, 20))),
		row(cell(bx(30, 10))),
	)}},
	{name: "rowspan 0 to the group's end", container: 600, table: tTable{sections: []tSection{
		{tag: "tbody", rows: []tRow{
			row(cell(bx(50, 70)).span("", "0"), cell(bx(20, 10))),
			row(cell(bx(20, 20))),
		}},
		{tag: "tbody", rows: []tRow{row(cell(bx(30, 10)), cell(bx(30, 10)))}},
	}}},
	{name: "baseline alignment", container: 600, table: tTable{sections: body(
		row(cell().boxesAligned(8, bx(30, 20), bx(30, 20)).va("baseline"), cell(bx(20, 10)).va("baseline"), cell().boxesAligned(15, bx(20, 40)).va("baseline").padded(4), cell(bx(10, 5)).va("middle")),
	)}},
	{name: "table height", container: 600, table: tTable{height: "200px", border: solid(2), sections: body(
		row(cell(bx(50, 10)), cell(bx(20, 30)).va("bottom")),
		row(cell(bx(10, 10)).va("top"), cell(bx(20, 10))),
		row(cell(bx(10, 20)), cell(bx(20, 10)).va("baseline")),
	)}},
	{name: "row heights", container: 600, table: tTable{sections: []tSection{{tag: "tbody", rows: []tRow{
		{height: "40px", cells: []tCell{cell(bx(50, 10)), cell(bx(20, 10)).va("bottom")}},
		{cells: []tCell{cell(bx(10, 10)).h("25px").va("top"), cell(bx(20, 10))}},
	}}}}},
	{name: "cell padding and borders", container: 600, table: tTable{spacing: &[2]float64{10, 4}, sections: body(
		row(cell(bx(50, 10)).padded(5).bordered(solid(3)), cell(bx(20, 10)).padded(1).va("bottom")),
		row(cell(bx(10, 10)).bordered(solid(1)), cell(bx(20, 15)).padded(7).va("top")),
	)}},
	{name: "no spacing", container: 600, table: tTable{spacing: &[2]float64{0, 0}, sections: body(
		row(cell(bx(50, 10)), cell(bx(20, 10))),
		row(cell(bx(10, 10)), cell(bx(20, 10))),
	)}},
	{name: "sections", container: 600, table: tTable{sections: []tSection{
		{tag: "tfoot", rows: []tRow{row(cell(bx(10, 10)), cell(bx(10, 12)))}},
		{tag: "tbody", rows: []tRow{row(cell(bx(30, 10)), cell(bx(10, 10)))}},
		{tag: "thead", rows: []tRow{row(cell(bx(20, 10)), cell(bx(40, 10)))}},
		{tag: "tbody", rows: []tRow{row(cell(bx(50, 14)), cell(bx(10, 10)))}},
	}}},
	{name: "cols and colgroups", container: 600, table: tTable{
		cols: []tCol{{width: "100px"}, {group: true, span: "2", width: "60px"}, {group: true, children: []tCol{{span: "2", width: "33px"}, {}}}},
		sections: body(
			row(cell(bx(10, 10)), cell(bx(10, 10)), cell(bx(80, 10)), cell(bx(10, 10)), cell(bx(10, 10)), cell(bx(10, 10)), cell(bx(10, 10))),
		)}},
	{name: "col widths without cells", container: 600, table: tTable{
		cols:     []tCol{{width: "50px"}, {width: "70px"}, {width: "20%"}},
		sections: body(row(cell(bx(10, 10)))),
	}},
	{name: "fixed layout", container: 600, table: tTable{width: "400px", fixed: true, sections: body(
		row(cell(bx(10, 10)).w("100px"), cell(bx(200, 10)), cell(bx(10, 10)).w("15%")),
		row(cell(bx(300, 10)).w("300px"), cell(bx(20, 10)), cell(bx(10, 10))),
	)}},
	{name: "fixed layout cols", container: 600, table: tTable{width: "100%", fixed: true,
		cols: []tCol{{width: "80px"}, {width: "30%"}},
		sections: body(
			row(cell(bx(10, 10)).w("200px"), cell(bx(20, 10)), cell(bx(10, 10)), cell(bx(10, 10))),
		)}},
	{name: "fixed layout overflowing", container: 600, table: tTable{width: "200px", fixed: true, sections: body(
		row(cell(bx(10, 10)).w("150px"), cell(bx(20, 10)).w("120px"), cell(bx(10, 10))),
	)}},
	{name: "fixed layout colspan", container: 600, table: tTable{width: "300px", fixed: true, sections: body(
		row(cell(bx(10, 10)).span("2", "").w("200px"), cell(bx(20, 10))),
		row(cell(bx(10, 10)), cell(bx(10, 10)), cell(bx(10, 10))),
	)}},
	{name: "collapse mixed widths", container: 600, table: tTable{collapse: true, border: solid(4), sections: body(
		row(cell(bx(50, 10)).bordered(solid(1)), cell(bx(20, 10)).bordered([4]tBorder{{6, "solid", ""}, {1, "dotted", ""}, {3, "double", ""}, {2, "dashed", ""}})),
		row(cell(bx(10, 10)).bordered(solid(5)).padded(2), cell(bx(20, 10))),
	)}},
	{name: "collapse styles and hidden", container: 600, table: tTable{collapse: true, border: solid(2), sections: []tSection{{tag: "tbody", border: solid(3), rows: []tRow{
		{border: [4]tBorder{{5, "dashed", ""}, {}, {5, "dotted", ""}, {}}, cells: []tCell{cell(bx(30, 10)).bordered(solid(5)), cell(bx(30, 10)).bordered([4]tBorder{{0, "hidden", ""}, {7, "double", ""}, {}, {}}), cell(bx(30, 10))}},
		{cells: []tCell{cell(bx(30, 10)).bordered([4]tBorder{{}, {}, {}, {0, "hidden", ""}}), cell(bx(30, 10)).span("2", "").bordered(solid(1))}},
	}}}}},
	{name: "collapse with spans and cols", container: 600, table: tTable{collapse: true, width: "400px",
		cols: []tCol{{border: solid(3)}, {group: true, span: "2", border: solid(6)}},
		sections: body(
			row(cell(bx(30, 10)).span("", "2").bordered(solid(1)), cell(bx(30, 10)), cell(bx(30, 10)).bordered(solid(2))),
			row(cell(bx(30, 10)).span("2", "").bordered(solid(1))),
		)}},
	{name: "collapse ignores padding", container: 600, table: tTable{collapse: true, width: "300px", padding: 10, border: solid(3), sections: body(
		row(cell(bx(30, 10)).padded(4), cell(bx(30, 10))),
	)}},
	{name: "nested auto", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10)), cell().withNested(tTable{sections: body(row(cell(bx(40, 10)), cell(bx(30, 10), bx(30, 10)))), border: solid(1)})),
		row(cell(bx(10, 10)), cell(bx(20, 10))),
	)}},
	{name: "nested 100%", container: 500, table: tTable{width: "100%", sections: body(
		row(cell(bx(50, 10)), cell().withNested(tTable{width: "100%", sections: body(row(cell(bx(40, 10)), cell(bx(30, 10)).w("60%"))), collapse: true, border: solid(1)})),
	)}},
	{name: "nested fixed width", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10)).va("baseline"), cell().withNested(tTable{width: "200px", sections: body(row(cell(bx(40, 25)).va("baseline"), cell(bx(30, 10))))}).va("baseline")),
	)}},
	{name: "captions", container: 600, table: tTable{
		captions: []tCaption{{boxes: []tBox{bx(90, 10), bx(90, 12)}}, {bottom: true, boxes: []tBox{bx(300, 8)}}},
		sections: body(row(cell(bx(50, 10)), cell(bx(20, 10)))),
	}},
	{name: "min-width", container: 600, table: tTable{minWidth: "450px", sections: body(
		row(cell(bx(50, 10)), cell(bx(20, 10))),
	)}},
	{name: "baseline in a monolithic box", container: 600, monolithic: true, table: tTable{sections: body(
		row(cell().boxesAligned(8, bx(30, 20), bx(30, 20)).va("baseline"), cell(bx(20, 10)).va("baseline"), cell().boxesAligned(15, bx(20, 40)).va("baseline").padded(4), cell(bx(10, 5)).va("middle")),
		row(cell(bx(20, 16)).va("baseline").span("", "2"), cell(bx(10, 10)).va("baseline"), cell().va("baseline").padded(3), cell(bx(10, 30)).va("bottom")),
		row(cell(bx(30, 10)).va("baseline"), cell().boxesAligned(2, bx(10, 10)).va("baseline"), cell(bx(10, 10))),
	)}},
	{name: "nested baseline in a monolithic box", container: 600, monolithic: true, table: tTable{sections: body(
		row(cell(bx(50, 10)).va("baseline"), cell().withNested(tTable{width: "200px", sections: body(row(cell(bx(40, 25)).va("baseline"), cell(bx(30, 10)).va("baseline")))}).va("baseline")),
	)}},
	{name: "invoice", container: 700, table: tTable{width: "100%", collapse: true, sections: []tSection{
		{tag: "thead", rows: []tRow{row(
			cell(bx(60, 12)).pads(4, 8, 4, 8).bordered([4]tBorder{{}, {}, {2, "solid", ""}, {}}),
			cell(bx(20, 12)).w("1%").pads(4, 8, 4, 8).bordered([4]tBorder{{}, {}, {2, "solid", ""}, {}}),
			cell(bx(40, 12)).w("15%").pads(4, 8, 4, 8).bordered([4]tBorder{{}, {}, {2, "solid", ""}, {}}),
			cell(bx(40, 12)).w("15%").pads(4, 8, 4, 8).bordered([4]tBorder{{}, {}, {2, "solid", ""}, {}}),
		)}},
		{tag: "tbody", rows: []tRow{
			{border: [4]tBorder{{}, {}, {1, "solid", ""}, {}}, cells: []tCell{cell(bx(120, 12), bx(80, 12), bx(150, 12), bx(90, 12)).pads(4, 8, 4, 8), cell(bx(10, 12)).pads(4, 8, 4, 8), cell(bx(45, 12)).pads(4, 8, 4, 8), cell(bx(50, 12)).pads(4, 8, 4, 8)}},
			{border: [4]tBorder{{}, {}, {1, "solid", ""}, {}}, cells: []tCell{cell(bx(300, 12), bx(200, 12)).pads(4, 8, 4, 8), cell(bx(18, 12)).pads(4, 8, 4, 8), cell(bx(45, 12)).pads(4, 8, 4, 8), cell(bx(55, 12)).pads(4, 8, 4, 8)}},
		}},
		{tag: "tfoot", rows: []tRow{row(cell(bx(60, 12)).span("3", "").pads(4, 8, 4, 8), cell(bx(60, 14)).pads(4, 8, 4, 8).bordered(solid(3)))}},
	}}},
	{name: "cell min-width and border-box", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10)).minW("90px").padded(5), cell(bx(20, 10)).w("60px").bbox().padded(10), cell(bx(30, 10)).w("10px").padded(6)),
	)}},
	{name: "constrained colspan", container: 600, table: tTable{sections: body(
		row(cell(bx(10, 10)).w("40px"), cell(bx(20, 10)), cell(bx(30, 10)).w("50px")),
		row(cell(bx(10, 10)).span("3", "").w("400px")),
		row(cell(bx(10, 10)).span("2", "").w("300px"), cell(bx(5, 10))),
	)}},
	{name: "group heights", container: 600, table: tTable{height: "150px", sections: []tSection{
		{tag: "thead", rows: []tRow{row(cell(bx(10, 10)), cell(bx(10, 10)))}},
		{tag: "tbody", height: "60px", rows: []tRow{row(cell(bx(10, 10)), cell(bx(10, 10))), row(cell(bx(10, 20)), cell())}},
		{tag: "tfoot", rows: []tRow{row(cell(bx(10, 10)), cell(bx(10, 10)))}},
	}}},
	{name: "percent heights", container: 600, table: tTable{height: "200px", sections: body(
		row(cell(bx(10, 10)).h("50%"), cell(bx(10, 10))),
		row(cell(bx(10, 10)), cell(bx(10, 10)).h("20%")),
		row(cell(bx(10, 10)), cell(bx(10, 10))),
	)}},
	{name: "empty cells and rows", container: 600, table: tTable{sections: body(
		row(cell(), cell(bx(10, 10)), cell().padded(6)),
		row(),
		row(cell(bx(10, 10)), cell(), cell()),
	)}},
	{name: "caption only", container: 600, table: tTable{captions: []tCaption{{boxes: []tBox{bx(40, 10)}}}}},
	{name: "empty table with border", container: 600, table: tTable{border: solid(3), padding: 2}},
	{name: "nested percent in auto", container: 600, table: tTable{sections: body(
		row(cell(bx(50, 10)), cell().withNested(tTable{width: "100%", sections: body(row(cell(bx(40, 10)).w("50%"), cell(bx(30, 10))))})),
		row(cell(bx(200, 10)), cell(bx(20, 10))),
	)}},
	{name: "nested fixed layout", container: 600, table: tTable{width: "100%", sections: body(
		row(cell(bx(50, 10)).w("30%"), cell().withNested(tTable{width: "100%", fixed: true, sections: body(row(cell(bx(40, 10)).w("50px"), cell(bx(300, 10))))})),
	)}},
	{name: "collapse rowspan inner edges", container: 600, table: tTable{collapse: true, border: [4]tBorder{{0, "hidden", ""}, {4, "solid", ""}, {2, "solid", ""}, {1, "solid", ""}}, sections: body(
		row(cell(bx(30, 10)).span("2", "2").bordered(solid(1)), cell(bx(30, 10)).bordered(solid(3))),
		row(cell(bx(30, 10)).bordered(solid(2))),
		row(cell(bx(30, 10)).bordered(solid(5)), cell(bx(30, 10)), cell(bx(30, 10)).bordered([4]tBorder{{2, "double", ""}, {2, "double", ""}, {2, "double", ""}, {2, "double", ""}})),
	)}},
	// Right to left: columns from the right. (Cells' left and right
	// borders are equal here: Chromium places a right-to-left cell's
	// absolutely positioned content as if they were swapped, which the
	// markers would read.)
	{name: "rtl separated", container: 600, table: tTable{rtl: true, border: [4]tBorder{{1, "solid", ""}, {5, "solid", ""}, {2, "solid", ""}, {3, "solid", ""}}, padding: 2, sections: body(
		row(cell(bx(50, 10)).bordered(solid(3)).pads(1, 6, 2, 3), cell(bx(20, 10)).span("2", ""), cell(bx(30, 10))),
		row(cell(bx(10, 10)), cell(bx(20, 10)).w("40px"), cell(bx(20, 10)), cell(bx(20, 10))),
	)}},
	{name: "rtl collapsed", container: 600, table: tTable{rtl: true, collapse: true, width: "300px", border: solid(2), sections: body(
		row(cell(bx(50, 10)).bordered(solid(2)), cell(bx(20, 10)).span("2", "").bordered(solid(2)), cell(bx(30, 10)).bordered(solid(2))),
		row(cell(bx(10, 10)).bordered(solid(2)), cell(bx(20, 10)).bordered(solid(2)), cell(bx(20, 10)).bordered(solid(2)), cell(bx(20, 10)).bordered(solid(2))),
	)}},
	{name: "collapse sections and cols", container: 600, table: tTable{collapse: true, border: solid(1),
		cols: []tCol{{group: true, border: solid(4), children: []tCol{{border: solid(2)}, {}}}, {border: [4]tBorder{{}, {}, {}, {3, "dotted", ""}}}},
		sections: []tSection{
			{tag: "thead", border: solid(3), rows: []tRow{row(cell(bx(20, 10)), cell(bx(20, 10)), cell(bx(20, 10)))}},
			{tag: "tbody", rows: []tRow{{border: solid(2), cells: []tCell{cell(bx(20, 10)), cell(bx(20, 10)), cell(bx(20, 10))}}, row(cell(bx(20, 10)), cell(bx(20, 10)), cell(bx(20, 10)))}},
		}}},
}

// tLabels numbers the markers of one page.
type tLabels struct{ n int }

func (l *tLabels) next() int { l.n++; return l.n }

func tLen(s string) style.Length {
	switch {
	case s == "":
		return style.Length{Unit: style.Auto}
	case strings.HasSuffix(s, "%"):
		v, _ := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		return style.Length{V: v, Unit: style.Percent}
	}
	v, _ := strconv.ParseFloat(strings.TrimSuffix(s, "px"), 64)
	return style.Length{V: v, Unit: style.Px}
}

var tStyles = map[string]style.BorderStyle{"": style.BorderNone, "none": style.BorderNone, "hidden": style.BorderHidden,
	"solid": style.BorderSolid, "dashed": style.BorderDashed, "dotted": style.BorderDotted, "double": style.BorderDouble,
	"ridge": style.BorderRidge, "groove": style.BorderGroove, "inset": style.BorderInset, "outset": style.BorderOutset}

func tBorders(b [4]tBorder) [4]style.Border {
	var out [4]style.Border
	for i, s := range b {
		st := tStyles[s.style]
		w := s.w
		if st == style.BorderNone || st == style.BorderHidden {
			w = 0
		}
		out[i] = style.Border{Width: w, Style: st, Color: tHex(s.color)}
	}
	return out
}

func cssBorders(b [4]tBorder) string {
	var sb strings.Builder
	for i, side := range []string{"top", "right", "bottom", "left"} {
		if b[i].style != "" {
			c := b[i].color
			if c == "" {
				c = "#333"
			}
			fmt.Fprintf(&sb, "border-%s:%gpx %s %s;", side, b[i].w, b[i].style, c)
		}
	}
	return sb.String()
}

// tLaid is a test table laid out by the algorithms, with what its markers
// should read.
type tLaid struct {
	g        *tableGrid
	cells    []*tCell
	labels   []int // the marker number of each cell
	capH     tableUnit
	captions []tCapLaid
	width    tableUnit
	height   tableUnit // captions included
	baseline tableUnit
	// nestedLaid are the cells' nested tables, laid out.
	nestedLaid []*tLaid
}

type tCapLaid struct {
	y     tableUnit
	h     tableUnit
	label int
}

// boxLines lays boxes out in lines width wide: each line as tall as its
// tallest ascent plus its deepest descent (the strut is empty at
// font-size 0).
func boxLines(boxes []tBox, width tableUnit) (height, firstAscent, firstBoxTop tableUnit) {
	i := 0
	first := true
	for i < len(boxes) {
		var w, asc, desc tableUnit
		j := i
		for j < len(boxes) {
			bw := unitPx(boxes[j].w)
			if j > i && w+bw > width {
				break
			}
			w += bw
			a := boxes[j].a
			if a == 0 {
				a = boxes[j].h
			}
			asc = maxUnit(asc, unitPx(a))
			desc = maxUnit(desc, unitPx(boxes[j].h-a))
			j++
		}
		if first {
			a := boxes[0].a
			if a == 0 {
				a = boxes[0].h
			}
			firstAscent = asc
			firstBoxTop = asc - unitPx(a)
			first = false
		}
		height += asc + desc
		i = j
	}
	return
}

func boxesMinMax(boxes []tBox) (mn, mx float64) {
	for _, b := range boxes {
		mn = math.Max(mn, b.w)
		mx += b.w
	}
	return
}

// grid turns a test table into algorithm input.
func (tt *tTable) grid() (*tableGrid, []*tCell) {
	g := &tableGrid{fixed: tt.fixed && tt.width != "", collapse: tt.collapse, width: tLen(tt.width), height: tLen(tt.height),
		minWidth: tLen(tt.minWidth), maxWidth: tLen(""), minHeight: tLen(""), maxHeight: tLen(""), borderBox: !tt.contentBox,
		border: tBorders(tt.border), rtl: tt.rtl}
	g.spacing = [2]float64{2, 2}
	if tt.spacing != nil {
		g.spacing = *tt.spacing
	}
	for i := range g.padding {
		g.padding[i] = style.Length{V: tt.padding, Unit: style.Px}
	}
	var conv func(c tCol) tableCol
	conv = func(c tCol) tableCol {
		out := tableCol{group: c.group, span: tableParseSpan(c.span, 1, 1000, 1), width: tLen(c.width), minWidth: tLen(""), maxWidth: tLen(""), border: tBorders(c.border)}
		for _, ch := range c.children {
			out.children = append(out.children, conv(ch))
		}
		return out
	}
	for _, c := range tt.cols {
		g.cols = append(g.cols, conv(c))
	}
	kinds := make([]tableSectionKind, len(tt.sections))
	for i, s := range tt.sections {
		switch s.tag {
		case "thead":
			kinds[i] = tableHead
		case "tfoot":
			kinds[i] = tableFoot
		}
	}
	var cells []*tCell
	for _, si := range tableSectionOrder(kinds) {
		s := &tt.sections[si]
		sec := tableSection{kind: kinds[si], rowStart: len(g.rows), height: tLen(s.height), border: tBorders(s.border)}
		for ri := range s.rows {
			r := &s.rows[ri]
			row := tableRow{cellStart: len(g.cells), height: tLen(r.height), border: tBorders(r.border)}
			for ci := range r.cells {
				c := &r.cells[ci]
				tc := tableCell{colspan: tableParseSpan(c.colspan, 1, 1000, 1), rowspan: tableParseSpan(c.rowspan, 0, 65534, 1),
					width: tLen(c.width), height: tLen(c.height), minWidth: tLen(c.minWidth), maxWidth: tLen(""),
					border: tBorders(c.border), borderBox: c.borderBox, heightBorderBox: c.borderBox}
				for i := range tc.padding {
					tc.padding[i] = style.Length{V: c.pad[i], Unit: style.Px}
				}
				switch c.valign {
				case "top":
					tc.valign = tableVATop
				case "bottom":
					tc.valign = tableVABottom
				case "baseline":
					tc.valign = tableVABaseline
				default:
					tc.valign = tableVAMiddle
				}
				g.cells = append(g.cells, tc)
				cells = append(cells, c)
			}
			row.cellEnd = len(g.cells)
			g.rows = append(g.rows, row)
		}
		sec.rowEnd = len(g.rows)
		g.sections = append(g.sections, sec)
	}
	for _, c := range tt.captions {
		mn, _ := boxesMinMax(c.boxes)
		g.captionMin = math.Max(g.captionMin, mn)
	}
	return g, cells
}

// contribution is a nested table's min and max-content contribution to
// its cell.
func (tt *tTable) contribution() (mn, mx float64) {
	g, cells := tt.grid()
	tt.measure(g, cells)
	a, b := g.intrinsic(true)
	if w := tLen(tt.width); w.Unit == style.Px {
		v, _ := g.resolveWidth(w, -1)
		v = maxUnit(v, a)
		return v.px(), v.px()
	}
	return a.px(), b.px()
}

func (tt *tTable) measure(g *tableGrid, cells []*tCell) {
	g.place()
	g.borders()
	for i := range g.cells {
		c := cells[i]
		if c.nested != nil {
			g.cells[i].minContent, g.cells[i].maxContent = c.nested.contribution()
		} else {
			g.cells[i].minContent, g.cells[i].maxContent = boxesMinMax(c.boxes)
		}
	}
	g.columnsFromCells()
}

// layout lays the test table out in a block avail wide.
func (tt *tTable) layout(avail float64, fragmented bool, l *tLabels) *tLaid {
	g, cells := tt.grid()
	g.fragmented = fragmented
	tt.measure(g, cells)
	g.widthAndColumns(avail, avail)
	out := &tLaid{g: g, cells: cells}
	nested := make([]*tLaid, len(cells))
	for i := range g.cells {
		c := &g.cells[i]
		out.labels = append(out.labels, l.next())
		if !c.placed {
			continue
		}
		w := g.cellContentWidth(c)
		if tc := cells[i]; tc.nested != nil {
			n := tc.nested.layout(w.px(), fragmented, l)
			nested[i] = n
			c.contentHeight = n.height.px()
			c.hasContent = true
			c.baseline, c.hasBaseline = n.baseline.px(), true
		} else if len(tc.boxes) > 0 {
			h, asc, _ := boxLines(tc.boxes, w)
			c.contentHeight, c.baseline, c.hasBaseline, c.hasContent = h.px(), asc.px(), true, true
		}
	}
	g.rowsAndHeight(-1)
	out.width = g.inlineSize
	var capTop tableUnit
	for _, c := range tt.captions {
		h, _, _ := boxLines(c.boxes, g.inlineSize)
		if !c.bottom {
			out.captions = append(out.captions, tCapLaid{y: capTop, h: h, label: l.next()})
			capTop += h
		}
	}
	out.capH = capTop
	y := capTop + g.gridHeight
	for _, c := range tt.captions {
		if c.bottom {
			h, _, _ := boxLines(c.boxes, g.inlineSize)
			out.captions = append(out.captions, tCapLaid{y: y, h: h, label: l.next()})
			y += h
		}
	}
	out.height = y
	if b, ok := g.firstBaseline(); ok {
		out.baseline = capTop + b
	}
	out.nestedLaid = nested
	return out
}

// expect lists what each marker should read: name → x, y in px from the
// table's top-left corner at (x0, y0).
func (tl *tLaid) expect(x0, y0 float64, m map[string][2]float64) {
	g := tl.g
	ty := y0 + tl.capH.px()
	for i := range g.cells {
		c := &g.cells[i]
		if !c.placed {
			continue
		}
		id := tl.labels[i]
		px := x0 + (c.x + c.bw[style.Left]).px()
		py := ty + (c.y + c.bw[style.Top]).px()
		m[fmt.Sprintf("a%d", id)] = [2]float64{px, py}
		m[fmt.Sprintf("b%d", id)] = [2]float64{px, ty + (c.y + c.h - c.bw[style.Bottom]).px() - 4}
		contentX := px + g.layoutPadding(c, style.Left).px()
		contentY := ty + (c.y + c.bw[style.Top] + g.layoutPadding(c, style.Top) + c.shift).px()
		if n := tl.nestedLaid[i]; n != nil {
			n.expect(contentX, contentY, m)
		} else if boxes := tl.cells[i].boxes; len(boxes) > 0 && !g.rtl {
			_, _, top := boxLines(boxes, g.cellContentWidth(c))
			m[fmt.Sprintf("c%d", id)] = [2]float64{contentX, contentY + top.px()}
		}
	}
	for _, c := range tl.captions {
		m[fmt.Sprintf("k%d", c.label)] = [2]float64{x0, y0 + c.y.px()}
	}
}

// html writes the test table with its markers: a (cell's padding box
// top-left), b (its bottom-left), c (the first box's top-left), k (a
// caption's top-left).
func (tt *tTable) html(sb *strings.Builder, l *tLabels) {
	ts := ""
	if tt.width != "" {
		ts += "width:" + tt.width + ";"
	}
	if tt.height != "" {
		ts += "height:" + tt.height + ";"
	}
	if tt.minWidth != "" {
		ts += "min-width:" + tt.minWidth + ";"
	}
	if tt.fixed {
		ts += "table-layout:fixed;"
	}
	if tt.collapse {
		ts += "border-collapse:collapse;"
	}
	if tt.spacing != nil {
		ts += fmt.Sprintf("border-spacing:%gpx %gpx;", tt.spacing[0], tt.spacing[1])
	}
	if tt.padding != 0 {
		ts += fmt.Sprintf("padding:%gpx;", tt.padding)
	}
	if tt.contentBox {
		ts += "box-sizing:content-box;"
	}
	if tt.rtl {
		ts += "direction:rtl;"
	}
	ts += cssBorders(tt.border)
	fmt.Fprintf(sb, `<table style="%s">`, ts)
	// Labels are taken in the algorithms' order (sections in layout order,
	// cells, then captions), so collect the cells' labels first.
	kinds := make([]tableSectionKind, len(tt.sections))
	for i, s := range tt.sections {
		switch s.tag {
		case "thead":
			kinds[i] = tableHead
		case "tfoot":
			kinds[i] = tableFoot
		}
	}
	cellHTML := map[*tCell]string{}
	for _, si := range tableSectionOrder(kinds) {
		for ri := range tt.sections[si].rows {
			for ci := range tt.sections[si].rows[ri].cells {
				c := &tt.sections[si].rows[ri].cells[ci]
				id := l.next()
				var cb strings.Builder
				fmt.Fprintf(&cb, `<span class=m style="top:0;left:0">a%d</span><span class=m style="bottom:0;left:0">b%d</span>`, id, id)
				if c.nested != nil {
					c.nested.html(&cb, l)
				}
				for bi, b := range c.boxes {
					if bi > 0 {
						cb.WriteString(" ")
					}
					fmt.Fprintf(&cb, `<i style="width:%gpx;height:%gpx">`, b.w, b.h)
					if bi == 0 {
						fmt.Fprintf(&cb, `<span class=m style="top:0;left:0">c%d</span>`, id)
					}
					if b.a != 0 {
						fmt.Fprintf(&cb, `<i style="height:%gpx;width:0"></i>`, b.a)
					}
					cb.WriteString("</i>")
				}
				cellHTML[c] = cb.String()
			}
		}
	}
	capLabels := map[int]int{}
	for i, c := range tt.captions {
		if !c.bottom {
			capLabels[i] = l.next()
		}
	}
	for i, c := range tt.captions {
		if c.bottom {
			capLabels[i] = l.next()
		}
	}
	for i, c := range tt.captions {
		side := "top"
		if c.bottom {
			side = "bottom"
		}
		fmt.Fprintf(sb, `<caption style="caption-side:%s"><span class=m style="top:0;left:0">k%d</span>`, side, capLabels[i])
		for bi, b := range c.boxes {
			if bi > 0 {
				sb.WriteString(" ")
			}
			fmt.Fprintf(sb, `<i style="width:%gpx;height:%gpx"></i>`, b.w, b.h)
		}
		sb.WriteString("</caption>")
	}
	var colHTML func(c tCol)
	colHTML = func(c tCol) {
		tag := "col"
		if c.group {
			tag = "colgroup"
		}
		fmt.Fprintf(sb, "<%s", tag)
		if c.span != "" {
			fmt.Fprintf(sb, ` span="%s"`, c.span)
		}
		s := cssBorders(c.border)
		if c.width != "" {
			s += "width:" + c.width
		}
		fmt.Fprintf(sb, ` style="%s">`, s)
		for _, ch := range c.children {
			colHTML(ch)
		}
		if c.group {
			sb.WriteString("</colgroup>")
		}
	}
	for _, c := range tt.cols {
		colHTML(c)
	}
	for _, s := range tt.sections {
		ss := cssBorders(s.border)
		if s.height != "" {
			ss += "height:" + s.height
		}
		fmt.Fprintf(sb, `<%s style="%s">`, s.tag, ss)
		for _, r := range s.rows {
			rs := cssBorders(r.border)
			if r.height != "" {
				rs += "height:" + r.height
			}
			fmt.Fprintf(sb, `<tr style="%s">`, rs)
			for ci := range r.cells {
				c := &r.cells[ci]
				cs := fmt.Sprintf("padding:%gpx %gpx %gpx %gpx;", c.pad[0], c.pad[1], c.pad[2], c.pad[3]) + cssBorders(c.border)
				va := c.valign
				if va == "" {
					va = "middle"
				}
				cs += "vertical-align:" + va + ";"
				if c.width != "" {
					cs += "width:" + c.width + ";"
				}
				if c.minWidth != "" {
					cs += "min-width:" + c.minWidth + ";"
				}
				if c.height != "" {
					cs += "height:" + c.height + ";"
				}
				if c.borderBox {
					cs += "box-sizing:border-box;"
				}
				attrs := ""
				if c.colspan != "" {
					attrs += ` colspan="` + c.colspan + `"`
				}
				if c.rowspan != "" {
					attrs += ` rowspan="` + c.rowspan + `"`
				}
				fmt.Fprintf(sb, `<td%s style="%s">%s</td>`, attrs, cs, cellHTML[c])
			}
			sb.WriteString("</tr>")
		}
		fmt.Fprintf(sb, "</%s>", s.tag)
	}
	sb.WriteString("</table>")
}

const tPageCSS = `<style>
td, caption { font-size: 0; line-height: 0; position: relative; }
caption { padding: 0; }
i { display: inline-block; position: relative; vertical-align: baseline; }
.m { position: absolute; font: 2px/4px 'DejaVu Sans'; white-space: nowrap; }
.case { position: relative; font: 2px/4px 'DejaVu Sans'; break-before: page; }
</style>`

// chromiumPDF prints html with the production Chromium engine (the test
// binary's one, chromium_test.go's).
func chromiumPDF(t *testing.T, doc string) []byte {
	t.Helper()
	return ltChromiumPDF(t, doc, ltGeometry(""))
}

// chromiumMarkers prints html with the production Chromium engine and
// returns each page's words by text, with their top-left corners in px.
func chromiumMarkers(t *testing.T, doc string) []map[string][2]float64 {
	t.Helper()
	pdf := chromiumPDF(t, doc)
	dir := t.TempDir()
	path := filepath.Join(dir, "t.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("TABLE_KEEP") != "" {
		_ = os.WriteFile(os.Getenv("TABLE_KEEP")+".pdf", pdf, 0o644)
		_ = os.WriteFile(os.Getenv("TABLE_KEEP")+".html", []byte(doc), 0o644)
	}
	out, err := exec.Command("pdftotext", "-bbox", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	var pages []map[string][2]float64
	word := regexp.MustCompile(`<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="[-\d.]+" yMax="[-\d.]+">([^<]*)</word>`)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "<page ") {
			pages = append(pages, map[string][2]float64{})
			continue
		}
		if mm := word.FindStringSubmatch(line); mm != nil && len(pages) > 0 {
			x, _ := strconv.ParseFloat(mm[1], 64)
			y, _ := strconv.ParseFloat(mm[2], 64)
			pages[len(pages)-1][mm[3]] = [2]float64{x / 0.75, y / 0.75}
		}
	}
	return pages
}

// TestTablesMatchChromium prints each case with Chromium and checks that
// every marker (each cell's corners and content, captions) is where the
// algorithms put it, to 0.02 px.
func TestTablesMatchChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("prints with Chromium")
	}
	var sb strings.Builder
	sb.WriteString(`<!DOCTYPE html><html><head>` + tPageCSS + `</head><body>`)
	for _, c := range tCases {
		w := ""
		if c.container > 0 {
			w = fmt.Sprintf("width:%gpx", c.container)
		}
		fmt.Fprintf(&sb, `<div class=case style="%s"><span class=m style="top:0;left:0">O</span>`, w)
		if c.monolithic {
			fmt.Fprintf(&sb, `<div style="display:inline-block;vertical-align:top;width:%gpx">`, c.container)
		}
		c.table.html(&sb, &tLabels{})
		if c.monolithic {
			sb.WriteString(`</div><div>E</div></div>`)
			continue
		}
		sb.WriteString(`<span>E</span></div>`)
	}
	sb.WriteString(`</body></html>`)
	pages := chromiumMarkers(t, sb.String())
	if len(pages) != len(tCases) {
		t.Fatalf("%d pages for %d cases", len(pages), len(tCases))
	}
	// Chromium lays an A4 page out 794 px wide (793.7 rounded).
	const pageWidth = 794
	total, good := 0, 0
	for i, c := range tCases {
		got := pages[i]
		o, ok := got["O"]
		if !ok {
			t.Errorf("%s: no origin marker", c.name)
			continue
		}
		avail := c.container
		if avail == 0 {
			avail = pageWidth
		}
		laid := c.table.layout(avail, !c.monolithic, &tLabels{})
		want := map[string][2]float64{}
		laid.expect(0, 0, want)
		want["E"] = [2]float64{0, laid.height.px()}
		bad := 0
		for name, w := range want {
			g, ok := got[name]
			total++
			if !ok {
				t.Errorf("%s: marker %s missing from Chromium's page", c.name, name)
				bad++
				continue
			}
			// Chromium rounds text baselines to whole pixels (x stays
			// fractional); the markers' baselines are a whole 3 px below
			// their tops, so a marker reads its top rounded half up.
			dx, dy := g[0]-o[0]-w[0], g[1]-o[1]-math.Floor(w[1]+0.5)
			if math.Abs(dx) > 0.02 || math.Abs(dy) > 0.02 {
				t.Errorf("%s: %s at (%.4f, %.4f), Chromium (%.4f, %.4f)", c.name, name, w[0], w[1], g[0]-o[0], g[1]-o[1])
				bad++
				continue
			}
			good++
		}
		t.Logf("%-32s %3d markers, %3d off", c.name, len(want), bad)
	}
	t.Logf("agreement: %d of %d markers within 0.02 px", good, total)
}

func (c tCell) minW(w string) tCell { c.minWidth = w; return c }

func (c tCell) bbox() tCell { c.borderBox = true; return c }

func (c tCell) pads(t, r, b, l float64) tCell { c.pad = [4]float64{t, r, b, l}; return c }

// BenchmarkTableAlgorithms30Rows runs the algorithms over a 30-row,
// 4-column collapsed invoice table (text measured elsewhere).
func BenchmarkTableAlgorithms30Rows(b *testing.B) {
	tt := tTable{width: "100%", collapse: true, border: solid(1)}
	var rows []tRow
	for i := 0; i < 30; i++ {
		rows = append(rows, tRow{border: [4]tBorder{{}, {}, {1, "solid", ""}, {}}, cells: []tCell{
			cell(bx(120, 12), bx(80, 12), bx(float64(30+i), 12)).pads(4, 8, 4, 8), cell(bx(10, 12)).w("1%").pads(4, 8, 4, 8),
			cell(bx(45, 12)).w("15%").pads(4, 8, 4, 8), cell(bx(50, 12)).w("15%").pads(4, 8, 4, 8)}})
	}
	tt.sections = []tSection{{tag: "thead", rows: rows[:1]}, {tag: "tbody", rows: rows[1:]}}
	g0, cells := tt.grid()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g := *g0
		g.cells = append([]tableCell(nil), g0.cells...)
		g.rows = append([]tableRow(nil), g0.rows...)
		g.sections = append([]tableSection(nil), g0.sections...)
		g.place()
		g.borders()
		for ci := range g.cells {
			g.cells[ci].minContent, g.cells[ci].maxContent = boxesMinMax(cells[ci].boxes)
		}
		g.columnsFromCells()
		g.widthAndColumns(700, 700)
		for ci := range g.cells {
			c := &g.cells[ci]
			c.contentHeight, c.baseline, c.hasBaseline, c.hasContent = 14, 11, true, true
		}
		g.rowsAndHeight(-1)
	}
}

// TestTableHostileGrids checks that tables whose grids grow with rows
// times spans stay bounded: a rowspan=0 cell in each of 100,000 rows (each
// pushes the next one column right), and a collapsed table of a million
// slots.
func TestTableHostileGrids(t *testing.T) {
	g := &tableGrid{collapse: true}
	const n = 100000
	g.sections = []tableSection{{rowStart: 0, rowEnd: n}}
	for i := 0; i < n; i++ {
		g.rows = append(g.rows, tableRow{cellStart: i, cellEnd: i + 1})
		g.cells = append(g.cells, tableCell{colspan: 1, rowspan: 0})
		g.cells[i].border[style.Top] = style.Border{Width: 1, Style: style.BorderSolid}
	}
	g.place()
	if g.work > tableMaxWork+2*n {
		t.Errorf("placing took %d steps, bound %d", g.work, tableMaxWork)
	}
	if g.numCols > tableMaxColumns {
		t.Errorf("%d columns, bound %d", g.numCols, tableMaxColumns)
	}
	g.borders()
	if len(g.edges) > tableMaxEdges {
		t.Errorf("%d edges, bound %d", len(g.edges), tableMaxEdges)
	}
	if g.collapse {
		t.Error("a grid past tableMaxEdges should keep the cells' own borders")
	}
	placed := 0
	for i := range g.cells {
		if g.cells[i].placed {
			placed++
		}
	}
	if placed == 0 || placed == n {
		t.Errorf("%d of %d cells placed; want the first ones only", placed, n)
	}
}
