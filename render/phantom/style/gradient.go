package style

import (
	"math"
	"strings"

	"golang.org/x/net/html/atom"
)

// linearGradient reads a linear-gradient() of opaque colours (CSS Images 3
// §3.1): a direction (an angle, or "to" a side or corner) and two or more
// colour stops, each with up to two positions. Transparent stops,
// interpolation hints and repeating gradients are not phantom's: false.
func (st *state) linearGradient(t *tok) (*Gradient, bool) {
	repeating := false
	switch t.k {
	case "linear-gradient", "-webkit-linear-gradient":
	case "repeating-linear-gradient", "-webkit-repeating-linear-gradient":
		repeating = true
	default:
		return nil, false
	}
	legacy := strings.HasPrefix(t.k, "-webkit-")
	args := fnArgs(t)
	if len(args) < 2 {
		return nil, false
	}
	g := &Gradient{Angle: math.Pi, Repeating: repeating}
	first := args[0]
	switch {
	case len(first) == 1 && (first[0].kind == tDim || first[0].kind == tNumber && first[0].n == 0):
		a, ok := angle(&first[0])
		if !ok {
			return nil, false
		}
		if legacy {
			a = math.Pi/2 - a // -webkit- angles run counter-clockwise from the right
		}
		g.Angle = a
		args = args[1:]
	case len(first) >= 1 && first[0].isIdent("to") && !legacy || legacy && first[0].kind == tIdent && !isColorIdent(first[0].k):
		sides := first
		if !legacy {
			sides = first[1:]
		}
		if len(sides) < 1 || len(sides) > 2 {
			return nil, false
		}
		x, y := 0, 0
		for i := range sides {
			switch kw1(sides[i : i+1]) {
			case "left":
				x = -1
			case "right":
				x = 1
			case "top":
				y = -1
			case "bottom":
				y = 1
			default:
				return nil, false
			}
		}
		if legacy {
			x, y = -x, -y // -webkit- names the side the gradient starts from
		}
		if len(sides) == 2 && (x == 0 || y == 0) {
			return nil, false
		}
		switch {
		case x != 0 && y != 0:
			g.Corner, g.CornerX, g.CornerY = true, x, y
		case x == 1:
			g.Angle = math.Pi / 2
		case x == -1:
			g.Angle = 3 * math.Pi / 2
		case y == -1:
			g.Angle = 0
		default:
			g.Angle = math.Pi
		}
		args = args[1:]
	}
	for _, a := range args {
		if len(a) < 1 || len(a) > 3 {
			return nil, false
		}
		c, ok := parseColor(&a[0])
		if !ok {
			return nil, false
		}
		col := c.c
		if c.current {
			col = st.c.Color
		}
		if col.A < 1 {
			return nil, false
		}
		stop := GradientStop{Color: col}
		for i := 1; i < len(a); i++ {
			l, ok, calcErr := st.len().length(&a[i], allowPct|allowNegative)
			if !ok || calcErr {
				return nil, false
			}
			stop.Pos, stop.HasPos = l, true
			g.Stops = append(g.Stops, stop)
		}
		if len(a) == 1 {
			g.Stops = append(g.Stops, stop)
		}
	}
	return g, len(g.Stops) >= 2
}

// isColorIdent reports whether k names a colour rather than a side.
func isColorIdent(k string) bool {
	switch k {
	case "left", "right", "top", "bottom":
		return false
	}
	return true
}

// isRootOrBody reports whether the element styled is <html> or <body>,
// whose backgrounds paint the canvas (phantom's canvas paints no gradient).
func (st *state) isRootOrBody() bool {
	n := st.node
	return n != nil && (n.DataAtom == atom.Html || n.DataAtom == atom.Body)
}
