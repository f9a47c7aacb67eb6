package images

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html/charset"
)

// Limits on an SVG document, so that hostile input cannot run away: how deep
// elements nest (libxml2, Chromium's XML parser, stops at 256 too), how many
// elements there are, and how much drawing <use> may multiply them into.
const (
	maxSVGDepth    = 256
	maxSVGElements = 100_000
	maxSVGOps      = 100_000
	maxSVGSegments = 1_000_000
	maxSVGVisits   = 200_000 // elements drawn, counting each <use> expansion
	maxUseDepth    = 32
	maxEntities    = 64
)

const (
	nsSVG   = "http://www.w3.org/2000/svg"
	nsXLink = "http://www.w3.org/1999/xlink"
)

// ErrSVGTooComplex is returned for an SVG over the nesting, element or
// drawing limits.
var ErrSVGTooComplex = errors.New("images: SVG too complex")

// node is one element of an SVG document, in the SVG namespace (elements of
// other namespaces are kept only as opaque nodes so ids and order hold).
type node struct {
	name     string // local name; "" when not in the SVG namespace
	attrs    []xml.Attr
	children []*node
	parent   *node
	text     strings.Builder // character data of a <style> or a "#text" node
	classes  []string
	id       string
	// matched caches the <style> rules matching this element.
	matched     []*cssRule
	matchedDone bool
}

// attr returns an attribute in no namespace (SVG's presentation attributes
// and geometry), or xlink:href for "href" when no plain href is set.
func (n *node) attr(name string) (string, bool) {
	var xlink string
	var hasXlink bool
	for _, a := range n.attrs {
		if a.Name.Local != name {
			continue
		}
		switch a.Name.Space {
		case "":
			return a.Value, true
		case nsXLink, "xlink":
			xlink, hasXlink = a.Value, true
		}
	}
	return xlink, hasXlink
}

// parseTree reads an SVG document into nodes, bounded in depth and count. The
// root must be <svg> in the SVG namespace, as Chromium requires for an SVG
// image. Internal DTD entities (Adobe Illustrator declares its namespaces
// so) are expanded. inline is for an <svg> of an HTML document serialised
// by html.Render: elements without a namespace are SVG's (the HTML parser
// put them there), and HTML's named character references are known.
func parseTree(data []byte, inline bool) (*node, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = charset.NewReaderLabel
	if inline {
		dec.Entity = xml.HTMLEntity
	}
	var root, cur *node
	depth, count := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: SVG: %v", ErrCorrupt, err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			if root == nil {
				if ents := dtdEntities(t); len(ents) > 0 {
					dec.Entity = ents
				}
			}
		case xml.StartElement:
			depth++
			count++
			if depth > maxSVGDepth {
				return nil, fmt.Errorf("%w: elements nested over %d deep", ErrSVGTooComplex, maxSVGDepth)
			}
			if count > maxSVGElements {
				return nil, fmt.Errorf("%w: over %d elements", ErrSVGTooComplex, maxSVGElements)
			}
			n := &node{attrs: t.Attr, parent: cur}
			if t.Name.Space == nsSVG || (inline && t.Name.Space == "") {
				n.name = t.Name.Local
			}
			for _, a := range t.Attr {
				if a.Name.Space != "" {
					continue
				}
				switch a.Name.Local {
				case "id":
					n.id = a.Value
				case "class":
					n.classes = strings.Fields(a.Value)
				}
			}
			if cur == nil {
				if root != nil {
					return nil, fmt.Errorf("%w: SVG: more than one root element", ErrCorrupt)
				}
				if n.name != "svg" {
					if t.Name.Local == "svg" {
						return nil, fmt.Errorf("%w: SVG: the root <svg> lacks xmlns=%q (Chromium draws nothing without it)", ErrCorrupt, nsSVG)
					}
					return nil, fmt.Errorf("%w: SVG: the root element is <%s>, not <svg>", ErrCorrupt, t.Name.Local)
				}
				root = n
			} else {
				cur.children = append(cur.children, n)
			}
			cur = n
		case xml.EndElement:
			depth--
			if cur != nil {
				cur = cur.parent
			}
		case xml.CharData:
			switch {
			case cur == nil:
			case cur.name == "style":
				cur.text.Write(t)
			case cur.name == "text" || cur.name == "tspan":
				// Text content: a child of its own, between the spans.
				if count++; count > maxSVGElements {
					return nil, fmt.Errorf("%w: over %d elements", ErrSVGTooComplex, maxSVGElements)
				}
				tn := &node{name: "#text", parent: cur}
				tn.text.Write(t)
				cur.children = append(cur.children, tn)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("%w: SVG: no <svg> element", ErrCorrupt)
	}
	return root, nil
}

// dtdEntities reads <!ENTITY name "value"> declarations from a DOCTYPE's
// internal subset. encoding/xml inserts their values as text, without
// expanding entities inside them, so no declaration can multiply.
func dtdEntities(d xml.Directive) map[string]string {
	s := string(d)
	if !strings.HasPrefix(s, "DOCTYPE") {
		return nil
	}
	var ents map[string]string
	for len(ents) < maxEntities {
		i := strings.Index(s, "<!ENTITY")
		if i < 0 {
			break
		}
		s = s[i+len("<!ENTITY"):]
		f := strings.TrimLeft(s, " \t\r\n")
		if strings.HasPrefix(f, "%") { // parameter entity: not for content
			continue
		}
		end := strings.IndexAny(f, " \t\r\n")
		if end <= 0 {
			break
		}
		name := f[:end]
		f = strings.TrimLeft(f[end:], " \t\r\n")
		if f == "" || (f[0] != '"' && f[0] != '\'') {
			continue
		}
		q := f[0]
		j := strings.IndexByte(f[1:], q)
		if j < 0 {
			break
		}
		if ents == nil {
			ents = make(map[string]string)
		}
		ents[name] = f[1 : 1+j]
		s = f[1+j:]
	}
	return ents
}
