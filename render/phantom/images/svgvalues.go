package images

import (
	"math"
	"strconv"
	"strings"

	"github.com/boxesandglue/svgreader"
	"golang.org/x/image/colornames"

	"github.com/platen/platen/render/phantom/draw"
)

// fontSize and xHeight are what em and ex resolve to in an SVG image: its
// root has Chromium's default font, 16px (an image does not inherit the
// page's), and Chromium's ex there measures 7.34375px.
const (
	fontSize = 16.0
	xHeight  = 7.34375
)

// scanNumber reads a CSS/SVG number at the start of s: sign, digits, a
// fraction and an exponent. It returns the value and the bytes read (0 when
// there is no number or it is not finite). strconv alone would take "NaN",
// "Inf" and hexadecimal forms, which SVG has not.
func scanNumber(s string) (float64, int) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, 0
	}
	return v, i
}

// parseNumber reads a whole string as one number.
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	v, n := scanNumber(s)
	return v, n > 0 && n == len(s)
}

// length is a number with its unit ("" for user units, "%" for percent).
type length struct {
	v    float64
	unit string
}

func parseLength(s string) (length, bool) {
	s = strings.TrimSpace(s)
	v, n := scanNumber(s)
	if n == 0 {
		return length{}, false
	}
	u := strings.ToLower(s[n:])
	switch u {
	case "", "px", "pt", "pc", "mm", "cm", "in", "q", "em", "rem", "ex", "%":
		return length{v, u}, true
	}
	return length{}, false
}

// axis says what a percentage is of: the viewport's width, height, or its
// normalised diagonal sqrt((w²+h²)/2).
type axis uint8

const (
	axisX axis = iota
	axisY
	axisDiag
)

// user converts a length to user units (px) in a viewport of vw x vh.
func (l length) user(a axis, vw, vh float64) float64 {
	switch l.unit {
	case "", "px":
		return l.v
	case "pt":
		return l.v * 96 / 72
	case "pc":
		return l.v * 16
	case "mm":
		return l.v * 96 / 25.4
	case "cm":
		return l.v * 96 / 2.54
	case "in":
		return l.v * 96
	case "q":
		return l.v * 96 / 101.6
	case "em", "rem":
		return l.v * fontSize
	case "ex":
		return l.v * xHeight
	case "%":
		switch a {
		case axisX:
			return l.v / 100 * vw
		case axisY:
			return l.v / 100 * vh
		default:
			return l.v / 100 * math.Sqrt((vw*vw+vh*vh)/2)
		}
	}
	return 0
}

// absolute converts a length that does not depend on a viewport (no %).
func (l length) absolute() (float64, bool) {
	if l.unit == "%" {
		return 0, false
	}
	return l.user(axisX, 0, 0), true
}

// numberList reads numbers separated by commas and/or spaces, as in points,
// viewBox and stroke-dasharray; ok is false on anything else.
func numberList(s string, units bool) ([]float64, bool) {
	var out []float64
	s = strings.TrimSpace(s)
	for len(s) > 0 {
		var v float64
		if units {
			end := strings.IndexAny(s, " ,\t\r\n")
			if end < 0 {
				end = len(s)
			}
			l, ok := parseLength(s[:end])
			if !ok {
				return out, false
			}
			v = l.user(axisDiag, 0, 0)
			if l.unit == "%" {
				return out, false
			}
			s = s[end:]
		} else {
			x, n := scanNumber(s)
			if n == 0 {
				return out, false
			}
			v = x
			s = s[n:]
		}
		out = append(out, v)
		s = strings.TrimLeft(s, " \t\r\n")
		if strings.HasPrefix(s, ",") {
			s = strings.TrimLeft(s[1:], " \t\r\n")
		}
	}
	return out, true
}

// matrix is an affine transform [a b c d e f], composed with svgreader's
// Matrix arithmetic.
type matrix = svgreader.Matrix

var identity = svgreader.Identity()

// parseTransform reads an SVG transform list. As in Chromium, a list with an
// error anywhere is ignored as a whole (identity), and so is one that would
// give a non-finite matrix.
func parseTransform(s string) (matrix, bool) {
	m := identity
	s = strings.TrimSpace(s)
	for s != "" {
		open := strings.IndexByte(s, '(')
		if open < 0 {
			return identity, false
		}
		name := strings.TrimSpace(s[:open])
		end := strings.IndexByte(s[open:], ')')
		if end < 0 {
			return identity, false
		}
		args, ok := numberList(s[open+1:open+end], false)
		if !ok {
			return identity, false
		}
		s = strings.TrimLeft(s[open+end+1:], " \t\r\n,")
		var t matrix
		switch {
		case name == "matrix" && len(args) == 6:
			t = matrix{args[0], args[1], args[2], args[3], args[4], args[5]}
		case name == "translate" && len(args) == 1:
			t = svgreader.Translate(args[0], 0)
		case name == "translate" && len(args) == 2:
			t = svgreader.Translate(args[0], args[1])
		case name == "scale" && len(args) == 1:
			t = svgreader.Scale(args[0], args[0])
		case name == "scale" && len(args) == 2:
			t = svgreader.Scale(args[0], args[1])
		case name == "rotate" && len(args) == 1:
			t = svgreader.Rotate(args[0])
		case name == "rotate" && len(args) == 3:
			t = svgreader.RotateAround(args[0], args[1], args[2])
		case name == "skewX" && len(args) == 1:
			t = svgreader.SkewX(args[0])
		case name == "skewY" && len(args) == 1:
			t = svgreader.SkewY(args[0])
		default:
			return identity, false
		}
		m = m.Multiply(t)
	}
	for _, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return identity, false
		}
	}
	return m, true
}

// colorValue is a parsed <color>: a colour, or currentColor.
type colorValue struct {
	c       draw.Color
	current bool
}

// parseColor reads a CSS colour: #hex (3, 4, 6, 8 digits), rgb[a](), hsl[a](),
// the named colours, transparent and currentColor.
func parseColor(s string) (colorValue, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return colorValue{}, false
	}
	if s[0] == '#' {
		return parseHex(s[1:])
	}
	ls := strings.ToLower(s)
	if open := strings.IndexByte(ls, '('); open > 0 && strings.HasSuffix(ls, ")") {
		return parseColorFunc(ls[:open], ls[open+1:len(ls)-1])
	}
	switch ls {
	case "currentcolor":
		return colorValue{current: true}, true
	case "transparent":
		return colorValue{}, true
	}
	if c, ok := colornames.Map[ls]; ok {
		return colorValue{c: draw.Color{R: float64(c.R) / 255, G: float64(c.G) / 255, B: float64(c.B) / 255, A: 1}}, true
	}
	return colorValue{}, false
}

func parseHex(h string) (colorValue, bool) {
	var d [8]byte
	for i := 0; i < len(h); i++ {
		v, ok := unhex(h[i])
		if !ok || i >= 8 {
			return colorValue{}, false
		}
		d[i] = v
	}
	var r, g, b, a byte
	switch len(h) {
	case 3, 4:
		r, g, b, a = d[0]*17, d[1]*17, d[2]*17, 255
		if len(h) == 4 {
			a = d[3] * 17
		}
	case 6, 8:
		r, g, b, a = d[0]<<4|d[1], d[2]<<4|d[3], d[4]<<4|d[5], 255
		if len(h) == 8 {
			a = d[6]<<4 | d[7]
		}
	default:
		return colorValue{}, false
	}
	return colorValue{c: draw.Color{R: float64(r) / 255, G: float64(g) / 255, B: float64(b) / 255, A: float64(a) / 255}}, true
}

func parseColorFunc(name, args string) (colorValue, bool) {
	var parts []string
	alpha := 1.0
	if slash := strings.IndexByte(args, '/'); slash >= 0 {
		a, ok := parseAlpha(strings.TrimSpace(args[slash+1:]))
		if !ok {
			return colorValue{}, false
		}
		alpha = a
		args = args[:slash]
	}
	if strings.Contains(args, ",") {
		parts = strings.Split(args, ",")
	} else {
		parts = strings.Fields(args)
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	if len(parts) == 4 {
		a, ok := parseAlpha(parts[3])
		if !ok {
			return colorValue{}, false
		}
		alpha = a
		parts = parts[:3]
	}
	if len(parts) != 3 {
		return colorValue{}, false
	}
	var c draw.Color
	switch name {
	case "rgb", "rgba":
		var v [3]float64
		for i, p := range parts {
			if strings.HasSuffix(p, "%") {
				x, ok := parseNumber(p[:len(p)-1])
				if !ok {
					return colorValue{}, false
				}
				v[i] = x / 100
			} else {
				x, ok := parseNumber(p)
				if !ok {
					return colorValue{}, false
				}
				v[i] = x / 255
			}
			v[i] = clamp01(v[i])
		}
		c = draw.Color{R: v[0], G: v[1], B: v[2]}
	case "hsl", "hsla":
		h, ok := parseHue(parts[0])
		if !ok {
			return colorValue{}, false
		}
		sat, ok1 := parseNumber(strings.TrimSuffix(parts[1], "%"))
		lig, ok2 := parseNumber(strings.TrimSuffix(parts[2], "%"))
		if !ok1 || !ok2 {
			return colorValue{}, false
		}
		c = hslToRGB(h, clamp01(sat/100), clamp01(lig/100))
	default:
		return colorValue{}, false
	}
	c.A = clamp01(alpha)
	return colorValue{c: c}, true
}

func parseAlpha(s string) (float64, bool) {
	if strings.HasSuffix(s, "%") {
		v, ok := parseNumber(s[:len(s)-1])
		return clamp01(v / 100), ok
	}
	v, ok := parseNumber(s)
	return clamp01(v), ok
}

func parseHue(s string) (float64, bool) {
	for _, u := range []struct {
		suffix string
		deg    float64
	}{{"deg", 1}, {"grad", 0.9}, {"rad", 180 / math.Pi}, {"turn", 360}, {"", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			v, ok := parseNumber(strings.TrimSuffix(s, u.suffix))
			if ok {
				return v * u.deg, true
			}
		}
	}
	return 0, false
}

func hslToRGB(h, s, l float64) draw.Color {
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	f := func(n float64) float64 {
		k := math.Mod(n+h/30, 12)
		a := s * min(l, 1-l)
		return l - a*max(-1, min(k-3, 9-k, 1))
	}
	return draw.Color{R: f(0), G: f(8), B: f(4)}
}

func clamp01(v float64) float64 {
	if !(v > 0) { // NaN too
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}
