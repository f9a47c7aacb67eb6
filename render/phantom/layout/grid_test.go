package layout

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/platen/platen/render/phantom/style"
)

// gridCases are grid documents printed by both engines in
// TestGridMatchesChromium: every word must be where Chromium puts it.
var gridCases = []struct{ name, html string }{
	{"tracks, spans, areas and alignment", `<style>.g{display:grid;border:1px solid #888;margin-bottom:12px}.g>div{border:1px solid #ccc;padding:3px}</style>
<div class="g" style="grid-template-columns:100px 1fr 2fr;gap:6px 10px"><div>One</div><div>Two with some longer text that wraps around in the flexible track</div><div>Three</div><div style="grid-column:span 2">Span two columns here</div><div>Five</div></div>
<div class="g" style="grid-template-columns:repeat(3,minmax(0,1fr));column-gap:8px"><div>Alpha</div><div>Beta is a much longer cell that wraps because minmax zero</div><div>Gamma</div><div style="grid-column:2/4">two to four</div></div>
<div class="g" style="grid-template-columns:auto auto;justify-content:space-between"><div>Left side</div><div>Right side</div><div>Another left</div><div>R</div></div>
<div class="g" style="grid-template-columns:1fr auto"><div>Description of the item that takes the remaining space</div><div>£1,234.00</div><div>Shipping</div><div>£5.00</div></div>
<div class="g" style="grid-template-areas:'head head' 'side main' 'foot foot';grid-template-columns:120px 1fr;grid-template-rows:auto 60px auto"><div style="grid-area:head">Header area</div><div style="grid-area:side">Sidebar</div><div style="grid-area:main">Main content</div><div style="grid-area:foot">Footer area</div></div>
<div class="g" style="grid-template-columns:repeat(auto-fill,minmax(120px,1fr));gap:4px"><div>Card 1</div><div>Card 2</div><div>Card 3</div><div>Card 4</div><div>Card 5</div><div>Card 6</div></div>
<div class="g" style="grid-template-columns:max-content 1fr min-content"><div>Max content label</div><div>flex middle</div><div>min content words here</div></div>
<div class="g" style="grid-auto-flow:column;grid-template-rows:auto auto"><div>c1 r1</div><div>c1 r2</div><div>c2 r1</div><div>c2 r2</div><div>c3 r1</div></div>
<div class="g" style="grid-template-columns:[a] 80px [b] 1fr [c] 1fr [d]"><div style="grid-column:b / d">b to d</div><div style="grid-column:a">at a</div><div style="grid-column:c / span 1">c span</div><div style="grid-row:1;grid-column:1">row one col one</div></div>
<div class="g" style="grid-template-columns:1fr 1fr 1fr;align-items:center;justify-items:center;height:80px"><div>centred</div><div>middle<br>two lines</div><div style="align-self:end;justify-self:end">end end</div></div>
<div class="g" style="grid-template-columns:fit-content(150px) 1fr"><div>fit content track with quite a lot of text inside it</div><div>rest</div></div>
<div class="g" style="grid-template-columns:1fr 1fr;gap:10px"><div style="grid-column:-2">neg col</div><div style="grid-row:2;grid-column:1 / -1">full width second row</div><div>auto</div></div>
<span class="g" style="display:inline-grid;grid-template-columns:auto auto;gap:4px"><div>in</div><div>line grid</div></span> text after inline grid`},
	{"intrinsic sizes, shorthands, dense and right to left", `<style>.g{display:grid;border:1px solid #888;margin-bottom:12px}.g>div{border:1px solid #ccc;padding:3px}</style>
<div class="g" style="grid-template-columns:auto auto auto"><div style="grid-column:span 2">A spanning item with rather long content that must widen two auto tracks</div><div>x</div><div>short</div><div>mid text</div><div>z</div></div>
<div class="g" style="grid-template-columns:1fr 1fr 1fr"><div>Supercalifragilisticexpialidocious_unbreakable_word</div><div>b</div><div>c</div></div>
<div class="g" style="grid-template-columns:1fr 2fr;grid-template-rows:40px;grid-auto-rows:minmax(30px,auto)"><div>r1</div><div>r1b</div><div>r2</div><div>r2b<br>more<br>more<br>more</div></div>
<div style="display:flex;gap:10px"><div class="g" style="grid-template-columns:auto auto;flex:1"><div>in flex</div><div>grid</div></div><div style="width:200px">sibling flex item</div></div>
<div class="g" style="grid-template-columns:repeat(auto-fit,minmax(100px,1fr))"><div>fit 1</div><div>fit 2</div></div>
<div class="g" style="grid-template:auto 50px / 1fr 3fr"><div>tmpl a</div><div>tmpl b</div><div>tmpl c</div><div>tmpl d</div></div>
<div class="g" style="grid-template:'x y' 30px 'z z' auto / 100px 1fr"><div style="grid-area:y">area y</div><div style="grid-area:z">area z</div><div style="grid-area:x">area x</div></div>
<div class="g" style="grid:auto-flow / 1fr 1fr 1fr"><div>flow 1</div><div>flow 2</div><div>flow 3</div><div>flow 4</div></div>
<div class="g" style="grid-template-columns:100px 100px;justify-content:center;align-content:end;height:70px;gap:5px"><div>jc1</div><div>jc2</div><div>jc3</div></div>
<div class="g" style="grid-template-columns:1fr 1fr 1fr;grid-auto-flow:dense"><div style="grid-column:span 2">wide 1</div><div style="grid-column:span 2">wide 2</div><div>small fills hole</div></div>
<div class="g" style="grid-template-columns:150px 1fr" dir="rtl"><div>ימין</div><div>שמאל text</div></div>
<div class="g" style="grid-template-columns:1fr 1fr"><div style="margin:0 auto">auto margins</div><div style="margin-left:auto">right margin auto</div></div>
<div class="g" style="grid-template-columns:1fr 1fr;min-height:90px;grid-template-rows:auto 1fr"><div>head</div><div>head2</div><div>fills</div><div>rest</div></div>
<div class="g" style="grid-template-columns:30% 1fr 80px;gap:2%"><div>thirty</div><div>flex</div><div>fixed</div></div>
<div class="g" style="grid-template-columns:1fr 1fr"><div class="g" style="grid-template-columns:auto 1fr;margin:0"><div>nested</div><div>grid</div></div><div>outer</div></div>
<div class="g" style="grid-template-columns:repeat(2, [col] 1fr [col-end]) 50px"><div style="grid-column:col 2">second col</div><div style="grid-column:col-end 2 / span 1">last</div></div>
<div class="g" style="grid-template-columns:min-content auto"><div>minimum content column</div><div>auto column with its words</div></div>
<div class="g" style="display:inline-grid;grid-template-columns:1fr 1fr"><div>inline</div><div>fr tracks size to largest</div></div>`},
	{"rows across pages", `<style>.g{display:grid;border:1px solid #888;margin-bottom:12px;grid-template-columns:80px 1fr 80px;gap:4px 8px}.g>div{border-bottom:1px solid #ccc;padding:2px}</style>` +
		gridLines(60) + `<div class="g" style="grid-template-columns:1fr"><div>` + strings.Repeat("<p>"+lorem+lorem+"</p>", 12) + `</div></div>
<div class="g" style="grid-template-columns:1fr 1fr"><div>` + strings.Repeat(lorem, 8) + `</div><div>` + strings.Repeat(lorem, 11) + `</div></div>`},
}

func gridLines(n int) string {
	var b strings.Builder
	b.WriteString(`<div class="g">`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `<div>Item %d</div><div>Description for line %d that is long enough to wrap onto a second line in this column</div><div>£%d.00</div>`, i, i, i*7)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// TestGridMatchesChromium prints grid documents with both engines: every
// word where Chromium puts it, on the same pages.
func TestGridMatchesChromium(t *testing.T) {
	for _, c := range gridCases {
		t.Run(c.name, func(t *testing.T) {
			ltExpectClose(t, `<!DOCTYPE html><html><head><meta charset=utf-8></head><body style="font:13px Arial;margin:20px">`+c.html+`</body></html>`, 0.1)
		})
	}
}

// TestGridBounds: a grid that would grow past its bound on one axis is
// refused with ErrGridTooLarge, and placing many spanning items costs
// work in proportion to them.
func TestGridBounds(t *testing.T) {
	huge := `<div style="display:grid">` + strings.Repeat(`<div style="grid-row:span 1000">x</div>`, 150) + `</div>`
	if _, err := layoutString(t, huge, Options{}); !errors.Is(err, ErrGridTooLarge) {
		t.Errorf("150 items of 1000 rows each: %v, want ErrGridTooLarge", err)
	}
	far := `<div style="display:grid"><div style="grid-row:99999;grid-column:-99999">x</div><div>y</div></div>`
	if _, err := layoutString(t, far, Options{}); err != nil {
		t.Errorf("lines far away are clamped: %v", err)
	}

	work := 0
	testHookWork = func(n int) { work = n }
	defer func() { testHookWork = nil }()
	costs := map[int]int{}
	for _, n := range []int{200, 400} {
		doc := `<div style="display:grid;grid-template-columns:repeat(6,1fr);grid-auto-flow:dense">` +
			strings.Repeat(`<div style="grid-column:span 4">wide</div><div>a</div><div style="grid-row:span 3">tall</div>`, n) + `</div>`
		if _, err := layoutString(t, doc, Options{MaxPages: 1000}); err != nil {
			t.Fatalf("%d items: %v", 3*n, err)
		}
		costs[n] = work
	}
	if r := float64(costs[400]) / float64(costs[200]); r > 2.6 {
		t.Errorf("twice the items cost %.1f times the work (%d and %d units), want about 2", r, costs[400], costs[200])
	}
}

// TestNamedSpans: a named span counts the implicit lines only on the side
// it searches (CSS Grid 1 §8.3.1): beyond the explicit grid's end they
// are not the name's when searching back.
func TestNamedSpans(t *testing.T) {
	names := [][]string{{"foo"}, nil, nil}
	for _, c := range []struct {
		s, e       style.GridLine
		start, end int
	}{
		{style.GridLine{Span: true, N: 1, Name: "foo"}, style.GridLine{N: 6}, 0, 5},
		{style.GridLine{N: 2}, style.GridLine{Span: true, N: 1, Name: "foo"}, 1, 3},
		{style.GridLine{Span: true, N: 2, Name: "foo"}, style.GridLine{N: 2}, -1, 1},
	} {
		start, end, _, ok := resolveLines(c.s, c.e, names, 2)
		if !ok || start != c.start || end != c.end {
			t.Errorf("%+v / %+v: lines %d to %d, want %d to %d", c.s, c.e, start, end, c.start, c.end)
		}
	}
}

// TestGridBoundsMore: an automatic repetition of a fine track stays within
// the track bound, dense placement of items locked to columns costs work in
// proportion to them, and an absolutely positioned box clipped away adds
// no page.
func TestGridBoundsMore(t *testing.T) {
	if _, err := layoutString(t, `<div style="display:grid;grid-template-columns:repeat(auto-fill,0.01px 0.01px)">x</div>`, Options{}); err != nil {
		t.Errorf("a repetition of fine tracks: %v", err)
	}
	work := 0
	testHookWork = func(n int) { work = n }
	defer func() { testHookWork = nil }()
	costs := map[int]int{}
	for _, n := range []int{300, 600} {
		doc := `<div style="display:grid;grid-template-columns:repeat(40,1px);grid-auto-flow:row dense">` +
			strings.Repeat(`<div style="grid-column:1 / 39">a</div><div style="grid-column:2 / 40">b</div>`, n) + `</div>`
		if _, err := layoutString(t, doc, Options{MaxPages: 1000}); err != nil {
			t.Fatalf("%d items: %v", 2*n, err)
		}
		costs[n] = work
	}
	if r := float64(costs[600]) / float64(costs[300]); r > 2.6 {
		t.Errorf("twice the dense items cost %.1f times the work (%d and %d units), want about 2", r, costs[600], costs[300])
	}
	d, err := layoutString(t, `<div style="position:relative;overflow:hidden;height:50px">x<div style="position:absolute;top:5000px">clipped</div></div>`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pages) != 1 {
		t.Errorf("%d pages for a box clipped away, want 1", len(d.Pages))
	}
}
