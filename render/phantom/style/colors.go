package style

import (
	"math"

	"github.com/platen/platen/render/phantom/draw"
)

// colorResult is a parsed colour: a value, or currentColor (resolved
// against the element's color once that is known).
type colorResult struct {
	c       draw.Color
	current bool
}

// parseColor parses a <color>.
func parseColor(t *tok) (colorResult, bool) {
	switch t.kind {
	case tIdent:
		switch t.k {
		case "currentcolor":
			return colorResult{current: true}, true
		case "transparent":
			return colorResult{}, true
		}
		if v, ok := namedColors[t.k]; ok {
			return colorResult{c: rgb8(v>>16, v>>8&0xff, v&0xff, 255)}, true
		}
		if v, ok := systemColors[t.k]; ok {
			return colorResult{c: rgb8(v>>16, v>>8&0xff, v&0xff, 255)}, true
		}
	case tHash:
		return parseHex(t.s)
	case tFunc:
		return parseColorFunc(t)
	}
	return colorResult{}, false
}

func rgb8(r, g, b, a uint32) draw.Color {
	return draw.Color{R: float64(r&0xff) / 255, G: float64(g&0xff) / 255, B: float64(b&0xff) / 255, A: float64(a&0xff) / 255}
}

// quant rounds a channel in [0, 1] to 8 bits, as Chromium stores and
// paints legacy sRGB colours.
func quant(v float64) float64 {
	if math.IsNaN(v) || v <= 0 {
		return 0
	}
	if v >= 1 {
		return 1
	}
	// The epsilon rounds halves up despite floating-point error
	// (hsl(200 80% 50%) has a red of exactly 25.5, which Chromium rounds
	// to 26).
	return math.Floor(v*255+0.5+1e-7) / 255
}

func parseHex(s string) (colorResult, bool) {
	var d [8]uint32
	if len(s) != 3 && len(s) != 4 && len(s) != 6 && len(s) != 8 {
		return colorResult{}, false
	}
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return colorResult{}, false
		}
		d[i] = uint32(hexVal(s[i]))
	}
	switch len(s) {
	case 3:
		return colorResult{c: rgb8(d[0]*17, d[1]*17, d[2]*17, 255)}, true
	case 4:
		return colorResult{c: rgb8(d[0]*17, d[1]*17, d[2]*17, d[3]*17)}, true // #rgba: alpha in 8 bits
	case 6:
		return colorResult{c: rgb8(d[0]<<4|d[1], d[2]<<4|d[3], d[4]<<4|d[5], 255)}, true
	}
	return colorResult{c: rgb8(d[0]<<4|d[1], d[2]<<4|d[3], d[4]<<4|d[5], d[6]<<4|d[7])}, true
}

// colorArgs splits a colour function's arguments in either syntax: commas
// ("rgb(1, 2, 3, 0.5)") or spaces with a slash before alpha ("rgb(1 2 3 /
// 50%)"). It returns the components and the alpha token (nil for none).
func colorArgs(args []tok) (comp []*tok, alpha *tok, ok bool) {
	hasComma := false
	for i := range args {
		if args[i].isComma() {
			hasComma = true
			break
		}
	}
	if hasComma {
		for i, part := range splitCommas(args) {
			if len(part) != 1 {
				return nil, nil, false
			}
			if i == 3 {
				alpha = &part[0]
				continue
			}
			if i > 3 {
				return nil, nil, false
			}
			comp = append(comp, &part[0])
		}
		return comp, alpha, len(comp) == 3
	}
	for i := range args {
		switch {
		case args[i].isDelim("/"):
			if alpha != nil || i+2 != len(args) {
				return nil, nil, false
			}
			alpha = &args[i+1]
			return comp, alpha, len(comp) == 3
		default:
			comp = append(comp, &args[i])
		}
	}
	return comp, nil, len(comp) == 3
}

// alphaOf reads an alpha value: a number or a percentage; none is 0.
func alphaOf(t *tok) (float64, bool) {
	if t == nil {
		return 1, true
	}
	switch t.kind {
	case tNumber:
		return clamp01(t.n), true
	case tPercent:
		return clamp01(t.n / 100), true
	case tIdent:
		if t.k == "none" {
			return 0, true
		}
	case tFunc:
		var lc lenCtx
		if v, ok := lc.calc(t.k, t.args, 0); ok && (v.isNum || v.hasPct && v.px == 0) {
			if v.isNum {
				return clamp01(v.num), true
			}
			return clamp01(v.pct / 100), true
		}
	}
	return 0, false
}

func clamp01(v float64) float64 {
	if math.IsNaN(v) || v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// compNum reads one colour component as a number, or a percentage of
// pctScale; none is 0.
func compNum(t *tok, pctScale float64) (float64, bool) {
	switch t.kind {
	case tNumber:
		return t.n, true
	case tPercent:
		return t.n / 100 * pctScale, true
	case tIdent:
		if t.k == "none" {
			return 0, true
		}
	case tFunc:
		var lc lenCtx
		if v, ok := lc.calc(t.k, t.args, 0); ok {
			if v.isNum {
				return v.num, true
			}
			if v.hasPct && v.px == 0 {
				return v.pct / 100 * pctScale, true
			}
		}
	}
	return 0, false
}

// hueOf reads a hue in degrees.
func hueOf(t *tok) (float64, bool) {
	switch t.kind {
	case tNumber:
		return t.n, true
	case tDim:
		switch t.k {
		case "deg":
			return t.n, true
		case "rad":
			return t.n * 180 / math.Pi, true
		case "grad":
			return t.n * 0.9, true
		case "turn":
			return t.n * 360, true
		}
	case tIdent:
		if t.k == "none" {
			return 0, true
		}
	}
	return 0, false
}

func parseColorFunc(t *tok) (colorResult, bool) {
	comp, alphaTok, ok := colorArgs(t.args)
	if !ok {
		return colorResult{}, false
	}
	a, ok := alphaOf(alphaTok)
	if !ok {
		return colorResult{}, false
	}
	var r, g, b float64
	switch t.k {
	case "rgb", "rgba":
		var v [3]float64
		for i, c := range comp {
			x, ok := compNum(c, 255)
			if !ok {
				return colorResult{}, false
			}
			v[i] = x / 255
		}
		r, g, b = v[0], v[1], v[2]
	case "hsl", "hsla":
		h, ok1 := hueOf(comp[0])
		s, ok2 := compNum(comp[1], 100)
		l, ok3 := compNum(comp[2], 100)
		if !ok1 || !ok2 || !ok3 {
			return colorResult{}, false
		}
		r, g, b = hslToRGB(h, clamp01(s/100), clamp01(l/100))
	case "hwb":
		h, ok1 := hueOf(comp[0])
		w, ok2 := compNum(comp[1], 100)
		bl, ok3 := compNum(comp[2], 100)
		if !ok1 || !ok2 || !ok3 {
			return colorResult{}, false
		}
		w, bl = clamp01(w/100), clamp01(bl/100)
		if w+bl >= 1 {
			gray := w / (w + bl)
			r, g, b = gray, gray, gray
		} else {
			r, g, b = hslToRGB(h, 1, 0.5)
			r = r*(1-w-bl) + w
			g = g*(1-w-bl) + w
			b = b*(1-w-bl) + w
		}
	case "oklab", "oklch", "lab", "lch":
		x, ok1 := compNum(comp[0], labScale(t.k, 0))
		y, ok2 := compNum(comp[1], labScale(t.k, 1))
		var z float64
		var ok3 bool
		if t.k == "oklch" || t.k == "lch" {
			z, ok3 = hueOf(comp[2])
		} else {
			z, ok3 = compNum(comp[2], labScale(t.k, 2))
		}
		if !ok1 || !ok2 || !ok3 {
			return colorResult{}, false
		}
		r, g, b = labToSRGB(t.k, x, y, z)
	default:
		return colorResult{}, false
	}
	return colorResult{c: draw.Color{R: quant(r), G: quant(g), B: quant(b), A: quantAlpha(a)}}, true
}

// quantAlpha keeps alpha as Chromium computes it: unrounded (only the
// legacy sRGB channels are rounded to 8 bits).
func quantAlpha(a float64) float64 { return clamp01(a) }

func hslToRGB(h, s, l float64) (float64, float64, float64) {
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	f := func(n float64) float64 {
		k := math.Mod(n+h/30, 12)
		a := s * math.Min(l, 1-l)
		return l - a*math.Max(-1, math.Min(math.Min(k-3, 9-k), 1))
	}
	return f(0), f(8), f(4)
}

// labScale is what 100% means for each component of the Lab-like spaces.
func labScale(fn string, i int) float64 {
	switch fn {
	case "oklab":
		return [3]float64{1, 0.4, 0.4}[i]
	case "oklch":
		return [3]float64{1, 0.4, 0}[i]
	case "lab":
		return [3]float64{100, 125, 125}[i]
	}
	return [3]float64{100, 150, 0}[i] // lch
}

// labToSRGB converts oklab, oklch, lab and lch (CSS Color 4, section 17)
// to gamma-encoded sRGB, clipped.
func labToSRGB(fn string, x, y, z float64) (float64, float64, float64) {
	var lr, lg, lb float64
	switch fn {
	case "oklch", "lch":
		c, h := math.Max(y, 0), z*math.Pi/180
		y, z = c*math.Cos(h), c*math.Sin(h)
	}
	switch fn {
	case "oklab", "oklch":
		l := x
		l_ := l + 0.3963377773761749*y + 0.2158037573099136*z
		m_ := l - 0.1055613458156586*y - 0.0638541728258133*z
		s_ := l - 0.0894841775298119*y - 1.2914855480194092*z
		l3, m3, s3 := l_*l_*l_, m_*m_*m_, s_*s_*s_
		lr = 4.0767416621*l3 - 3.3077115913*m3 + 0.2309699292*s3
		lg = -1.2684380046*l3 + 2.6097574011*m3 - 0.3413193965*s3
		lb = -0.0041960863*l3 - 0.7034186147*m3 + 1.7076147010*s3
	default: // lab, lch: CIE Lab D50 → XYZ D50 → XYZ D65 → linear sRGB
		const k, e = 24389.0 / 27, 216.0 / 24389
		f1 := (x + 16) / 116
		f0 := y/500 + f1
		f2 := f1 - z/200
		xr := f0 * f0 * f0
		if xr <= e {
			xr = (116*f0 - 16) / k
		}
		yr := f1 * f1 * f1
		if x <= k*e {
			yr = x / k
		}
		zr := f2 * f2 * f2
		if zr <= e {
			zr = (116*f2 - 16) / k
		}
		X, Y, Z := xr*0.3457/0.3585, yr, zr*(1-0.3457-0.3585)/0.3585
		X65 := 0.955473421488075*X - 0.02309845494876471*Y + 0.06325924320057072*Z
		Y65 := -0.0283697093338637*X + 1.0099953980813041*Y + 0.021041441191917323*Z
		Z65 := 0.012314014864481998*X - 0.020507649298898964*Y + 1.330365926242124*Z
		lr = 3.2409699419045226*X65 - 1.537383177570094*Y65 - 0.4986107602930034*Z65
		lg = -0.9692436362808796*X65 + 1.8759675015077202*Y65 + 0.04155505740717559*Z65
		lb = 0.05563007969699366*X65 - 0.20397695888897652*Y65 + 1.0569715142428786*Z65
	}
	enc := func(v float64) float64 {
		s := 1.0
		if v < 0 {
			s, v = -1, -v
		}
		if v <= 0.0031308 {
			return s * 12.92 * v
		}
		return s * (1.055*math.Pow(v, 1/2.4) - 0.055)
	}
	return enc(lr), enc(lg), enc(lb)
}

// systemColors are the CSS system colours as Chromium's light scheme
// paints them.
var systemColors = map[string]uint32{
	"canvas": 0xffffff, "canvastext": 0x000000, "linktext": 0x0000ee, "visitedtext": 0x551a8b,
	"activetext": 0xff0000, "buttonface": 0xefefef, "buttontext": 0x000000, "buttonborder": 0x767676,
	"field": 0xffffff, "fieldtext": 0x000000, "highlight": 0xb5d5ff, "highlighttext": 0x000000,
	"selecteditem": 0x0075ff, "selecteditemtext": 0xffffff, "mark": 0xffff00, "marktext": 0x000000,
	"graytext": 0x808080, "accentcolor": 0x0075ff, "accentcolortext": 0xffffff,
	"-webkit-link": 0x0000ee, "-webkit-activelink": 0xff0000, "-webkit-focus-ring-color": 0x101010,
	"threedface": 0xf0f0f0, "buttonhighlight": 0xf0f0f0, "buttonshadow": 0xa0a0a0, "threedshadow": 0xa0a0a0,
	"threedhighlight": 0xdedede, "threeddarkshadow": 0x696969, "threedlightshadow": 0xc0c0c0,
	"window": 0xffffff, "windowtext": 0x000000, "windowframe": 0x646464, "menu": 0xf7f7f7, "menutext": 0x000000,
	"infobackground": 0xfbfcc5, "infotext": 0x000000, "scrollbar": 0xffffff, "background": 0x6363ce,
	"activeborder": 0xffffff, "inactiveborder": 0xffffff, "activecaption": 0xffffff, "inactivecaption": 0xffffff,
	"inactivecaptiontext": 0x808080, "captiontext": 0x000000, "appworkspace": 0xffffff,
}

// namedColors are the CSS named colours (CSS Color 4, section 6.1).
var namedColors = map[string]uint32{
	"aliceblue": 0xf0f8ff, "antiquewhite": 0xfaebd7, "aqua": 0x00ffff, "aquamarine": 0x7fffd4, "azure": 0xf0ffff,
	"beige": 0xf5f5dc, "bisque": 0xffe4c4, "black": 0x000000, "blanchedalmond": 0xffebcd, "blue": 0x0000ff,
	"blueviolet": 0x8a2be2, "brown": 0xa52a2a, "burlywood": 0xdeb887, "cadetblue": 0x5f9ea0, "chartreuse": 0x7fff00,
	"chocolate": 0xd2691e, "coral": 0xff7f50, "cornflowerblue": 0x6495ed, "cornsilk": 0xfff8dc, "crimson": 0xdc143c,
	"cyan": 0x00ffff, "darkblue": 0x00008b, "darkcyan": 0x008b8b, "darkgoldenrod": 0xb8860b, "darkgray": 0xa9a9a9,
	"darkgreen": 0x006400, "darkgrey": 0xa9a9a9, "darkkhaki": 0xbdb76b, "darkmagenta": 0x8b008b,
	"darkolivegreen": 0x556b2f, "darkorange": 0xff8c00, "darkorchid": 0x9932cc, "darkred": 0x8b0000,
	"darksalmon": 0xe9967a, "darkseagreen": 0x8fbc8f, "darkslateblue": 0x483d8b, "darkslategray": 0x2f4f4f,
	"darkslategrey": 0x2f4f4f, "darkturquoise": 0x00ced1, "darkviolet": 0x9400d3, "deeppink": 0xff1493,
	"deepskyblue": 0x00bfff, "dimgray": 0x696969, "dimgrey": 0x696969, "dodgerblue": 0x1e90ff,
	"firebrick": 0xb22222, "floralwhite": 0xfffaf0, "forestgreen": 0x228b22, "fuchsia": 0xff00ff,
	"gainsboro": 0xdcdcdc, "ghostwhite": 0xf8f8ff, "gold": 0xffd700, "goldenrod": 0xdaa520, "gray": 0x808080,
	"green": 0x008000, "greenyellow": 0xadff2f, "grey": 0x808080, "honeydew": 0xf0fff0, "hotpink": 0xff69b4,
	"indianred": 0xcd5c5c, "indigo": 0x4b0082, "ivory": 0xfffff0, "khaki": 0xf0e68c, "lavender": 0xe6e6fa,
	"lavenderblush": 0xfff0f5, "lawngreen": 0x7cfc00, "lemonchiffon": 0xfffacd, "lightblue": 0xadd8e6,
	"lightcoral": 0xf08080, "lightcyan": 0xe0ffff, "lightgoldenrodyellow": 0xfafad2, "lightgray": 0xd3d3d3,
	"lightgreen": 0x90ee90, "lightgrey": 0xd3d3d3, "lightpink": 0xffb6c1, "lightsalmon": 0xffa07a,
	"lightseagreen": 0x20b2aa, "lightskyblue": 0x87cefa, "lightslategray": 0x778899, "lightslategrey": 0x778899,
	"lightsteelblue": 0xb0c4de, "lightyellow": 0xffffe0, "lime": 0x00ff00, "limegreen": 0x32cd32,
	"linen": 0xfaf0e6, "magenta": 0xff00ff, "maroon": 0x800000, "mediumaquamarine": 0x66cdaa,
	"mediumblue": 0x0000cd, "mediumorchid": 0xba55d3, "mediumpurple": 0x9370db, "mediumseagreen": 0x3cb371,
	"mediumslateblue": 0x7b68ee, "mediumspringgreen": 0x00fa9a, "mediumturquoise": 0x48d1cc,
	"mediumvioletred": 0xc71585, "midnightblue": 0x191970, "mintcream": 0xf5fffa, "mistyrose": 0xffe4e1,
	"moccasin": 0xffe4b5, "navajowhite": 0xffdead, "navy": 0x000080, "oldlace": 0xfdf5e6, "olive": 0x808000,
	"olivedrab": 0x6b8e23, "orange": 0xffa500, "orangered": 0xff4500, "orchid": 0xda70d6,
	"palegoldenrod": 0xeee8aa, "palegreen": 0x98fb98, "paleturquoise": 0xafeeee, "palevioletred": 0xdb7093,
	"papayawhip": 0xffefd5, "peachpuff": 0xffdab9, "peru": 0xcd853f, "pink": 0xffc0cb, "plum": 0xdda0dd,
	"powderblue": 0xb0e0e6, "purple": 0x800080, "rebeccapurple": 0x663399, "red": 0xff0000,
	"rosybrown": 0xbc8f8f, "royalblue": 0x4169e1, "saddlebrown": 0x8b4513, "salmon": 0xfa8072,
	"sandybrown": 0xf4a460, "seagreen": 0x2e8b57, "seashell": 0xfff5ee, "sienna": 0xa0522d, "silver": 0xc0c0c0,
	"skyblue": 0x87ceeb, "slateblue": 0x6a5acd, "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xfffafa,
	"springgreen": 0x00ff7f, "steelblue": 0x4682b4, "tan": 0xd2b48c, "teal": 0x008080, "thistle": 0xd8bfd8,
	"tomato": 0xff6347, "turquoise": 0x40e0d0, "violet": 0xee82ee, "wheat": 0xf5deb3, "white": 0xffffff,
	"whitesmoke": 0xf5f5f5, "yellow": 0xffff00, "yellowgreen": 0x9acd32,
}
