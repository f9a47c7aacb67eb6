package layout

import (
	"math"
	"sync"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/style"
)

// Box shadows (CSS Backgrounds 3, 7.1), painted as Chromium prints them:
// an outer shadow below the box's background and only outside its border
// box, an inset one above the background and only inside its padding box.
// A shadow without blur is a filled shape; a blurred one is the shape's
// coverage blurred by a Gaussian of standard deviation blur/2, painted as
// an image of the shadow's colour whose alpha is that coverage (Chromium's
// PDF holds the same: a soft mask of the blurred shape).

// shadowScale is how many image pixels a blurred shadow has per CSS px, and
// maxShadowPixels bounds one shadow's image (the scale drops to fit).
// maxShadowPixelsDoc bounds them for a whole document (the images are
// kept until the PDF is written: 4 bytes a pixel, 64 MB).
const (
	shadowScale        = 2.0
	maxShadowPixels    = 4 << 20
	maxShadowPixelsDoc = 16 << 20
)

// boxShadows paints s's outer shadows (inset false) or inset ones, the last
// listed first, around the border box x, y, w, h with radii rr.
func (p *painter) boxShadows(s *style.Computed, inset bool, x, y, w, h float64, bd edges, rr [4][2]float64) {
	for i := len(s.BoxShadow) - 1; i >= 0; i-- {
		sh := s.BoxShadow[i]
		if sh.Inset != inset || sh.Color.A == 0 {
			continue
		}
		if inset {
			p.insetShadow(sh, x+bd[style.Left], y+bd[style.Top], w-bd.h(), h-bd.v(), innerRadii(rr, bd))
		} else {
			p.outerShadow(sh, x, y, w, h, rr)
		}
	}
}

// outerShadow paints one outer shadow of the border box.
func (p *painter) outerShadow(sh style.Shadow, x, y, w, h float64, rr [4][2]float64) {
	sx, sy, sw, shh := x+sh.X-sh.Spread, y+sh.Y-sh.Spread, w+2*sh.Spread, h+2*sh.Spread
	if sw <= 0 || shh <= 0 {
		return
	}
	sr := spreadRadii(rr, sh.Spread)
	margin := math.Ceil(1.5 * sh.Blur) // three standard deviations
	// Outside the border box only: a rectangle around the shadow and the
	// box, with the box cut out.
	ox0, oy0 := math.Min(sx, x)-margin-1, math.Min(sy, y)-margin-1
	ox1, oy1 := math.Max(sx+sw, x+w)+margin+1, math.Max(sy+shh, y+h)+margin+1
	clip := append(rectPath(ox0, oy0, ox1-ox0, oy1-oy0), roundedRectPath(x, y, w, h, rr)...)
	p.op(draw.PushClip{Path: clip, EvenOdd: true})
	if sh.Blur == 0 {
		p.op(draw.Fill{Path: roundedRectPath(sx, sy, sw, shh, sr), Color: sh.Color})
	} else {
		key := shadowKey{sh: sh, w: w, h: h, r: rr}
		p.blurred(key, sx-margin, sy-margin, sw+2*margin, shh+2*margin, 0, func(px, py float64) bool {
			return insideRounded(px, py, sx, sy, sw, shh, sr)
		})
	}
	p.op(draw.PopClip{})
}

// insetShadow paints one inset shadow inside the padding box x, y, w, h
// with radii rr: the shade outside the padding box moved by the offset and
// shrunk by the spread.
func (p *painter) insetShadow(sh style.Shadow, x, y, w, h float64, rr [4][2]float64) {
	if w <= 0 || h <= 0 {
		return
	}
	hx, hy, hw, hh := x+sh.X+sh.Spread, y+sh.Y+sh.Spread, w-2*sh.Spread, h-2*sh.Spread
	hr := spreadRadii(rr, -sh.Spread)
	p.op(draw.PushClip{Path: roundedRectPath(x, y, w, h, rr)})
	if sh.Blur == 0 {
		ring := rectPath(x-1, y-1, w+2, h+2)
		if hw > 0 && hh > 0 {
			ring = append(ring, roundedRectPath(hx, hy, hw, hh, hr)...)
		}
		p.op(draw.Fill{Path: ring, Color: sh.Color, EvenOdd: true})
	} else {
		key := shadowKey{sh: sh, w: w, h: h, r: rr}
		p.blurred(key, x, y, w, h, math.Ceil(1.5*sh.Blur), func(px, py float64) bool {
			return hw <= 0 || hh <= 0 || !insideRounded(px, py, hx, hy, hw, hh, hr)
		})
	}
	p.op(draw.PopClip{})
}

// shadowKey is what a blurred shadow's image depends on: the shadow and
// its box's size and radii (not where the box is: the image is drawn at
// the box). The inset flag is in the shadow.
type shadowKey struct {
	sh   style.Shadow
	w, h float64
	r    [4][2]float64
}

// shadowImage is a blurred shadow's image and the size it is drawn at.
type shadowImage struct {
	img  *draw.Image
	w, h float64
}

// blurred paints the shadow colour over the area x, y, w, h with an alpha
// of inside's coverage blurred by the shadow's Gaussian. ext widens the
// area sampled beyond the area painted (an inset shadow's shade comes from
// outside its box). The same key gives the same image, made once.
func (p *painter) blurred(key shadowKey, x, y, w, h, ext float64, inside func(px, py float64) bool) {
	sh := key.sh
	// A wide blur is smooth: one image pixel a CSS px is enough.
	k := shadowScale
	if sh.Blur > 8 {
		k = 1
	}
	if done, ok := p.l.shadows[key]; ok {
		p.op(draw.DrawImage{Image: done.img, Rect: draw.Rect{X: x, Y: y, W: done.w, H: done.h}})
		return
	}
	if done, ok := sharedShadows.get(key); ok {
		// Made for an earlier document: the same image, so the PDF
		// writer's cache of compressed images serves it too.
		if p.l.shadows == nil {
			p.l.shadows = map[shadowKey]shadowImage{}
		}
		p.l.shadows[key] = done
		p.op(draw.DrawImage{Image: done.img, Rect: draw.Rect{X: x, Y: y, W: done.w, H: done.h}})
		return
	}
	for (w+2*ext)*(h+2*ext)*k*k > maxShadowPixels && k > 0.25 {
		k /= 2
	}
	pad := int(math.Ceil(ext * k))
	iw, ih := int(math.Ceil(w*k)), int(math.Ceil(h*k))
	if iw <= 0 || ih <= 0 {
		return
	}
	fw, fh := iw+2*pad, ih+2*pad
	if p.l.shadowPixels += fw * fh; p.l.shadowPixels > maxShadowPixelsDoc {
		p.l.err = ErrTooManyShadowPixels
		return
	}
	cov := make([]float32, fw*fh)
	// Coverage, four samples a pixel.
	for j := 0; j < fh; j++ {
		for i := 0; i < fw; i++ {
			n := 0
			for _, o := range [4][2]float64{{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}} {
				if inside(x+(float64(i-pad)+o[0])/k, y+(float64(j-pad)+o[1])/k) {
					n++
				}
			}
			cov[j*fw+i] = float32(n) / 4
		}
	}
	gaussBlur(cov, fw, fh, sh.Blur/2*k)
	rgb := make([]byte, iw*ih*3)
	alpha := make([]byte, iw*ih)
	r, g, b := byte(math.Round(sh.Color.R*255)), byte(math.Round(sh.Color.G*255)), byte(math.Round(sh.Color.B*255))
	for j := 0; j < ih; j++ {
		for i := 0; i < iw; i++ {
			o := j*iw + i
			rgb[3*o], rgb[3*o+1], rgb[3*o+2] = r, g, b
			a := float64(cov[(j+pad)*fw+i+pad]) * sh.Color.A
			alpha[o] = byte(math.Round(math.Min(1, math.Max(0, a)) * 255))
		}
	}
	done := shadowImage{img: &draw.Image{Kind: draw.Raster, Width: iw, Height: ih, Data: rgb, Components: 3, Alpha: alpha},
		w: float64(iw) / k, h: float64(ih) / k}
	if p.l.shadows == nil {
		p.l.shadows = map[shadowKey]shadowImage{}
	}
	p.l.shadows[key] = done
	sharedShadows.put(key, done)
	p.op(draw.DrawImage{Image: done.img, Rect: draw.Rect{X: x, Y: y, W: done.w, H: done.h}})
}

// sharedShadows keeps the blurred shadows' images across documents (a
// template's shadows are the same in each of its documents): at most
// maxSharedShadowPixels pixels, emptied when full.
var sharedShadows shadowCache

const maxSharedShadowPixels = 8 << 20

type shadowCache struct {
	mu     sync.Mutex
	m      map[shadowKey]shadowImage
	pixels int
}

func (c *shadowCache) get(k shadowKey) (shadowImage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[k]
	return s, ok
}

func (c *shadowCache) put(k shadowKey, s shadowImage) {
	n := s.img.Width * s.img.Height
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.pixels+n > maxSharedShadowPixels {
		c.m, c.pixels = map[shadowKey]shadowImage{}, 0
	}
	if n > maxSharedShadowPixels {
		return
	}
	c.m[k] = s
	c.pixels += n
}

// gaussBlur blurs v (w × h) in place by about a Gaussian of standard
// deviation sigma pixels: three box blurs of widths chosen so their
// variance is the Gaussian's (as Skia blurs), each a running sum, so the
// cost does not grow with sigma. Outside the image counts as zero.
func gaussBlur(v []float32, w, h int, sigma float64) {
	if sigma <= 0 {
		return
	}
	tmp := make([]float32, len(v))
	for _, r := range boxRadii(sigma) {
		boxBlur(v, tmp, w, h, r, 1, w) // rows
		boxBlur(tmp, v, h, w, r, w, 1) // columns
	}
}

// boxRadii returns the radii of three box blurs whose sum has the variance
// of a Gaussian of standard deviation sigma.
func boxRadii(sigma float64) [3]int {
	ideal := math.Sqrt(12*sigma*sigma/3 + 1)
	wl := int(math.Floor(ideal))
	if wl%2 == 0 {
		wl--
	}
	wu := wl + 2
	m := int(math.Round((12*sigma*sigma - 3*float64(wl*wl) - 12*float64(wl) - 9) / (-4*float64(wl) - 4)))
	var out [3]int
	for i := range out {
		width := wu
		if i < m {
			width = wl
		}
		out[i] = max(0, (width-1)/2)
	}
	return out
}

// boxBlur averages src over 2r+1 samples along one axis into dst: n
// samples a line, step apart, lines stride apart.
func boxBlur(src, dst []float32, n, lines, r, step, stride int) {
	scale := 1 / float32(2*r+1)
	for l := 0; l < lines; l++ {
		base := l * stride
		var acc float32
		for i := 0; i <= r && i < n; i++ {
			acc += src[base+i*step]
		}
		for i := 0; i < n; i++ {
			dst[base+i*step] = acc * scale
			if in := i + r + 1; in < n {
				acc += src[base+in*step]
			}
			if out := i - r; out >= 0 {
				acc -= src[base+out*step]
			}
		}
	}
}

// spreadRadii grows (or shrinks) each corner's radii by the spread, as
// Blink does: a square corner stays square.
func spreadRadii(rr [4][2]float64, spread float64) [4][2]float64 {
	var out [4][2]float64
	for c := range rr {
		for a := 0; a < 2; a++ {
			if rr[c][a] > 0 {
				out[c][a] = math.Max(0, rr[c][a]+spread)
			}
		}
	}
	return out
}

// insideRounded reports whether (px, py) lies inside the rectangle x, y, w,
// h with corner radii r (top-left, top-right, bottom-right, bottom-left).
func insideRounded(px, py, x, y, w, h float64, r [4][2]float64) bool {
	if px < x || py < y || px > x+w || py > y+h {
		return false
	}
	corner := func(cx, cy, rx, ry float64) bool {
		if rx <= 0 || ry <= 0 {
			return true
		}
		dx, dy := (px-cx)/rx, (py-cy)/ry
		return dx*dx+dy*dy <= 1
	}
	tl, tr, br, bl := r[style.TopLeft], r[style.TopRight], r[style.BottomRight], r[style.BottomLeft]
	switch {
	case px < x+tl[0] && py < y+tl[1]:
		return corner(x+tl[0], y+tl[1], tl[0], tl[1])
	case px > x+w-tr[0] && py < y+tr[1]:
		return corner(x+w-tr[0], y+tr[1], tr[0], tr[1])
	case px > x+w-br[0] && py > y+h-br[1]:
		return corner(x+w-br[0], y+h-br[1], br[0], br[1])
	case px < x+bl[0] && py > y+h-bl[1]:
		return corner(x+bl[0], y+h-bl[1], bl[0], bl[1])
	}
	return true
}
