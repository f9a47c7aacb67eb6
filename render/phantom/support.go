package phantom

import (
	"math"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/platen/platen/render/phantom/images"
	"github.com/platen/platen/render/phantom/layout"
	"github.com/platen/platen/render/phantom/style"
)

// unsupported lists what a parsed and styled document's markup uses that
// phantom does not lay out, as "name at where" (docs/templates.md
// "Engines"): the style's features (grid, transforms, web
// fonts, CSS phantom does not implement), the elements that need a browser
// (scripts, frames, canvas, media), and drawings with parts phantom cannot
// draw. Each name is given once, at its first use. Where is a tag name,
// never an attribute: ids and classes are often filled from the data.
// What depends on the job rather than the markup (a tagged PDF) is
// checked by Engine.Unsupported on every call.
func unsupported(doc *html.Node, st *style.Result) []string {
	var out []string
	seen := map[string]bool{}
	add := func(name, where string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if where != "" {
			name += " at " + where
		}
		out = append(out, name)
	}
	for _, f := range st.Unsupported() {
		add(f.Name, f.Where)
	}
	var pageNames []string
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if depth > maxDepth {
			return
		}
		if n.Type == html.ElementNode {
			if s := st.Style(n); s != nil && s.Page != "" && !slices.Contains(pageNames, s.Page) && len(pageNames) < maxPageNames {
				pageNames = append(pageNames, s.Page)
			}
		}
		if n.Type == html.ElementNode && n.Namespace == "svg" && n.Data == "svg" {
			// Drawn as an image of its own markup, its currentColor from the
			// page (the style reports the page's CSS that paints inside it).
			img, err := images.InlineSVG(layout.InlineSVGMarkup(n, st.Style(n)))
			switch {
			case err != nil:
				add("inline <svg>", describe(n))
			case img.SVG != nil:
				for _, d := range img.SVG.Dropped {
					add("svg:"+d, describe(n))
				}
			}
			return
		}
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Script:
				if strings.TrimSpace(text(n)) != "" || attr(n, "src") != "" {
					add("script", describe(n))
				}
			case atom.Iframe, atom.Frame, atom.Frameset, atom.Object, atom.Embed, atom.Canvas, atom.Video, atom.Audio, atom.Math:
				if s := st.Style(n); s == nil || s.Display != style.DisplayNone {
					add("element:"+n.Data, describe(n))
				}
			case atom.Img:
				if src := attr(n, "src"); src != "" {
					if img, err := images.Load(src); err == nil && img.SVG != nil {
						for _, d := range img.SVG.Dropped {
							add("svg:"+d, describe(n))
						}
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(doc, 0)
	if pageWidthsVary(st, pageNames) {
		add("@page:width", "@page")
	}
	return out
}

// maxPageNames bounds the named pages pageWidthsVary compares.
const maxPageNames = 16

// pageWidthsVary reports whether some page's area is not as wide as the
// first page's: @page :first, :left, :right or a named page with another
// size or side margins. Chromium lays each page's content out at that
// page's width (measured: a paragraph that continues on a wider page
// fills its width); phantom lays the whole flow out at the first page's
// width (layout's pagination), so such a document goes to Chromium.
func pageWidthsVary(st *style.Result, names []string) bool {
	areaW := func(p *style.PageStyle) float64 {
		return math.Ceil(p.Width - p.Margin[style.Left] - p.Margin[style.Right] - 1e-6)
	}
	first := areaW(st.Page(0, false))
	// Pages 1 and 2 are a left and a right page that are not the first.
	for i := 0; i < 3; i++ {
		if areaW(st.Page(i, false)) != first {
			return true
		}
		for _, n := range names {
			if areaW(st.PageNamed(i, false, n)) != first {
				return true
			}
		}
	}
	return false
}

// maxDepth bounds the nesting phantom lays out (layout's own limit); a
// deeper document is refused before it is styled, and the default hands it
// to chromium.
const maxDepth = layout.DefaultMaxDepth

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// describe names an element by its tag: its id and classes may hold data.
func describe(n *html.Node) string { return n.Data }
