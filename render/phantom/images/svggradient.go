package images

import (
	"math"
	"strconv"
	"strings"

	"github.com/platen/platen/render/phantom/draw"
)

// gradientFill fills a shape with the linear gradient its fill names, when
// phantom paints it as Chromium does: <linearGradient> (attributes and
// stops found through href), opaque stops, pad spreading, no
// gradientTransform, fill-opacity 1 and a nonzero fill rule. It reports
// false to leave the fill to resolvePaint (which paints what phantom does
// not as the stops' mean colour, and drops "gradient").
func (c *converter) gradientFill(n *node, p draw.Path, st svgStyle) bool {
	if st.fill.kind != paintURL || st.fillOpacity != 1 || st.evenOdd {
		return false
	}
	g := c.ids[st.fill.ref]
	if g == nil || g.name != "linearGradient" {
		return false
	}
	// Painted, and still dropped: the platform default gives the document
	// to Chromium, since the real template with one also needs table rows
	// broken in parallel, which phantom does not do yet.
	c.drop(DropGradient)
	// Attributes, and the stops, from the first element of the href chain
	// that has them.
	attrs := map[string]string{}
	var stops []*node
	for k := 0; g != nil && k < 8; k++ {
		for _, name := range []string{"x1", "y1", "x2", "y2", "gradientUnits", "gradientTransform", "spreadMethod"} {
			if _, seen := attrs[name]; !seen {
				if v, ok := g.attr(name); ok {
					attrs[name] = strings.TrimSpace(v)
				}
			}
		}
		if stops == nil {
			for _, ch := range g.children {
				if ch.name == "stop" {
					stops = append(stops, ch)
				}
			}
		}
		href, _ := g.attr("href")
		next := c.ids[strings.TrimPrefix(strings.TrimSpace(href), "#")]
		if next == nil || !strings.HasSuffix(next.name, "Gradient") || next == g {
			break
		}
		g = next
	}
	if attrs["gradientTransform"] != "" || attrs["spreadMethod"] != "" && attrs["spreadMethod"] != "pad" || len(stops) == 0 {
		return false
	}
	var gs []draw.GradientStop
	last := 0.0
	for _, s := range stops {
		col, op := c.stopColor(s)
		off := 0.0
		if col.A*op < 1 {
			return false // translucent stops: not phantom's
		}
		if v, ok := s.attr("offset"); ok {
			off = clamp01f(fraction(v))
		}
		if off < last {
			off = last
		}
		last = off
		gs = append(gs, draw.GradientStop{Offset: off, Color: col})
	}
	if len(gs) == 1 {
		c.emit(draw.Fill{Path: p, Color: gs[0].Color})
		return true
	}
	bbox := attrs["gradientUnits"] != "userSpaceOnUse"
	coord := func(name string, def float64, a axis) float64 {
		v, ok := attrs[name]
		if !ok {
			return def
		}
		if bbox {
			return fraction(v)
		}
		l, ok := parseLength(v)
		if !ok {
			return def
		}
		return l.user(a, c.vw, c.vh)
	}
	x1, y1 := coord("x1", 0, axisX), coord("y1", 0, axisY)
	x2, y2 := coord("x2", 1, axisX), coord("y2", 0, axisY)
	if !bbox {
		x2 = coord("x2", c.vw, axisX)
	}
	if x1 == x2 && y1 == y2 {
		// No vector: the area is painted in the last stop's colour.
		c.emit(draw.Fill{Path: p, Color: gs[len(gs)-1].Color})
		return true
	}
	// The shading's ends at the first and last stops, offsets within.
	t0, t1 := gs[0].Offset, gs[len(gs)-1].Offset
	if t1-t0 < 1e-9 {
		c.emit(draw.Fill{Path: p, Color: gs[len(gs)-1].Color})
		return true
	}
	for i := range gs {
		gs[i].Offset = (gs[i].Offset - t0) / (t1 - t0)
	}
	op := draw.LinearGradient{Path: p, X0: x1 + (x2-x1)*t0, Y0: y1 + (y2-y1)*t0, X1: x1 + (x2-x1)*t1, Y1: y1 + (y2-y1)*t1, Stops: gs}
	if !bbox {
		c.emit(op)
		return true
	}
	// objectBoundingBox: the gradient in the shape's box, painted through
	// the box's transform over the unit square, clipped to the shape.
	box, ok := c.bbox(n)
	if !ok || box.W <= 0 || box.H <= 0 {
		return false
	}
	op.Path = rectPath(0, 0, 1, 1)
	c.emit(draw.PushClip{Path: p})
	c.emit(draw.PushTransform{M: [6]float64{box.W, 0, 0, box.H, box.X, box.Y}})
	c.emit(op)
	c.emit(draw.PopClip{})
	c.emit(draw.PopClip{})
	return true
}

// fraction reads a number or percentage as a fraction (offset, and
// gradient coordinates in objectBoundingBox units).
func fraction(v string) float64 {
	v = strings.TrimSpace(v)
	pct := strings.HasSuffix(v, "%")
	v = strings.TrimSuffix(v, "%")
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	if pct {
		x /= 100
	}
	return x
}

// clamp01f keeps a stop offset within the gradient.
func clamp01f(x float64) float64 { return max(0, min(1, x)) }
