package style

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func compute(t testing.TB, doc string) (*Result, *html.Node) {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compute(root, Options{PageWidth: 718, PageHeight: 1047})
	if err != nil {
		t.Fatal(err)
	}
	return r, root
}

func featureNames(r *Result) []string {
	var out []string
	for _, f := range r.Unsupported() {
		out = append(out, f.Name+" @ "+f.Where)
	}
	sort.Strings(out)
	return out
}

// TestUnsupported checks that a feature is reported when it applies to a
// displayed element of the document, and only then.
func TestUnsupported(t *testing.T) {
	for _, tc := range []struct {
		name, css, body string
		want            []string
	}{
		{"flex is laid out", `.row { display: flex; flex-flow: row wrap; gap: 4px } .row > * { flex: 1 1 0; align-self: center }`, `<div class=row><p>x</p></div>`, nil},
		{"inline-flex is laid out", ``, `<span style="display: inline-flex; -webkit-justify-content: space-between">x</span>`, nil},
		{"legacy -webkit-box", `.b { display: -webkit-box; -webkit-box-orient: vertical }`, `<div class=b>x</div>`, []string{"display:-webkit-box @ .b"}},
		{"-webkit-flex is flex", `.b { display: -webkit-flex }`, `<div class=b>x</div>`, nil},
		{"filter matching nothing", `.row { filter: blur(1px) }`, `<div class=col>x</div>`, nil},
		{"filter inside display none", `.row { filter: blur(1px) } .off { display: none }`, `<div class=off><div class=row>x</div></div>`, nil},
		{"filter overridden", `.row { filter: blur(1px) } div.row { filter: none }`, `<div class=row>x</div>`, nil},
		{"grid", `#g { display: grid; grid-template-columns: 1fr 1fr; gap: 4px }`, `<div id=g>x</div>`, nil},
		{"inline-grid", `i { display: inline-grid }`, `<i>x</i>`, nil},
		{"subgrid", `#g { display: grid; grid-template-columns: subgrid }`, `<div id=g>x</div>`, []string{"grid-template:subgrid @ #g"}},
		{"float is laid out", `img { float: right } p { clear: both }`, `<img><p>x</p>`, nil},
		{"2D transform is laid out", `.t { transform: rotate(3deg) translate(10px, -50%) scale(1.2); transform-origin: left top }`, `<p class=t>x</p>`, nil},
		{"3D transform", `.t { transform: rotateY(30deg) }`, `<p class=t>x</p>`, []string{"transform @ .t"}},
		{"transform none", `.t { transform: none }`, `<p class=t>x</p>`, nil},
		{"3D transform through var", `:root { --r: perspective(100px) rotateX(3deg) } .t { transform: var(--r) }`, `<p class=t>x</p>`, []string{"transform @ .t"}},
		{"individual transform property", `.t { rotate: 10deg }`, `<p class=t>x</p>`, []string{"transform @ .t"}},
		{"sticky", `th { position: sticky; top: 0 }`, `<table><tr><th>x</th></tr></table>`, []string{"position:sticky @ th"}},
		{"font-face of a data: font", `@font-face { font-family: Brand; src: url(data:font/woff2;base64,AAAA) } h1 { font-family: Brand, sans-serif }`, `<h1>x</h1>`, nil},
		{"font-face of a local font before a data: font", `@font-face { font-family: Brand; src: local("DejaVu Sans"), url(data:font/woff2;base64,AAAA) } h1 { font-family: Brand }`, `<h1>x</h1>`, []string{"@font-face @ Brand"}},
		{"font-face unused", `@font-face { font-family: Brand; src: url(data:font/woff2;base64,AAAA) }`, `<h1>x</h1>`, nil},
		{"import of a data URI", `@import url("data:text/css,p{color:red}");`, `<p>x</p>`, []string{`@import @ url("data:text/css,p{color:red}")`}},
		{"import that cannot load", `@import url(https://fonts.googleapis.com/css?family=Roboto); @import "other.css"; p { font-family: Roboto, sans-serif }`, `<p>x</p>`, nil},
		{"font-face that cannot load", `@font-face { font-family: Brand; src: url(https://example.com/brand.woff2) format("woff2"), url(brand.ttf) } h1 { font-family: Brand, sans-serif }`, `<h1>x</h1>`, nil},
		{"font-face of a local font", `@font-face { font-family: Brand; src: local("DejaVu Sans") } h1 { font-family: Brand }`, `<h1>x</h1>`, []string{"@font-face @ Brand"}},
		{"properties no browser knows", `td { -premailer-width: 100; -moz-box-sizing: border-box; supported-color-schemes: light dark; colr: red; -o-border-radius: 3px; -premailer-cellpadding: 0 }`, `<table><tr><td>x</td></tr></table>`, nil},
		{"a -webkit- property Chromium knows", `.s { -webkit-text-stroke: 1px red }`, `<p class=s>x</p>`, []string{"css:-webkit-text-stroke @ .s"}},
		{"columns", `.c { columns: 2; column-rule: 1px solid; column-gap: 2em }`, `<div class=c>x</div>`, nil},
		{"a spanner in columns", `.c { columns: 2 } h1 { column-span: all }`, `<div class=c><h1>x</h1></div>`, []string{"column-span @ h1"}},
		{"a spanner outside columns", `h1 { column-span: all }`, `<div><h1>x</h1></div>`, nil},
		{"columns in an inline-block", `.c { columns: 2; display: inline-block }`, `<div class=c>x</div>`, []string{"columns:shrink-to-fit @ div"}},
		{"columns in a float", `.c { columns: 2; float: left }`, `<div class=c>x</div>`, nil},
		{"columns in columns", `.c { columns: 2 }`, `<div class=c><div class=c>x</div></div>`, []string{"columns:nested @ div"}},
		{"columns filled in turn", `.c { columns: 2; column-fill: auto; height: 100px }`, `<div class=c>x</div>`, []string{"column-fill @ div"}},
		{"column-count auto", `.c { column-count: auto }`, `<div class=c>x</div>`, nil},
		{"writing-mode", `.v { writing-mode: vertical-rl }`, `<div class=v>x</div>`, []string{"writing-mode @ .v"}},
		{"writing-mode horizontal", `.v { writing-mode: horizontal-tb }`, `<div class=v>x</div>`, nil},
		{"linear gradient is painted", `.g { background: linear-gradient(to right, red, blue 40%, #0f0) }`, `<div class=g>x</div>`, nil},
		{"translucent gradient", `.g { background: linear-gradient(rgba(0,0,0,.5), transparent) }`, `<div class=g>x</div>`, []string{"background-image:gradient @ .g"}},
		{"radial gradient", `.g { background-image: radial-gradient(circle, red, blue) }`, `<div class=g>x</div>`, []string{"background-image:gradient @ .g"}},
		{"repeating gradient", `.g { background: repeating-linear-gradient(90deg, #000 0 2px, #fff 2px 4px) }`, `<div class=g>x</div>`, nil},
		{"translucent repeating gradient", `.g { background: repeating-linear-gradient(90deg, #000 0 2px, transparent 2px 4px) }`, `<div class=g>x</div>`, []string{"background-image:gradient @ .g"}},
		{"gradient on the body", `body { background: linear-gradient(red, blue) }`, `<div>x</div>`, []string{"background-image:gradient @ body"}},
		{"two gradient layers", `.g { background: linear-gradient(red, blue), linear-gradient(green, blue) }`, `<div class=g>x</div>`, []string{"background-image:gradient @ .g", "css:background-image @ .g"}},
		{"filter", `.f { filter: blur(2px) }`, `<div class=f>x</div>`, []string{"filter @ .f"}},
		{"clip-path", `.f { clip-path: circle(50%) }`, `<div class=f>x</div>`, []string{"clip-path @ .f"}},
		{"mask", `.f { -webkit-mask-image: url(m.png) }`, `<div class=f>x</div>`, []string{"mask @ .f"}},
		{"first-line", `p::first-line { font-weight: bold }`, `<p>x</p>`, []string{"::first-line @ p::first-line"}},
		{"first-letter matching nothing", `p.drop::first-letter { font-size: 3em }`, `<p>x</p>`, nil},
		{"first-letter legacy", `p:first-letter { font-size: 3em }`, `<p>x</p>`, []string{"::first-letter @ p:first-letter"}},
		{"form control", ``, `<form><input name=a><input type=hidden name=b></form>`, []string{"form-control @ input"}},
		{"hidden form control", `.x { display: none }`, `<div class=x><select></select></div>`, nil},
		{"box-shadow is laid out", `.s { box-shadow: 0 1px 2px #000; -webkit-box-shadow: inset 0 0 3px red }`, `<div class=s>x</div>`, nil},
		{"text-shadow", `.s { text-shadow: 0 1px 2px #000 }`, `<div class=s>x</div>`, []string{"css:text-shadow @ .s"}},
		{"text-shadow none", `.s { text-shadow: none }`, `<div class=s>x</div>`, nil},
		{"text-shadow undone later", `.s { text-shadow: 0 1px red } div.s { text-shadow: none }`, `<div class=s>x</div>`, nil},
		{"another engine's pseudo-class", `.opera-only :-o-prefocus, .x::-o-thumb { display: block }`, `<div class=opera-only>x</div>`, nil},
		{"text-overflow clip", `.s { text-overflow: clip }`, `<div class=s>x</div>`, nil},
		{"text-overflow ellipsis", `.s { text-overflow: ellipsis }`, `<div class=s>x</div>`, nil},
		{"text-overflow string", `.s { text-overflow: "-" }`, `<div class=s>x</div>`, []string{"css:text-overflow @ .s"}},
		{"text-overflow right to left", `.s { text-overflow: ellipsis; direction: rtl }`, `<div class=s>x</div>`, []string{"css:text-overflow @ .s"}},
		{"silent properties", `a { cursor: pointer; transition: color 1s; user-select: none; -webkit-print-color-adjust: exact; print-color-adjust: exact; pointer-events: none; will-change: transform; scroll-margin-top: 3px; animation: x 1s; -webkit-font-smoothing: antialiased; text-rendering: optimizeLegibility }`, `<a href=x>x</a>`, nil},
		{"flex item properties without flex", `.i { flex: 1; align-self: center; order: 2; justify-content: space-between }`, `<div class=i>x</div>`, nil},
		{"font-variant-numeric is laid out", `.n { font-variant-numeric: tabular-nums slashed-zero; font-variant: oldstyle-nums small-caps }`, `<span class=n>1</span>`, nil},
		{"font-feature-settings numeric", `.n { font-feature-settings: "tnum" 1, "zero" }`, `<span class=n>1</span>`, nil},
		{"font-feature-settings other", `.n { font-feature-settings: "tnum", "liga" 0 }`, `<span class=n>1</span>`, []string{"css:font-feature-settings @ .n"}},
		{"unknown selector", `p:dir(rtl) { color: red }`, `<p class=a>x</p>`, []string{"selector @ p:dir(rtl)"}},
		{"is and where", `p:is(.a, .b) { color: red } :where(ul, ol) li { margin: 0 }`, `<p class=a>x</p>`, nil},
		{"vendor scrollbar selector", `::-webkit-scrollbar { width: 0 }`, `<p>x</p>`, nil},
		{"hover rules never apply", `a:hover { transform: scale(2) }`, `<a href=x>x</a>`, nil},
		{"media screen", `@media screen { .row { filter: blur(1px) } }`, `<div class=row>x</div>`, nil},
		{"media print", `@media print { .row { filter: blur(1px) } }`, `<div class=row>x</div>`, []string{"filter @ .row"}},
		{"supports grid", `@supports (display: grid) { .g { filter: blur(1px) } }`, `<div class=g>x</div>`, []string{"filter @ .g"}},
		{"supports unknown", `@supports (frobnicate: 1) { .g { filter: blur(1px) } }`, `<div class=g>x</div>`, []string{"@supports @ (frobnicate:1)"}},
		{"script", ``, `<script>var a;</script><script type="application/ld+json">{}</script>`, []string{"script @ script"}},
		{"calc mixing percent in min", `.w { width: min(100%, 300px) }`, `<div class=w>x</div>`, []string{"calc @ .w"}},
		{"calc resolved", `.w { width: calc(100% - 2 * 10px); margin: calc(1em + 2px) }`, `<div class=w>x</div>`, nil},
		{"layer", `@layer base { p { color: red } }`, `<p>x</p>`, []string{"@layer @ base"}},
		{"iframe", ``, `<iframe></iframe>`, []string{"element:iframe @ iframe"}},
		{"ruby", ``, `<ruby>a<rt>b</rt></ruby>`, []string{"display:ruby @ ruby", "display:ruby @ ruby>rt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := compute(t, "<!DOCTYPE html><html><head><style>"+tc.css+"</style></head><body>"+tc.body+"</body></html>")
			got := featureNames(r)
			want := append([]string(nil), tc.want...)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
}

// TestUASheetReportsNothing: the user-agent sheet itself uses nothing
// phantom reports (every selector parses).
func TestUASheetReportsNothing(t *testing.T) {
	s := uaSheet()
	if len(s.feats) != 0 {
		t.Errorf("UA sheet reports %v", s.feats)
	}
	if len(s.rules) < 100 {
		t.Errorf("UA sheet has %d rules; a selector list failed to parse", len(s.rules))
	}
	r, _ := compute(t, `<!DOCTYPE html><html lang=en><head><title>x</title></head><body><h1>Invoice</h1><p>Text <b>bold</b> <a href="#x">link</a></p><ul><li>a<ol><li>b</li></ol></li></ul><table><thead><tr><th>h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table><hr><pre>x</pre></body></html>`)
	if f := r.Unsupported(); len(f) != 0 {
		t.Errorf("a plain document reports %v", f)
	}
}

// TestPseudoFeatures checks reports from ::before and ::after: those of a
// pseudo-element that is generated, and no other.
func TestPseudoFeatures(t *testing.T) {
	r, _ := compute(t, `<!DOCTYPE html><style>.c::after { content: ""; display: table; clear: both } .f::before { content: "x"; filter: blur(2px) } .n::after { clip-path: circle(50%) }</style><div class="c f n">x</div>`)
	if got := fmt.Sprint(featureNames(r)); got != "[clip-path @ .n::after filter @ .f::before]" {
		t.Errorf("got %q", got)
	}
}

// TestFlexItemsDoNotFloat: float has no effect on a flex item (Blink's
// style adjuster computes it to none), so a float grid's classes inside a
// flex row lay out as flex items.
func TestFlexItemsDoNotFloat(t *testing.T) {
	r, root := compute(t, `<!DOCTYPE html><html><body><div style="display: flex"><div style="float: right">x</div></div><div style="float: right">y</div></body></html>`)
	body := root.FirstChild.NextSibling.LastChild
	if f := r.Style(body.FirstChild.FirstChild).Float; f != "none" {
		t.Errorf("a flex item floats %s", f)
	}
	if f := r.Style(body.LastChild).Float; f != "right" {
		t.Errorf("a block floats %s, want right", f)
	}
}

// TestQuirksMode checks which doctypes mean which mode, and that no mode is
// reported by itself: phantom lays out quirks and limited-quirks modes.
func TestQuirksMode(t *testing.T) {
	for doc, mode := range map[string]string{
		`<!DOCTYPE html><p>x`: "",
		`<html><p>x`:          "quirks-mode",
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>x`:                                                           "quirks-mode",
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd"><p>x`:                    "limited-quirks-mode",
		`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><p>x`: "limited-quirks-mode",
		`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><p>x`:             "",
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><p>x`:                                "",
	} {
		r, _ := compute(t, doc)
		got := ""
		for _, f := range r.Unsupported() {
			got += f.Name
		}
		if got != "" {
			t.Errorf("%s: %v", doc, r.Unsupported())
		}
		root, err := html.Parse(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if q, lq := QuirksMode(root), LimitedQuirksMode(root); q != (mode == "quirks-mode") || lq != (mode == "limited-quirks-mode") {
			t.Errorf("%s: quirks %v, limited quirks %v, want %s", doc, q, lq, mode)
		}
	}
}

// TestQuirksModeStyle: quirks mode adds Chromium's quirks.css (tables
// reset the font they inherit), and reports what phantom does not match:
// a class or id selector that matches only ignoring case, and a value only
// quirks mode accepts (a unitless length, a colour without #). The same
// document with a doctype reports nothing: those values are invalid there.
func TestQuirksModeStyle(t *testing.T) {
	const css = `<style>body { font-size: 12px; font-weight: bold } .Box { color: red } #Main { color: blue }</style>`
	r, doc := compute(t, `<html><head>`+css+`</head><body><table><tr><td id=cell>x</td></tr></table><p class=box id=main>y</p>`)
	td := byID(doc, "cell")
	if s := r.Style(td); s.FontSize != 16 || s.FontWeight != 400 {
		t.Errorf("quirks mode: a table cell's font is %vpx weight %d, want 16px 400 (the table resets it)", s.FontSize, s.FontWeight)
	}
	if got := names(r.Unsupported()); got != "quirks-mode:selector-case" {
		t.Errorf("quirks mode, selectors that match ignoring case: reported %q", got)
	}
	r, doc = compute(t, `<!DOCTYPE html><html><head>`+css+`</head><body><table><tr><td id=cell>x</td></tr></table><p class=box id=main>y</p>`)
	if s := r.Style(byID(doc, "cell")); s.FontSize != 12 || s.FontWeight != 700 {
		t.Errorf("standards mode: a table cell's font is %vpx weight %d, want 12px 700 (inherited)", s.FontSize, s.FontWeight)
	}
	if got := names(r.Unsupported()); got != "" {
		t.Errorf("standards mode: reported %q", got)
	}
	for _, c := range []struct{ decl, want string }{
		{"width: 300", "quirks-mode:width"},
		{"margin: 10 0", "quirks-mode:margin"},
		{"color: 336699", "quirks-mode:color"},
		{"background-color: ff0000", "quirks-mode:background-color"},
		{"border-color: 00ff00", "quirks-mode:border-color"},
		{"width: 300px", ""},
		{"color: bogus", ""},
	} {
		for _, doctype := range []string{"", "<!DOCTYPE html>"} {
			r, _ := compute(t, doctype+`<html><head><style>.c { `+c.decl+` }</style></head><body><div class=c>x</div>`)
			want := c.want
			if doctype != "" {
				want = ""
			}
			if got := names(r.Unsupported()); got != want {
				t.Errorf("%q %q: reported %q, want %q", doctype, c.decl, got, want)
			}
		}
	}
}

func names(fs []Feature) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return strings.Join(out, ",")
}

// TestLocalFontFaces: an @font-face whose only loadable sources are local()
// faces the machine does not have loads nothing, as in Chromium, and is no
// reason to hand off; one the machine has is reported, and so is one when
// the check is not given (it may load).
func TestLocalFontFaces(t *testing.T) {
	const css = `@font-face { font-family: Brand; src: local("Brand Sans"), local(Brand-Regular), url(fonts/brand.woff2) format("woff2") }
@font-face { font-family: Other; src: url(/static/other.ttf), local("Other Regular") } h1 { font-family: Brand, sans-serif } h2 { font-family: Other }`
	has := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	for _, c := range []struct {
		local func(string) bool
		want  string
	}{
		{has(), ""},
		{has("Brand-Regular"), "@font-face"},
		{has("Other Regular"), "@font-face"},
		{nil, "@font-face,@font-face"},
	} {
		root, err := html.Parse(strings.NewReader(`<!DOCTYPE html><style>` + css + `</style><h1>x</h1><h2>y</h2>`))
		if err != nil {
			t.Fatal(err)
		}
		r, err := Compute(root, Options{PageWidth: 718, PageHeight: 1047, LocalFont: c.local})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(r.Unsupported()); got != c.want {
			t.Errorf("local fonts %v: reported %q, want %q", c.local != nil, got, c.want)
		}
	}
}

// TestWebFonts: the @font-face rules whose first source that loads is a
// data: URI are listed with their descriptors, in rule order; a missing
// local() before it is skipped, a rule in a media query that does not hold
// or with no data: source is left out.
func TestWebFonts(t *testing.T) {
	root, err := html.Parse(strings.NewReader(`<!DOCTYPE html><style>
@font-face { font-family: "Brand Sans"; src: local("No Such Font"), url("data:font/ttf;base64,AAEAAA") format("truetype"); font-weight: 300 700; font-style: italic; unicode-range: U+0000-00FF, U+0131, U+02??; }
@font-face { font-family: Brand; src: url(https://example.com/b.woff2); }
@media screen { @font-face { font-family: Screen; src: url(data:font/woff2;base64,AAAA) } }
@font-face { font-family: Mono; src: url(data:font/woff;base64,d09GRg==); font-weight: bold }
</style><p>x`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compute(root, Options{PageWidth: 718, PageHeight: 1047, LocalFont: func(string) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	got := r.WebFonts()
	if len(got) != 2 {
		t.Fatalf("web fonts: %+v", got)
	}
	a, b := got[0], got[1]
	if a.Family != "Brand Sans" || a.Data != "data:font/ttf;base64,AAEAAA" || a.WeightMin != 300 || a.WeightMax != 700 || a.Style != FontItalic {
		t.Errorf("first: %+v", a)
	}
	if want := [][2]rune{{0, 0xFF}, {0x131, 0x131}, {0x200, 0x2FF}}; !slices.Equal(a.Ranges, want) {
		t.Errorf("unicode-range %v, want %v", a.Ranges, want)
	}
	if b.Family != "Mono" || b.WeightMin != 700 || b.WeightMax != 700 || b.Style != FontNormal || b.Ranges != nil {
		t.Errorf("second: %+v", b)
	}
}
