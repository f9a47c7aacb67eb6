package layout

import (
	"math"

	"github.com/platen/platen/render/phantom/draw"
	"github.com/platen/platen/render/phantom/fonts"
	"github.com/platen/platen/render/phantom/images"
	"github.com/platen/platen/render/phantom/style"
)

// maxTiles bounds a repeated background's tiles on one box: a 1 px image
// repeated over a page would otherwise make a million draws.
const maxTiles = 4096

// replaced paints an image into its content box with object-fit and
// object-position.
func (p *painter) replaced(f *Frag, x, y, w, h float64, bd edges) {
	img := f.Box.Image
	if img == nil {
		return
	}
	s := f.Box.Style
	pd := boxPadding(s, f.W)
	cx, cy := x+bd[style.Left]+pd[style.Left], y+bd[style.Top]+pd[style.Top]
	cw, ch := w-bd.h()-pd.h(), h-bd.v()-pd.v()
	if cw <= 0 || ch <= 0 {
		return
	}
	iw, ih := img.Width, img.Height
	if iw <= 0 || ih <= 0 {
		if img.Ratio > 0 {
			iw, ih = cw, cw/img.Ratio
		} else {
			iw, ih = cw, ch
		}
	}
	dw, dh := cw, ch
	// An SVG is laid out in the content box as layout sized it, before
	// the box was snapped to whole pixels (see images.SVG.DrawLaidOut).
	lw, lh := f.W-bd.h()-pd.h(), f.H-bd.v()-pd.v()
	switch s.ObjectFit {
	case "contain", "cover", "scale-down":
		sc := math.Min(cw/iw, ch/ih)
		if s.ObjectFit == "cover" {
			sc = math.Max(cw/iw, ch/ih)
		}
		if s.ObjectFit == "scale-down" && sc > 1 {
			sc = 1
		}
		dw, dh = iw*sc, ih*sc
		lw, lh = dw, dh
	case "none":
		dw, dh = iw, ih
		lw, lh = dw, dh
	}
	dx := cx + s.ObjectPosition[0].Resolve(cw-dw, (cw-dw)/2)
	dy := cy + s.ObjectPosition[1].Resolve(ch-dh, (ch-dh)/2)
	const eps = 0.01
	clip := dx < cx-eps || dy < cy-eps || dx+dw > cx+cw+eps || dy+dh > cy+ch+eps
	if clip {
		p.op(draw.PushClip{Path: rectPath(cx, cy, cw, ch)})
	}
	p.drawImage(img, dx, dy, dw, dh, lw, lh)
	if clip {
		p.op(draw.PopClip{})
	}
}

// drawImage paints a raster or an SVG into a rectangle; an SVG laid out at
// lw×lh.
func (p *painter) drawImage(img *images.Image, x, y, w, h, lw, lh float64) {
	switch {
	case img.Raster != nil:
		p.op(draw.DrawImage{Image: img.Raster, Rect: draw.Rect{X: x, Y: y, W: w, H: h}})
	case img.SVG != nil:
		p.pg.Ops = append(p.pg.Ops, img.SVG.DrawWithText(draw.Rect{X: x, Y: y, W: w, H: h}, lw, lh, p.l.svgText)...)
	}
}

// image returns the image of a CSS url(), loaded once per layout.
func (l *layouter) image(src string) *images.Image {
	if img, ok := l.bgImages[src]; ok {
		return img
	}
	img, err := l.opt.LoadImage(src)
	if err != nil {
		if l.opt.OnImageError != nil {
			l.opt.OnImageError(src, err)
		}
		img = nil
	}
	if l.bgImages == nil {
		l.bgImages = map[string]*images.Image{}
	}
	l.bgImages[src] = img
	return img
}

// backgroundImage paints the background image layer: sized (auto, cover,
// contain, lengths), placed by background-position in the origin box, and
// repeated over the clip box.
func (p *painter) backgroundImage(f *Frag, s *style.Computed, x, y, w, h float64, bd, pd edges, cx, cy, cw, ch float64, cr [4][2]float64) {
	bg := &s.Background
	img := p.l.image(bg.Image)
	if img == nil {
		return
	}
	ox, oy, ow, oh := originBox(bg, x, y, w, h, bd, pd)
	if ow <= 0 || oh <= 0 {
		return
	}
	iw, ih := img.Width, img.Height
	ratio := img.Ratio
	if ratio == 0 && iw > 0 && ih > 0 {
		ratio = iw / ih
	}
	var tw, th float64
	switch {
	case bg.Cover || bg.Contain:
		if ratio == 0 {
			tw, th = ow, oh
			break
		}
		sc := math.Min(ow/ratio, oh)
		if bg.Cover {
			sc = math.Max(ow/ratio, oh)
		}
		th = sc
		tw = sc * ratio
	default:
		sw, sh := bg.SizeW, bg.SizeH
		hasW, hasH := !sw.IsAuto(), !sh.IsAuto()
		if hasW {
			tw = sw.Resolve(ow, 0)
		}
		if hasH {
			th = sh.Resolve(oh, 0)
		}
		switch {
		case hasW && hasH:
		case hasW:
			if ratio > 0 {
				th = tw / ratio
			} else {
				th = oh
			}
		case hasH:
			if ratio > 0 {
				tw = th * ratio
			} else {
				tw = ow
			}
		default:
			switch {
			case iw > 0 && ih > 0:
				tw, th = iw, ih
			case ratio > 0:
				tw, th = ow, ow/ratio
			default:
				tw, th = ow, oh
			}
		}
	}
	if tw <= 0 || th <= 0 {
		return
	}
	px := bg.PositionX.Resolve(ow-tw, 0)
	py := bg.PositionY.Resolve(oh-th, 0)
	if bg.PositionX.Unit == style.Px {
		px = bg.PositionX.V
	}
	if bg.PositionY.Unit == style.Px {
		py = bg.PositionY.V
	}
	x0, y0 := ox+px, oy+py
	repX := bg.Repeat == "repeat" || bg.Repeat == "repeat-x" || bg.Repeat == ""
	repY := bg.Repeat == "repeat" || bg.Repeat == "repeat-y" || bg.Repeat == ""
	p.op(draw.PushClip{Path: roundedRectPath(cx, cy, cw, ch, cr)})
	xs, xe := x0, x0+tw
	if repX {
		xs = x0 - math.Ceil((x0-cx)/tw)*tw
		xe = cx + cw
	}
	ys, ye := y0, y0+th
	if repY {
		ys = y0 - math.Ceil((y0-cy)/th)*th
		ye = cy + ch
	}
	n := 0
	for ty := ys; ty < ye-0.01; ty += th {
		for tx := xs; tx < xe-0.01; tx += tw {
			if n++; n > maxTiles {
				break
			}
			p.drawImage(img, tx, ty, tw, th, tw, th)
			if !repX {
				break
			}
		}
		if !repY || n > maxTiles {
			break
		}
	}
	p.op(draw.PopClip{})
}

// originBox is a background's positioning area (background-origin) in the
// border box (x, y, w, h) with borders bd and padding pd.
func originBox(bg *style.Background, x, y, w, h float64, bd, pd edges) (ox, oy, ow, oh float64) {
	switch bg.Origin {
	case "border-box":
		return x, y, w, h
	case "content-box":
		return x + bd[style.Left] + pd[style.Left], y + bd[style.Top] + pd[style.Top], w - bd.h() - pd.h(), h - bd.v() - pd.v()
	}
	return x + bd[style.Left], y + bd[style.Top], w - bd.h(), h - bd.v()
}

// svgText shapes an SVG drawing's text with the document's fonts (an SVG
// image's text in Chromium is set in the same fonts as the page's; the
// default family is the standard serif).
func (l *layouter) svgText(q images.TextQuery) []images.TextRun {
	families := q.Families
	if len(families) == 0 {
		families = []string{"serif"}
	}
	fs := style.FontNormal
	if q.Italic {
		fs = style.FontItalic
	}
	runs := l.sh.Shape(fonts.Query{Families: families, Weight: q.Weight, Style: fs, Stretch: 100}, q.Size, q.Text, fonts.ShapeOptions{})
	out := make([]images.TextRun, 0, len(runs))
	for _, r := range runs {
		out = append(out, images.TextRun{Font: r.Font, Size: r.Size, Glyphs: r.Glyphs, Width: r.Width, FakeBold: r.FakeBold,
			FakeItalic: r.FakeItalic, Ascent: r.Metrics.Ascent, Descent: r.Metrics.Descent, XHt: r.Metrics.XHeight})
	}
	return out
}
