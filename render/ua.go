package render

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/platen/platen/internal/fault"
)

// CheckAccessible refuses, with what to fix, filled markup that cannot be
// made an accessible PDF/UA-1 document (docs/accessibility.md "What is
// refused"): a page without a language or a title, an image without alt
// text (alt="" says it is decoration), a heading level skipped or a first
// heading that is not h1, and a table without header cells. field names
// where the markup came from ("html").
func CheckAccessible(markup, field string) error {
	return checkAccessible(markup, field, "")
}

// checkAccessible is CheckAccessible where lang, when set, is the
// language of a page that names none (the manifest's locale).
func checkAccessible(markup, field, lang string) error {
	doc, err := html.Parse(strings.NewReader(markup))
	if err != nil {
		return fault.Invalid(field, "cannot be read as HTML: %v", err)
	}
	var root, title *html.Node
	var problems []string
	images, tables := 0, 0
	last := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Html:
				root = n
			case atom.Title:
				if title == nil {
					title = n
				}
			case atom.Img:
				images++
				if _, ok := attrOf(n, "alt"); !ok {
					problems = append(problems, fmt.Sprintf("image %d (<img>) has no alt: describe it in alt, or write alt=\"\" if it is only decoration", images))
				}
			case atom.Svg:
				if n.Parent == nil || n.Parent.DataAtom != atom.Svg {
					images++
					label, _ := attrOf(n, "aria-label")
					role, _ := attrOf(n, "role")
					hidden, _ := attrOf(n, "aria-hidden")
					if strings.TrimSpace(label) == "" && role != "presentation" && role != "none" && hidden != "true" {
						problems = append(problems, fmt.Sprintf("image %d (<svg>) has no aria-label: describe it, or write aria-hidden=\"true\" if it is only decoration", images))
					}
				}
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				level := int(n.Data[1] - '0')
				switch {
				case last == 0 && level != 1:
					problems = append(problems, fmt.Sprintf("the first heading is <h%d>: start with <h1>", level))
				case last > 0 && level > last+1:
					problems = append(problems, fmt.Sprintf("an <h%d> follows an <h%d>: a heading level is skipped; use <h%d>", level, last, last+1))
				}
				last = level
			case atom.Table:
				tables++
				if role, _ := attrOf(n, "role"); role != "presentation" && role != "none" && !hasDescendant(n, atom.Th) {
					problems = append(problems, fmt.Sprintf("table %d has no header cells: mark its header row or column with <th> (scope=\"col\" or \"row\")", tables))
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if root == nil {
		return fault.Invalid(field, "has no <html> element")
	}
	if l, _ := attrOf(root, "lang"); strings.TrimSpace(l) == "" && lang == "" {
		problems = append([]string{"the page has no language: write it on the root element, such as <html lang=\"en\">"}, problems...)
	}
	if title == nil || strings.TrimSpace(textOf(title)) == "" {
		problems = append([]string{"the page has no title: add <title>…</title> in <head>; readers show it as the document's name"}, problems...)
	}
	if len(problems) == 0 {
		return nil
	}
	msg := "cannot be made accessible (PDF/UA-1): " + problems[0]
	if len(problems) > 1 {
		msg += fmt.Sprintf(" (and %d more: %s)", len(problems)-1, strings.Join(problems[1:], "; "))
	}
	return fault.Invalid(field, "%s", msg)
}

func attrOf(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasDescendant(n *html.Node, a atom.Atom) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.DataAtom == a || c.DataAtom != atom.Table && hasDescendant(c, a)) {
			return true
		}
	}
	return false
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// withLang gives a page that names no language the manifest's locale: a
// tagged document's language, which PDF/UA needs, from the formatting
// helpers' locale.
func withLang(page, lang string) string {
	if lang == "" {
		return page
	}
	loc := htmlOpenRE.FindStringIndex(page)
	if loc == nil || strings.Contains(strings.ToLower(page[loc[0]:loc[1]]), "lang=") {
		return page
	}
	end := loc[1] - 1 // the tag's '>'
	return page[:end] + ` lang="` + html.EscapeString(lang) + `"` + page[end:]
}

// CheckAccessibleVersion fills the version with data and checks the
// result (CheckAccessible): a version asking for PDF/UA is checked with its
// sample data when it is saved, and a request asking for it with its own.
func (r *Renderer) CheckAccessibleVersion(v *Checked, data map[string]any, field string) error {
	filled, err := Fill(v, data, FillOptions{Limits: r.cfg.Fill})
	if err != nil {
		return nil // the fill's own refusal comes from the render
	}
	return checkAccessible(Document(filled, v.Manifest.Geometry(), ""), field, v.Manifest.Locale)
}
