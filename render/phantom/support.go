package phantom

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/platen/platen/render/phantom/images"
	"github.com/platen/platen/render/phantom/layout"
	"github.com/platen/platen/render/phantom/style"
)

// unsupported lists what a parsed and styled document's markup uses that
// phantom does not lay out, as "name at where" (docs/templates.md
// "Engines"): the style's features (flex, grid, floats, transforms, web
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
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if depth > maxDepth {
			return
		}
		if n.Type == html.ElementNode && n.Namespace == "svg" && n.Data == "svg" {
			add("inline <svg>", describe(n))
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
	return out
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
