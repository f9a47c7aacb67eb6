package style

import (
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// FuzzCompute styles arbitrary CSS and HTML: Compute must not panic, must
// finish quickly, and must answer every query of its Result.
func FuzzCompute(f *testing.F) {
	if b, err := os.ReadFile("testdata/invoice.html"); err == nil {
		f.Add("", string(b))
	}
	for _, seed := range [][2]string{
		{`p { color: red; margin: 1em 2px } .a > b::before { content: "x" counter(c) } @page { size: A4; @top-left { content: counter(page) } }`, `<p class=a><b>x</b></p>`},
		{`:root { --a: var(--b); --b: var(--a); --c: 1px } div { margin: var(--c) var(--a, 2px); width: calc(100% - var(--c)) }`, `<div>x</div>`},
		{`@media print and (min-width: 100px) { ul li:nth-child(2n+1) { list-style: square inside } } @supports not (display: grid) { x { y: z } }`, `<ul><li>a<li>b</ul>`},
		{`* { font: italic bold 12px/1.5 "A B", serif; background: url(a.png) no-repeat right 10px bottom / cover, red }`, `<table border=1 cellpadding=3><tr><td bgcolor=#abc width=50%>x</table>`},
		{`a { color: rgb(1 2 3 / 50%); border: 1px solid hsl(120deg 50% 50%) } @font-face { font-family: X; src: url(x) } .x { font-family: X }`, `<a href=x class=x>l</a><font size=+2 color=red face=Arial>f</font>`},
		{`.s ~ :empty:not(.s) { display: none } @page :first { margin: 1in } @page wide { size: landscape }`, `<div class=s></div><div> </div><div></div>`},
		{`x{}}}{{{;;;@media{@page{@top-center{content:"a"}}}`, `<x>`},
		{`p { font-size: smaller } code { font-size: 2em } pre { font-family: monospace, monospace }`, `<p><code>c</code></p><pre>x</pre>`},
		{`.a { & .b { color: red } &:first-child { margin: 0 } }`, `<div class=a><i class=b>x</i></div>`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, css, body string) {
		if len(css)+len(body) > 1<<16 {
			return
		}
		doc, err := html.Parse(strings.NewReader("<!DOCTYPE html><html><head><style>" + css + "</style></head><body>" + body + "</body></html>"))
		if err != nil {
			return
		}
		start := time.Now()
		r, err := Compute(doc, Options{PageWidth: 718, PageHeight: 1047})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			p := r.Page(i, i == 2)
			if p == nil || !(p.Width > 0) || !(p.Height > 0) {
				t.Fatalf("page %d: %+v", i, p)
			}
		}
		r.PageNamed(0, false, "wide")
		_ = r.Unsupported()
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				if r.Style(n) == nil {
					t.Fatalf("no style for <%s>", n.Data)
				}
				r.Pseudo(n, Before)
				r.Pseudo(n, After)
				r.Pseudo(n, Marker)
			}
			if n.Type == html.ElementNode && n.Data == "template" {
				return
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("styling %d bytes took %v", len(css)+len(body), d)
		}
	})
}
