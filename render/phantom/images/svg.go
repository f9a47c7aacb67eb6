package images

import (
	"github.com/platen/platen/render/phantom/draw"
)

// SVG is an SVG image converted to display-list operations once, when it is
// loaded; Draw only places them in a box. It is shared read-only.
type SVG struct {
	// Dropped names what the drawing uses but phantom cannot draw ("text",
	// "gradient", "filter", "mask", ...), each once, in the order met. The
	// engine's support check hands a document with a non-empty list to
	// Chromium.
	Dropped []string

	width, height float64 // intrinsic size in px, 0 when not given
	viewBox       [4]float64
	hasViewBox    bool
	align         aspect
	ops           []draw.Op // in the root's user space
	texts         []svgText // laid out when drawn, sorted by their place in ops
	cost          int       // approximate bytes held, for the cache
}

// aspect is a parsed preserveAspectRatio.
type aspect struct {
	none   bool    // "none": scale each axis on its own
	ax, ay float64 // 0 min, 0.5 mid, 1 max
	slice  bool    // "slice" rather than "meet"
}

var defaultAspect = aspect{ax: 0.5, ay: 0.5}

// intrinsic is the size and ratio Chromium gives an SVG <img> (see Image).
func (s *SVG) intrinsic() (w, h, ratio float64) {
	w, h = s.width, s.height
	switch {
	case w > 0 && h > 0:
		ratio = w / h
	case s.hasViewBox:
		ratio = s.viewBox[2] / s.viewBox[3]
	}
	switch {
	case ratio > 0 && w > 0 && h == 0:
		h = w / ratio
	case ratio > 0 && h > 0 && w == 0:
		w = h * ratio
	case ratio == 0:
		if w == 0 {
			w = 300
		}
		if h == 0 {
			h = 150
		}
	}
	return w, h, ratio
}

// Draw returns the drawing scaled into box, as Chromium paints an SVG <img>:
// the viewBox mapped onto the box by preserveAspectRatio, and everything
// clipped to the box. The ops are shared with other calls: read-only.
func (s *SVG) Draw(box draw.Rect) []draw.Op { return s.DrawLaidOut(box, box.W, box.H) }

// DrawLaidOut is Draw for an image laid out at w×h and painted into box,
// its size snapped to whole pixels: Chromium lays the SVG out in its
// container's size, maps the viewBox there by preserveAspectRatio, and
// stretches the result onto the snapped rectangle (so a 40 px viewBox in an
// <img> 40.4 px wide painted 41 px wide is drawn 41 px wide, not 40
// centred).
func (s *SVG) DrawLaidOut(box draw.Rect, w, h float64) []draw.Op {
	return s.DrawWithText(box, w, h, nil)
}

// DrawWithText is DrawLaidOut with the drawing's text shaped by shape (nil
// draws no text).
func (s *SVG) DrawWithText(box draw.Rect, w, h float64, shape TextShaper) []draw.Op {
	if box.W <= 0 || box.H <= 0 || !(w > 0) || !(h > 0) {
		return nil
	}
	m := s.viewportTransform(draw.Rect{W: w, H: h})
	fx, fy := box.W/w, box.H/h
	m = [6]float64{m[0] * fx, 0, 0, m[3] * fy, box.X + m[4]*fx, box.Y + m[5]*fy}
	clip := rectPath(box.X, box.Y, box.W, box.H)
	out := make([]draw.Op, 0, len(s.ops)+4)
	out = append(out, draw.PushClip{Path: clip}, draw.PushTransform{M: m})
	if shape == nil || len(s.texts) == 0 {
		out = append(out, s.ops...)
	} else {
		at := 0
		for i := range s.texts {
			t := &s.texts[i]
			out = append(out, s.ops[at:t.at]...)
			out = append(out, t.ops(shape)...)
			at = t.at
		}
		out = append(out, s.ops[at:]...)
	}
	out = append(out, draw.PopClip{}, draw.PopClip{})
	return out
}

// viewportTransform maps the root's user space onto box. With a viewBox,
// the box is the viewport and preserveAspectRatio places the viewBox in it.
// Without one, Chromium draws the SVG at its intrinsic size and stretches
// that to the box: an axis with a width (or height) attribute scales by
// box / attribute, one without is not scaled.
func (s *SVG) viewportTransform(box draw.Rect) [6]float64 {
	if s.hasViewBox {
		return viewBoxTransform(s.viewBox, s.align, box)
	}
	sx, sy := 1.0, 1.0
	if s.width > 0 {
		sx = box.W / s.width
	}
	if s.height > 0 {
		sy = box.H / s.height
	}
	return [6]float64{sx, 0, 0, sy, box.X, box.Y}
}

// viewBoxTransform is SVG's viewBox-to-viewport transform
// (https://www.w3.org/TR/SVG2/coords.html#ComputingAViewportsTransform).
func viewBoxTransform(vb [4]float64, a aspect, box draw.Rect) [6]float64 {
	sx, sy := box.W/vb[2], box.H/vb[3]
	if !a.none {
		if a.slice {
			sx = max(sx, sy)
		} else {
			sx = min(sx, sy)
		}
		sy = sx
	}
	tx := box.X - vb[0]*sx
	ty := box.Y - vb[1]*sy
	if !a.none {
		tx += (box.W - vb[2]*sx) * a.ax
		ty += (box.H - vb[3]*sy) * a.ay
	}
	return [6]float64{sx, 0, 0, sy, tx, ty}
}

// rectPath is the closed path of a rectangle.
func rectPath(x, y, w, h float64) draw.Path {
	return draw.Path{
		{Kind: draw.MoveTo, P: [3]draw.Point{{X: x, Y: y}}},
		{Kind: draw.LineTo, P: [3]draw.Point{{X: x + w, Y: y}}},
		{Kind: draw.LineTo, P: [3]draw.Point{{X: x + w, Y: y + h}}},
		{Kind: draw.LineTo, P: [3]draw.Point{{X: x, Y: y + h}}},
		{Kind: draw.Close},
	}
}

// parseSVG reads an SVG document and converts it to ops.
func parseSVG(data []byte, inline bool) (*SVG, error) {
	return convertSVG(data, inline)
}
