package images

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/platen/platen/render/phantom/draw"
)

type paintKind uint8

const (
	paintNone paintKind = iota
	paintColor
	paintCurrent
	paintURL
)

// paint is a fill or stroke value.
type paint struct {
	kind     paintKind
	c        draw.Color
	ref      string      // element id for paintURL
	fallback *colorValue // for paintURL: the colour after the url(), if any
}

// svgStyle is an element's computed style, for the properties phantom draws
// or must notice.
type svgStyle struct {
	// Inherited.
	fill, stroke               paint
	fillOpacity, strokeOpacity float64
	evenOdd                    bool
	strokeWidth                length
	cap                        draw.LineCap
	join                       draw.LineJoin
	dash                       []length // nil for solid
	dashOffset                 length
	color                      draw.Color
	miterLimit                 float64
	hidden                     bool
	markers                    bool
	// Text: font-family (nil for the default), font-size in px,
	// font-weight, italic, text-anchor (0 start, 1 middle, 2 end),
	// letter-spacing in px, dominant-baseline.
	fontFamily    []string
	fontSize      float64
	fontWeight    int
	italic        bool
	anchor        uint8
	letterSpacing float64
	baseline      string
	// Not inherited.
	opacity        float64
	displayNone    bool
	clipPath, mask string
	filter         bool
	cssTransform   bool
	nonScaling     bool // vector-effect: non-scaling-stroke
}

var initialStyle = svgStyle{
	fill:          paint{kind: paintColor, c: draw.Color{A: 1}},
	fillOpacity:   1,
	strokeOpacity: 1,
	strokeWidth:   length{v: 1},
	color:         draw.Color{A: 1},
	opacity:       1,
	miterLimit:    4,
	fontSize:      16,
	fontWeight:    400,
}

// child returns the style an element starts from: its parent's inherited
// properties, the others reset.
func (s svgStyle) child() svgStyle {
	s.opacity = 1
	s.displayNone = false
	s.clipPath, s.mask = "", ""
	s.filter = false
	s.cssTransform = false
	s.nonScaling = false
	return s
}

// presentation attributes are the properties that may also be written as
// attributes (SVG 2 §6.6); only these are read from attributes.
var presentation = map[string]bool{
	"fill": true, "fill-opacity": true, "fill-rule": true, "stroke": true, "stroke-width": true,
	"stroke-opacity": true, "stroke-linecap": true, "stroke-linejoin": true, "stroke-miterlimit": true,
	"stroke-dasharray": true, "stroke-dashoffset": true, "opacity": true, "color": true,
	"visibility": true, "display": true, "clip-path": true, "mask": true, "filter": true,
	"marker-start": true, "marker-mid": true, "marker-end": true, "vector-effect": true,
	"font-family": true, "font-size": true, "font-weight": true, "font-style": true, "text-anchor": true,
	"letter-spacing": true, "dominant-baseline": true,
}

// computeStyle resolves n's declarations over its parent's style: the
// presentation attributes, then <style> rules by specificity and order, then
// the style attribute, then !important rules and declarations.
func (c *converter) computeStyle(n *node, parent svgStyle) svgStyle {
	s := parent.child()
	for _, a := range n.attrs {
		if a.Name.Space == "" && presentation[a.Name.Local] {
			c.apply(&s, parent, a.Name.Local, a.Value, true)
		}
	}
	matched := c.matchedRules(n)
	var inline []cssDecl
	if st, ok := n.attr("style"); ok && st != "" {
		inline = parseDecls(st)
	}
	for _, important := range []bool{false, true} {
		for _, r := range matched {
			for _, d := range r.decls {
				if d.important == important {
					c.apply(&s, parent, d.prop, d.value, false)
				}
			}
		}
		for _, d := range inline {
			if d.important == important {
				c.apply(&s, parent, d.prop, d.value, false)
			}
		}
	}
	return s
}

// maxRuleMatches bounds the selector matching of one SVG: rules times
// elements can be large in a hostile file (each element is matched once).
const maxRuleMatches = 2_000_000

// matchedRules returns the <style> rules that match n, in cascade order
// (specificity, then source order), computed once per element.
func (c *converter) matchedRules(n *node) []*cssRule {
	if len(c.rules) == 0 {
		return nil
	}
	if n.matchedDone {
		return n.matched
	}
	n.matchedDone = true
	var matched []*cssRule
	for i := range c.rules {
		if c.matches++; c.matches > maxRuleMatches {
			if c.err == nil {
				c.err = fmt.Errorf("%w: over %d selector matches", ErrSVGTooComplex, maxRuleMatches)
			}
			return nil
		}
		if c.rules[i].matches(n) {
			matched = append(matched, &c.rules[i])
		}
	}
	if len(matched) > 1 {
		slices.SortStableFunc(matched, func(a, b *cssRule) int {
			return cmp.Or(cmp.Compare(a.spec, b.spec), cmp.Compare(a.order, b.order))
		})
	}
	n.matched = matched
	return matched
}

// apply sets one property; an invalid value is ignored, as CSS does.
func (c *converter) apply(s *svgStyle, parent svgStyle, prop, value string, attr bool) {
	value = strings.TrimSpace(value)
	if strings.EqualFold(value, "inherit") {
		c.inherit(s, parent, prop)
		return
	}
	switch prop {
	case "fill":
		if p, ok := parsePaint(value); ok {
			s.fill = p
		}
	case "stroke":
		if p, ok := parsePaint(value); ok {
			s.stroke = p
		}
	case "fill-opacity":
		if v, ok := parseOpacity(value); ok {
			s.fillOpacity = v
		}
	case "stroke-opacity":
		if v, ok := parseOpacity(value); ok {
			s.strokeOpacity = v
		}
	case "opacity":
		if v, ok := parseOpacity(value); ok {
			s.opacity = v
		}
	case "fill-rule":
		switch value {
		case "nonzero":
			s.evenOdd = false
		case "evenodd":
			s.evenOdd = true
		}
	case "stroke-width":
		if l, ok := parseLength(value); ok && l.v >= 0 {
			s.strokeWidth = l
		}
	case "stroke-linecap":
		switch value {
		case "butt":
			s.cap = 0
		case "round":
			s.cap = 1
		case "square":
			s.cap = 2
		}
	case "stroke-linejoin":
		switch value {
		case "miter", "miter-clip", "arcs":
			s.join = 0
		case "round":
			s.join = 1
		case "bevel":
			s.join = 2
		}
	case "stroke-miterlimit":
		if v, ok := parseNumber(value); ok && v >= 1 {
			s.miterLimit = v
		}
	case "vector-effect":
		s.nonScaling = value == "non-scaling-stroke"
	case "stroke-dasharray":
		s.dash = parseDashes(value)
	case "stroke-dashoffset":
		if l, ok := parseLength(value); ok {
			s.dashOffset = l
		}
	case "color":
		if cv, ok := parseColor(value); ok {
			if cv.current {
				s.color = parent.color
			} else {
				s.color = cv.c
			}
		}
	case "visibility":
		switch value {
		case "visible":
			s.hidden = false
		case "hidden", "collapse":
			s.hidden = true
		}
	case "display":
		s.displayNone = value == "none"
	case "clip-path":
		s.clipPath = value
		if value == "none" {
			s.clipPath = ""
		}
	case "mask":
		s.mask = value
		if value == "none" {
			s.mask = ""
		}
	case "filter":
		s.filter = value != "none"
	case "marker-start", "marker-mid", "marker-end", "marker":
		s.markers = value != "none"
	case "transform":
		if !attr {
			s.cssTransform = true
		}
	case "font-family":
		if f := parseFamilies(value); len(f) > 0 {
			s.fontFamily = f
		}
	case "font-size":
		if v, ok := fontSizeOf(value, parent.fontSize); ok {
			s.fontSize = v
		}
	case "font-weight":
		if w, ok := fontWeightOf(value, parent.fontWeight); ok {
			s.fontWeight = w
		}
	case "font-style":
		switch value {
		case "normal":
			s.italic = false
		case "italic", "oblique":
			s.italic = true
		}
	case "text-anchor":
		switch value {
		case "start":
			s.anchor = 0
		case "middle":
			s.anchor = 1
		case "end":
			s.anchor = 2
		}
	case "letter-spacing":
		if value == "normal" {
			s.letterSpacing = 0
		} else if l, ok := parseLength(value); ok && l.unit != "%" {
			if l.unit == "em" {
				s.letterSpacing = l.v * s.fontSize
			} else {
				s.letterSpacing, _ = l.absolute()
			}
		}
	case "dominant-baseline":
		s.baseline = value
	}
}

func (c *converter) inherit(s *svgStyle, p svgStyle, prop string) {
	switch prop {
	case "fill":
		s.fill = p.fill
	case "stroke":
		s.stroke = p.stroke
	case "fill-opacity":
		s.fillOpacity = p.fillOpacity
	case "stroke-opacity":
		s.strokeOpacity = p.strokeOpacity
	case "opacity":
		s.opacity = p.opacity
	case "fill-rule":
		s.evenOdd = p.evenOdd
	case "stroke-width":
		s.strokeWidth = p.strokeWidth
	case "stroke-linecap":
		s.cap = p.cap
	case "stroke-linejoin":
		s.join = p.join
	case "stroke-miterlimit":
		s.miterLimit = p.miterLimit
	case "stroke-dasharray":
		s.dash = p.dash
	case "stroke-dashoffset":
		s.dashOffset = p.dashOffset
	case "color":
		s.color = p.color
	case "visibility":
		s.hidden = p.hidden
	case "display":
		s.displayNone = p.displayNone
	case "font-family":
		s.fontFamily = p.fontFamily
	case "font-size":
		s.fontSize = p.fontSize
	case "font-weight":
		s.fontWeight = p.fontWeight
	case "font-style":
		s.italic = p.italic
	case "text-anchor":
		s.anchor = p.anchor
	case "letter-spacing":
		s.letterSpacing = p.letterSpacing
	case "dominant-baseline":
		s.baseline = p.baseline
	}
}

func parseOpacity(v string) (float64, bool) {
	if strings.HasSuffix(v, "%") {
		x, ok := parseNumber(v[:len(v)-1])
		return clamp01(x / 100), ok
	}
	x, ok := parseNumber(v)
	return clamp01(x), ok
}

// parsePaint reads "none", a colour, or "url(#id) [fallback]".
func parsePaint(v string) (paint, bool) {
	if v == "none" {
		return paint{kind: paintNone}, true
	}
	if strings.HasPrefix(v, "url(") {
		end := strings.IndexByte(v, ')')
		if end < 0 {
			return paint{}, false
		}
		ref := strings.Trim(strings.TrimSpace(v[4:end]), `"'`)
		p := paint{kind: paintURL, ref: strings.TrimPrefix(ref, "#")}
		if !strings.HasPrefix(ref, "#") {
			p.ref = "" // external references never resolve in an image
		}
		if rest := strings.TrimSpace(v[end+1:]); rest != "" {
			if rest == "none" {
				p.fallback = &colorValue{}
			} else if cv, ok := parseColor(rest); ok {
				p.fallback = &cv
			} else {
				return paint{}, false
			}
		}
		return p, true
	}
	cv, ok := parseColor(v)
	if !ok {
		return paint{}, false
	}
	if cv.current {
		return paint{kind: paintCurrent}, true
	}
	return paint{kind: paintColor, c: cv.c}, true
}

// parseDashes reads stroke-dasharray; nil (solid) for none or an invalid list.
func parseDashes(v string) []length {
	if v == "none" {
		return nil
	}
	var out []length
	for f := range strings.FieldsFuncSeq(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		l, ok := parseLength(f)
		if !ok || l.v < 0 {
			return nil
		}
		out = append(out, l)
	}
	return out
}
