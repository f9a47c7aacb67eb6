package images

import (
	"math"
	"slices"
	"testing"

	"github.com/platen/platen/render/phantom/draw"
)

// fakeShaper gives every character one glyph 0.5em wide, so positions can
// be worked out by hand.
func fakeShaper(q TextQuery) []TextRun {
	var gs []draw.Glyph
	for _, r := range q.Text {
		gs = append(gs, draw.Glyph{ID: uint16(r), Advance: q.Size / 2, Text: string(r)})
	}
	return []TextRun{{Size: q.Size, Glyphs: gs, Width: float64(len(gs)) * q.Size / 2, Ascent: q.Size * 0.8, Descent: q.Size * 0.2, XHt: q.Size / 2}}
}

type textOp struct {
	text  string
	x, y  float64
	size  float64
	color draw.Color
}

func texts(ops []draw.Op) (out []textOp, pushes int) {
	for _, op := range ops {
		switch o := op.(type) {
		case draw.Text:
			s := ""
			for _, g := range o.Glyphs {
				s += g.Text
			}
			out = append(out, textOp{s, o.X, o.Y, o.Size, o.Color})
		case draw.PushTransform:
			pushes++
		}
	}
	return out, pushes
}

// TestSVGText lays out <text>: white space collapsed, chunks anchored,
// tspans moved by dx and dy and styled, letter-spacing, textLength, and
// fill; the glyphs come from the shaper given at drawing time.
func TestSVGText(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" font-size="10">
		<text x="10" y="20">  Hello
			world  </text>
		<text x="100" y="40" text-anchor="middle" fill="#f00">ab<tspan dx="5" dy="2" font-size="20">cd</tspan></text>
		<text x="0" y="60" letter-spacing="2">xy</text>
		<text x="0" y="80" textLength="40" lengthAdjust="spacingAndGlyphs">abcd</text>
		<text x="50" y="80" dominant-baseline="central">m</text>
	</svg>`)
	if len(img.SVG.Dropped) != 0 {
		t.Fatalf("dropped %v", img.SVG.Dropped)
	}
	if got, _ := texts(img.SVG.Draw(draw.Rect{W: 200, H: 100})); len(got) != 0 {
		t.Errorf("text drawn without a shaper: %v", got)
	}
	got, pushes := texts(img.SVG.DrawWithText(draw.Rect{W: 200, H: 100}, 200, 100, fakeShaper))
	want := []textOp{
		{"Hello world", 10, 20, 10, draw.Color{A: 1}},
		// "ab" 10 wide, then "cd" 20 wide after dx 5: 35 wide, centred on 100.
		{"ab", 82.5, 40, 10, draw.Color{R: 1, A: 1}},
		{"cd", 97.5, 42, 20, draw.Color{R: 1, A: 1}},
		{"xy", 0, 60, 10, draw.Color{A: 1}},
		{"abcd", 0, 80, 10, draw.Color{A: 1}},
		{"m", 50, 83, 10, draw.Color{A: 1}},
	}
	if !slices.EqualFunc(got, want, func(a, b textOp) bool {
		return a.text == b.text && math.Abs(a.x-b.x) < 1e-9 && math.Abs(a.y-b.y) < 1e-9 && a.size == b.size && a.color == b.color
	}) {
		t.Errorf("text ops\n got %v\nwant %v", got, want)
	}
	// textLength 40 over 20: a horizontal scale of 2 about x = 0, within
	// the viewport's transform.
	if pushes != 2 {
		t.Errorf("%d transforms, want the viewport's and textLength's", pushes)
	}
}

// TestSVGTextDropped: what phantom does not lay out is dropped as text.
func TestSVGTextDropped(t *testing.T) {
	for _, src := range []string{
		`<text x="1 2 3" y="10">abc</text>`,
		`<text><textPath href="#p">abc</textPath></text>`,
		`<text stroke="red">abc</text>`,
	} {
		img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">`+src+`</svg>`)
		if !slices.Equal(img.SVG.Dropped, []string{DropText}) {
			t.Errorf("%s: dropped %v", src, img.SVG.Dropped)
		}
	}
}

// TestSVGLinearGradient fills shapes with their linear gradients: in the
// shape's box by default (drawn through the box's transform over the unit
// square, clipped to the shape), or in user space.
func TestSVGLinearGradient(t *testing.T) {
	img := loadSVG(t, `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
		<defs><linearGradient id="v" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f6c58f"/><stop offset="100%" stop-color="#f3e4cf"/></linearGradient>
		<linearGradient id="u" gradientUnits="userSpaceOnUse" x1="10" y1="0" x2="90" y2="0" href="#v"/></defs>
		<rect x="10" y="20" width="50" height="40" fill="url(#v)"/>
		<rect x="0" y="70" width="100" height="10" fill="url(#u)"/>
	</svg>`)
	if !slices.Equal(img.SVG.Dropped, []string{DropGradient}) {
		t.Fatalf("dropped %v, want gradient (the default's hand-off)", img.SVG.Dropped)
	}
	var grads []draw.LinearGradient
	var boxes [][6]float64
	for _, op := range img.SVG.Draw(draw.Rect{W: 100, H: 100}) {
		switch o := op.(type) {
		case draw.LinearGradient:
			grads = append(grads, o)
		case draw.PushTransform:
			boxes = append(boxes, o.M)
		}
	}
	if len(grads) != 2 {
		t.Fatalf("%d gradients", len(grads))
	}
	if g := grads[0]; g.X0 != 0 || g.Y0 != 0 || g.X1 != 0 || g.Y1 != 1 || len(g.Stops) != 2 || g.Stops[1].Offset != 1 {
		t.Errorf("bounding-box gradient %+v", g)
	}
	if len(boxes) < 2 || boxes[1] != [6]float64{50, 0, 0, 40, 10, 20} {
		t.Errorf("transforms %v: want the rect's box", boxes)
	}
	if g := grads[1]; g.X0 != 10 || g.X1 != 90 || g.Y0 != 0 || g.Y1 != 0 || len(g.Stops) != 2 {
		t.Errorf("user-space gradient (stops through href) %+v", g)
	}
}
