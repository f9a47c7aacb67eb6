package images

import (
	"math"

	"github.com/boxesandglue/svgreader"

	"github.com/platen/platen/render/phantom/draw"
)

// kappa is the distance of a cubic's control points from its ends that best
// approximates a quarter circle of radius 1.
const kappa = 0.5522847498307936

// pathBuilder accumulates a draw.Path in user units.
type pathBuilder struct {
	p          draw.Path
	cur, start draw.Point
	open       bool // a subpath is in progress (MoveTo seen since the last Close)
	closed     bool // the last segment was a Close
}

func (b *pathBuilder) moveTo(x, y float64) {
	b.p = append(b.p, draw.Segment{Kind: draw.MoveTo, P: [3]draw.Point{{X: x, Y: y}}})
	b.cur, b.start = draw.Point{X: x, Y: y}, draw.Point{X: x, Y: y}
	b.open, b.closed = true, false
}

// ensure starts a new subpath at the current point after a Close, so that no
// writer has to guess where drawing after "h" starts.
func (b *pathBuilder) ensure() {
	if b.closed || !b.open {
		b.moveTo(b.cur.X, b.cur.Y)
	}
}

func (b *pathBuilder) lineTo(x, y float64) {
	b.ensure()
	b.p = append(b.p, draw.Segment{Kind: draw.LineTo, P: [3]draw.Point{{X: x, Y: y}}})
	b.cur = draw.Point{X: x, Y: y}
}

func (b *pathBuilder) cubicTo(x1, y1, x2, y2, x, y float64) {
	b.ensure()
	b.p = append(b.p, draw.Segment{Kind: draw.CubicTo, P: [3]draw.Point{{X: x1, Y: y1}, {X: x2, Y: y2}, {X: x, Y: y}}})
	b.cur = draw.Point{X: x, Y: y}
}

func (b *pathBuilder) quadTo(x1, y1, x, y float64) {
	c1x, c1y, c2x, c2y := svgreader.QuadToCubic(b.cur.X, b.cur.Y, x1, y1, x, y)
	b.cubicTo(c1x, c1y, c2x, c2y, x, y)
}

func (b *pathBuilder) close() {
	if b.open && !b.closed {
		b.p = append(b.p, draw.Segment{Kind: draw.Close})
		b.cur = b.start
		b.closed = true
	}
}

// arcTo appends an SVG elliptical arc as cubics, following the endpoint to
// centre conversion of SVG 2 (implementation notes B.2.4), with its
// out-of-range handling: no arc for equal ends, a line for a zero radius,
// and radii scaled up when too small.
func (b *pathBuilder) arcTo(rx, ry, phiDeg float64, large, sweep bool, x2, y2 float64) {
	x1, y1 := b.cur.X, b.cur.Y
	if x1 == x2 && y1 == y2 {
		return
	}
	rx, ry = math.Abs(rx), math.Abs(ry)
	if rx == 0 || ry == 0 {
		b.lineTo(x2, y2)
		return
	}
	sin, cos := math.Sincos(phiDeg * math.Pi / 180)
	dx, dy := (x1-x2)/2, (y1-y2)/2
	x1p := cos*dx + sin*dy
	y1p := -sin*dx + cos*dy
	if l := x1p*x1p/(rx*rx) + y1p*y1p/(ry*ry); l > 1 {
		s := math.Sqrt(l)
		rx, ry = rx*s, ry*s
	}
	num := rx*rx*ry*ry - rx*rx*y1p*y1p - ry*ry*x1p*x1p
	den := rx*rx*y1p*y1p + ry*ry*x1p*x1p
	co := 0.0
	if den > 0 && num > 0 {
		co = math.Sqrt(num / den)
	}
	if large == sweep {
		co = -co
	}
	cxp, cyp := co*rx*y1p/ry, -co*ry*x1p/rx
	cx := cos*cxp - sin*cyp + (x1+x2)/2
	cy := sin*cxp + cos*cyp + (y1+y2)/2
	ux, uy := (x1p-cxp)/rx, (y1p-cyp)/ry
	vx, vy := (-x1p-cxp)/rx, (-y1p-cyp)/ry
	theta := math.Atan2(uy, ux)
	delta := math.Atan2(ux*vy-uy*vx, ux*vx+uy*vy)
	if !sweep && delta > 0 {
		delta -= 2 * math.Pi
	} else if sweep && delta < 0 {
		delta += 2 * math.Pi
	}
	if math.IsNaN(delta) || math.IsNaN(cx) || math.IsNaN(cy) || math.IsInf(cx, 0) || math.IsInf(cy, 0) {
		b.lineTo(x2, y2)
		return
	}
	n := int(math.Ceil(math.Abs(delta)/(math.Pi/2) - 1e-9))
	n = max(1, min(n, 4))
	step := delta / float64(n)
	alpha := 4.0 / 3 * math.Tan(step/4)
	point := func(t float64) (x, y, dxt, dyt float64) {
		st, ct := math.Sincos(t)
		ex, ey := rx*ct, ry*st
		ddx, ddy := -rx*st, ry*ct
		return cos*ex - sin*ey + cx, sin*ex + cos*ey + cy, cos*ddx - sin*ddy, sin*ddx + cos*ddy
	}
	t := theta
	px, py, pdx, pdy := point(t)
	for i := range n {
		t2 := theta + float64(i+1)*step
		qx, qy, qdx, qdy := point(t2)
		if i == n-1 {
			qx, qy = x2, y2 // land exactly on the end point
		}
		b.cubicTo(px+alpha*pdx, py+alpha*pdy, qx-alpha*qdx, qy-alpha*qdy, qx, qy)
		px, py, pdx, pdy = qx, qy, qdx, qdy
	}
}

// ellipse appends a closed ellipse as four cubics, starting at its rightmost
// point and going clockwise on screen (y down), as Chromium's does.
func (b *pathBuilder) ellipse(cx, cy, rx, ry float64) {
	kx, ky := rx*kappa, ry*kappa
	b.moveTo(cx+rx, cy)
	b.cubicTo(cx+rx, cy+ky, cx+kx, cy+ry, cx, cy+ry)
	b.cubicTo(cx-kx, cy+ry, cx-rx, cy+ky, cx-rx, cy)
	b.cubicTo(cx-rx, cy-ky, cx-kx, cy-ry, cx, cy-ry)
	b.cubicTo(cx+kx, cy-ry, cx+rx, cy-ky, cx+rx, cy)
	b.close()
}

// roundRect appends a rectangle with elliptical corners (rx, ry already
// clamped to half the sides).
func (b *pathBuilder) roundRect(x, y, w, h, rx, ry float64) {
	if rx <= 0 || ry <= 0 {
		b.moveTo(x, y)
		b.lineTo(x+w, y)
		b.lineTo(x+w, y+h)
		b.lineTo(x, y+h)
		b.close()
		return
	}
	kx, ky := rx*kappa, ry*kappa
	b.moveTo(x+rx, y)
	b.lineTo(x+w-rx, y)
	b.cubicTo(x+w-rx+kx, y, x+w, y+ry-ky, x+w, y+ry)
	b.lineTo(x+w, y+h-ry)
	b.cubicTo(x+w, y+h-ry+ky, x+w-rx+kx, y+h, x+w-rx, y+h)
	b.lineTo(x+rx, y+h)
	b.cubicTo(x+rx-kx, y+h, x, y+h-ry+ky, x, y+h-ry)
	b.lineTo(x, y+ry)
	b.cubicTo(x, y+ry-ky, x+rx-kx, y, x+rx, y)
	b.close()
}

// parsePathData converts SVG path data to a draw.Path. As SVG requires, an
// error ends the path: what came before it is drawn. At most maxSegs
// segments are produced.
func parsePathData(d string, maxSegs int) draw.Path {
	var b pathBuilder
	i := 0
	skip := func() {
		for i < len(d) {
			switch d[i] {
			case ' ', '\t', '\n', '\r', '\f':
				i++
			default:
				return
			}
		}
	}
	skipComma := func() {
		skip()
		if i < len(d) && d[i] == ',' {
			i++
			skip()
		}
	}
	num := func() (float64, bool) {
		skipComma()
		v, n := scanNumber(d[i:])
		if n == 0 {
			return 0, false
		}
		i += n
		return v, true
	}
	flag := func() (bool, bool) {
		skipComma()
		if i < len(d) && (d[i] == '0' || d[i] == '1') {
			i++
			return d[i-1] == '1', true
		}
		return false, false
	}
	var cmd byte
	var lastCtrl draw.Point // reflected by S and T
	var lastKind byte       // 'C' after C/S, 'Q' after Q/T, 0 otherwise
	skip()
	for i < len(d) && len(b.p) < maxSegs {
		c := d[i]
		switch c {
		case 'M', 'm', 'L', 'l', 'H', 'h', 'V', 'v', 'C', 'c', 'S', 's', 'Q', 'q', 'T', 't', 'A', 'a', 'Z', 'z':
			cmd = c
			i++
		default:
			if cmd == 0 || cmd == 'Z' || cmd == 'z' {
				return b.p // numbers without a command
			}
			// Implicit repetition; after a moveto, linetos.
			if cmd == 'M' {
				cmd = 'L'
			} else if cmd == 'm' {
				cmd = 'l'
			}
		}
		if len(b.p) == 0 && cmd != 'M' && cmd != 'm' {
			return b.p // path data must begin with a moveto
		}
		rel := cmd >= 'a'
		ox, oy := 0.0, 0.0
		if rel {
			ox, oy = b.cur.X, b.cur.Y
		}
		kind := byte(0)
		switch cmd | 0x20 {
		case 'z':
			b.close()
		case 'm':
			x, ok1 := num()
			y, ok2 := num()
			if !ok1 || !ok2 {
				return b.p
			}
			b.moveTo(ox+x, oy+y)
		case 'l':
			x, ok1 := num()
			y, ok2 := num()
			if !ok1 || !ok2 {
				return b.p
			}
			b.lineTo(ox+x, oy+y)
		case 'h':
			x, ok := num()
			if !ok {
				return b.p
			}
			b.lineTo(ox+x, b.cur.Y)
		case 'v':
			y, ok := num()
			if !ok {
				return b.p
			}
			b.lineTo(b.cur.X, oy+y)
		case 'c':
			var a [6]float64
			for k := range a {
				v, ok := num()
				if !ok {
					return b.p
				}
				a[k] = v
			}
			b.cubicTo(ox+a[0], oy+a[1], ox+a[2], oy+a[3], ox+a[4], oy+a[5])
			lastCtrl, kind = draw.Point{X: ox + a[2], Y: oy + a[3]}, 'C'
		case 's':
			var a [4]float64
			for k := range a {
				v, ok := num()
				if !ok {
					return b.p
				}
				a[k] = v
			}
			c1 := b.cur
			if lastKind == 'C' {
				c1 = draw.Point{X: 2*b.cur.X - lastCtrl.X, Y: 2*b.cur.Y - lastCtrl.Y}
			}
			b.cubicTo(c1.X, c1.Y, ox+a[0], oy+a[1], ox+a[2], oy+a[3])
			lastCtrl, kind = draw.Point{X: ox + a[0], Y: oy + a[1]}, 'C'
		case 'q':
			var a [4]float64
			for k := range a {
				v, ok := num()
				if !ok {
					return b.p
				}
				a[k] = v
			}
			b.ensure()
			b.quadTo(ox+a[0], oy+a[1], ox+a[2], oy+a[3])
			lastCtrl, kind = draw.Point{X: ox + a[0], Y: oy + a[1]}, 'Q'
		case 't':
			x, ok1 := num()
			y, ok2 := num()
			if !ok1 || !ok2 {
				return b.p
			}
			c1 := b.cur
			if lastKind == 'Q' {
				c1 = draw.Point{X: 2*b.cur.X - lastCtrl.X, Y: 2*b.cur.Y - lastCtrl.Y}
			}
			b.ensure()
			b.quadTo(c1.X, c1.Y, ox+x, oy+y)
			lastCtrl, kind = c1, 'Q'
		case 'a':
			rx, ok1 := num()
			ry, ok2 := num()
			rot, ok3 := num()
			large, ok4 := flag()
			sweep, ok5 := flag()
			x, ok6 := num()
			y, ok7 := num()
			if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) {
				return b.p
			}
			b.arcTo(rx, ry, rot, large, sweep, ox+x, oy+y)
		}
		lastKind = kind
		skipComma()
	}
	return b.p
}
