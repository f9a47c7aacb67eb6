package style

import (
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/andybalholm/cascadia"
	"github.com/platen/platen/render/phantom/draw"
	"golang.org/x/net/html"
)

// TestLengths checks length units and math functions against a 10px font,
// a 16px root and a 800 × 600 page.
func TestLengths(t *testing.T) {
	lc := lenCtx{em: 10, rem: 16, vw: 8, vh: 6}
	for _, tc := range []struct {
		in   string
		want Length
		ok   bool
	}{
		{"12px", Length{V: 12}, true},
		{"12pt", Length{V: 16}, true},
		{"1pc", Length{V: 16}, true},
		{"1in", Length{V: 96}, true},
		{"2.54cm", Length{V: 96}, true},
		{"25.4mm", Length{V: 96}, true},
		{"101.6q", Length{V: 96}, true},
		{"2em", Length{V: 20}, true},
		{"2rem", Length{V: 32}, true},
		{"2ex", Length{V: 10}, true}, // 0.5em without font metrics
		{"2ch", Length{V: 10}, true},
		{"10vw", Length{V: 80}, true},
		{"10vh", Length{V: 60}, true},
		{"10vmin", Length{V: 60}, true},
		{"10vmax", Length{V: 80}, true},
		{"0", Length{}, true},
		{"5", Length{}, false},
		{"50%", Length{V: 50, Unit: Percent}, true},
		{"-3px", Length{V: -3}, true},
		{"3furlongs", Length{}, false},
		{"calc(1em + 2px)", Length{V: 12}, true},
		{"calc(100% - 2 * 10px)", Length{V: 100, Unit: Percent, Off: -20}, true},
		{"calc((1in - 6px) / 3)", Length{V: 30}, true},
		{"calc(50% + 50%)", Length{V: 100, Unit: Percent}, true},
		{"calc(2px * 3px)", Length{}, false},
		{"calc(1px / 0)", Length{}, false},
		{"calc(1px + 2)", Length{}, false},
		{"calc(1px +2px)", Length{}, false},
		{"min(10px, 2em, 3rem)", Length{V: 10}, true},
		{"max(10px, 2em)", Length{V: 20}, true},
		{"clamp(5px, 1em, 8px)", Length{V: 8}, true},
		{"clamp(15px, 1em, 30px)", Length{V: 15}, true},
		{"calc(min(1px, 2px) + max(3px, 4px))", Length{V: 5}, true},
		{"-webkit-calc(1px + 1px)", Length{V: 2}, true},
	} {
		v := lexText(tc.in)
		if len(v) != 1 {
			t.Fatalf("%s: %d tokens", tc.in, len(v))
		}
		got, ok, _ := lc.length(&v[0], allowPct|allowNegative)
		if ok != tc.ok || ok && (math.Abs(got.V-tc.want.V) > 1e-9 || got.Unit != tc.want.Unit || math.Abs(got.Off-tc.want.Off) > 1e-9) {
			t.Errorf("%s: %+v %v, want %+v %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	// A comparison of a percentage with a length is valid CSS phantom
	// cannot resolve before layout: reported, not dropped.
	v := lexText("min(100%, 300px)")
	if _, ok, unresolved := lc.length(&v[0], allowPct); ok || !unresolved {
		t.Errorf("min(100%%, 300px): ok %v unresolved %v", ok, unresolved)
	}
}

// TestColors checks colour syntaxes, quantized to 8 bits as Chromium paints.
func TestColors(t *testing.T) {
	c8 := func(r, g, b int, a float64) draw.Color {
		return draw.Color{R: float64(r) / 255, G: float64(g) / 255, B: float64(b) / 255, A: a}
	}
	for _, tc := range []struct {
		in   string
		want draw.Color
		cur  bool
		ok   bool
	}{
		{"red", c8(255, 0, 0, 1), false, true},
		{"RebeccaPurple", c8(0x66, 0x33, 0x99, 1), false, true},
		{"transparent", draw.Color{}, false, true},
		{"currentColor", draw.Color{}, true, true},
		{"#abc", c8(0xaa, 0xbb, 0xcc, 1), false, true},
		{"#abcd", c8(0xaa, 0xbb, 0xcc, 0xdd/255.0), false, true},
		{"#1E5B5A", c8(0x1e, 0x5b, 0x5a, 1), false, true},
		{"#1e5b5a80", c8(0x1e, 0x5b, 0x5a, 0x80/255.0), false, true},
		{"#12345", draw.Color{}, false, false},
		{"#ggg", draw.Color{}, false, false},
		{"rgb(10, 20, 30)", c8(10, 20, 30, 1), false, true},
		{"rgb(10.4, 20.6, 300)", c8(10, 21, 255, 1), false, true},
		{"rgba(0, 0, 0, 0.25)", c8(0, 0, 0, 0.25), false, true},
		{"rgb(0 0 0 / 25%)", c8(0, 0, 0, 0.25), false, true},
		{"rgb(100% 50% 0%)", c8(255, 128, 0, 1), false, true},
		{"rgba(1, 2, 3)", c8(1, 2, 3, 1), false, true},
		{"rgb(1, 2)", draw.Color{}, false, false},
		{"hsl(120, 100%, 50%)", c8(0, 255, 0, 1), false, true},
		{"hsl(240deg 100% 25% / 0.5)", c8(0, 0, 128, 0.5), false, true},
		{"hsla(0, 0%, 100%, .1)", c8(255, 255, 255, 0.1), false, true},
		{"hsla(200, 80%, 50%, 0.3)", c8(26, 162, 230, 0.3), false, true},
		{"hwb(30 20% 10%)", c8(230, 140, 51, 1), false, true},
		{"oklch(0.6 0.15 30)", c8(202, 87, 71, 1), false, true},
		{"lab(50 20 30)", c8(161, 105, 69, 1), false, true},
		{"canvastext", c8(0, 0, 0, 1), false, true},
		{"nocolor", draw.Color{}, false, false},
	} {
		v := lexText(tc.in)
		got, ok := parseColor(&v[0])
		if ok != tc.ok || got.current != tc.cur || ok && !sameColor(got.c, tc.want) {
			t.Errorf("%s: %+v %v, want %+v %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func sameColor(a, b draw.Color) bool {
	return math.Abs(a.R-b.R) < 1e-6 && math.Abs(a.G-b.G) < 1e-6 && math.Abs(a.B-b.B) < 1e-6 && math.Abs(a.A-b.A) < 1e-6
}

// TestLegacyColor checks colour attributes (HTML's legacy colour parsing).
func TestLegacyColor(t *testing.T) {
	for in, want := range map[string]string{
		"red": "ff0000", "#fff": "ffffff", "ff0000": "ff0000", "#ff000": "ff0000", "chucknorris": "c00000",
		"#12": "010200", "  #abcdef ": "abcdef", "fffffffffffffffffffff": "ffffff",
	} {
		got, ok := legacyColor(in)
		if !ok || got.s != want {
			t.Errorf("%q: %q %v, want %q", in, got.s, ok, want)
		}
	}
	if _, ok := legacyColor("transparent"); ok {
		t.Error("transparent parsed")
	}
}

// styleOf computes doc and returns the style of the element with id.
func styleOf(t *testing.T, doc, id string) *Computed {
	t.Helper()
	r, root := compute(t, doc)
	n := byID(root, id)
	if n == nil {
		t.Fatalf("no #%s", id)
	}
	return r.Style(n)
}

func byID(n *html.Node, id string) *html.Node {
	if n.Type == html.ElementNode && attr(n, "id") == id {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := byID(c, id); f != nil {
			return f
		}
	}
	return nil
}

// TestCascadeOrder checks origins and importance: UA normal < hints <
// author normal < style attribute normal < author important < style
// attribute important, and specificity and order within each.
func TestCascadeOrder(t *testing.T) {
	for _, tc := range []struct {
		css, body string
		want      float64 // margin-top of #x in px
	}{
		{`#x { margin-top: 1px } div { margin-top: 2px }`, `<div id=x></div>`, 1},
		{`div { margin-top: 2px } div { margin-top: 3px }`, `<div id=x></div>`, 3},
		{`div.a.b { margin-top: 4px } div.a { margin-top: 5px }`, `<div id=x class="a b"></div>`, 4},
		{`div { margin-top: 6px !important } #x { margin-top: 7px }`, `<div id=x></div>`, 6},
		{`#x { margin-top: 8px }`, `<div id=x style="margin-top: 9px"></div>`, 9},
		{`#x { margin-top: 10px !important }`, `<div id=x style="margin-top: 11px"></div>`, 10},
		{`#x { margin-top: 12px !important }`, `<div id=x style="margin-top: 13px !important"></div>`, 13},
		{`p { margin-top: 14px }`, `<p id=x></p>`, 14}, // author beats the UA's 1em
		{``, `<p id=x></p>`, 16}, // the UA's 1em
		{`* { margin: 0 } p { margin-top: revert }`, `<p id=x></p>`, 0}, // revert acts as unset here
		{`div { margin: 1px; margin-top: 15px }`, `<div id=x></div>`, 15},
		{`div { margin-top: 15px; margin: 1px }`, `<div id=x></div>`, 1},
		{`div { margin-block-start: 16px; margin-top: 17px }`, `<div id=x></div>`, 17},
		{`div { margin-top: 17px; margin-block: 18px }`, `<div id=x></div>`, 18},
		{`div { margin-top: 19px; margin-top: bogus }`, `<div id=x></div>`, 19},
		{`div { margin-top: 20px; margin-top: var(--nope) }`, `<div id=x></div>`, 0}, // invalid at computed-value time: unset
	} {
		c := styleOf(t, "<!DOCTYPE html><html><head><style>"+tc.css+"</style></head><body>"+tc.body+"</body></html>", "x")
		if got := c.Margin[Top].V; got != tc.want {
			t.Errorf("%s %s: margin-top %v, want %v", tc.css, tc.body, got, tc.want)
		}
	}
}

// TestLogicalProperties checks inline-axis logical properties against the
// element's direction, and their order with physical ones.
func TestLogicalProperties(t *testing.T) {
	for _, tc := range []struct {
		css, dir    string
		left, right float64
	}{
		{`div { margin-inline-start: 5px }`, "ltr", 5, 0},
		{`div { margin-inline-start: 5px }`, "rtl", 0, 5},
		{`div { margin-inline: 1px 2px }`, "rtl", 2, 1},
		{`div { margin-left: 3px; margin-inline-start: 4px }`, "ltr", 4, 0},
		{`div { margin-inline-start: 4px; margin-left: 3px }`, "ltr", 3, 0},
		{`div { direction: rtl; margin-inline-end: 6px }`, "ltr", 6, 0},
	} {
		c := styleOf(t, "<!DOCTYPE html><html><head><style>"+tc.css+"</style></head><body><div id=x dir="+tc.dir+"></div></body></html>", "x")
		if c.Margin[Left].V != tc.left || c.Margin[Right].V != tc.right {
			t.Errorf("%s dir=%s: left %v right %v, want %v %v", tc.css, tc.dir, c.Margin[Left].V, c.Margin[Right].V, tc.left, tc.right)
		}
	}
	// The UA sheet's [dir=rtl i] (an attribute selector with a flag).
	if c := styleOf(t, `<!DOCTYPE html><p>a <span id=x dir=RTL>b</span></p>`, "x"); c.UnicodeBidi != "isolate" {
		t.Errorf("span dir=RTL: unicode-bidi %q, want isolate", c.UnicodeBidi)
	}
	c := styleOf(t, `<!DOCTYPE html><ul dir=rtl><li id=x>x</li></ul>`, "x")
	if c.TextAlign != AlignRight {
		t.Errorf("rtl list item aligns %v", c.TextAlign)
	}
}

// TestInheritance checks inherited and non-inherited properties,
// line-height numbers, currentColor and text decorations.
func TestInheritance(t *testing.T) {
	doc := `<!DOCTYPE html><html><head><style>
div { color: rgb(0, 128, 0); font-size: 20px; line-height: 1.5; border: 2px solid; padding: 3px; text-decoration: underline }
span { font-size: 10px }
em { line-height: 150% }
</style></head><body><div><span id=s>x<em id=e>y<b id=b>z</b></em></span></div></body></html>`
	r, root := compute(t, doc)
	s, e, b := r.Style(byID(root, "s")), r.Style(byID(root, "e")), r.Style(byID(root, "b"))
	if s.Color.G != 128.0/255 || s.Padding[Top].V != 0 || s.Border[Top].Width != 0 || s.Decoration.Underline {
		t.Errorf("span: color %v padding %v border %v underline %v", s.Color, s.Padding[Top], s.Border[Top], s.Decoration.Underline)
	}
	if !s.LineHeightNumber || s.LineHeight.V != 1.5 {
		t.Errorf("span line-height %+v number %v", s.LineHeight, s.LineHeightNumber)
	}
	if e.LineHeightNumber || e.LineHeight.V != 15 || b.LineHeight.V != 15 || b.LineHeightNumber {
		t.Errorf("em line-height %+v, b %+v", e.LineHeight, b.LineHeight)
	}
	d := r.Style(byID(root, "s").Parent)
	if d.Border[Top].Color != d.Color || d.Border[Top].Width != 2 {
		t.Errorf("div border %+v", d.Border[Top])
	}
}

// TestStyleSharing checks that elements sharing a computed style differ
// where their inputs differ.
func TestStyleSharing(t *testing.T) {
	doc := `<!DOCTYPE html><html><head><style>td { color: red } tr.odd td { color: blue } td:first-child { margin-left: 1px }</style></head><body><table>
<tr class=odd><td id=a1>x</td><td id=a2>y</td></tr>
<tr><td id=b1>x</td><td id=b2 style="color: green">y</td></tr>
<tr class=odd><td id=c1>x</td><td id=c2 lang=de>y</td></tr>
</table></body></html>`
	r, root := compute(t, doc)
	get := func(id string) *Computed { return r.Style(byID(root, id)) }
	if get("a2") != get("c2") && get("a2").Color != get("c2").Color {
		t.Error("a2 and c2 differ in colour")
	}
	if get("c2").Lang != "de" || get("a2").Lang != "" {
		t.Errorf("lang: a2 %q, c2 %q", get("a2").Lang, get("c2").Lang)
	}
	if get("a1") != get("c1") {
		t.Error("a1 and c1 do not share their style")
	}
	if get("b2").Color.G == 0 || get("b1").Color.R != 1 || get("a1").Color.B != 1 {
		t.Errorf("colours: a1 %v b1 %v b2 %v", get("a1").Color, get("b1").Color, get("b2").Color)
	}
	if get("a1").Margin[Left].V != 1 || get("a2").Margin[Left].V != 0 {
		t.Error(":first-child not applied per element")
	}
}

// TestMediaQueries checks @media evaluation for a printed page.
func TestMediaQueries(t *testing.T) {
	for q, want := range map[string]bool{
		"print": true, "all": true, "screen": false, "only print": true, "not screen": true, "not print": false,
		"print and (min-width: 500px)": true, "print and (min-width: 900px)": false, "(max-width: 800px)": true,
		"screen, print": true, "print and (orientation: portrait)": true, "(orientation: landscape)": false,
		"(width >= 700px)": true, "(400px < width < 600px)": false, "(min-width: 40em)": true, "(color)": true,
		"(prefers-color-scheme: dark)": false, "(hover: hover)": false, "(min-resolution: 2dppx)": false,
		"print and (unknown-feature)": false, "": true,
	} {
		ml := parseMediaToks(lexText(q))
		if got := ml.eval(718, 1047); got != want {
			t.Errorf("@media %s: %v, want %v", q, got, want)
		}
	}
}

// TestSelectorHelpers checks the rightmost-compound key, the ancestor
// hashes and the rewriting of :empty.
func TestSelectorHelpers(t *testing.T) {
	for sel, want := range map[string]string{
		"div": "t:div", "DIV.a": ".:a", "#x.a": "#:x", "ul li a:hover": "t:a", ".a > .b": ".:b", "*": "0:",
		"[href]": "0:", "a:not(.b)": "t:a", "p::before": "t:p", ".a .b:nth-child(2n+1)": ".:b", "td + td": "t:td",
	} {
		k, key := rightmostKey(sel)
		if got := string(rune(k)) + ":" + key; got != want && !(k == 0 && want == "0:") {
			t.Errorf("rightmostKey(%q) = %q, want %q", sel, got, want)
		}
	}
	if h := ancestorHashes(".items td + td"); len(h) != 1 || h[0] != selHash('.', "items") {
		t.Errorf("ancestorHashes(.items td + td) = %v", h)
	}
	if h := ancestorHashes("div > p.a span"); len(h) != 3 {
		t.Errorf("ancestorHashes(div > p.a span) = %v", h)
	}
	if h := ancestorHashes(":not(.a b) c"); len(h) != 0 {
		t.Errorf("ancestorHashes(:not(.a b) c) = %v", h)
	}
	for in, want := range map[string]string{
		".sheet ~ :empty:not(.sheet)": ".sheet ~ *:not(.sheet)", "p:empty": "p", ":empty": "*", "div :empty": "div *",
		":empty p": ":empty p", "p:not(:empty)": "p:not(:empty)",
	} {
		if got, _ := takeEmpty(in); got != want {
			t.Errorf("takeEmpty(%q) = %q, want %q", in, got, want)
		}
	}
	// Chromium's :empty: whitespace is content.
	doc := `<!DOCTYPE html><style>div:empty { margin-top: 1px }</style><div id=a></div><div id=b> </div><div id=c><!-- x --></div>`
	r, root := compute(t, doc)
	if r.Style(byID(root, "a")).Margin[Top].V != 1 || r.Style(byID(root, "b")).Margin[Top].V != 0 || r.Style(byID(root, "c")).Margin[Top].V != 1 {
		t.Error(":empty does not match as Chromium's")
	}
}

// TestConcurrentCompute styles documents from several goroutines sharing
// the sheet, hint and custom property caches.
func TestConcurrentCompute(t *testing.T) {
	doc := loadInvoice(t)
	want, err := Compute(doc, Options{PageWidth: 793.7, PageHeight: 1122.5})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				r, err := Compute(doc, Options{PageWidth: 793.7, PageHeight: 1122.5})
				if err != nil {
					t.Error(err)
					return
				}
				for n, e := range want.elems {
					if got := r.Style(n); got.FontSize != e.c.FontSize || got.Color != e.c.Color || got.Display != e.c.Display {
						t.Errorf("<%s> differs between runs", n.Data)
						return
					}
				}
				r.Page(i%3, false)
			}
		}()
	}
	wg.Wait()
}

// TestInvoiceStyles spot-checks the benchmark invoice.
func TestInvoiceStyles(t *testing.T) {
	doc := loadInvoice(t)
	r, err := Compute(doc, Options{PageWidth: 793.7, PageHeight: 1122.5})
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Unsupported(); len(f) != 0 {
		t.Errorf("the invoice reports %v", f)
	}
	var h1, amount *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "h1" {
			h1 = n
		}
		if n.Type == html.ElementNode && strings.Contains(attr(n, "class"), "amount") && amount == nil {
			amount = n
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	c := r.Style(h1)
	if c.FontWeight != 200 || math.Abs(c.FontSize-40) > 1e-9 || c.TextTransform != "uppercase" || c.FontFamily[0] != "DejaVu Sans" ||
		c.Margin[Top].V != 0 || c.Color.R != 0x1e/255.0 {
		t.Errorf("h1: %+v", c)
	}
	if a := r.Style(amount); a.FontWeight != 700 || a.TextAlign != AlignRight || a.WhiteSpace != WSNowrap {
		t.Errorf(".amount: weight %v align %v white-space %v", a.FontWeight, a.TextAlign, a.WhiteSpace)
	}
	p := r.Page(0, false)
	if math.Abs(p.Width-793.7) > 0.01 || p.Margin != [4]float64{} {
		t.Errorf("page %v × %v margins %v", p.Width, p.Height, p.Margin)
	}
}

// TestExpandIs checks the rewriting of :is() and :where() and the
// specificity their expansions count.
func TestExpandIs(t *testing.T) {
	type alt struct {
		sel string
		adj [3]int
	}
	for _, tc := range []struct {
		in   string
		want []alt
	}{
		{"article :is(h1, h2)", []alt{{"article h1", [3]int{}}, {"article h2", [3]int{}}}},
		{":is(h1, .a) p", []alt{{"h1 p", [3]int{0, 1, -1}}, {".a p", [3]int{}}}},
		{":where(.a, #b) p", []alt{{".a p", [3]int{0, -1, 0}}, {"#b p", [3]int{-1, 0, 0}}}},
		{"p:is(.a, .b)", []alt{{"p.a", [3]int{}}, {"p.b", [3]int{}}}},
		{"div :is(p, span).x", []alt{{"div p.x", [3]int{}}, {"div span.x", [3]int{}}}},
		{".c:is(p)", []alt{{"p.c", [3]int{}}}},
		{":is(.a .b) .c", []alt{{".a .b .c", [3]int{}}}},
		{"ul :where(li, :is(dt, dd))", []alt{{"ul li", [3]int{0, 0, -1}}, {"ul dt", [3]int{0, 0, -1}}, {"ul dd", [3]int{0, 0, -1}}}},
		{"div:is(.a .b)", nil},
		{"p.plain", []alt{{"p.plain", [3]int{}}}},
	} {
		got, ok := expandIs(tc.in, 0)
		if (tc.want == nil) != !ok {
			t.Errorf("%s: ok %v", tc.in, ok)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.in, got, tc.want)
			continue
		}
		for i := range got {
			if strings.TrimSpace(got[i].sel) != tc.want[i].sel || got[i].adj != tc.want[i].adj {
				t.Errorf("%s: %+v, want %+v", tc.in, got, tc.want)
				break
			}
		}
	}
	c := styleOf(t, `<!DOCTYPE html><style>:where(#x) { margin-top: 1px } div { margin-top: 2px } :is(#x, p) { margin-left: 3px } #x { margin-left: 4px }</style><div id=x></div>`, "x")
	if c.Margin[Top].V != 2 || c.Margin[Left].V != 4 {
		t.Errorf(":where()/:is() specificity: margins %v", c.Margin)
	}
}

// TestSimpleMatcher checks phantom's matcher for simple selectors against
// cascadia's on every element of a document.
func TestSimpleMatcher(t *testing.T) {
	doc := `<!DOCTYPE html><html><body class="b x"><div id=a class="a b"><section class=s><div class="a"><p class="x y" id=p1>t<span class=y>s</span></p></div></section>
<ul class=list><li class=i><ul><li class="i deep">x</li></ul></li></ul><table class=items><tr class=odd><td>1</td><td class=num>2</td></tr></table></div><div class=a><p>z</p></div></body></html>`
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	sels := []string{"p", ".a p", "div > p", ".a > p.x", "body .a .s .a p", "#a p", "#a > section > div > p", ".a .a p",
		"div div p", "div > div p", "ul li", "ul > li > ul > li", ".list li.i.deep", "li li", "ul ul li.i", "table td.num",
		".items tr.odd td", ".b.x div", "* p", "body > * > * p", "span", ".x .y", "p.x > span.y", "html body div.a > p",
		"div > section div > p", "section > p", "p::before", ".a .b"}
	cp := &computer{}
	var walk func(n *html.Node)
	checked := 0
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			cp.classes = cp.classes[:0]
			forEachField(attr(n, "class"), func(c string) { cp.classes = append(cp.classes, c) })
			for _, sel := range sels {
				s := compileSimple(sel)
				if s == nil {
					t.Fatalf("%s: not simple", sel)
				}
				g, err := cascadia.ParseWithPseudoElement(sel)
				if err != nil {
					t.Fatal(err)
				}
				got, decided := cp.matchSimple(s, n, attr(n, "id"))
				if !decided || got != g.Match(n) {
					t.Errorf("%s on <%s class=%q>: phantom %v (decided %v), cascadia %v", sel, n.Data, attr(n, "class"), got, decided, g.Match(n))
				}
				checked++
			}
			cp.pushStack(n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode {
			cp.popStack()
		}
	}
	walk(root)
	if checked == 0 {
		t.Fatal("nothing checked")
	}
	for _, sel := range []string{"a[href]", "p:hover", "a + b", "a ~ b", ".x\\:y", "a, b", ":root", "div >", "* *"} {
		if s := compileSimple(sel); s != nil && sel != "* *" {
			t.Errorf("%s compiled as simple", sel)
		}
	}
}

// TestFontFeatureSettings reads the numeric features of
// font-feature-settings onto the bits font-variant-numeric uses, inherited.
func TestFontFeatureSettings(t *testing.T) {
	for _, c := range []struct {
		css  string
		want NumericVariant
	}{
		{`font-feature-settings: "tnum"`, NumTabular},
		{`font-feature-settings: "onum" on, "zero" 1, "frac" 0`, NumOldstyle | NumSlashedZero},
		{`-webkit-font-feature-settings: "lnum" 1`, NumLining},
		{`font-feature-settings: "tnum"; font-feature-settings: normal`, 0},
		{`font-feature-settings: "tnum"; font-feature-settings: tnum`, NumTabular}, // invalid: the first stands
	} {
		s := styleOf(t, `<!DOCTYPE html><html><body><div style='`+c.css+`'><span id=x>1</span></div></body></html>`, "x")
		if s.FeatureNumeric != c.want {
			t.Errorf("%s: features %b, want %b", c.css, s.FeatureNumeric, c.want)
		}
	}
}
