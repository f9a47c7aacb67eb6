package layout

import (
	"math"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/platen/platen/render/phantom/style"
)

// Chromium's displayHeaderFooter: the header and footer templates are laid
// out in a page of their own (components/printing/resources/
// print_header_footer_template_page.html) as the page's size, and painted
// over each printed page. There each template is the content of a flex row
// (#header, #footer): every child element is a flex item as wide as its
// content (auto margins take what is left), and runs of text are anonymous
// items. Measured against Chromium 156: the header's items hang 20 px below
// the page's top, the footer's stand 20 px above the page's bottom (the
// page's height rounded up), the items start at the page's left edge, and
// the template's default font is system-ui at 1 px (a template sets its own
// size). Elements of class pageNumber, totalPages, title, url and date get
// their values as text.

// hfDefaultCSS is the template page's own style, as measured.
const hfDefaultCSS = `<style>body{margin:0;font-family:system-ui;font-size:1px}</style>`

// hfPad is the distance from the page's top (bottom) edge to the header's
// (footer's) items.
const hfPad = 20

// hfTemplate is a header or footer template parsed and styled once per
// layout; its value slots are refilled for each page.
type hfTemplate struct {
	body  *html.Node
	st    *style.Result
	slots map[string][]*html.Node
}

// template parses and styles a header or footer template.
func (l *layouter) template(markup string, g pageGeom) *hfTemplate {
	if strings.TrimSpace(markup) == "" {
		return nil
	}
	doc, err := html.Parse(strings.NewReader("<!DOCTYPE html><html><head>" + hfDefaultCSS + "</head><body>" + markup + "</body></html>"))
	if err != nil {
		return nil
	}
	st, err := style.Compute(doc, style.Options{PageWidth: g.w, PageHeight: g.h, FontMetrics: l.fontMetricsFunc()})
	if err != nil {
		return nil
	}
	t := &hfTemplate{st: st, slots: map[string][]*html.Node{}}
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if depth > l.opt.MaxDepth {
			return
		}
		if n.Type == html.ElementNode {
			if n.Data == "body" && t.body == nil {
				t.body = n
			}
			for _, c := range strings.Fields(attr(n, "class")) {
				switch c {
				case "pageNumber", "totalPages", "title", "url", "date":
					t.slots[c] = append(t.slots[c], n)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(doc, 0)
	if t.body == nil {
		return nil
	}
	return t
}

// fontMetricsFunc gives style the x-height and zero width for ex and ch.
func (l *layouter) fontMetricsFunc() func([]string, int, style.FontStyle, float64) (float64, float64) {
	return func(families []string, weight int, fs style.FontStyle, size float64) (float64, float64) {
		m := l.fontMetrics(&style.Computed{FontFamily: families, FontWeight: weight, FontStyle: fs, FontStretch: 100, FontSize: size})
		return m.XHeight, m.ZeroWidth
	}
}

// fill sets the template's value slots for one page.
func (t *hfTemplate) fill(page, count int, title string) {
	for class, nodes := range t.slots {
		v := ""
		switch class {
		case "pageNumber":
			v = strconv.Itoa(page)
		case "totalPages":
			v = strconv.Itoa(count)
		case "title":
			v = title
		case "url":
			v = "about:blank"
		}
		for _, n := range nodes {
			for c := n.FirstChild; c != nil; {
				next := c.NextSibling
				n.RemoveChild(c)
				c = next
			}
			if v != "" {
				n.AppendChild(&html.Node{Type: html.TextNode, Data: v})
			}
		}
	}
}

// headerFooter lays out a template's items for one page, in page
// coordinates.
func (l *layouter) headerFooter(t *hfTemplate, footer bool, g pageGeom, page, count int) []*Frag {
	t.fill(page, count, l.doc.Title)
	b := &builder{l: l, st: t.st}
	bs := t.st.Style(t.body)
	if bs == nil {
		return nil
	}
	W := g.style.Width
	H := math.Ceil(g.style.Height - 1e-6)
	// The flex items.
	var items []*Box
	var text []*Box
	flushText := func() {
		if len(text) == 0 {
			return
		}
		all := true
		for _, x := range text {
			if !isCollapsibleSpaceOnly(x.Text) {
				all = false
			}
		}
		if !all {
			a := b.newBox(KindBlock, l.anonStyle(bs, style.DisplayBlock), nil)
			a.Anonymous, a.InlineContent = true, true
			for _, x := range text {
				appendChild(a, x)
			}
			items = append(items, a)
		}
		text = nil
	}
	tmp := &Box{Kind: KindBlock, Style: bs, Node: t.body}
	for c := t.body.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			tb := b.newBox(KindText, bs, c)
			tb.Inline, tb.Text = true, transformText(c.Data, bs.TextTransform)
			text = append(text, tb)
		case html.ElementNode:
			flushText()
			n := len(tmp.Children)
			b.child(tmp, c, 1)
			for _, x := range tmp.Children[n:] {
				if x.IsOutOfFlow() {
					continue
				}
				// Flex items are blockified.
				x.Inline = false
				if x.Kind == KindInline || x.Kind == KindText || x.Kind == KindBreak {
					w := x
					if x.Kind != KindInline {
						w = b.newBox(KindBlock, l.anonStyle(bs, style.DisplayBlock), nil)
						w.Anonymous = true
						appendChild(w, x)
					}
					w.Kind = KindBlock
					b.fixup(w)
					if x.Kind != KindInline {
						w.InlineContent = true
					}
					x = w
				}
				items = append(items, x)
			}
		}
	}
	flushText()
	if b.err != nil || len(items) == 0 {
		return nil
	}
	// Main sizes: content widths, shrunk in proportion when they overflow.
	type flexItem struct {
		b                    *Box
		w, minW, ml, mr, ext float64
		autoL, autoR         bool
	}
	fi := make([]flexItem, len(items))
	total := 0.0
	for i, it := range items {
		s := it.Style
		bd, pd := boxBorders(s), boxPadding(s, W)
		f := flexItem{b: it, ml: marginOf(s, style.Left, W), mr: marginOf(s, style.Right, W), ext: bd.h() + pd.h(),
			autoL: s.Margin[style.Left].IsAuto(), autoR: s.Margin[style.Right].IsAuto()}
		mn, mx := l.intrinsicWidths(it)
		f.minW = mn
		if s.Width.Unit == style.Px || s.Width.Unit == style.Percent {
			f.w = length(s.Width, W, 0)
			if s.BorderBox {
				f.w = math.Max(0, f.w-f.ext)
			}
		} else {
			f.w = mx
		}
		f.w = clampWidth(s, f.w, W, bd, pd)
		fi[i] = f
		total += f.w + f.ext + f.ml + f.mr
	}
	free := W - total
	if free < 0 {
		// flex-shrink: 1, weighted by the base size, not below min-content.
		sum := 0.0
		for _, f := range fi {
			sum += f.w
		}
		if sum > 0 {
			for i := range fi {
				f := &fi[i]
				f.w = math.Max(f.minW, f.w+free*f.w/sum)
			}
		}
		free = 0
	}
	nAuto := 0
	for _, f := range fi {
		if f.autoL {
			nAuto++
		}
		if f.autoR {
			nAuto++
		}
	}
	var out []*Frag
	x := 0.0
	for _, f := range fi {
		if f.autoL && nAuto > 0 {
			x += free / float64(nAuto)
		}
		x += f.ml
		fl := &flow{}
		fr := l.layoutBlockBox(f.b, cbox{x: 0, w: W, h: -1}, fl, f.w, -1)
		s := f.b.Style
		mt, mb := marginOf(s, style.Top, W), marginOf(s, style.Bottom, W)
		y := float64(hfPad) + mt
		if footer {
			y = H - hfPad - mb - fr.H
		}
		fr.translate(x-fr.X, y-fr.Y)
		computeInk(fr)
		out = append(out, fr)
		x += fr.W + f.mr
		if f.autoR && nAuto > 0 {
			x += free / float64(nAuto)
		}
	}
	return out
}
