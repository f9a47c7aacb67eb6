package images

import (
	"fmt"
	"math"
	"strings"

	"github.com/platen/platen/render/phantom/draw"
)

// What an SVG may use that phantom does not draw, as recorded in
// SVG.Dropped. The names are stable: the engine's support check reads them.
const (
	DropText          = "text"
	DropGradient      = "gradient"
	DropPattern       = "pattern"
	DropFilter        = "filter"
	DropMask          = "mask"
	DropMarker        = "marker"
	DropForeignObject = "foreignObject"
	DropClipPath      = "clip-path"    // a clip-path phantom cannot build
	DropCSSSelector   = "css:selector" // a <style> selector phantom does not match
	DropCSSTransform  = "css:transform"
	DropVectorEffect  = "vector-effect" // non-scaling-stroke
)

// converter turns a parsed SVG tree into ops in the root's user space.
type converter struct {
	ids     map[string]*node
	rules   []cssRule
	dropped []string
	ops     []draw.Op
	segs    int
	vw, vh  float64 // the nearest viewport's size, for percentages
	uses    []*node // the <use> elements being expanded, against cycles
	visits  int
	matches int // selector matches tried
	err     error
	// texts are the <text> elements, by where their glyphs go in ops.
	texts []svgText
}

// convertSVG parses an SVG document and converts it into an SVG.
func convertSVG(data []byte, inline bool) (*SVG, error) {
	root, err := parseTree(data, inline)
	if err != nil {
		return nil, err
	}
	s := &SVG{align: defaultAspect}
	if v, ok := root.attr("width"); ok {
		if l, ok := parseLength(v); ok && l.v > 0 {
			s.width, _ = l.absolute()
		}
	}
	if v, ok := root.attr("height"); ok {
		if l, ok := parseLength(v); ok && l.v > 0 {
			s.height, _ = l.absolute()
		}
	}
	disabled := false
	if v, ok := root.attr("viewBox"); ok {
		s.viewBox, s.hasViewBox = parseViewBox(v)
		disabled = viewBoxDisables(v)
	}
	if v, ok := root.attr("preserveAspectRatio"); ok {
		s.align = parseAspect(v)
	}

	c := &converter{ids: make(map[string]*node)}
	order := 0
	var walk func(n *node)
	walk = func(n *node) {
		if n.id != "" {
			if _, dup := c.ids[n.id]; !dup {
				c.ids[n.id] = n
			}
		}
		if n.name == "style" {
			rules, unsupported := parseCSS(n.text.String(), &order)
			c.rules = append(c.rules, rules...)
			if unsupported {
				c.drop(DropCSSSelector)
			}
		}
		for _, ch := range n.children {
			walk(ch)
		}
	}
	walk(root)

	switch {
	case s.hasViewBox:
		c.vw, c.vh = s.viewBox[2], s.viewBox[3]
	case s.width > 0 && s.height > 0:
		c.vw, c.vh = s.width, s.height
	default:
		c.vw, c.vh = 300, 150
	}
	if !disabled {
		c.element(root, initialStyle, true)
	}
	if c.err != nil {
		return nil, c.err
	}
	s.ops = c.ops
	s.texts = c.texts
	s.Dropped = c.dropped
	s.cost = 512 + 64*len(c.ops) + 56*c.segs
	return s, nil
}

func (c *converter) drop(what string) {
	for _, d := range c.dropped {
		if d == what {
			return
		}
	}
	c.dropped = append(c.dropped, what)
}

func (c *converter) emit(op draw.Op) {
	if len(c.ops) >= maxSVGOps {
		if c.err == nil {
			c.err = fmt.Errorf("%w: over %d drawing operations", ErrSVGTooComplex, maxSVGOps)
		}
		return
	}
	c.ops = append(c.ops, op)
}

// path converts a path's segments against the document's budget.
func (c *converter) countSegs(p draw.Path) bool {
	c.segs += len(p)
	if c.segs > maxSVGSegments {
		if c.err == nil {
			c.err = fmt.Errorf("%w: over %d path segments", ErrSVGTooComplex, maxSVGSegments)
		}
		return false
	}
	return true
}

func parseViewBox(v string) ([4]float64, bool) {
	f, ok := numberList(v, false)
	if !ok || len(f) != 4 || f[2] <= 0 || f[3] <= 0 {
		return [4]float64{}, false
	}
	return [4]float64{f[0], f[1], f[2], f[3]}, true
}

// viewBoxDisables reports a viewBox of zero width or height, which disables
// rendering of its element (a negative or malformed one is ignored instead).
func viewBoxDisables(v string) bool {
	f, ok := numberList(v, false)
	return ok && len(f) == 4 && f[2] >= 0 && f[3] >= 0 && (f[2] == 0 || f[3] == 0)
}

// parseAspect reads preserveAspectRatio: "[defer] <align> [meet | slice]".
func parseAspect(v string) aspect {
	f := strings.Fields(v)
	if len(f) > 0 && f[0] == "defer" {
		f = f[1:]
	}
	if len(f) == 0 || len(f) > 2 {
		return defaultAspect
	}
	a := defaultAspect
	if f[0] == "none" {
		a = aspect{none: true}
	} else {
		if len(f[0]) != 8 || f[0][0] != 'x' || f[0][4] != 'Y' {
			return defaultAspect
		}
		pos := map[string]float64{"Min": 0, "Mid": 0.5, "Max": 1}
		ax, ok1 := pos[f[0][1:4]]
		ay, ok2 := pos[f[0][5:8]]
		if !ok1 || !ok2 {
			return defaultAspect
		}
		a.ax, a.ay = ax, ay
	}
	if len(f) == 2 {
		switch f[1] {
		case "meet":
		case "slice":
			a.slice = true
		default:
			return defaultAspect
		}
	}
	return a
}

// num reads a geometry attribute as user units; def when absent or invalid.
func (c *converter) num(n *node, name string, a axis, def float64) float64 {
	v, ok := n.attr(name)
	if !ok {
		return def
	}
	l, ok := parseLength(v)
	if !ok {
		return def
	}
	return l.user(a, c.vw, c.vh)
}

// element converts n and its subtree. root is true for the outermost <svg>,
// whose viewport Draw sets up.
func (c *converter) element(n *node, parent svgStyle, root bool) {
	if c.err != nil || n.name == "" {
		return
	}
	if c.visits++; c.visits > maxSVGVisits {
		c.err = fmt.Errorf("%w: over %d elements drawn", ErrSVGTooComplex, maxSVGVisits)
		return
	}
	switch n.name {
	case "svg", "g", "a", "switch", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "use", "text":
	case "image":
	case "foreignObject":
		c.drop(DropForeignObject)
		return
	default:
		// defs, symbol, clipPath, gradients, style, title, metadata and
		// unknown elements draw nothing where they stand.
		return
	}
	st := c.computeStyle(n, parent)
	if st.displayNone || st.opacity == 0 {
		return
	}
	mark := len(c.ops)
	pushes := 0
	if v, ok := n.attr("transform"); ok {
		if m, ok := parseTransform(v); ok && m != identity {
			c.emit(draw.PushTransform{M: m})
			pushes++
		}
	}
	if st.cssTransform {
		c.drop(DropCSSTransform)
	}
	if st.clipPath != "" {
		clip, ok := c.clipPath(st.clipPath, n, st)
		if !ok {
			c.ops = c.ops[:mark]
			return // clipped to nothing
		}
		if clip != nil {
			c.emit(draw.PushClip{Path: clip})
			pushes++
		}
	}
	if st.mask != "" {
		c.drop(DropMask)
	}
	if st.filter {
		c.drop(DropFilter)
	}
	if st.opacity < 1 {
		c.emit(draw.PushOpacity{Alpha: st.opacity})
		pushes++
	}
	before, textsBefore := len(c.ops), len(c.texts)

	switch n.name {
	case "svg":
		if root {
			c.children(n, st)
		} else {
			c.viewport(n, st, n, 0, 0, false)
		}
	case "g", "a":
		c.children(n, st)
	case "switch":
		for _, ch := range n.children {
			if ch.name != "" && c.passesConditions(ch) {
				c.element(ch, st, false)
				break
			}
		}
	case "use":
		c.use(n, st)
	case "image":
		c.image(n, st)
	case "text":
		c.text(n, st)
	default:
		c.shape(n, st)
	}

	if len(c.ops) == before && len(c.texts) == textsBefore {
		c.ops = c.ops[:mark] // nothing drawn: no pushes either
		return
	}
	for range pushes {
		c.emit(draw.PopClip{})
	}
}

func (c *converter) children(n *node, st svgStyle) {
	for _, ch := range n.children {
		c.element(ch, st, false)
	}
}

// passesConditions evaluates a <switch> child's conditional attributes:
// phantom, like Chromium, has no extensions other than XHTML (which it
// cannot draw) and takes any systemLanguage.
func (c *converter) passesConditions(n *node) bool {
	if v, ok := n.attr("requiredExtensions"); ok {
		if strings.TrimSpace(v) != "http://www.w3.org/1999/xhtml" {
			return false
		}
	}
	if v, ok := n.attr("requiredFeatures"); ok && strings.TrimSpace(v) == "" {
		return false
	}
	return true
}

// viewport draws a nested <svg> or a <symbol> (vp) in a new viewport at
// (x, y), sized by size's width and height attributes (the <use> that
// placed it, or the element itself), clipped unless overflow is visible.
func (c *converter) viewport(size *node, st svgStyle, vp *node, x, y float64, fromUse bool) {
	if !fromUse {
		x = c.num(vp, "x", axisX, 0)
		y = c.num(vp, "y", axisY, 0)
	}
	w := c.num(size, "width", axisX, c.vw)
	h := c.num(size, "height", axisY, c.vh)
	if fromUse {
		if _, ok := size.attr("width"); !ok {
			w = c.num(vp, "width", axisX, c.vw)
		}
		if _, ok := size.attr("height"); !ok {
			h = c.num(vp, "height", axisY, c.vh)
		}
	}
	if w <= 0 || h <= 0 {
		return
	}
	pushes := 0
	if ov, _ := vp.attr("overflow"); ov != "visible" && ov != "auto" {
		c.emit(draw.PushClip{Path: rectPath(x, y, w, h)})
		pushes++
	}
	vb, hasVB := [4]float64{}, false
	if v, ok := vp.attr("viewBox"); ok {
		if vb, hasVB = parseViewBox(v); !hasVB && viewBoxDisables(v) {
			for range pushes {
				c.emit(draw.PopClip{})
			}
			return
		}
	}
	align := defaultAspect
	if v, ok := vp.attr("preserveAspectRatio"); ok {
		align = parseAspect(v)
	}
	m := [6]float64{1, 0, 0, 1, x, y}
	ovw, ovh := c.vw, c.vh
	if hasVB {
		m = viewBoxTransform(vb, align, draw.Rect{X: x, Y: y, W: w, H: h})
		c.vw, c.vh = vb[2], vb[3]
	} else {
		c.vw, c.vh = w, h
	}
	if m != [6]float64{1, 0, 0, 1, 0, 0} {
		c.emit(draw.PushTransform{M: m})
		pushes++
	}
	c.children(vp, st)
	c.vw, c.vh = ovw, ovh
	for range pushes {
		c.emit(draw.PopClip{})
	}
}

// use draws the element a <use> references, translated by its x and y, with
// the <use>'s style as the inherited one.
func (c *converter) use(n *node, st svgStyle) {
	href, _ := n.attr("href")
	href = strings.TrimSpace(href)
	if !strings.HasPrefix(href, "#") {
		return // external references never load in an image
	}
	t := c.ids[href[1:]]
	if t == nil || len(c.uses) >= maxUseDepth {
		return
	}
	for a := n; a != nil; a = a.parent {
		if a == t {
			return // a use inside what it references
		}
	}
	for _, u := range c.uses {
		if u == n {
			return
		}
	}
	c.uses = append(c.uses, n)
	defer func() { c.uses = c.uses[:len(c.uses)-1] }()
	x := c.num(n, "x", axisX, 0)
	y := c.num(n, "y", axisY, 0)
	switch t.name {
	case "symbol":
		tst := c.computeStyle(t, st)
		if tst.displayNone {
			return
		}
		c.viewport(n, tst, t, x, y, true)
	case "svg":
		tst := c.computeStyle(t, st)
		if tst.displayNone {
			return
		}
		c.viewport(n, tst, t, x+c.num(t, "x", axisX, 0), y+c.num(t, "y", axisY, 0), true)
	default:
		pushed := false
		if x != 0 || y != 0 {
			c.emit(draw.PushTransform{M: [6]float64{1, 0, 0, 1, x, y}})
			pushed = true
		}
		c.element(t, st, false)
		if pushed {
			c.emit(draw.PopClip{})
		}
	}
}

// image draws an <image>: a data: URI loaded like an <img> (an SVG image
// loads nothing else, in Chromium too), sized by width and height (auto: the
// image's own size, or the other one through its ratio) and placed in that
// viewport by preserveAspectRatio.
func (c *converter) image(n *node, st svgStyle) {
	if st.hidden {
		return
	}
	href, _ := n.attr("href")
	if !isDataURI(href) {
		return
	}
	img, err := Load(href)
	if err != nil {
		return
	}
	w, wOK := c.optNum(n, "width", axisX)
	h, hOK := c.optNum(n, "height", axisY)
	switch {
	case !wOK && !hOK:
		w, h = img.Width, img.Height
		if (w == 0 || h == 0) && img.Ratio > 0 { // an SVG with only a viewBox
			w, h = 300, 300/img.Ratio
		}
	case !hOK:
		h = img.Height
		if img.Ratio > 0 {
			h = w / img.Ratio
		}
	case !wOK:
		w = img.Width
		if img.Ratio > 0 {
			w = h * img.Ratio
		}
	}
	if !(w > 0 && h > 0) {
		return
	}
	vp := draw.Rect{X: c.num(n, "x", axisX, 0), Y: c.num(n, "y", axisY, 0), W: w, H: h}
	if img.SVG != nil {
		for _, op := range img.SVG.Draw(vp) {
			c.emit(op)
		}
		c.segs += img.SVG.cost / 64
		return
	}
	align := defaultAspect
	if v, ok := n.attr("preserveAspectRatio"); ok {
		align = parseAspect(v)
	}
	r := img.Raster
	m := viewBoxTransform([4]float64{0, 0, float64(r.Width), float64(r.Height)}, align, vp)
	dst := draw.Rect{X: m[4], Y: m[5], W: float64(r.Width) * m[0], H: float64(r.Height) * m[3]}
	if align.slice {
		c.emit(draw.PushClip{Path: rectPath(vp.X, vp.Y, vp.W, vp.H)})
		c.emit(draw.DrawImage{Image: r, Rect: dst})
		c.emit(draw.PopClip{})
		return
	}
	c.emit(draw.DrawImage{Image: r, Rect: dst})
}

// geometry returns a basic shape's or a path's outline in its user space,
// and whether it is a line (which has no inside to fill).
func (c *converter) geometry(n *node) (p draw.Path, line bool) {
	var b pathBuilder
	switch n.name {
	case "path":
		d, _ := n.attr("d")
		return parsePathData(d, maxSVGSegments-c.segs+1), false
	case "rect":
		x, y := c.num(n, "x", axisX, 0), c.num(n, "y", axisY, 0)
		w, h := c.num(n, "width", axisX, 0), c.num(n, "height", axisY, 0)
		if w <= 0 || h <= 0 {
			return nil, false
		}
		rx, rxOK := c.optNum(n, "rx", axisX)
		ry, ryOK := c.optNum(n, "ry", axisY)
		switch {
		case rxOK && !ryOK:
			ry = rx
		case ryOK && !rxOK:
			rx = ry
		}
		b.roundRect(x, y, w, h, min(max(rx, 0), w/2), min(max(ry, 0), h/2))
	case "circle":
		r := c.num(n, "r", axisDiag, 0)
		if r <= 0 {
			return nil, false
		}
		b.ellipse(c.num(n, "cx", axisX, 0), c.num(n, "cy", axisY, 0), r, r)
	case "ellipse":
		rx, rxOK := c.optNum(n, "rx", axisX)
		ry, ryOK := c.optNum(n, "ry", axisY)
		switch { // SVG 2: auto takes the other radius
		case rxOK && !ryOK:
			ry = rx
		case ryOK && !rxOK:
			rx = ry
		}
		if rx <= 0 || ry <= 0 {
			return nil, false
		}
		b.ellipse(c.num(n, "cx", axisX, 0), c.num(n, "cy", axisY, 0), rx, ry)
	case "line":
		b.moveTo(c.num(n, "x1", axisX, 0), c.num(n, "y1", axisY, 0))
		b.lineTo(c.num(n, "x2", axisX, 0), c.num(n, "y2", axisY, 0))
		return b.p, true
	case "polyline", "polygon":
		v, _ := n.attr("points")
		pts, _ := numberList(v, false)
		if len(pts)%2 == 1 {
			pts = pts[:len(pts)-1] // an odd count draws the pairs before it
		}
		if len(pts) < 2 {
			return nil, false
		}
		b.moveTo(pts[0], pts[1])
		for i := 2; i+1 < len(pts); i += 2 {
			b.lineTo(pts[i], pts[i+1])
		}
		if n.name == "polygon" {
			b.close()
		}
	}
	return b.p, false
}

// optNum reads a length attribute, telling whether it was given ("auto" and
// invalid values count as not given).
func (c *converter) optNum(n *node, name string, a axis) (float64, bool) {
	v, ok := n.attr(name)
	if !ok {
		return 0, false
	}
	l, ok := parseLength(v)
	if !ok {
		return 0, false
	}
	return l.user(a, c.vw, c.vh), true
}

// shape fills and strokes a basic shape or path.
func (c *converter) shape(n *node, st svgStyle) {
	p, line := c.geometry(n)
	if len(p) == 0 || !c.countSegs(p) {
		return
	}
	if st.hidden {
		return
	}
	if !line {
		if !c.gradientFill(n, p, st) {
			if col, ok := c.resolvePaint(st.fill, st, st.fillOpacity); ok {
				c.emit(draw.Fill{Path: p, Color: col, EvenOdd: st.evenOdd})
			}
		}
	}
	if w := st.strokeWidth.user(axisDiag, c.vw, c.vh); w > 0 {
		if col, ok := c.resolvePaint(st.stroke, st, st.strokeOpacity); ok {
			s := draw.Stroke{Path: p, Color: col, Width: w, Cap: st.cap, Join: st.join}
			if st.miterLimit != 4 {
				s.MiterLimit = st.miterLimit
			}
			if st.nonScaling {
				c.drop(DropVectorEffect)
			}
			s.Dash, s.DashPhase = c.dashes(st)
			c.emit(s)
		}
	}
	if st.markers && n.name != "rect" && n.name != "circle" && n.name != "ellipse" {
		c.drop(DropMarker)
	}
}

// dashes resolves stroke-dasharray and stroke-dashoffset to user units: an
// odd list is repeated, and a list summing to zero is solid.
func (c *converter) dashes(st svgStyle) ([]float64, float64) {
	if len(st.dash) == 0 {
		return nil, 0
	}
	out := make([]float64, 0, 2*len(st.dash))
	sum := 0.0
	for _, l := range st.dash {
		v := l.user(axisDiag, c.vw, c.vh)
		out = append(out, v)
		sum += v
	}
	if !(sum > 0) {
		return nil, 0
	}
	if len(out)%2 == 1 {
		out = append(out, out...)
	}
	return out, st.dashOffset.user(axisDiag, c.vw, c.vh)
}

// resolvePaint gives the colour a paint draws with, opacity multiplied in;
// ok is false when it draws nothing. A gradient is drawn as the mean of its
// stops and recorded as dropped; a pattern as its fallback colour.
func (c *converter) resolvePaint(p paint, st svgStyle, opacity float64) (draw.Color, bool) {
	var col draw.Color
	switch p.kind {
	case paintNone:
		return col, false
	case paintColor:
		col = p.c
	case paintCurrent:
		col = st.color
	case paintURL:
		t := c.ids[p.ref]
		switch {
		case t != nil && (t.name == "linearGradient" || t.name == "radialGradient"):
			c.drop(DropGradient)
			var ok bool
			if col, ok = c.gradientColor(t); !ok {
				return col, false
			}
		case t != nil && t.name == "pattern":
			c.drop(DropPattern)
			fallthrough
		default:
			if p.fallback == nil {
				return col, false
			}
			col = p.fallback.c
			if p.fallback.current {
				col = st.color
			}
		}
	}
	col.A *= opacity
	if col.A <= 0 {
		return col, false
	}
	return col, true
}

// gradientColor is the mean colour of a gradient's stops (following href to
// the gradient that holds them), weighted by stop opacity.
func (c *converter) gradientColor(g *node) (draw.Color, bool) {
	for range 8 {
		hasStops := false
		for _, ch := range g.children {
			if ch.name == "stop" {
				hasStops = true
				break
			}
		}
		if hasStops {
			break
		}
		href, _ := g.attr("href")
		next := c.ids[strings.TrimPrefix(strings.TrimSpace(href), "#")]
		if next == nil || !strings.HasSuffix(next.name, "Gradient") {
			return draw.Color{}, false
		}
		g = next
	}
	var r, gr, b, a float64
	count := 0
	for _, ch := range g.children {
		if ch.name != "stop" {
			continue
		}
		col, op := c.stopColor(ch)
		w := col.A * op
		r += col.R * w
		gr += col.G * w
		b += col.B * w
		a += w
		count++
	}
	if count == 0 || a <= 0 {
		return draw.Color{}, false
	}
	return draw.Color{R: r / a, G: gr / a, B: b / a, A: a / float64(count)}, true
}

// clipPath builds the clip of a clip-path="url(#id)" in the referencing
// element's user space: the union of its shapes' outlines. nil, true means
// no clip (an invalid reference is ignored, as in Chromium); ok false means
// everything is clipped away.
func (c *converter) clipPath(v string, n *node, st svgStyle) (draw.Path, bool) {
	if !strings.HasPrefix(v, "url(") {
		c.drop(DropClipPath) // basic shapes and geometry boxes
		return nil, true
	}
	p, _ := parsePaint(v)
	cp := c.ids[p.ref]
	if cp == nil || cp.name != "clipPath" {
		return nil, true
	}
	m := identity
	if tv, ok := cp.attr("transform"); ok {
		m, _ = parseTransform(tv)
	}
	if u, _ := cp.attr("clipPathUnits"); strings.TrimSpace(u) == "objectBoundingBox" {
		bx, ok := c.bbox(n)
		if !ok {
			return nil, false
		}
		m = matrix{bx.W, 0, 0, bx.H, bx.X, bx.Y}.Multiply(m)
	}
	if cv, ok := cp.attr("clip-path"); ok && cv != "none" {
		c.drop(DropClipPath)
	}
	var out draw.Path
	var add func(ch *node, m matrix, depth int)
	add = func(ch *node, m matrix, depth int) {
		if depth > maxUseDepth {
			return
		}
		cst := c.computeStyle(ch, st)
		if cst.displayNone || cst.hidden {
			return
		}
		if tv, ok := ch.attr("transform"); ok {
			t, _ := parseTransform(tv)
			m = m.Multiply(t)
		}
		switch ch.name {
		case "path", "rect", "circle", "ellipse", "polyline", "polygon":
			g, _ := c.geometry(ch)
			out = appendTransformed(out, g, m)
		case "use":
			href, _ := ch.attr("href")
			t := c.ids[strings.TrimPrefix(strings.TrimSpace(href), "#")]
			if t != nil && t != cp && t.name != "use" {
				x, y := c.num(ch, "x", axisX, 0), c.num(ch, "y", axisY, 0)
				add(t, m.Multiply(matrix{1, 0, 0, 1, x, y}), depth+1)
			}
		case "text":
			c.drop(DropText)
		}
	}
	for _, ch := range cp.children {
		if ch.name != "" {
			add(ch, m, 0)
		}
	}
	if len(out) == 0 {
		return nil, false
	}
	if !c.countSegs(out) {
		return nil, false
	}
	return out, true
}

// appendTransformed appends p with every point mapped by m.
func appendTransformed(out, p draw.Path, m matrix) draw.Path {
	for _, s := range p {
		for i := range s.P {
			x, y := m.TransformPoint(s.P[i].X, s.P[i].Y)
			s.P[i] = draw.Point{X: x, Y: y}
		}
		out = append(out, s)
	}
	return out
}

// bbox is the bounding box of an element's geometry in its user space (of
// control points: close enough for objectBoundingBox units).
func (c *converter) bbox(n *node) (draw.Rect, bool) {
	var p draw.Path
	var collect func(n *node, m matrix, depth int)
	collect = func(n *node, m matrix, depth int) {
		if depth > 64 {
			return
		}
		switch n.name {
		case "g", "a", "switch":
			for _, ch := range n.children {
				cm := m
				if tv, ok := ch.attr("transform"); ok {
					t, _ := parseTransform(tv)
					cm = m.Multiply(t)
				}
				collect(ch, cm, depth+1)
			}
		default:
			g, _ := c.geometry(n)
			p = appendTransformed(p, g, m)
		}
	}
	collect(n, identity, 0)
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, s := range p {
		k := 1
		if s.Kind == draw.CubicTo {
			k = 3
		} else if s.Kind == draw.Close {
			k = 0
		}
		for _, q := range s.P[:k] {
			minX, minY = min(minX, q.X), min(minY, q.Y)
			maxX, maxY = max(maxX, q.X), max(maxY, q.Y)
		}
	}
	if minX > maxX || minY > maxY {
		return draw.Rect{}, false
	}
	return draw.Rect{X: minX, Y: minY, W: maxX - minX, H: maxY - minY}, true
}

// stopColor is a <stop>'s stop-color and stop-opacity, from its
// attributes, the <style> rules and its style attribute.
func (c *converter) stopColor(s *node) (col draw.Color, op float64) {
	col, op = draw.Color{A: 1}, 1.0
	read := func(prop, v string) {
		v = strings.TrimSpace(v)
		switch prop {
		case "stop-color":
			if cv, ok := parseColor(v); ok && !cv.current {
				col = cv.c
			}
		case "stop-opacity":
			if x, ok := parseOpacity(v); ok {
				op = x
			}
		}
	}
	for _, at := range s.attrs {
		if at.Name.Space == "" {
			read(at.Name.Local, at.Value)
		}
	}
	for _, r := range c.matchedRules(s) {
		for _, d := range r.decls {
			read(d.prop, d.value)
		}
	}
	if v, ok := s.attr("style"); ok {
		for _, d := range parseDecls(v) {
			read(d.prop, d.value)
		}
	}
	return col, op
}
